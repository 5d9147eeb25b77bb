//! Each mapping rule on a small catalogue, the action tools' extra
//! schemas, and the metaschema failure path.

use serde_json::{Value, json};

use super::{mcp_schema, output};
use crate::diag::Code;
use crate::lang::Input;
use crate::model::{Model, Number, TypeKind};
use crate::output::OutputFile;
use crate::{Diagnostics, Options, Sources, check};

fn catalogue(text: &str) -> (Sources, Model) {
    let mut sources = Sources::new();
    sources.add("t.tool", text);
    let model = check(&sources)
        .unwrap_or_else(|d| panic!("{}", d.render(&sources, crate::ColorChoice::Never)));
    (sources, model)
}

/// The schema backend's files.
fn files(model: &Model, sources: &Sources) -> Result<Vec<OutputFile>, Diagnostics> {
    super::generate(&Input::new(model, sources, &Options::default()))
}

/// The check the Rust backend's callers run.
fn validate(model: &Model, sources: &Sources) -> Result<(), Diagnostics> {
    super::validate(&Input::new(model, sources, &Options::default()))
}

fn mcp(text: &str) -> Value {
    mcp_schema(&catalogue(text).1)
}

fn tool<'a>(mcp: &'a Value, name: &str) -> &'a Value {
    mcp["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == name)
        .unwrap()
}

/// A compiled schema, for checking instances against it.
struct Compiled(boon::Schemas, boon::SchemaIndex);

impl Compiled {
    fn new(schema: &Value) -> Compiled {
        let mut compiler = boon::Compiler::new();
        compiler.set_default_draft(boon::Draft::V2020_12);
        compiler
            .add_resource("file:///t.json", schema.clone())
            .unwrap();
        let mut schemas = boon::Schemas::new();
        let index = compiler
            .compile("file:///t.json", &mut schemas)
            .unwrap_or_else(|e| panic!("{e:#}"));
        Compiled(schemas, index)
    }

    fn accepts(&self, instance: Value) -> bool {
        self.0.validate(&instance, self.1).is_ok()
    }
}

#[test]
fn a_tool_is_an_mcp_tool_object() {
    let mcp = mcp(
        "/// Adds.\n@read_only @idempotent\ntool add { timing sync title \"Add\" \
         request { a: i32, b: i32 } response { sum: i64 } }",
    );
    let add = tool(&mcp, "add");
    assert_eq!(add["title"], "Add");
    assert_eq!(add["description"], "Adds.");
    assert_eq!(
        add["annotations"],
        json!({"title": "Add", "readOnlyHint": true, "destructiveHint": false,
               "idempotentHint": true, "openWorldHint": false})
    );
    assert_eq!(add["inputSchema"]["type"], "object");
    assert_eq!(add["outputSchema"]["type"], "object");
    assert_eq!(add["inputSchema"]["required"], json!(["a", "b"]));
    assert_eq!(mcp["actions"], json!({}));
}

#[test]
fn a_deprecated_tool_says_so() {
    let mcp = mcp("/// Old.\n@deprecated(\"use `add`\")\ntool plus { timing sync }");
    let plus = tool(&mcp, "plus");
    assert_eq!(plus["description"], "Deprecated: use `add`\n\nOld.");
    assert_eq!(plus["inputSchema"]["deprecated"], true);
}

#[test]
fn scopes_go_in_meta_when_a_call_needs_some() {
    let mcp = mcp("@scopes(\"vault:read\") category vault;\n\
         tool get { timing sync }\n\
         @scopes(\"vault:write\", \"vault:read\") tool put { timing sync errors Oops }\n\
         @scopes() tool ping { timing sync }\n\
         error Oops { full }");
    assert_eq!(
        tool(&mcp, "get")["_meta"],
        json!({"toolwright/scopes": ["vault:read"]})
    );
    assert_eq!(
        tool(&mcp, "put")["_meta"],
        json!({
            "toolwright/errors": {"type": "Oops", "codes": ["FULL"]},
            "toolwright/scopes": ["vault:write", "vault:read"],
        }),
        "beside the errors, in the order written"
    );
    assert!(tool(&mcp, "ping").get("_meta").is_none());
}

#[test]
fn fields_carry_docs_defaults_and_optionality() {
    let mcp = mcp(
        "tool t { timing sync request {\n/// How many.\nn: u8 = 3,\nname: string?,\n\
         @deprecated(\"gone\") old: bool?,\nneeded: string } }",
    );
    let input = &tool(&mcp, "t")["inputSchema"];
    let n = &input["properties"]["n"];
    assert_eq!(n["description"], "How many.");
    assert_eq!(n["default"], 3);
    assert_eq!(input["required"], json!(["needed"]));
    // Optional: left out, never null.
    assert_eq!(input["properties"]["name"], json!({"type": "string"}));
    assert_eq!(input["properties"]["old"]["deprecated"], true);
    assert_eq!(
        input["properties"]["old"]["description"],
        "Deprecated: gone"
    );
    let schema = Compiled::new(input);
    assert!(schema.accepts(json!({"needed": "x"})));
    assert!(!schema.accepts(json!({"needed": "x", "name": null})));
}

#[test]
fn integers_have_their_width_intersected_with_range() {
    let mcp = mcp(
        "tool t { timing sync request { a: u8, @range(-5, 5) b: i8, \
         @range(10, 100000) c: u64, d: i64, @range(0.5, 2.5) e: f32, f: f64 } }",
    );
    let p = &tool(&mcp, "t")["inputSchema"]["properties"];
    assert_eq!(
        p["a"],
        json!({"type": "integer", "minimum": 0, "maximum": 255})
    );
    assert_eq!(
        p["b"],
        json!({"type": "integer", "minimum": -5, "maximum": 5})
    );
    assert_eq!(
        p["c"],
        json!({"type": "integer", "minimum": 10, "maximum": 100_000})
    );
    assert_eq!(p["d"]["minimum"], i64::MIN);
    assert_eq!(p["d"]["maximum"], i64::MAX);
    assert_eq!(
        p["e"],
        json!({"type": "number", "minimum": 0.5, "maximum": 2.5})
    );
    assert_eq!(p["f"], json!({"type": "number"}));
}

#[test]
fn length_and_pattern_fit_the_type() {
    let mcp = mcp(
        "tool t { timing sync request { @length(1, 8) @pattern(\"^[a-z]+$\") s: string, \
         @length(1, 4) b: bytes, @length(0, 3) l: list<u8>, @length(1, 2) m: map<bool> } }",
    );
    let p = &tool(&mcp, "t")["inputSchema"]["properties"];
    assert_eq!(
        p["s"],
        json!({"type": "string", "minLength": 1, "maxLength": 8, "pattern": "^[a-z]+$"})
    );
    // Bytes are base64 in JSON: 1 to 4 bytes are 4 to 8 characters.
    assert_eq!(
        p["b"],
        json!({"type": "string", "contentEncoding": "base64", "minLength": 4, "maxLength": 8})
    );
    assert_eq!(p["l"]["minItems"], 0);
    assert_eq!(p["l"]["maxItems"], 3);
    assert_eq!(p["l"]["items"]["type"], "integer");
    assert_eq!(p["m"]["minProperties"], 1);
    assert_eq!(p["m"]["maxProperties"], 2);
    assert_eq!(p["m"]["additionalProperties"], json!({"type": "boolean"}));
}

#[test]
fn json_is_anything() {
    let mcp = mcp("tool t { timing sync request { /// Any.\nj: json } }");
    let input = &tool(&mcp, "t")["inputSchema"];
    assert_eq!(input["properties"]["j"], json!({"description": "Any."}));
    let schema = Compiled::new(input);
    for value in [json!(null), json!([1]), json!({"a": "b"}), json!(1.5)] {
        assert!(schema.accepts(json!({ "j": value })));
    }
}

#[test]
fn named_types_go_in_defs_and_enums_list_their_values() {
    let mcp = mcp("tool t { timing sync request { mode: Mode = fast } }\n\
         /// How.\nenum Mode {\n/// Quickly.\nfast,\n@deprecated slow }");
    let input = &tool(&mcp, "t")["inputSchema"];
    assert_eq!(
        input["properties"]["mode"],
        json!({"$ref": "#/$defs/Mode", "default": "fast"})
    );
    assert_eq!(
        input["$defs"]["Mode"],
        json!({"type": "string", "enum": ["fast", "slow"],
               "description": "How.\n\nValues:\n- `fast`: Quickly.\n- `slow` (deprecated)"})
    );
    // An input schema with `$defs` names its dialect; one without does not.
    assert_eq!(
        input["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    let flat = mcp_schema(&catalogue("tool t { timing sync request { n: i32 } }").1);
    assert!(tool(&flat, "t")["inputSchema"].get("$schema").is_none());
}

#[test]
fn unions_and_errors_are_one_of_externally_tagged_variants() {
    let (sources, model) = catalogue(
        "tool t { timing sync request { shape: Shape } errors Oops }\n\
         union Shape {\n/// Round.\ncircle { r: f64 },\nnothing {} }\n\
         error Oops {\n/// Bad.\nbad { why: string } }",
    );
    let mcp = mcp_schema(&model);
    let defs = &tool(&mcp, "t")["inputSchema"]["$defs"];
    assert_eq!(
        defs["Shape"]["oneOf"][0],
        json!({
            "type": "object",
            "properties": {"circle": {
                "type": "object",
                "description": "Round.",
                "properties": {"r": {"type": "number"}},
                "required": ["r"],
                "additionalProperties": false,
            }},
            "required": ["circle"],
            "additionalProperties": false,
        })
    );
    let schema = Compiled::new(&tool(&mcp, "t")["inputSchema"]);
    assert!(schema.accepts(json!({"shape": {"circle": {"r": 1.0}}})));
    assert!(schema.accepts(json!({"shape": {"nothing": {}}})));
    assert!(!schema.accepts(json!({"shape": {"circle": {"r": 1.0}, "nothing": {}}})));
    assert!(!schema.accepts(json!({"shape": {"square": {}}})));
    assert!(!schema.accepts(json!({"shape": "circle"})));
    // Errors are not part of a tool's output; their type file says the code.
    let files = files(&model, &sources).unwrap();
    let oops = file_json(&files, "types/Oops.json");
    assert_eq!(
        oops["oneOf"][0]["properties"]["bad"]["description"],
        "Bad.\n\nError code: `BAD`."
    );
}

#[test]
fn typed_errors_are_named_in_meta_and_their_schema_is_published_beside() {
    let mcp = mcp("tool t { timing sync errors Oops }\n\
         tool plain { timing sync }\n\
         struct Place { path: string }\n\
         error Oops {\n/// Bad.\nbad { why: string, at: Place },\ngone {} }");
    // The listing stays lean: the type and its codes, not the schema.
    assert_eq!(
        tool(&mcp, "t")["_meta"],
        json!({"toolwright/errors": {"type": "Oops", "codes": ["BAD", "GONE"]}})
    );
    assert!(tool(&mcp, "plain").get("_meta").is_none());
    assert!(mcp["errors"].get("plain").is_none());
    // The schema of `details`, self-contained, for what describes a tool.
    let schema = Compiled::new(&mcp["errors"]["t"]);
    assert!(schema.accepts(json!({"bad": {"why": "no", "at": {"path": "a"}}})));
    assert!(schema.accepts(json!({"gone": {}})));
    assert!(!schema.accepts(json!({"bad": {"why": "no"}})));
    assert!(!schema.accepts(json!({"bad": {"why": "no", "at": {"path": 1}}})));
    assert!(!schema.accepts(json!({"lost": {}})));
}

fn file_json(files: &[crate::output::OutputFile], path: &str) -> Value {
    let file = files
        .iter()
        .find(|f| f.path == std::path::Path::new(path))
        .unwrap_or_else(|| panic!("no {path}"));
    serde_json::from_str(&file.contents).unwrap()
}

#[test]
fn recursive_types_work_through_ref() {
    let mcp = mcp(
        "tool t { timing sync request { tree: Tree } response Tree }\n\
         struct Tree { label: string, kids: list<Tree>, only: Tree? }",
    );
    let t = tool(&mcp, "t");
    let input = Compiled::new(&t["inputSchema"]);
    assert!(input.accepts(json!({"tree": {"label": "a", "kids": [
        {"label": "b", "kids": [], "only": {"label": "c", "kids": []}}
    ]}})));
    assert!(!input.accepts(json!({"tree": {"label": "a", "kids": [{"label": 1, "kids": []}]}})));
    // The response is the tree itself, inlined, and refers to itself.
    let output = &t["outputSchema"];
    assert_eq!(
        output["anyOf"][0]["properties"]["kids"]["items"]["$ref"],
        "#/$defs/Tree"
    );
    assert!(output["$defs"]["Tree"].is_object());
}

#[test]
fn only_structs_a_request_reaches_reject_unknown_fields() {
    let mcp = mcp(
        "tool t { timing sync request { a: In } response { b: Out, c: In } }\n\
         struct In { x: u8 }\nstruct Out { y: u8 }",
    );
    let t = tool(&mcp, "t");
    assert_eq!(t["inputSchema"]["additionalProperties"], false);
    assert_eq!(
        t["inputSchema"]["$defs"]["In"]["additionalProperties"],
        false
    );
    let output = &t["outputSchema"];
    assert_eq!(output.get("additionalProperties"), None);
    assert_eq!(output["$defs"]["Out"].get("additionalProperties"), None);
    // The runtime rejects unknown keys in `In` wherever it appears.
    assert_eq!(output["$defs"]["In"]["additionalProperties"], false);
}

#[test]
fn no_request_and_no_response() {
    let mcp = mcp("tool ping { timing sync }");
    let ping = tool(&mcp, "ping");
    assert_eq!(
        ping["inputSchema"],
        json!({"type": "object", "properties": {}, "additionalProperties": false})
    );
    assert_eq!(ping["outputSchema"]["anyOf"][0], json!({"type": "object"}));
    assert!(Compiled::new(&ping["outputSchema"]).accepts(json!({})));
}

#[test]
fn every_output_schema_admits_a_tool_error() {
    let mcp = mcp(&format!(
        "tool ping {{ timing sync }}\ntool slow {{ timing async_long response {{ n: u32 }} }}\n{ACTIONS}"
    ));
    // One flat choice: the response (or each action's), the job handle
    // when the call may run as a job, `help`/`schema`, then the error.
    for (name, alternatives) in [("ping", 2), ("slow", 3), ("fs", 5)] {
        let output = &tool(&mcp, name)["outputSchema"];
        let branches = output["anyOf"].as_array().expect("a choice");
        assert_eq!(branches.len(), alternatives, "{name}: {branches:?}");
        assert_eq!(
            branches.last(),
            Some(&json!({"$ref": "#/$defs/ToolError"})),
            "{name}"
        );
        let output = Compiled::new(output);
        assert!(output.accepts(json!({"code": "NOT_FOUND", "message": "no such job"})));
        assert!(
            output.accepts(json!({"code": "BAD", "message": "bad", "details": {"field": "n"}}))
        );
    }
}

#[test]
fn calls_that_may_run_as_jobs_may_answer_with_a_job_handle() {
    let mcp = mcp("tool slow { timing async_medium response { n: u32 } }\n\
         tool fire { timing fire_and_forget }\ntool quick { timing sync response { n: u32 } }");
    let handle = json!({"job_id": "job_1", "tool": "slow", "expected_timing": "async_medium"});
    let slow = Compiled::new(&tool(&mcp, "slow")["outputSchema"]);
    assert!(slow.accepts(json!({"n": 1})));
    assert!(slow.accepts(handle.clone()));
    assert!(!slow.accepts(json!({"job_id": "job_1"})));
    let fire = Compiled::new(&tool(&mcp, "fire")["outputSchema"]);
    assert!(fire.accepts(handle.clone()));
    let quick = &tool(&mcp, "quick")["outputSchema"];
    // The response or a tool error, but no job handle.
    assert_eq!(quick["anyOf"].as_array().map(Vec::len), Some(2));
    assert!(!Compiled::new(quick).accepts(handle));
}

const ACTIONS: &str = "/// Files.\ntool fs { timing sync errors E\n\
     /// Read one.\naction read { request { /// Which.\npath: string, @range(1, 9) n: u8 = 1 } \
     response { text: string } }\n\
     action write { timing async_short request { path: string, text: string } }\n\
     action clear {}\n}\nerror E { bad {} }";

#[test]
fn a_declared_status_action_takes_the_place_of_the_built_in_one() {
    let mcp = mcp("/// Git.\ntool vcs { timing sync\n action status {}\n action diff {}\n}");
    let action = &tool(&mcp, "vcs")["inputSchema"]["properties"]["action"];
    assert_eq!(action["enum"], json!(["status", "diff", "help", "schema"]));
    let description = action["description"].as_str().unwrap();
    assert!(
        !description.contains("the server's version"),
        "{description}"
    );
}

#[test]
fn an_action_tool_takes_one_plain_object() {
    let mcp = mcp(ACTIONS);
    let input = &tool(&mcp, "fs")["inputSchema"];
    assert_eq!(input["type"], "object");
    assert_eq!(input.get("oneOf"), None);
    assert_eq!(input.get("additionalProperties"), None);
    assert_eq!(input["required"], json!(["action"]));
    let p = &input["properties"];
    assert_eq!(
        p["action"]["enum"],
        json!(["read", "write", "clear", "help", "schema", "status"])
    );
    assert_eq!(
        p["path"]["description"],
        "Which.\n\nUsed by: `read` (required), `write` (required)."
    );
    assert_eq!(p["n"]["default"], 1);
    assert_eq!(p["n"]["maximum"], 9);
    assert_eq!(p["text"]["description"], "Used by: `write` (required).");
    assert_eq!(p["of_action"]["enum"], json!(["read", "write", "clear"]));
    let schema = Compiled::new(input);
    assert!(schema.accepts(json!({"action": "help"})));
    assert!(!schema.accepts(json!({"path": "a"})));
}

#[test]
fn each_action_has_its_exact_schemas() {
    let mcp = mcp(ACTIONS);
    let read = &mcp["actions"]["fs"]["read"];
    assert_eq!(read["description"], "Read one.");
    let input = Compiled::new(&read["inputSchema"]);
    assert!(input.accepts(json!({"action": "read", "path": "/a"})));
    assert!(!input.accepts(json!({"action": "write", "path": "/a"})));
    assert!(!input.accepts(json!({"action": "read", "path": "/a", "text": "x"})));
    assert!(!input.accepts(json!({"action": "read"})));
    let output = Compiled::new(&read["outputSchema"]);
    assert!(output.accepts(json!({"action": "read", "text": "hi"})));
    assert!(!output.accepts(json!({"action": "read"})));
    // `write` may run on as a job.
    let write = Compiled::new(&mcp["actions"]["fs"]["write"]["outputSchema"]);
    assert!(write.accepts(json!({"action": "write"})));
    assert!(
        write.accepts(json!({"job_id": "job_1", "tool": "fs", "expected_timing": "async_short"}))
    );
}

#[test]
fn an_action_tool_answers_any_actions_output_or_help() {
    let mcp = mcp(ACTIONS);
    let output = &tool(&mcp, "fs")["outputSchema"];
    assert_eq!(output["type"], "object");
    assert_eq!(
        output["anyOf"][0]["properties"]["action"],
        json!({"const": "read"})
    );
    let schema = Compiled::new(output);
    assert!(schema.accepts(json!({"action": "read", "text": "hi"})));
    assert!(schema.accepts(json!({"action": "clear"})));
    assert!(schema.accepts(json!({"action": "help", "actions": []})));
    assert!(!schema.accepts(json!({"action": "read"})));
    assert!(!schema.accepts(json!({"action": "nope"})));
}

#[test]
fn the_job_handle_schema_passes_the_metaschema() {
    let validator = super::validate::Validator::new();
    let handle = serde_json::Value::Object(output::job_handle());
    assert!(validator.check(&handle).is_ok());
    let compiled = Compiled::new(&handle);
    assert!(compiled.accepts(json!({"job_id": "j", "tool": "t", "expected_timing": "async_long"})));
    assert!(!compiled.accepts(json!({"job_id": "j", "tool": "t", "expected_timing": "sync"})));
}

#[test]
fn every_file_passes_the_metaschema_and_names_its_dialect() {
    let (sources, model) = catalogue(ACTIONS);
    let files = files(&model, &sources).unwrap();
    let validator = super::validate::Validator::new();
    for file in &files {
        let value: Value = serde_json::from_str(&file.contents).unwrap();
        if file.path.starts_with("types") {
            assert_eq!(value["$schema"], super::dialect::DIALECT);
            assert!(validator.check(&value).is_ok(), "{}", file.path.display());
        }
    }
    assert_eq!(file_json(&files, "tools.json"), mcp_schema(&model)["tools"]);
}

/// Sets the pattern of the first field of struct `name`, as if the
/// checker had let it through.
fn with_pattern(model: &mut Model, name: &str, pattern: &str) {
    let ty = model.types.iter_mut().find(|t| t.name == name).unwrap();
    let TypeKind::Struct(fields) = &mut ty.kind else {
        panic!("{name} is not a struct");
    };
    fields[0].constraints.pattern = Some(pattern.to_owned());
}

#[test]
fn a_pattern_the_schema_dialect_rejects_is_a_diagnostic_at_the_field() {
    let text = "tool t { timing sync request { arg: Arg } }\nstruct Arg {\n  code: string }";
    let (sources, mut model) = catalogue(text);
    with_pattern(&mut model, "Arg", "^(ab$");
    let diagnostics = files(&model, &sources).unwrap_err();
    let all: Vec<_> = diagnostics.iter().collect();
    assert_eq!(
        all.len(),
        1,
        "reported once, at the type, not again per tool"
    );
    let d = all[0];
    assert_eq!(d.code, Code::InvalidPattern);
    assert!(d.message.contains("`Arg.code`"), "{}", d.message);
    assert_eq!(sources.snippet(d.primary.span), "code");
    let rendered = diagnostics.render(&sources, crate::ColorChoice::Never);
    assert!(rendered.contains("t.tool:3:3"), "{rendered}");
    assert!(validate(&model, &sources).is_err());
}

#[test]
fn a_bound_json_cannot_carry_is_a_diagnostic() {
    let (sources, mut model) = catalogue("tool t { timing sync request { @range(0, 1) x: f64 } }");
    for ty in &mut model.types {
        if let TypeKind::Struct(fields) = &mut ty.kind {
            fields[0].constraints.range = Some((Number::Int(0), Number::Float(f64::INFINITY)));
        }
    }
    let diagnostics = files(&model, &sources).unwrap_err();
    let d = diagnostics.iter().next().unwrap();
    assert_eq!(d.code, Code::InvalidBounds);
    assert_eq!(sources.snippet(d.primary.span), "x");
}

#[test]
fn a_valid_catalogue_validates() {
    let (sources, model) = catalogue(ACTIONS);
    assert!(validate(&model, &sources).is_ok());
}

#[test]
fn a_failure_inside_a_variant_points_at_the_variant_field() {
    let text = "tool t { timing sync request { s: Shape } }\n\
                union Shape { named {\n  label: string } }";
    let (sources, mut model) = catalogue(text);
    let shape = model.types.iter_mut().find(|t| t.name == "Shape").unwrap();
    let TypeKind::Union(variants) = &mut shape.kind else {
        panic!("Shape is a union");
    };
    variants[0].fields[0].constraints.pattern = Some("[".to_owned());
    let diagnostics = files(&model, &sources).unwrap_err();
    let d = diagnostics.iter().next().unwrap();
    assert_eq!(d.code, Code::InvalidPattern);
    assert!(d.message.contains("`Shape.named.label`"), "{}", d.message);
    assert_eq!(sources.snippet(d.primary.span), "label");
}

#[test]
fn header_fields_say_x_mcp_header() {
    let mcp =
        mcp("tool t { timing sync request { @header(\"Region\") region: string, q: string } }");
    let properties = &mcp["tools"][0]["inputSchema"]["properties"];
    assert_eq!(properties["region"]["x-mcp-header"], "Region");
    assert!(properties["q"].get("x-mcp-header").is_none());
}

#[test]
fn resources_and_prompts_are_listed_as_mcp_lists_them_with_what_serving_them_needs() {
    let mcp = mcp(r#"
        /// An object by hash.
        @scopes("cas:read") @audience(assistant) @priority(0.5)
        resource cas_object {
            uri "cas://objects/{hash}{?format}"
            title "Object"
            contents bytes
            arguments {
                /// The hash.
                @pattern("^[0-9a-f]{8}$") @complete
                hash: string,
                format: Format?,
            }
        }
        /// The licence.
        @size(12) @cache(60000)
        resource licence { uri "docs://licence" mime "text/markdown" }
        /// Ask for a tune.
        prompt compose {
            title "Compose"
            arguments {
                /// The key.
                key: Format,
                mood: string = "calm",
            }
        }
        /// A format.
        enum Format { wav, mp3 }
    "#);
    assert_eq!(
        mcp["resources"],
        json!([{
            "uri": "docs://licence", "name": "licence", "description": "The licence.",
            "mimeType": "text/markdown", "size": 12,
        }])
    );
    assert_eq!(
        mcp["resourceTemplates"],
        json!([{
            "uriTemplate": "cas://objects/{hash}{?format}", "name": "cas_object",
            "title": "Object", "description": "An object by hash.",
            "mimeType": "application/octet-stream",
            "annotations": {"audience": ["assistant"], "priority": 0.5},
            "_meta": {"toolwright/scopes": ["cas:read"]},
        }])
    );
    assert_eq!(
        mcp["prompts"],
        json!([{
            "name": "compose", "title": "Compose", "description": "Ask for a tune.",
            "arguments": [
                {"name": "key", "description": "The key.", "required": true},
                {"name": "mood", "required": false},
            ],
        }])
    );
    let reader = &mcp["readers"]["cas_object"];
    assert_eq!(reader["contents"], "bytes");
    assert_eq!(reader["subscribable"], false);
    assert_eq!(
        reader["completions"],
        json!({"hash": "handler", "format": ["wav", "mp3"]})
    );
    let arguments = Compiled::new(&reader["inputSchema"]);
    assert!(arguments.accepts(json!({"hash": "0123abcd", "format": "wav"})));
    assert!(!arguments.accepts(json!({"hash": "not hex!"})));
    assert!(!arguments.accepts(json!({"hash": "0123abcd", "other": 1})));
    assert_eq!(
        mcp["readers"]["licence"]["cache"],
        json!({"ttlMs": 60000, "cacheScope": "public"})
    );
    assert_eq!(mcp["readers"]["licence"]["contents"], "text");
    let getter = &mcp["getters"]["compose"];
    assert_eq!(getter["completions"], json!({"key": ["wav", "mp3"]}));
    assert!(Compiled::new(&getter["inputSchema"]).accepts(json!({"key": "mp3"})));
}

#[test]
fn a_catalogue_without_resources_or_prompts_adds_nothing_to_the_mcp_schema() {
    let mcp = mcp("tool t { timing sync }");
    let keys: Vec<&String> = mcp.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["actions", "errors", "tools"]);
}
