//! Provider profiles (`schemas/profiles/*.json`) checked against what each
//! provider documents it accepts, written down here as rule checkers:
//!
//! - OpenAI: the Chat Completions API reference (`tools[].function.name`:
//!   "a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum
//!   length of 64") and the Structured Outputs guide, "Supported schemas"
//!   (strict mode: the root is an object and not `anyOf`; every object sets
//!   `additionalProperties: false` and lists every property in `required`;
//!   the supported keywords; at most 10 levels of nesting).
//! - Anthropic: the Messages API reference (`tools[].name` matches
//!   `^[a-zA-Z0-9_-]{1,64}$`; `input_schema` is a JSON Schema object;
//!   `input_examples` an array of inputs).
//! - Gemini: the Gemini API reference, `FunctionDeclaration` (the name: a-z,
//!   A-Z, 0-9, underscores, colons, dots and dashes, at most 64, starting
//!   with a letter or an underscore) and `Schema` (its fields: `type` as the
//!   `Type` enum, `nullable`, `anyOf`, no `$ref`, no `additionalProperties`;
//!   an `OBJECT` with properties).
//!
//! The reference catalogue's profiles must pass every rule; the feature
//! fixtures' profiles are snapshots in `schema.rs`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};
use toolwright_codegen::{Binding, ColorChoice, Profile, Sources, generate_bindings};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_owned()
}

/// The reference catalogue's `schemas/` files, by path.
fn reference() -> Vec<(String, Value)> {
    let mut sources = Sources::new();
    sources.add_job_tools();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join("idl"))
        .expect("idl/")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "tool"))
        .collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read(&path).expect("readable");
        sources.add(path.display().to_string(), text);
    }
    generate_bindings(&sources, &[Binding::Schemas])
        .unwrap_or_else(|d| panic!("{}", d.render(&sources, ColorChoice::Never)))
        .into_iter()
        .map(|f| {
            let path = f.path.to_string_lossy().replace('\\', "/");
            let value = serde_json::from_str(&f.contents).expect("JSON");
            (path, value)
        })
        .collect()
}

fn file<'a>(files: &'a [(String, Value)], path: &str) -> &'a Value {
    &files
        .iter()
        .find(|(p, _)| p == path)
        .unwrap_or_else(|| panic!("{path} generated"))
        .1
}

fn array(value: &Value) -> &[Value] {
    value.as_array().map_or(&[][..], Vec::as_slice)
}

fn object(value: &Value) -> &Map<String, Value> {
    value
        .as_object()
        .unwrap_or_else(|| panic!("an object: {value}"))
}

/// Each profile's tools are the MCP tools, in order, under names every
/// provider takes.
#[test]
fn every_profile_lists_every_tool_under_a_name_its_provider_takes() {
    let files = reference();
    let mcp: Vec<&str> = array(file(&files, "schemas/tools.json"))
        .iter()
        .map(|t| t["name"].as_str().expect("a name"))
        .collect();
    for profile in Profile::ALL {
        let tools = file(&files, &format!("schemas/profiles/{}.json", profile.name()));
        let names: Vec<&str> = array(tools)
            .iter()
            .map(|t| match profile {
                Profile::OpenAi => t["function"]["name"].as_str(),
                _ => t["name"].as_str(),
            })
            .map(|n| n.expect("a name"))
            .collect();
        assert_eq!(names, mcp, "{profile:?}");
        for name in names {
            assert_eq!(profile.refuses_name(name), None, "{profile:?} {name}");
        }
    }
}

#[test]
fn names_are_checked_as_each_provider_documents() {
    let long = "a".repeat(65);
    for profile in Profile::ALL {
        assert_eq!(profile.refuses_name("mcp__studio__cas_store"), None);
        assert!(profile.refuses_name(&long).is_some(), "{profile:?}");
        assert!(profile.refuses_name("").is_some(), "{profile:?}");
        assert!(profile.refuses_name("a b").is_some(), "{profile:?}");
        assert_eq!(profile.refuses_name(&long[..64]), None, "{profile:?}");
    }
    assert!(Profile::OpenAi.refuses_name("studio.cas_store").is_some());
    assert!(
        Profile::Anthropic
            .refuses_name("studio:cas_store")
            .is_some()
    );
    assert_eq!(Profile::Gemini.refuses_name("studio.cas:store"), None);
    assert!(Profile::Gemini.refuses_name("9lives").is_some());
    assert_eq!(Profile::OpenAi.refuses_name("9lives"), None);
}

const OPENAI_KEYWORDS: &[&str] = &[
    "type",
    "description",
    "enum",
    "const",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "$ref",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "anyOf",
    "$defs",
];

/// Strict mode's rules for one schema at nesting `depth`.
fn openai_strict(schema: &Value, defs: &Map<String, Value>, depth: usize, at: &str) {
    let schema = object(schema);
    assert!(depth <= 10, "{at}: nested deeper than 10");
    // Strict mode's supported schemas each name a type, or are a
    // reference, an `anyOf`, an `enum` or a `const`.
    assert!(
        ["type", "$ref", "anyOf", "enum", "const"]
            .iter()
            .any(|k| schema.contains_key(*k)),
        "{at}: a schema without a type"
    );
    for key in schema.keys() {
        assert!(OPENAI_KEYWORDS.contains(&key.as_str()), "{at}: `{key}`");
    }
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let name = reference
            .strip_prefix("#/$defs/")
            .expect("a local reference");
        assert!(defs.contains_key(name), "{at}: {reference} is defined");
    }
    let is_object = match schema.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
        _ => false,
    };
    if is_object {
        assert_eq!(
            schema.get("additionalProperties"),
            Some(&Value::Bool(false)),
            "{at}"
        );
        let properties = object(&schema["properties"]);
        let keys: Vec<&str> = properties.keys().map(String::as_str).collect();
        let required: Vec<&str> = array(&schema["required"])
            .iter()
            .map(|r| r.as_str().expect("a name"))
            .collect();
        assert_eq!(required, keys, "{at}: every property is required");
        for (name, property) in properties {
            openai_strict(property, defs, depth + 1, &format!("{at}.{name}"));
        }
    }
    if let Some(items) = schema.get("items") {
        openai_strict(items, defs, depth + 1, &format!("{at}[]"));
    }
    for branch in array(schema.get("anyOf").unwrap_or(&Value::Null)) {
        openai_strict(branch, defs, depth, &format!("{at}|"));
    }
}

/// True when `schema` holds a map or a value of any type somewhere: what
/// strict mode cannot say.
fn needs_more_than_strict(schema: &Value) -> bool {
    let Value::Object(o) = schema else {
        return schema == &Value::Bool(true);
    };
    let typed = ["type", "$ref", "anyOf", "oneOf", "enum", "const"]
        .iter()
        .any(|k| o.contains_key(*k));
    let schemas = |key: &str| -> Vec<&Value> {
        match o.get(key) {
            Some(Value::Object(named)) if key != "items" => named.values().collect(),
            Some(Value::Array(list)) => list.iter().collect(),
            Some(one) => vec![one],
            None => Vec::new(),
        }
    };
    !typed
        || o.get("additionalProperties").is_some_and(Value::is_object)
        || ["properties", "$defs", "anyOf", "oneOf"]
            .into_iter()
            .flat_map(schemas)
            .chain(o.get("items"))
            .any(needs_more_than_strict)
}

#[test]
fn the_openai_profile_is_strict_wherever_strict_mode_can_say_the_tool() {
    let files = reference();
    let mcp = array(file(&files, "schemas/tools.json"));
    let tools = array(file(&files, "schemas/profiles/openai.json"));
    let mut strict = 0;
    for (tool, entry) in tools.iter().zip(mcp) {
        assert_eq!(tool["type"], "function");
        let function = &tool["function"];
        let name = function["name"].as_str().expect("a name");
        let parameters = &function["parameters"];
        if function["strict"] == Value::Bool(false) {
            assert!(
                needs_more_than_strict(&entry["inputSchema"]),
                "{name} could be strict"
            );
            assert_eq!(
                parameters, &entry["inputSchema"],
                "{name}: the MCP schema as it is"
            );
            continue;
        }
        strict += 1;
        assert_eq!(parameters["type"], "object", "{name}");
        assert!(parameters.get("anyOf").is_none(), "{name}");
        let empty = Map::new();
        let defs = parameters
            .get("$defs")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        openai_strict(parameters, defs, 1, name);
        for (def, schema) in defs {
            openai_strict(schema, defs, 1, &format!("{name}#{def}"));
        }
        // Nothing the tool takes is lost: the same properties as MCP's.
        let ours: BTreeSet<&String> = object(&parameters["properties"]).keys().collect();
        let theirs: BTreeSet<&String> = entry["inputSchema"]["properties"]
            .as_object()
            .map(|p| p.keys().collect())
            .unwrap_or_default();
        assert_eq!(ours, theirs, "{name}");
    }
    assert!(strict * 2 > tools.len(), "most tools are strict: {strict}");
}

#[test]
fn the_anthropic_profile_takes_the_mcp_input_schema() {
    let files = reference();
    let mcp = array(file(&files, "schemas/tools.json"));
    let tools = array(file(&files, "schemas/profiles/anthropic.json"));
    for (tool, entry) in tools.iter().zip(mcp) {
        let keys: BTreeSet<&str> = object(tool).keys().map(String::as_str).collect();
        assert!(keys.is_subset(&BTreeSet::from([
            "name",
            "description",
            "input_schema",
            "input_examples"
        ])));
        assert_eq!(tool["input_schema"]["type"], "object");
        // The requests of the tool's declared examples, as MCP lists them.
        assert_eq!(
            tool.get("input_examples"),
            entry["_meta"].get("toolwright/inputExamples"),
            "{}",
            tool["name"]
        );
        assert_eq!(tool["input_schema"], entry["inputSchema"]);
        assert!(tool["description"].is_string(), "{}", tool["name"]);
    }
}

const GEMINI_KEYWORDS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
];

const GEMINI_TYPES: &[&str] = &["STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"];

fn gemini(schema: &Value, at: &str) {
    let schema = object(schema);
    // Gemini's `Schema` requires `type`, unless it is an `anyOf`.
    assert!(
        schema.contains_key("type") || schema.contains_key("anyOf"),
        "{at}: a schema without a type"
    );
    for key in schema.keys() {
        assert!(GEMINI_KEYWORDS.contains(&key.as_str()), "{at}: `{key}`");
    }
    if let Some(ty) = schema.get("type") {
        assert!(
            GEMINI_TYPES.contains(&ty.as_str().expect("a name")),
            "{at}: {ty}"
        );
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("OBJECT") => {
            let properties = object(&schema["properties"]);
            assert!(!properties.is_empty(), "{at}: an object with properties");
            for required in array(schema.get("required").unwrap_or(&Value::Null)) {
                let required = required.as_str().expect("a name");
                assert!(properties.contains_key(required), "{at}: {required}");
            }
            for (name, property) in properties {
                gemini(property, &format!("{at}.{name}"));
            }
        }
        Some("ARRAY") => gemini(&schema["items"], &format!("{at}[]")),
        _ => {}
    }
    for branch in array(schema.get("anyOf").unwrap_or(&Value::Null)) {
        gemini(branch, &format!("{at}|"));
    }
}

#[test]
fn the_gemini_profile_stays_in_the_schema_subset() {
    let files = reference();
    let tools = array(file(&files, "schemas/profiles/gemini.json"));
    let mut declared = 0;
    for tool in tools {
        let name = tool["name"].as_str().expect("a name");
        let keys: BTreeSet<&str> = object(tool).keys().map(String::as_str).collect();
        assert!(keys.is_subset(&BTreeSet::from(["name", "description", "parameters"])));
        if let Some(parameters) = tool.get("parameters") {
            assert_eq!(parameters["type"], "OBJECT", "{name}");
            gemini(parameters, name);
            declared += 1;
        }
    }
    assert!(
        declared * 2 > tools.len(),
        "most tools take parameters: {declared}"
    );
}

fn clients(prefix: &str) -> toolwright_codegen::Clients {
    toolwright_codegen::Clients {
        prefix: prefix.to_owned(),
        profiles: Vec::new(),
    }
}

#[test]
fn a_client_prefix_counts_toward_the_name_rules() {
    // 52 characters: taken alone, refused after a 13-character prefix.
    let name = "render_the_whole_song_with_every_track_and_effect_on";
    assert_eq!(name.len(), 52);
    let mut sources = Sources::new();
    sources.add(
        "song.tool",
        format!("/// Render.\ntool {name} {{\n    timing sync\n}}\n"),
    );
    let alone = toolwright_codegen::check_for_clients(&sources, &clients("")).expect("valid");
    assert!(alone.warnings.is_empty(), "{:?}", alone.warnings);
    let prefixed =
        toolwright_codegen::check_for_clients(&sources, &clients("mcp__studio__")).expect("valid");
    let warnings: Vec<_> = prefixed.warnings.iter().collect();
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].code.as_str(), "TW405");
    assert!(
        warnings[0]
            .message
            .contains(&format!("`mcp__studio__{name}`")),
        "{}",
        warnings[0].message
    );
    // A prefix with a dot: Gemini takes it, OpenAI and Anthropic do not.
    let dotted =
        toolwright_codegen::check_for_clients(&sources, &clients("studio.")).expect("valid");
    let message = &dotted.warnings.iter().next().expect("a warning").message;
    assert!(
        message.ends_with("refused by OpenAI and Anthropic"),
        "{message}"
    );
}
