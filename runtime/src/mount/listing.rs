//! What a mounted server lists, with the mount's prefix on every name and
//! URI: its tools, resources, resource templates and prompts.

use std::collections::HashMap;

use rmcp::Peer;
use rmcp::model::Tool;
use rmcp::service::{RoleClient, ServiceError};
use serde::Serialize;
use serde_json::{Map, Value as Json};

use super::names::{prefixed, prefixed_uri};

/// A JSON object: a listed resource or prompt, as MCP writes it.
type JsonObject = Map<String, Json>;

/// The `_meta` key a mounted entry names its mount under; its value is
/// the prefix.
pub(crate) const MOUNT_META: &str = "toolwright/mount";
/// The `_meta` key a listed tool names the scopes it needs under, as a
/// catalogue tool does.
const SCOPES_META: &str = "toolwright/scopes";

/// One mounted server's lists, as served.
#[derive(Debug, Default)]
pub(crate) struct Listing {
    /// Its tools, named `<prefix>_<name>`.
    pub(crate) tools: Vec<Tool>,
    /// Its resources and templates, their URIs prefixed.
    pub(crate) resources: Vec<JsonObject>,
    pub(crate) templates: Vec<JsonObject>,
    /// Its prompts, named `<prefix>_<name>`.
    pub(crate) prompts: Vec<JsonObject>,
    /// The mounted server's own name of each served tool and prompt name.
    pub(crate) tool_names: HashMap<String, String>,
    pub(crate) prompt_names: HashMap<String, String>,
}

impl Listing {
    /// Lists everything `peer` declares it has, every page of it.
    ///
    /// # Errors
    /// The first request that fails.
    pub(super) async fn of(
        prefix: &str,
        scopes: &[String],
        peer: &Peer<RoleClient>,
    ) -> Result<Self, ServiceError> {
        let capabilities = peer.peer_info().map(|info| info.capabilities.clone());
        let has = |kind: fn(&rmcp::model::ServerCapabilities) -> bool| {
            capabilities.as_ref().is_some_and(kind)
        };
        let mut listing = Listing::default();
        if has(|c| c.tools.is_some()) {
            for mut tool in peer.list_all_tools().await? {
                let served = prefixed(prefix, &tool.name);
                listing
                    .tool_names
                    .insert(served.clone(), tool.name.to_string());
                tool.name = served.into();
                let mut meta = tool.meta.take().unwrap_or_default();
                meta.0.insert(MOUNT_META.to_owned(), prefix.into());
                meta.0.insert(SCOPES_META.to_owned(), scopes.into());
                tool.meta = Some(meta);
                listing.tools.push(tool);
            }
        }
        if has(|c| c.resources.is_some()) {
            listing.resources = peer
                .list_all_resources()
                .await?
                .iter()
                .filter_map(|r| renamed(r, "uri", |uri| prefixed_uri(prefix, uri), prefix, scopes))
                .collect();
            listing.templates = peer
                .list_all_resource_templates()
                .await?
                .iter()
                .filter_map(|r| {
                    renamed(
                        r,
                        "uriTemplate",
                        |uri| prefixed_uri(prefix, uri),
                        prefix,
                        scopes,
                    )
                })
                .collect();
        }
        if has(|c| c.prompts.is_some()) {
            for prompt in peer.list_all_prompts().await? {
                let served = prefixed(prefix, &prompt.name);
                if let Some(object) = renamed(&prompt, "name", |_| served.clone(), prefix, scopes) {
                    listing.prompt_names.insert(served, prompt.name.clone());
                    listing.prompts.push(object);
                }
            }
        }
        Ok(listing)
    }
}

/// `item` as a JSON object with `key` renamed by `rename`, and the mount
/// and the scopes it needs in its `_meta`.
fn renamed(
    item: &impl Serialize,
    key: &str,
    rename: impl Fn(&str) -> String,
    prefix: &str,
    scopes: &[String],
) -> Option<JsonObject> {
    let Ok(Json::Object(mut object)) = serde_json::to_value(item) else {
        return None;
    };
    let served = rename(object.get(key)?.as_str()?);
    object.insert(key.to_owned(), served.into());
    let meta = object
        .entry("_meta")
        .or_insert_with(|| Json::Object(JsonObject::new()));
    if let Some(meta) = meta.as_object_mut() {
        meta.insert(MOUNT_META.to_owned(), prefix.into());
        meta.insert(SCOPES_META.to_owned(), scopes.into());
    }
    Some(object)
}
