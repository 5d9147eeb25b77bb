//! `toolwright init`, end to end: create a server in a temporary directory,
//! build it with a real `cargo build`, start it, call its example tool over
//! MCP on stdio, and check that editing a handler does not recompile the
//! generated catalogue crate. The crate's dependencies are compiled into
//! `target/user-flow` (shared with the user-flow test) and reused by later
//! runs.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .canonicalize()
        .unwrap()
}

fn toolwright(args: &[&str], dir: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

/// One JSON-RPC exchange per line over the server's stdin and stdout.
struct Server {
    child: std::process::Child,
    reader: BufReader<std::process::ChildStdout>,
}

impl Server {
    fn send(&mut self, message: serde_json::Value) {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    }

    fn receive(&mut self) -> serde_json::Value {
        let mut line = String::new();
        self.reader.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"))
    }
}

#[test]
fn init_creates_a_crate_that_builds_and_serves_mcp() {
    let scratch = tempfile::Builder::new()
        .prefix("toolwright-init-")
        .tempdir()
        .unwrap();
    let dir = scratch.path().join("Song Server");
    let repo = repo();

    let out = toolwright(
        &[
            "init",
            dir.to_str().unwrap(),
            "--path",
            repo.to_str().unwrap(),
        ],
        scratch.path(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("created `song-server` in "), "{stdout}");
    for file in [
        "Cargo.toml",
        "idl/greetings.tool",
        "catalogue/Cargo.toml",
        "catalogue/build.rs",
        "catalogue/src/lib.rs",
        "server/Cargo.toml",
        "server/src/main.rs",
        "README.md",
        ".gitignore",
    ] {
        assert!(dir.join(file).is_file(), "{file} was not written");
    }
    let server_manifest = std::fs::read_to_string(dir.join("server/Cargo.toml")).unwrap();
    assert!(
        server_manifest.contains("name = \"song-server\""),
        "{server_manifest}"
    );
    assert!(
        server_manifest.contains("package = \"song-server-catalogue\""),
        "{server_manifest}"
    );
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    assert!(
        manifest.contains(&format!("path = \"{}\"", repo.join("runtime").display())),
        "{manifest}"
    );

    // Not twice into the same directory.
    let again = toolwright(&["init", dir.to_str().unwrap()], scratch.path());
    assert_eq!(again.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&again.stderr).contains("is not empty"));

    // The example catalogue draws no warning.
    let check = toolwright(&["check", "idl", "--deny", "warnings"], &dir);
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );

    std::fs::copy(repo.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let target = repo.join("target/user-flow");
    let build = cargo_build(&dir, &target, "--quiet");
    assert!(!build.contains("warning"), "{build}");

    // The template's test runs the catalogue's examples against the handler.
    let test = Command::new(env!("CARGO"))
        .args(["test", "--quiet", "--offline"])
        .env("CARGO_TARGET_DIR", &target)
        .env_remove("RUSTFLAGS")
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        test.status.success(),
        "{}{}",
        String::from_utf8_lossy(&test.stdout),
        String::from_utf8_lossy(&test.stderr)
    );
    assert!(
        String::from_utf8_lossy(&test.stdout).contains("1 passed"),
        "{}",
        String::from_utf8_lossy(&test.stdout)
    );

    let mut child = Command::new(target.join("debug/song-server"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let reader = BufReader::new(child.stdout.take().unwrap());
    let mut server = Server { child, reader };
    server.send(serde_json::json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "init-test", "version": "0"}}
    }));
    let initialized = server.receive();
    assert_eq!(initialized["result"]["protocolVersion"], "2025-06-18");
    server.send(serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));

    server.send(serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    let list = server.receive();
    let tools = list["result"]["tools"].as_array().unwrap();
    let greet = tools.iter().find(|t| t["name"] == "greet").unwrap();
    assert_eq!(greet["description"], "Greet someone by name.");

    server.send(serde_json::json!({
        "jsonrpc": "2.0", "id": 3, "method": "tools/call",
        "params": {"name": "greet", "arguments": {"name": "Ada", "shout": true}}
    }));
    let call = server.receive();
    assert_eq!(call["result"]["isError"], false, "{call}");
    assert_eq!(
        call["result"]["structuredContent"]["message"],
        "HELLO, ADA!"
    );

    // The typed error, and a constraint the IDL declares.
    server.send(serde_json::json!({
        "jsonrpc": "2.0", "id": 4, "method": "tools/call",
        "params": {"name": "greet", "arguments": {"name": "   "}}
    }));
    let blank = server.receive();
    assert_eq!(
        blank["result"]["structuredContent"]["code"], "BLANK_NAME",
        "{blank}"
    );
    server.send(serde_json::json!({
        "jsonrpc": "2.0", "id": 5, "method": "tools/call",
        "params": {"name": "greet", "arguments": {"name": ""}}
    }));
    let empty = server.receive();
    assert_eq!(empty["result"]["isError"], true, "{empty}");
    assert!(empty.to_string().contains("INVALID_REQUEST"), "{empty}");

    drop(server.child.stdin.take());
    let status = server.child.wait().unwrap();
    assert!(status.success());

    // A handler edit recompiles the server crate only; a `.tool` edit
    // regenerates and recompiles the catalogue crate too.
    touch(&dir.join("server/src/main.rs"));
    let rebuilt = cargo_build(&dir, &target, "--verbose");
    assert!(rebuilt.contains("Compiling song-server v"), "{rebuilt}");
    assert!(
        rebuilt.contains("Fresh song-server-catalogue v"),
        "{rebuilt}"
    );
    touch(&dir.join("idl/greetings.tool"));
    let rebuilt = cargo_build(&dir, &target, "--verbose");
    assert!(
        rebuilt.contains("Compiling song-server-catalogue v"),
        "{rebuilt}"
    );
}

/// `cargo build FLAG` in `dir`, as the user-flow test builds (so the two
/// share compiled dependencies); its stderr. Nothing is resolved or
/// downloaded: the workspace's lock file pins the versions.
fn cargo_build(dir: &Path, target: &Path, flag: &str) -> String {
    let build = Command::new(env!("CARGO"))
        .args(["build", "--offline", flag])
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .current_dir(dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&build.stderr).into_owned();
    assert!(build.status.success(), "{stderr}");
    stderr
}

/// Moves a file's modification time forward, as an editor's save does.
fn touch(file: &Path) {
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(2);
    std::fs::File::options()
        .append(true)
        .open(file)
        .unwrap()
        .set_modified(later)
        .unwrap();
}
