//! Provider profiles: the catalogue's tools in the shapes LLM providers
//! take them, derived from the MCP document so the two cannot disagree.
//!
//! Each provider accepts its own subset of JSON Schema; a profile rewrites
//! what the subset cannot say and drops what it ignores, keyword by
//! keyword (docs/schemas.md lists every rule). What a profile drops is
//! still enforced: the server checks every request against the full
//! declaration when it decodes it.

mod anthropic;
mod gemini;
mod openai;

use serde_json::{Map, Value as Json};

/// An LLM provider's tool format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Profile {
    /// OpenAI function calling in strict mode (Chat Completions `tools`).
    OpenAi,
    /// Anthropic tool use (Messages API `tools`).
    Anthropic,
    /// Gemini function declarations (`functionDeclarations`, whose
    /// `parameters` are an OpenAPI 3.0 schema subset).
    Gemini,
}

impl Profile {
    /// Every profile, in the order the files are written.
    pub const ALL: [Profile; 3] = [Profile::OpenAi, Profile::Anthropic, Profile::Gemini];

    /// The profile's name: its file's name under `schemas/profiles/`.
    pub fn name(self) -> &'static str {
        match self {
            Profile::OpenAi => "openai",
            Profile::Anthropic => "anthropic",
            Profile::Gemini => "gemini",
        }
    }

    /// The profile named `name` (see [`Profile::name`]).
    pub fn from_name(name: &str) -> Option<Profile> {
        Profile::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The provider, as people name it.
    pub fn provider(self) -> &'static str {
        match self {
            Profile::OpenAi => "OpenAI",
            Profile::Anthropic => "Anthropic",
            Profile::Gemini => "Gemini",
        }
    }

    /// Why the provider refuses `name` as a tool (function) name, or
    /// `None` when it accepts it. The rules, from each provider's API
    /// reference: OpenAI and Anthropic take `[A-Za-z0-9_-]{1,64}`; Gemini
    /// takes letters, digits, `_`, `.`, `:` and `-`, at most 64, starting
    /// with a letter or an underscore.
    pub fn refuses_name(self, name: &str) -> Option<String> {
        const MAX: usize = 64;
        let count = name.chars().count();
        if count == 0 {
            return Some("it is empty".to_owned());
        }
        if count > MAX {
            return Some(format!("it is {count} characters long; at most {MAX}"));
        }
        let allowed = |c: char| match self {
            Profile::OpenAi | Profile::Anthropic => c.is_ascii_alphanumeric() || "_-".contains(c),
            Profile::Gemini => c.is_ascii_alphanumeric() || "_.:-".contains(c),
        };
        if let Some(c) = name.chars().find(|&c| !allowed(c)) {
            return Some(format!("it holds `{c}`"));
        }
        let first = name.chars().next().unwrap_or('_');
        if self == Profile::Gemini && !(first.is_ascii_alphabetic() || first == '_') {
            return Some("it does not start with a letter or `_`".to_owned());
        }
        None
    }

    /// The tool definitions of the MCP document `mcp` (see
    /// [`super::mcp_schema`]) in this profile's shape: a JSON array.
    pub(crate) fn tools(self, mcp: &Json) -> Json {
        let tools = mcp["tools"].as_array().map_or(&[][..], Vec::as_slice);
        Json::Array(
            tools
                .iter()
                .map(|tool| match self {
                    Profile::OpenAi => openai::tool(tool),
                    Profile::Anthropic => anthropic::tool(tool),
                    Profile::Gemini => gemini::tool(tool),
                })
                .collect(),
        )
    }
}

/// A tool's description as providers read it: the MCP description, or its
/// title when it has none.
fn description(tool: &Json) -> Option<String> {
    tool["description"]
        .as_str()
        .or_else(|| tool["title"].as_str())
        .map(str::to_owned)
}

/// The definition a `$ref` into `#/$defs/` names, if `defs` holds it.
fn resolve<'a>(defs: &'a Map<String, Json>, reference: &str) -> Option<(&'a str, &'a Json)> {
    let name = reference.strip_prefix("#/$defs/")?;
    defs.get_key_value(name).map(|(k, v)| (k.as_str(), v))
}

/// True for a schema that admits any value: `true`, or an object with no
/// keyword that limits the type (`{}`, or a `json` field's
/// `{"description": …}`), which neither OpenAI's strict mode nor Gemini's
/// subset can state.
fn is_any(schema: &Json) -> bool {
    const LIMITING: &[&str] = &[
        "type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const", "not",
    ];
    match schema {
        Json::Bool(admits) => *admits,
        Json::Object(object) => !LIMITING.iter().any(|k| object.contains_key(*k)),
        _ => false,
    }
}

/// True for a schema that only admits `null`.
fn is_null(schema: &Json) -> bool {
    schema.get("type").and_then(Json::as_str) == Some("null")
}
