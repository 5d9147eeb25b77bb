//! The provider profiles a Rust catalogue carries are the files the
//! generator writes under `schemas/profiles/`, tool for tool.

use studio::ToolCatalogue;
use toolwright::Catalogue;

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).expect("a profile is JSON")
}

fn file(name: &str) -> serde_json::Value {
    let path = format!(
        "{}/../../generated/schemas/profiles/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    json(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}")))
}

#[test]
fn each_profile_constant_is_its_generated_file() {
    for (name, constant) in [
        ("openai", ToolCatalogue::OPENAI_TOOLS),
        ("anthropic", ToolCatalogue::ANTHROPIC_TOOLS),
        ("gemini", ToolCatalogue::GEMINI_TOOLS),
    ] {
        let tools = json(constant);
        assert_eq!(tools, file(name), "{name}");
        assert_eq!(
            tools.as_array().map(Vec::len),
            Some(ToolCatalogue::TOOLS.len()),
            "{name}: one entry per tool"
        );
    }
}

#[test]
fn openai_strict_tools_require_every_property() {
    let tools = json(ToolCatalogue::OPENAI_TOOLS);
    let strict: Vec<&serde_json::Value> = tools
        .as_array()
        .into_iter()
        .flatten()
        .filter(|t| t["function"]["strict"] == true)
        .collect();
    assert!(!strict.is_empty());
    for tool in strict {
        let parameters = &tool["function"]["parameters"];
        let properties = parameters["properties"]
            .as_object()
            .expect("an object schema");
        let required = parameters["required"].as_array().map_or(0, Vec::len);
        assert_eq!(required, properties.len(), "{}", tool["function"]["name"]);
    }
}
