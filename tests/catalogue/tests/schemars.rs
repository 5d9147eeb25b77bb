//! The generated types' `schemars::JsonSchema` (feature `schemars`,
//! `Builder::schemars_feature`) against the IDL's own input schemas: every
//! case of `tests/vectors/constraints.json` is accepted by both when it is
//! valid and refused by both when it is not, and every request of
//! `tests/vectors/values.json` passes both. Validated with boon, the
//! workspace's JSON Schema 2020-12 validator. Both also refuse a request
//! with an argument its tool does not have (serde's `deny_unknown_fields`
//! becomes `additionalProperties: false`).
//!
//! The schemars side is the schema of the tool's own request type (its
//! struct, or its action enum), checked on the arguments without the
//! `tool` tag; a tool without a request is checked against `ToolRequest`'s
//! schema, tag included. `ToolRequest`'s schema is checked on every
//! constraint case too.
//! The IDL side is the tool's `inputSchema` from the catalogue's
//! `MCP_SCHEMA`, which describes the arguments without the tag; for an
//! action tool, the chosen action's exact schema from its `actions` map
//! (the tool's own `inputSchema` is the lenient merge of every action's
//! fields that MCP clients are shown, docs/schemas.md).

use std::collections::HashMap;

use boon::{Compiler, Draft, SchemaIndex, Schemas};
use serde_json::Value as Json;
use toolwright::Catalogue;
use toolwright_catalogue_tests::{ToolCatalogue, ToolRequest};

mod support;

use support::constraints::ConstraintVectors;
use support::vectors::{Values, vectors_dir};

/// Both schemas, compiled once.
struct Checker {
    schemas: Schemas,
    schemars: SchemaIndex,
    requests: HashMap<String, SchemaIndex>,
    idl: HashMap<String, SchemaIndex>,
}

impl Checker {
    fn new() -> Self {
        let mut schemas = Schemas::new();
        let mut compiler = Compiler::new();
        compiler.set_default_draft(Draft::V2020_12);
        let generated = serde_json::to_value(schemars::schema_for!(ToolRequest)).unwrap();
        compiler
            .add_resource("urn:schemars:ToolRequest", generated)
            .unwrap();
        let schemars = compiler
            .compile("urn:schemars:ToolRequest", &mut schemas)
            .unwrap_or_else(|e| panic!("the schemars schema does not compile: {e:#}"));
        let mut requests = HashMap::new();
        for (tool, schema) in toolwright_catalogue_tests::schemas::request_schemas() {
            let url = format!("urn:schemars:{tool}");
            compiler
                .add_resource(&url, serde_json::to_value(schema).unwrap())
                .unwrap();
            let index = compiler
                .compile(&url, &mut schemas)
                .unwrap_or_else(|e| panic!("{tool}: the schemars schema does not compile: {e:#}"));
            requests.insert(tool.to_owned(), index);
        }
        let document: Json = serde_json::from_str(ToolCatalogue::MCP_SCHEMA).unwrap();
        let mut idl = HashMap::new();
        for tool in document["tools"].as_array().expect("a tools array") {
            let name = tool["name"].as_str().expect("a name").to_owned();
            let url = format!("urn:idl:{name}");
            compiler
                .add_resource(&url, tool["inputSchema"].clone())
                .unwrap();
            let index = compiler
                .compile(&url, &mut schemas)
                .unwrap_or_else(|e| panic!("{name}: the IDL schema does not compile: {e:#}"));
            idl.insert(name, index);
        }
        let actions = document["actions"].as_object().expect("an actions map");
        for (tool, actions) in actions {
            for (action, action_schemas) in actions.as_object().expect("a map of actions") {
                let url = format!("urn:idl:{tool}/{action}");
                compiler
                    .add_resource(&url, action_schemas["inputSchema"].clone())
                    .unwrap();
                let index = compiler.compile(&url, &mut schemas).unwrap_or_else(|e| {
                    panic!("{tool}.{action}: the IDL schema does not compile: {e:#}")
                });
                idl.insert(format!("{tool}/{action}"), index);
            }
        }
        Checker {
            schemas,
            schemars,
            requests,
            idl,
        }
    }

    /// `ToolRequest`'s schema accepts a request's JSON text.
    fn tool_request(&self, text: &str) -> bool {
        let request: Json = serde_json::from_str(text).unwrap();
        self.schemas.validate(&request, self.schemars).is_ok()
    }

    /// `(schemars accepts, IDL schema accepts)` for a request's JSON text,
    /// its `tool` tag included.
    fn check(&self, name: &str, text: &str) -> (bool, bool) {
        let mut arguments: Json = serde_json::from_str(text).unwrap();
        let tool = arguments
            .as_object_mut()
            .and_then(|o| o.remove("tool"))
            .and_then(|t| t.as_str().map(str::to_owned))
            .unwrap_or_else(|| panic!("{name}: no tool tag"));
        let by_schemars = match self.requests.get(&tool) {
            Some(index) => self.schemas.validate(&arguments, *index).is_ok(),
            None => self.tool_request(text),
        };
        let tool = match arguments.get("action").and_then(Json::as_str) {
            Some(action) => format!("{tool}/{action}"),
            None => tool,
        };
        let index = self
            .idl
            .get(&tool)
            .unwrap_or_else(|| panic!("{name}: no input schema for `{tool}`"));
        let by_idl = self.schemas.validate(&arguments, *index).is_ok();
        (by_schemars, by_idl)
    }
}

fn read<T: serde::de::DeserializeOwned>(file: &str) -> T {
    let path = vectors_dir().join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn constrained_values_are_judged_alike_by_schemars_and_the_idl_schema() {
    let checker = Checker::new();
    let vectors: ConstraintVectors = read("constraints.json");
    let mut failures = Vec::new();
    let (mut accepted, mut refused) = (0, 0);
    for case in &vectors.cases {
        let json = case.json();
        let (by_schemars, by_idl) = checker.check(&case.name, &json);
        if checker.tool_request(&json) != case.valid {
            failures.push(format!("{}: ToolRequest's schema disagrees", case.name));
        }
        if by_schemars != case.valid {
            failures.push(format!("{}: schemars says {by_schemars}", case.name));
        }
        if by_idl != case.valid {
            failures.push(format!("{}: the IDL schema says {by_idl}", case.name));
        }
        if case.valid {
            accepted += 1;
        } else {
            refused += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases misjudged:\n{}",
        failures.len(),
        vectors.cases.len(),
        failures.join("\n")
    );
    assert!(
        accepted > 50 && refused > 50,
        "the vectors lost their cases"
    );
}

#[test]
fn every_request_of_the_value_vectors_passes_both_schemas() {
    let checker = Checker::new();
    let values: Values = read("values.json");
    let mut failures = Vec::new();
    let mut requests = 0;
    for case in values.cases.iter().filter(|c| c.kind == "request") {
        requests += 1;
        let (by_schemars, by_idl) = checker.check(&case.name, &case.json);
        if !by_schemars {
            failures.push(format!("{}: refused by schemars", case.name));
        }
        if !by_idl {
            failures.push(format!("{}: refused by the IDL schema", case.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(requests > 50, "the vectors lost their requests");
}

#[test]
fn an_unknown_argument_is_refused_by_both_schemas() {
    let checker = Checker::new();
    let values: Values = read("values.json");
    let mut failures = Vec::new();
    for case in values.cases.iter().filter(|c| c.kind == "request") {
        let mut request: Json = serde_json::from_str(&case.json).unwrap();
        request["zz_unknown"] = Json::from(1);
        let (by_schemars, by_idl) = checker.check(&case.name, &request.to_string());
        if by_schemars {
            failures.push(format!("{}: accepted by schemars", case.name));
        }
        if by_idl {
            failures.push(format!("{}: accepted by the IDL schema", case.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_request_schema_is_an_object_as_mcp_tools_need() {
    // rmcp's `Parameters<T>` refuses an input schema whose root is not
    // `"type": "object"`.
    for (tool, schema) in toolwright_catalogue_tests::schemas::request_schemas() {
        assert_eq!(
            schema.get("type"),
            Some(&Json::from("object")),
            "{tool}: {schema:?}"
        );
    }
}

#[test]
fn schemars_schemas_carry_docs_and_refuse_unknown_fields() {
    let schema =
        serde_json::to_value(schemars::schema_for!(toolwright::jobs::JobListRequest)).unwrap();
    assert_eq!(schema["additionalProperties"], Json::Bool(false));
    assert_eq!(schema["properties"]["limit"]["minimum"], 1);
    assert_eq!(schema["properties"]["limit"]["maximum"], 1000);
    assert!(
        schema["properties"]["tool_name"]["description"]
            .as_str()
            .is_some_and(|d| !d.is_empty())
    );
}
