//! `resources/list`, `resources/templates/list`, `resources/read`,
//! `prompts/list`, `prompts/get` and `completion/complete`: the lists from
//! the schema, the rest through the port's
//! [`entry`](crate::port::CallPort::entry), so a worker behind the HOOT01
//! gateway answers them as the in-process dispatcher does.

use std::sync::Arc;

use rmcp::model::{
    CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResult, JsonObject,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResult, Reference,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::{Value as Json, json};
use tokio::sync::mpsc;

use super::McpServer;
use super::listing::{LIST_TTL_MS, no_cursor};
use super::owner::principal_of;
use crate::edge::entry_json::{Completing, completing};
use crate::edge::{Entries, Entry, scopes_of};
use crate::entry::EntryKind;
use crate::mcp::entries::answer;
use crate::mcp::talk_back::caller::McpCaller;
use crate::mcp::talk_back::told::{Told, drain, tell};
use crate::port::{CallOptions, CallPort};

/// The lists of entries MCP has.
#[derive(Clone, Copy)]
pub(super) enum EntryList {
    /// `resources/list`: the resources with a fixed URI.
    Resources,
    /// `resources/templates/list`.
    Templates,
    /// `prompts/list`.
    Prompts,
}

/// `-32601` for a method of a capability the server does not declare, as
/// rmcp answers it.
pub(super) fn not_found(method: &'static str) -> ErrorData {
    ErrorData::new(rmcp::model::ErrorCode::METHOD_NOT_FOUND, method, None)
}

/// One page of a list: every item (a catalogue's lists fit one page), or
/// `-32602` for a cursor, which the server never issues.
fn page(
    (key, listed): (&str, &str),
    items: &[JsonObject],
    cursor: Option<&str>,
    personal: bool,
    keep: impl Fn(&JsonObject) -> bool,
    changes: bool,
) -> Result<Json, ErrorData> {
    no_cursor(cursor, listed)?;
    let items: Vec<&JsonObject> = items.iter().filter(|i| keep(i)).collect();
    let scope = if personal { "private" } else { "public" };
    Ok(json!({
        "resultType": "complete",
        key: items,
        "ttlMs": if changes { 0 } else { LIST_TTL_MS },
        "cacheScope": scope,
    }))
}

impl<P: CallPort> McpServer<P> {
    /// The catalogue's resources and prompts, as the schema gives them.
    pub(super) fn entries(&self) -> &Entries {
        &self.shared.schema.entries
    }

    /// A list, with `list_callable_only` leaving out what the caller may
    /// not use; `-32601` when the catalogue has none of its kind (the
    /// capability is not declared).
    pub(super) fn entry_list<T: serde::de::DeserializeOwned>(
        &self,
        list: EntryList,
        request: Option<PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
    ) -> Result<T, ErrorData> {
        let entries = self.entries();
        let (key, items, method) = match list {
            EntryList::Resources => (
                ("resources", "resource"),
                &entries.resources,
                "resources/list",
            ),
            EntryList::Templates => (
                ("resourceTemplates", "resource template"),
                &entries.templates,
                "resources/templates/list",
            ),
            EntryList::Prompts => (("prompts", "prompt"), &entries.prompts, "prompts/list"),
        };
        let declared = match list {
            EntryList::Resources | EntryList::Templates => entries.has_resources(),
            EntryList::Prompts => entries.has_prompts(),
        };
        if !declared && !self.has_mounts() {
            return Err(not_found(method));
        }
        #[cfg(feature = "mount")]
        let items = &{
            let mut all = items.clone();
            all.extend(self.mounted_entries(list));
            all
        };
        let cursor = request.as_ref().and_then(|r| r.cursor.as_deref());
        let principal = principal_of(&context.extensions).filter(|_| self.shared.callable_only);
        let keep = |item: &JsonObject| {
            let needed = scopes_of(item);
            let needed: Vec<&str> = needed.iter().map(String::as_str).collect();
            principal
                .as_ref()
                .is_none_or(|p| p.missing(&needed).is_empty())
        };
        let page = page(
            key,
            items,
            cursor,
            principal.is_some(),
            keep,
            self.has_mounts(),
        )?;
        serde_json::from_value(page)
            .map_err(|e| ErrorData::internal_error(format!("cannot build the list: {e}"), None))
    }

    /// The options an entry's request goes to the port with: the caller's
    /// principal, the request's cancellation, and the caller that hears
    /// what the handler says (logs; a question is `UNSUPPORTED`, as no
    /// entry's result can ask for input).
    fn entry_options(
        &self,
        context: &RequestContext<RoleServer>,
    ) -> (CallOptions, mpsc::Receiver<Told>) {
        let (caller, told) = McpCaller::for_request(context, &self.session.log_level);
        let mut options = CallOptions::default()
            .cancel_on(context.ct.clone())
            .caller(Arc::new(caller));
        if let Some(principal) = principal_of(&context.extensions) {
            options = options.principal(principal);
        }
        (options, told)
    }

    /// Sends `{kind: name, …arguments}` to the port, telling the client
    /// what the handler says while it runs. A caller whose principal lacks
    /// a scope of the entry's is refused here, before the port (which
    /// checks again, where the handler runs).
    async fn ask(
        &self,
        kind: EntryKind,
        entry: &Entry,
        arguments: &JsonObject,
        context: &RequestContext<RoleServer>,
    ) -> Result<crate::ResponseEnvelope<crate::entry::EntryAnswer>, crate::ToolError> {
        let name = entry.name.as_str();
        if let Some(principal) = principal_of(&context.extensions) {
            entry.permits(&principal)?;
        }
        let port = self.shared.edge.port();
        let request =
            crate::edge::request_msgpack_tagged(kind.tag(), name, arguments, port.limits())?;
        let (options, mut told) = self.entry_options(context);
        let answer = port.entry(request, options);
        tokio::pin!(answer);
        let peer = &context.peer;
        let mut progress = None;
        let envelope = loop {
            tokio::select! {
                envelope = &mut answer => break envelope,
                Some(said) = told.recv() => tell(peer, &mut progress, said).await,
            }
        };
        drain(&mut told, peer, &mut progress).await;
        Ok(envelope)
    }

    /// `resources/read`: the resource whose URI (or template) matches.
    pub(super) async fn read(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, ErrorData> {
        if !self.entries().has_resources() && !self.has_mounts() {
            return Err(not_found("resources/read"));
        }
        let uri = request.uri.as_str();
        // A tool's app is the catalogue's own: no handler, no port; only
        // its tool's callers read it.
        if let Some(app) = self.entries().app(uri) {
            if let Some(principal) = principal_of(&context.extensions) {
                app.permits(uri, &principal)
                    .map_err(|e| answer::error(e, "uri", uri))?;
            }
            return Ok(answer::app(uri, app));
        }
        let found = match self.entries().resource(uri) {
            Ok(found) => found,
            Err(None) => {
                #[cfg(feature = "mount")]
                if let Some(read) = self.read_mounted(uri, &context).await {
                    return read;
                }
                return Err(ErrorData::invalid_params(
                    format!("no resource has the URI `{uri}`"),
                    Some(json!({ "uri": uri })),
                ));
            }
            Err(Some(e)) => return Err(answer::error(e, "uri", uri)),
        };
        let entry = found.entry;
        let envelope = self
            .ask(EntryKind::Resource, entry, &found.arguments, &context)
            .await
            .map_err(|e| answer::error(e, "uri", uri))?;
        answer::contents(uri, entry, envelope)
    }

    /// `prompts/get`: the prompt's messages for its arguments.
    pub(super) async fn prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResult, ErrorData> {
        if !self.entries().has_prompts() && !self.has_mounts() {
            return Err(not_found("prompts/get"));
        }
        #[cfg(feature = "mount")]
        let mut request = request;
        #[cfg(feature = "mount")]
        if self.entries().prompt(&request.name).is_none()
            && let Some(got) = self.prompt_mounted(&mut request, &context).await
        {
            return got;
        }
        let name = request.name.as_str();
        let Some(entry) = self.entries().prompt(name) else {
            return Err(ErrorData::invalid_params(
                format!("no prompt is called `{name}`"),
                Some(json!({ "name": name })),
            ));
        };
        let strings = request
            .arguments
            .unwrap_or_default()
            .into_iter()
            .map(|(k, v)| (k, crate::edge::entry_json::argument_text(v)));
        let arguments = entry
            .arguments(strings)
            .map_err(|e| answer::error(e, "name", name))?;
        let envelope = self
            .ask(EntryKind::Prompt, entry, &arguments, &context)
            .await
            .map_err(|e| answer::error(e, "name", name))?;
        answer::prompt(name, entry.description.as_deref(), envelope)
    }

    /// `completion/complete`: an enum's values from the schema, an
    /// `@complete` argument's from its handler, nothing for the rest; a
    /// mounted prompt's or template's from its server.
    pub(super) async fn complete_argument(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        if !self.entries().completes() && !self.has_mounts() {
            return Err(not_found("completion/complete"));
        }
        let (entry, shown) = match &request.r#ref {
            Reference::Prompt(prompt) => {
                (self.entries().prompt(&prompt.name), prompt.name.as_str())
            }
            Reference::Resource(resource) => (
                self.entries().resource_by_template(&resource.uri),
                resource.uri.as_str(),
            ),
            // A kind of reference newer than this server: nothing it
            // serves can be completed through it.
            _ => (None, ""),
        };
        let Some(entry) = entry else {
            let shown = shown.to_owned();
            #[cfg(feature = "mount")]
            if let Some(completed) = self.complete_mounted(request, &context).await {
                return completed;
            }
            return Err(ErrorData::invalid_params(
                format!("nothing to complete: no prompt or resource template is `{shown}`"),
                Some(json!({ "ref": shown })),
            ));
        };
        let argument = &request.argument;
        let context_arguments = request
            .context
            .and_then(|c| c.arguments)
            .unwrap_or_default();
        let context_arguments: JsonObject = context_arguments
            .into_iter()
            .map(|(k, v)| (k, Json::String(v)))
            .collect();
        match completing(entry, &argument.name, &argument.value, &context_arguments) {
            Completing::Done(completion) => answer::completion(completion),
            Completing::Ask(asked) => {
                let envelope = self
                    .ask(EntryKind::Complete, entry, &asked, &context)
                    .await
                    .map_err(|e| answer::error(e, "ref", shown))?;
                answer::completion_of(shown, envelope)
            }
        }
    }
}
