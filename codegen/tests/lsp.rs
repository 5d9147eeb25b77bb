//! `toolwright lsp`, driven as an editor drives it: LSP messages with
//! `Content-Length` framing over the binary's stdin and stdout.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

struct Editor {
    child: Child,
    reader: BufReader<ChildStdout>,
    next_id: i64,
    /// Notifications received while waiting for a response.
    notifications: Vec<Value>,
}

impl Editor {
    fn start(root: &Path) -> Editor {
        let mut child = Command::new(env!("CARGO_BIN_EXE_toolwright"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let reader = BufReader::new(child.stdout.take().unwrap());
        let mut editor = Editor {
            child,
            reader,
            next_id: 0,
            notifications: Vec::new(),
        };
        let init = editor.request(
            "initialize",
            json!({"processId": null, "rootUri": uri(root), "capabilities": {}}),
        );
        assert_eq!(init["result"]["capabilities"]["positionEncoding"], "utf-16");
        assert_eq!(init["result"]["serverInfo"]["name"], "toolwright");
        editor.notify("initialized", json!({}));
        editor
    }

    fn send(&mut self, message: &Value) {
        let body = message.to_string();
        let stdin = self.child.stdin.as_mut().unwrap();
        write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        stdin.flush().unwrap();
    }

    fn receive(&mut self) -> Value {
        let mut length = 0;
        loop {
            let mut line = String::new();
            assert!(
                self.reader.read_line(&mut line).unwrap() > 0,
                "the server hung up"
            );
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = n.parse().unwrap();
            }
        }
        let mut body = vec![0; length];
        self.reader.read_exact(&mut body).unwrap();
        serde_json::from_slice(&body).unwrap()
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.receive();
            if message["id"] == id {
                return message;
            }
            self.notifications.push(message);
        }
    }

    /// The diagnostics published next for `file`, skipping other files'.
    fn diagnostics_for(&mut self, file: &Path) -> Vec<Value> {
        let wanted = uri(file);
        loop {
            let message = match self.notifications.is_empty() {
                true => self.receive(),
                false => self.notifications.remove(0),
            };
            if message["method"] == "textDocument/publishDiagnostics"
                && message["params"]["uri"] == wanted
            {
                return message["params"]["diagnostics"].as_array().unwrap().clone();
            }
        }
    }

    fn open(&mut self, file: &Path) {
        let text = std::fs::read_to_string(file).unwrap();
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri(file), "languageId": "toolwright", "version": 1, "text": text}}),
        );
    }

    fn change(&mut self, file: &Path, version: i64, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri(file), "version": version},
                   "contentChanges": [{"text": text}]}),
        );
    }
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

fn at(file: &Path, line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": uri(file)}, "position": {"line": line, "character": character}})
}

const PLAY: &str = "/// Play a tune.
tool play {
    timing sync
    request {
        /// The mode to play in.
        mode: Mode,
    }
}
";

const MODES: &str = "/// A musical mode.
enum Mode {
    /// Bright.
    major,
    /// Dark.
    minor,
}
";

fn catalogue() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::Builder::new()
        .prefix("toolwright-lsp-")
        .tempdir()
        .unwrap();
    let idl = dir.path().join("idl");
    std::fs::create_dir_all(&idl).unwrap();
    let play = idl.join("play.tool");
    let modes = idl.join("modes.tool");
    std::fs::write(&play, PLAY).unwrap();
    std::fs::write(&modes, MODES).unwrap();
    (dir, play, modes)
}

#[test]
fn diagnostics_follow_every_edit() {
    let (dir, play, modes) = catalogue();
    let mut editor = Editor::start(dir.path());
    editor.open(&play);
    assert_eq!(editor.diagnostics_for(&modes), Vec::<Value>::new());
    assert_eq!(editor.diagnostics_for(&play), Vec::<Value>::new());

    // A typo: the error, where it is, with the checker's hint.
    editor.change(&play, 2, &PLAY.replace("mode: Mode", "mode: Mod"));
    let diagnostics = editor.diagnostics_for(&play);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let d = &diagnostics[0];
    assert_eq!(d["code"], "TW101");
    assert_eq!(d["severity"], 1);
    assert_eq!(d["range"]["start"], json!({"line": 5, "character": 14}));
    assert_eq!(d["range"]["end"], json!({"line": 5, "character": 17}));
    assert!(
        d["message"]
            .as_str()
            .unwrap()
            .contains("did you mean `Mode`?"),
        "{d}"
    );

    // A warning once the errors are gone.
    editor.change(&play, 3, &PLAY.replace("/// The mode to play in.\n", ""));
    let diagnostics = editor.diagnostics_for(&play);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["code"], "TW403");
    assert_eq!(diagnostics[0]["severity"], 2);

    // Fixed: cleared.
    editor.change(&play, 4, PLAY);
    assert_eq!(editor.diagnostics_for(&play), Vec::<Value>::new());

    // An error in one file is published for that file, from an edit of
    // another: modes.tool is not open, so its disk text counts.
    editor.change(
        &play,
        5,
        &format!("{PLAY}\n/// Again.\nenum Mode {{ a }}\n"),
    );
    let diagnostics = editor.diagnostics_for(&play);
    assert_eq!(diagnostics[0]["code"], "TW102", "{diagnostics:?}");
    let related = &diagnostics[0]["relatedInformation"][0];
    assert_eq!(related["location"]["uri"], uri(&modes));

    let response = editor.request("shutdown", Value::Null);
    assert_eq!(response["result"], Value::Null);
    editor.notify("exit", Value::Null);
    assert!(editor.child.wait().unwrap().success());
}

#[test]
fn hover_definition_references_rename_completion_formatting() {
    let (dir, play, modes) = catalogue();
    let mut editor = Editor::start(dir.path());
    editor.open(&play);

    // `Mode` in `mode: Mode` (line 5, column 14).
    let hover = editor.request("textDocument/hover", at(&play, 5, 15));
    let text = hover["result"]["contents"]["value"].as_str().unwrap();
    assert!(text.contains("enum Mode"), "{text}");
    assert!(text.contains("A musical mode."), "{text}");
    assert!(
        text.contains("Rust `Mode`, TypeScript `Mode`, Python `Mode`"),
        "{text}"
    );
    // A field: its type and docs.
    let hover = editor.request("textDocument/hover", at(&play, 5, 9));
    let text = hover["result"]["contents"]["value"].as_str().unwrap();
    assert!(text.contains("PlayRequest.mode: Mode"), "{text}");
    assert!(text.contains("The mode to play in."), "{text}");
    let hover = editor.request("textDocument/hover", at(&play, 1, 6));
    assert!(
        hover["result"]["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("Timing `sync`")
    );

    let definition = editor.request("textDocument/definition", at(&play, 5, 15));
    assert_eq!(definition["result"]["uri"], uri(&modes));
    assert_eq!(
        definition["result"]["range"]["start"],
        json!({"line": 1, "character": 5})
    );

    let mut refs = at(&play, 5, 15);
    refs["context"] = json!({"includeDeclaration": true});
    let references = editor.request("textDocument/references", refs.clone());
    assert_eq!(
        references["result"].as_array().unwrap().len(),
        2,
        "{references}"
    );
    refs["context"] = json!({"includeDeclaration": false});
    let references = editor.request("textDocument/references", refs);
    assert_eq!(references["result"][0]["uri"], uri(&play));

    let prepared = editor.request("textDocument/prepareRename", at(&play, 5, 15));
    assert_eq!(
        prepared["result"]["start"],
        json!({"line": 5, "character": 14})
    );
    let refused = editor.request("textDocument/prepareRename", at(&play, 1, 6));
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("only types")
    );
    let mut rename = at(&play, 5, 15);
    rename["newName"] = json!("Scale");
    let edit = editor.request("textDocument/rename", rename.clone());
    let changes = edit["result"]["changes"].as_object().unwrap();
    assert_eq!(changes.len(), 2, "{edit}");
    assert_eq!(changes[&uri(&modes)][0]["newText"], "Scale");
    rename["newName"] = json!("scale");
    let refused = editor.request("textDocument/rename", rename);
    assert!(
        refused["error"]["message"]
            .as_str()
            .unwrap()
            .contains("PascalCase")
    );

    // Completion from the text before the cursor.
    let unfinished =
        "/// Play a tune.\ntool play {\n    timing \n    request { @\n        mode: \n";
    editor.change(&play, 2, unfinished);
    let labels = |response: Value| -> Vec<String> {
        response["result"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_owned())
            .collect()
    };
    let timing = labels(editor.request("textDocument/completion", at(&play, 2, 11)));
    assert!(timing.contains(&"async_long".to_owned()), "{timing:?}");
    let attrs = labels(editor.request("textDocument/completion", at(&play, 3, 15)));
    assert!(attrs.contains(&"range".to_owned()), "{attrs:?}");
    let types = labels(editor.request("textDocument/completion", at(&play, 4, 14)));
    assert!(types.contains(&"string".to_owned()), "{types:?}");

    // Formatting: one edit with the canonical layout; a file that does
    // not parse is left alone.
    editor.change(&play, 3, "/// Play.\ntool play {timing sync}\n");
    let formatted = editor.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri(&play)}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    assert_eq!(
        formatted["result"][0]["newText"],
        "/// Play.\ntool play {\n    timing sync\n}\n"
    );
    editor.change(&play, 4, "tool play {");
    let formatted = editor.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri(&play)}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    assert_eq!(formatted["result"], Value::Null);

    let unknown = editor.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri(&play)}}),
    );
    assert_eq!(unknown["error"]["code"], -32601);
}

const LIBRARY: &str = "/// A score in the library.
resource score {
    uri \"music://scores/{id}\"
    contents Score
    arguments {
        /// The score's id.
        @complete
        id: string,
    }
}

/// Write a tune.
prompt compose {
    arguments {
        /// The mode.
        mode: Mode,
    }
}

/// A score.
struct Score {
    /// Its notes.
    abc: string,
}
";

#[test]
fn resources_and_prompts_are_hovered_defined_completed_and_checked() {
    let (dir, _, modes) = catalogue();
    let library = dir.path().join("idl/library.tool");
    std::fs::write(&library, LIBRARY).unwrap();
    let mut editor = Editor::start(dir.path());
    editor.open(&library);
    assert_eq!(editor.diagnostics_for(&library), Vec::<Value>::new());

    // The resource's name (line 1): its URI, contents and arguments.
    let hover = editor.request("textDocument/hover", at(&library, 1, 10));
    let text = hover["result"]["contents"]["value"].as_str().unwrap();
    assert!(text.contains("resource score"), "{text}");
    assert!(text.contains("A score in the library."), "{text}");
    assert!(
        text.contains("URI `music://scores/{id}` (a template)"),
        "{text}"
    );
    assert!(
        text.contains("Reads `Score` as `application/json`"),
        "{text}"
    );
    assert!(text.contains("`id` completed by the handler"), "{text}");
    // The prompt's name (line 12): an enum argument completes itself.
    let hover = editor.request("textDocument/hover", at(&library, 12, 8));
    let text = hover["result"]["contents"]["value"].as_str().unwrap();
    assert!(text.contains("prompt compose"), "{text}");
    assert!(text.contains("Arguments `ComposeArguments`"), "{text}");
    assert!(text.contains("`mode` completes from its values"), "{text}");

    // A type named in a clause leads to its declaration, in this file or
    // another.
    let definition = editor.request("textDocument/definition", at(&library, 3, 14));
    assert_eq!(definition["result"]["uri"], uri(&library));
    assert_eq!(
        definition["result"]["range"]["start"],
        json!({"line": 20, "character": 7})
    );
    let definition = editor.request("textDocument/definition", at(&library, 15, 15));
    assert_eq!(definition["result"]["uri"], uri(&modes));

    // Completion: clause keywords, what `contents` takes.
    let unfinished = format!("{LIBRARY}\nresource notes {{\n    contents \n    ur");
    editor.change(&library, 2, &unfinished);
    let labels = |response: Value| -> Vec<String> {
        response["result"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_owned())
            .collect()
    };
    let lines = LIBRARY.lines().count() as u32;
    let contents = labels(editor.request("textDocument/completion", at(&library, lines + 2, 13)));
    assert!(contents.contains(&"bytes".to_owned()), "{contents:?}");
    let clauses = labels(editor.request("textDocument/completion", at(&library, lines + 3, 6)));
    assert!(clauses.contains(&"uri".to_owned()), "{clauses:?}");

    // The checker's errors, with the codes of resources (once the
    // unfinished text's are read).
    editor.diagnostics_for(&library);
    editor.change(&library, 3, &LIBRARY.replace("{id}", "{key}"));
    let codes: Vec<String> = editor
        .diagnostics_for(&library)
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(codes, ["TW503", "TW504"]);

    let response = editor.request("shutdown", Value::Null);
    assert_eq!(response["result"], Value::Null);
    editor.notify("exit", Value::Null);
    assert!(editor.child.wait().unwrap().success());
}
