//! What a session lists and can call: the served tools, the discovery
//! tools of a progressive server, and each tool's `tools/list` entry.

use rmcp::model::CacheScope;
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::json;

use super::McpServer;
use super::owner::principal_of;
use crate::mcp::discovery::view::NAMES;
use crate::mcp::entries::apps;
use crate::mcp::tools::catalogue::ERROR_SCHEMA_META;
use crate::port::CallPort;
use crate::{Catalogue, ToolInfo};

impl<P: CallPort> McpServer<P> {
    /// The served tool with this name.
    pub(in crate::mcp) fn served_tool(&self, name: &str) -> Option<&'static ToolInfo> {
        P::Catalogue::tool(name).filter(|tool| self.shared.served.serves(tool))
    }

    /// True when `name` is a discovery tool of this (progressive) server.
    pub(in crate::mcp) fn discovers(&self, name: &str) -> bool {
        self.shared.discovery.is_some() && NAMES.contains(&name)
    }

    /// The `tools/list` entry of a discovery tool (when discovery is
    /// progressive) or of a served tool.
    pub(in crate::mcp) fn definition(&self, name: &str) -> Option<&rmcp::model::Tool> {
        let discovered = self.shared.discovery.as_deref().map(|d| d.tools.iter());
        discovered
            .into_iter()
            .flatten()
            .find(|t| t.name == name)
            .or_else(|| self.shared.schema.tool(self.served_tool(name)?.name))
    }

    /// What `describe_tools` gives of a tool: its `tools/list` entry with
    /// its error schema in `_meta`, which the listing leaves out to stay
    /// lean (a mounted tool's entry as listed).
    pub(in crate::mcp) fn described(&self, name: &str) -> Option<serde_json::Value> {
        let Some(definition) = self.definition(name) else {
            // A mounted tool's entry is as its server listed it.
            #[cfg(feature = "mount")]
            return serde_json::to_value(self.mounted_tool(name)?).ok();
            #[cfg(not(feature = "mount"))]
            return None;
        };
        let mut definition = serde_json::to_value(definition).ok()?;
        if let Some(errors) = self.shared.schema.error_schema(name)
            && let Some(object) = definition.as_object_mut()
        {
            let meta = object
                .entry("_meta")
                .or_insert_with(|| serde_json::json!({}));
            if let Some(meta) = meta.as_object_mut() {
                meta.insert(
                    ERROR_SCHEMA_META.to_owned(),
                    serde_json::Value::Object(errors.clone()),
                );
            }
        }
        Some(definition)
    }

    /// This session's `tools/list`: the served tools, or with progressive
    /// discovery the discovery tools and those the session has found, with
    /// the job tools once one of those may answer with a job.
    pub(in crate::mcp) fn listed(&self) -> Vec<rmcp::model::Tool> {
        let view = self
            .session
            .view
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let shown = |tool: &ToolInfo| {
            self.shared.served.serves(tool) && (self.shared.discovery.is_none() || view.shows(tool))
        };
        let jobs = <P::Catalogue as Catalogue>::TOOLS
            .iter()
            .any(|t| !t.builtin && t.timing != crate::ToolTiming::Sync && shown(t));
        let discovered = self.shared.discovery.as_deref().map(|d| d.tools.iter());
        let served = self.shared.schema.tools.iter().filter(|tool| {
            P::Catalogue::tool(&tool.name)
                .is_some_and(|info| if info.builtin { jobs } else { shown(info) })
        });
        discovered
            .into_iter()
            .flatten()
            .chain(served)
            .cloned()
            .collect()
    }

    /// The one page of `tools/list` a request gets, on any revision, with
    /// how long it stays fresh and who may share it (2026-07-28, SEP-2549);
    /// to a client that renders no apps, without the tools' `_meta.ui`.
    ///
    /// # Errors
    /// `-32602` for any cursor: the whole list fits one page, so the
    /// server never issues one, and one it is given was made up or belongs
    /// to another server.
    pub(in crate::mcp) fn tools_page(
        &self,
        cursor: Option<&str>,
        context: &RequestContext<RoleServer>,
    ) -> Result<ToolsPage, ErrorData> {
        no_cursor(cursor, "tool")?;
        let mut tools = self.listed();
        #[cfg(feature = "mount")]
        tools.extend(self.mounted_tools());
        if !apps::renders(context.client_capabilities().as_ref()) {
            tools.iter_mut().for_each(apps::without_app);
        }
        // With `list_callable_only`, the tools the caller's principal may
        // not call are left out.
        let principal = principal_of(&context.extensions).filter(|_| self.shared.callable_only);
        if let Some(principal) = &principal {
            tools.retain(|tool| match P::Catalogue::tool(&tool.name) {
                Some(info) => principal.may_call(info).is_ok(),
                #[cfg(feature = "mount")]
                None => principal
                    .missing(&self.mounted_scopes(&tool.name))
                    .is_empty(),
                #[cfg(not(feature = "mount"))]
                None => true,
            });
        }
        // A list that changes within a session (progressive discovery) is
        // not kept at all; one filtered by the caller's principal is the
        // caller's alone.
        let discovers = self.shared.discovery.is_some();
        let personal = discovers || principal.is_some();
        // Neither is one that mounted servers' coming and going changes.
        let changes = discovers || self.has_mounts();
        Ok(ToolsPage {
            tools,
            ttl_ms: if changes { 0 } else { LIST_TTL_MS },
            scope: if personal {
                CacheScope::Private
            } else {
                CacheScope::Public
            },
        })
    }
}

/// How long a list (`tools/list`, and the lists of resources and prompts)
/// stays fresh when nothing in the session can change it: the catalogue
/// is compiled in, so only a redeploy does, and a minute bounds how long a
/// client keeps a list from before one.
pub(super) const LIST_TTL_MS: u64 = 60_000;

/// `-32602` for any cursor of a list whose every `listed` fits one page:
/// the server never issues one, so one it is given was made up or belongs
/// to another server.
pub(super) fn no_cursor(cursor: Option<&str>, listed: &str) -> Result<(), ErrorData> {
    match cursor {
        Some(cursor) => Err(ErrorData::invalid_params(
            format!(
                "unknown cursor: this server lists every {listed} in one page and issues no cursors"
            ),
            Some(json!({ "cursor": cursor })),
        )),
        None => Ok(()),
    }
}

/// A `tools/list` answer before its revision's shape is put on it.
pub(in crate::mcp) struct ToolsPage {
    /// The tools listed.
    pub(in crate::mcp) tools: Vec<rmcp::model::Tool>,
    /// `ttlMs`.
    pub(in crate::mcp) ttl_ms: u64,
    /// `cacheScope`.
    pub(in crate::mcp) scope: CacheScope,
}
