//! What the catalogue's MCP schema says of resources and prompts, parsed
//! once for every door that serves them: the list entries as MCP gives
//! them, each resource's URI template compiled, and how a URI's variables
//! and a prompt's arguments (strings on MCP) become the typed arguments
//! the handler decodes.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::{Map, Value as Json};
use toolwright_vocab::UriTemplate;

use crate::ToolError;
use crate::edge::JsonObject;
/// The `_meta` key a listed entry names its scopes under (as a tool does).
const SCOPES_META: &str = "toolwright/scopes";

/// The MIME type of an app's HTML, the one the MCP Apps extension defines.
pub(crate) const APP_MIME: &str = "text/html;profile=mcp-app";

/// The schema's entries, as it writes them.
#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Listed {
    #[serde(default)]
    resources: Vec<JsonObject>,
    #[serde(default)]
    resource_templates: Vec<JsonObject>,
    #[serde(default)]
    prompts: Vec<JsonObject>,
    #[serde(default)]
    readers: HashMap<String, Reader>,
    #[serde(default)]
    getters: HashMap<String, Getter>,
    /// The HTML of each tool's MCP App, by its `ui://` URI.
    #[serde(default)]
    apps: HashMap<String, String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Reader {
    input_schema: JsonObject,
    #[serde(default)]
    completions: HashMap<String, Json>,
    #[serde(default)]
    subscribable: bool,
    #[serde(default)]
    cache: Option<Cache>,
}

/// How long a read may be kept, and by whom (`@cache`).
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Cache {
    /// `ttlMs`.
    pub(crate) ttl_ms: u64,
    /// `cacheScope`: `public` or `private`.
    #[serde(rename = "cacheScope")]
    pub(crate) scope: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Getter {
    input_schema: JsonObject,
    #[serde(default)]
    completions: HashMap<String, Json>,
}

/// One resource or prompt, as the server reads or gets it.
#[derive(Clone, Debug)]
pub(crate) struct Entry {
    /// Its name: what the port's request names.
    pub(crate) name: String,
    /// Its MIME type (a resource's).
    pub(crate) mime: Option<String>,
    /// Its description, for a prompt got without one of its own.
    pub(crate) description: Option<String>,
    /// The scopes it needs.
    pub(crate) scopes: Vec<String>,
    /// Clients may subscribe to its updates (a resource's).
    pub(crate) subscribable: bool,
    /// How long a read may be kept (a resource's `@cache`).
    pub(crate) cache: Option<Cache>,
    /// Its arguments' schema.
    input: JsonObject,
    completions: HashMap<String, Json>,
}

/// Where an argument's completions come from.
pub(crate) enum Completions<'a> {
    /// An enum's values: answered here.
    Values(Vec<&'a str>),
    /// The entry's `#[complete]` handler, through the port.
    Handler,
    /// Nothing completes it.
    None,
}

/// A tool's MCP App: a resource served from the catalogue, with no
/// handler.
#[derive(Clone, Debug)]
pub(crate) struct App {
    /// Its MIME type as listed: `text/html;profile=mcp-app` unless the
    /// listing says otherwise.
    pub(crate) mime: String,
    /// Its `_meta` as listed (the CSP under `ui`), which a read returns too.
    pub(crate) meta: Option<JsonObject>,
    /// The scopes its tool needs: a page whose tool the caller may not
    /// call is neither listed to it nor read by it.
    pub(crate) scopes: Vec<String>,
    /// The page.
    pub(crate) html: String,
}

/// A resource a URI names, and the URI's variables as its arguments.
pub(crate) struct Found<'a> {
    pub(crate) entry: &'a Entry,
    pub(crate) arguments: JsonObject,
}

/// The resources and prompts of a catalogue.
#[derive(Debug, Default)]
pub(crate) struct Entries {
    /// `resources/list`, `resources/templates/list` and `prompts/list`, as
    /// the schema gives them.
    pub(crate) resources: Vec<JsonObject>,
    pub(crate) templates: Vec<JsonObject>,
    pub(crate) prompts: Vec<JsonObject>,
    /// Every resource, its URI template compiled, fixed ones first.
    readers: Vec<(UriTemplate, Entry)>,
    getters: HashMap<String, Entry>,
    /// The tools' apps, by URI.
    apps: HashMap<String, App>,
}

impl Entries {
    /// Reads the entries of a catalogue's MCP schema text.
    ///
    /// # Errors
    /// When the text is not the schema's shape, or a URI is no template.
    pub(crate) fn parse(text: &str) -> Result<Self, serde_json::Error> {
        let mut listed: Listed = serde_json::from_str(text)?;
        let mut readers = Vec::new();
        let mut apps = HashMap::new();
        for (object, key) in listed
            .resources
            .iter()
            .map(|r| (r, "uri"))
            .chain(listed.resource_templates.iter().map(|r| (r, "uriTemplate")))
        {
            let uri = text_of(object, key);
            let name = text_of(object, "name");
            if let Some(html) = listed.apps.remove(uri) {
                let app = App {
                    mime: object
                        .get("mimeType")
                        .and_then(Json::as_str)
                        .unwrap_or(APP_MIME)
                        .to_owned(),
                    meta: object.get("_meta").and_then(Json::as_object).cloned(),
                    scopes: scopes_of(object),
                    html,
                };
                apps.insert(uri.to_owned(), app);
                continue;
            }
            let template = UriTemplate::parse(uri).map_err(serde::de::Error::custom)?;
            let reader = listed.readers.remove(name).ok_or_else(|| {
                serde::de::Error::custom(format!("resource `{name}` has no reader"))
            })?;
            let entry = Entry {
                name: name.to_owned(),
                mime: object
                    .get("mimeType")
                    .and_then(Json::as_str)
                    .map(str::to_owned),
                description: None,
                scopes: scopes_of(object),
                subscribable: reader.subscribable,
                cache: reader.cache,
                input: reader.input_schema,
                completions: reader.completions,
            };
            readers.push((template, entry));
        }
        let mut getters = HashMap::new();
        for object in &listed.prompts {
            let name = text_of(object, "name");
            let getter = listed.getters.remove(name).ok_or_else(|| {
                serde::de::Error::custom(format!("prompt `{name}` has no getter"))
            })?;
            let entry = Entry {
                name: name.to_owned(),
                mime: None,
                description: object
                    .get("description")
                    .and_then(Json::as_str)
                    .map(str::to_owned),
                scopes: scopes_of(object),
                subscribable: false,
                cache: None,
                input: getter.input_schema,
                completions: getter.completions,
            };
            getters.insert(name.to_owned(), entry);
        }
        Ok(Entries {
            resources: listed.resources,
            templates: listed.resource_templates,
            prompts: listed.prompts,
            readers,
            getters,
            apps,
        })
    }

    /// Whether the catalogue has resources (its tools' apps among them).
    pub(crate) fn has_resources(&self) -> bool {
        !self.readers.is_empty() || self.has_apps()
    }

    /// Whether a tool of the catalogue has an MCP App.
    pub(crate) fn has_apps(&self) -> bool {
        !self.apps.is_empty()
    }

    /// The app whose URI is `uri`.
    pub(crate) fn app(&self, uri: &str) -> Option<&App> {
        self.apps.get(uri)
    }

    /// Whether the catalogue has prompts.
    pub(crate) fn has_prompts(&self) -> bool {
        !self.getters.is_empty()
    }

    /// Whether a resource can be subscribed to.
    pub(crate) fn subscribes(&self) -> bool {
        self.readers.iter().any(|(_, e)| e.subscribable)
    }

    /// The subscribable resource `uri` names, if it names one.
    pub(crate) fn subscribable(&self, uri: &str) -> Option<&Entry> {
        self.readers
            .iter()
            .find(|(template, _)| template.matches(uri).is_some())
            .map(|(_, entry)| entry)
            .filter(|entry| entry.subscribable)
    }

    /// Whether any argument of an entry completes.
    pub(crate) fn completes(&self) -> bool {
        self.readers
            .iter()
            .map(|(_, e)| e)
            .chain(self.getters.values())
            .any(|e| !e.completions.is_empty())
    }

    /// The resource `uri` names (the first to match, in declaration order:
    /// the checker refuses two that can match one URI), its variables
    /// typed as its arguments' schema says.
    ///
    /// # Errors
    /// `None` when no resource matches; `Some(error)` when a variable's
    /// value is not of its type.
    pub(crate) fn resource(&self, uri: &str) -> Result<Found<'_>, Option<ToolError>> {
        let (values, entry) = self
            .readers
            .iter()
            .find_map(|(template, entry)| template.matches(uri).map(|values| (values, entry)))
            .ok_or(None)?;
        let arguments = typed(&entry.input, values.into_iter()).map_err(Some)?;
        Ok(Found { entry, arguments })
    }

    /// The resource whose URI or template is `uri` exactly, for a
    /// completion's `ref/resource`.
    pub(crate) fn resource_by_template(&self, uri: &str) -> Option<&Entry> {
        self.readers
            .iter()
            .find(|(template, _)| template.as_str() == uri)
            .map(|(_, entry)| entry)
    }

    /// The prompt called `name`.
    pub(crate) fn prompt(&self, name: &str) -> Option<&Entry> {
        self.getters.get(name)
    }
}

impl App {
    /// `Ok` when `principal` holds every scope the app's tool needs; else
    /// `FORBIDDEN`, as a call of the tool would be.
    ///
    /// # Errors
    /// `FORBIDDEN`, naming the scopes it lacks.
    pub(crate) fn permits(&self, uri: &str, principal: &crate::Principal) -> Result<(), ToolError> {
        holds(principal, uri, &self.scopes)
    }
}

impl Entry {
    /// `arguments` (strings, as MCP sends a prompt's) typed as the
    /// prompt's arguments' schema says.
    ///
    /// # Errors
    /// `INVALID_REQUEST` naming an argument whose value is not of its type.
    pub(crate) fn arguments(
        &self,
        arguments: impl Iterator<Item = (String, String)>,
    ) -> Result<JsonObject, ToolError> {
        typed(&self.input, arguments)
    }

    /// `Ok` when `principal` holds every scope the entry needs; else
    /// `FORBIDDEN`, as for a tool.
    ///
    /// # Errors
    /// `FORBIDDEN`, naming the scopes it lacks.
    pub(crate) fn permits(&self, principal: &crate::Principal) -> Result<(), ToolError> {
        holds(principal, &self.name, &self.scopes)
    }

    /// Where the completions of `argument` come from.
    pub(crate) fn completions(&self, argument: &str) -> Completions<'_> {
        match self.completions.get(argument) {
            Some(Json::Array(values)) => {
                Completions::Values(values.iter().filter_map(Json::as_str).collect())
            }
            Some(Json::String(source)) if source == "handler" => Completions::Handler,
            _ => Completions::None,
        }
    }
}

/// `Ok` when `principal` holds every scope of `scopes`, which `name`
/// needs; else `FORBIDDEN`, naming those it lacks.
fn holds(principal: &crate::Principal, name: &str, scopes: &[String]) -> Result<(), ToolError> {
    let needed: Vec<&str> = scopes.iter().map(String::as_str).collect();
    principal.may_use(name, &needed)
}

/// Each `(name, value)` as the JSON its property's schema wants: a number
/// or a boolean parsed, anything else kept as the string. An argument the
/// schema does not know is kept as a string, for the handler's decoder to
/// refuse by name.
fn typed(
    schema: &JsonObject,
    values: impl Iterator<Item = (String, String)>,
) -> Result<JsonObject, ToolError> {
    let properties = schema.get("properties").and_then(Json::as_object);
    let mut out = Map::new();
    for (name, value) in values {
        let kind = properties
            .and_then(|p| p.get(&name))
            .map_or("string", scalar_type);
        let typed = match kind {
            "integer" => value
                .parse::<i64>()
                .map(Json::from)
                .or_else(|_| value.parse::<u64>().map(Json::from))
                .ok(),
            "number" => value
                .parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
                .map(Json::Number),
            "boolean" => value.parse::<bool>().ok().map(Json::Bool),
            _ => {
                out.insert(name, Json::String(value));
                continue;
            }
        };
        let typed = typed.ok_or_else(|| {
            ToolError::invalid_request(format!("`{name}` must be {}, not `{value}`", article(kind)))
                .with_details(serde_json::json!({ "argument": name }))
        })?;
        out.insert(name, typed);
    }
    Ok(out)
}

/// The JSON type a property's schema names (the first besides `null`);
/// `string` for references (enums) and anything else.
fn scalar_type(schema: &Json) -> &str {
    match schema.get("type") {
        Some(Json::String(kind)) => kind,
        Some(Json::Array(kinds)) => kinds
            .iter()
            .filter_map(Json::as_str)
            .find(|k| *k != "null")
            .unwrap_or("string"),
        _ => "string",
    }
}

fn article(kind: &str) -> &'static str {
    match kind {
        "integer" => "an integer",
        "number" => "a number",
        "boolean" => "`true` or `false`",
        _ => "a string",
    }
}

fn text_of<'a>(object: &'a JsonObject, key: &str) -> &'a str {
    object.get(key).and_then(Json::as_str).unwrap_or_default()
}

/// The scopes a listed entry names in its `_meta`.
pub(crate) fn scopes_of(object: &JsonObject) -> Vec<String> {
    object
        .get("_meta")
        .and_then(|m| m.get(SCOPES_META))
        .and_then(Json::as_array)
        .map(|scopes| {
            scopes
                .iter()
                .filter_map(Json::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn entries() -> Entries {
        let schema = json!({
            "tools": [],
            "resources": [{"uri": "cas://licence", "name": "licence", "mimeType": "text/markdown"}],
            "resourceTemplates": [{
                "uriTemplate": "cas://listing/{prefix}{?page,all}", "name": "listing",
                "mimeType": "application/json", "_meta": {"toolwright/scopes": ["cas:read"]}
            }],
            "prompts": [{"name": "compose", "description": "Ask for a tune."}],
            "readers": {
                "licence": {"inputSchema": {"type": "object"}, "contents": "text", "subscribable": true},
                "listing": {
                    "inputSchema": {"type": "object", "properties": {
                        "prefix": {"type": "string"}, "page": {"type": "integer"},
                        "all": {"type": ["boolean", "null"]}
                    }},
                    "contents": "json", "subscribable": false,
                    "completions": {"prefix": "handler"}
                }
            },
            "getters": {"compose": {
                "inputSchema": {"type": "object", "properties": {"key": {"$ref": "#/$defs/Key"}}},
                "completions": {"key": ["c_major", "a_minor"]}
            }}
        });
        Entries::parse(&schema.to_string()).unwrap()
    }

    #[test]
    fn a_uri_finds_its_resource_with_its_variables_typed() {
        let entries = entries();
        let found = entries
            .resource("cas://listing/ab?page=2&all=true")
            .ok()
            .unwrap();
        assert_eq!(found.entry.name, "listing");
        assert_eq!(found.entry.scopes, ["cas:read"]);
        assert_eq!(
            Json::Object(found.arguments),
            json!({"prefix": "ab", "page": 2, "all": true})
        );
        let fixed = entries.resource("cas://licence").ok().unwrap();
        assert_eq!(fixed.entry.mime.as_deref(), Some("text/markdown"));
        assert!(matches!(entries.resource("cas://nothing"), Err(None)));
        let Err(Some(wrong)) = entries.resource("cas://listing/ab?page=two") else {
            panic!("a typed error");
        };
        assert_eq!(wrong.message, "`page` must be an integer, not `two`");
    }

    #[test]
    fn completions_say_where_they_come_from() {
        let entries = entries();
        let listing = entries
            .resource_by_template("cas://listing/{prefix}{?page,all}")
            .unwrap();
        assert!(matches!(
            listing.completions("prefix"),
            Completions::Handler
        ));
        assert!(matches!(listing.completions("page"), Completions::None));
        let compose = entries.prompt("compose").unwrap();
        let Completions::Values(keys) = compose.completions("key") else {
            panic!("an enum's values");
        };
        assert_eq!(keys, ["c_major", "a_minor"]);
        assert_eq!(compose.description.as_deref(), Some("Ask for a tune."));
        assert!(entries.has_resources() && entries.has_prompts() && entries.completes());
        assert!(entries.subscribes());
        assert!(entries.subscribable("cas://licence").is_some());
        assert!(entries.subscribable("cas://listing/ab").is_none());
        assert!(entries.subscribable("cas://nothing").is_none());
        let none = Entries::parse(r#"{"tools": []}"#).unwrap();
        assert!(!none.has_resources() && !none.has_prompts() && !none.completes());
        assert!(!none.subscribes());
    }

    #[test]
    fn an_app_is_served_from_the_schema_with_no_reader() {
        let schema = json!({
            "tools": [],
            "resources": [{
                "uri": "ui://add", "name": "add", "mimeType": "text/html;profile=mcp-app",
                "_meta": {"ui": {"csp": {"connectDomains": ["https://api.example.com"]}}}
            }],
            "apps": {"ui://add": "<!DOCTYPE html>"}
        });
        let entries = Entries::parse(&schema.to_string()).unwrap();
        assert!(entries.has_resources() && entries.has_apps());
        assert_eq!(entries.resources.len(), 1);
        let app = entries.app("ui://add").unwrap();
        assert_eq!(app.html, "<!DOCTYPE html>");
        assert_eq!(app.mime, APP_MIME);
        assert_eq!(
            app.meta.as_ref().unwrap()["ui"]["csp"]["connectDomains"][0],
            "https://api.example.com"
        );
        assert!(entries.app("ui://other").is_none());
        assert!(matches!(entries.resource("ui://add"), Err(None)));
        assert!(!entries.subscribes() && !entries.completes());
        assert!(!self::entries().has_apps());
    }
}
