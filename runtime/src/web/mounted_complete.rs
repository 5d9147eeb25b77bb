//! `POST /api/complete` for a mounted server's prompt or resource
//! template: the request as MCP's `completion/complete`, sent through its
//! mount, and the values answered as the catalogue's are.

use std::collections::HashMap;
use std::sync::Arc;

use axum::http::header;
use axum::response::{IntoResponse, Response};
use rmcp::model::{ArgumentInfo, CompleteRequestParams, CompletionContext, Reference};
use serde_json::json;

use super::Web;
use super::call::failed;
use crate::Principal;
use crate::port::CallPort;

/// What is completed, as the route's body names it.
pub(super) enum Asked<'a> {
    /// A template's variable, by the template as served.
    Template(&'a str),
    /// A prompt's argument, by the prompt's served name.
    Prompt(&'a str),
}

/// Completes `argument` (its name and the value typed so far) of the
/// mounted entry `asked` names, with the other arguments' values in
/// `context`; `None` when no mount serves it.
pub(super) async fn complete<P: CallPort>(
    web: &Web<P>,
    asked: Asked<'_>,
    argument: (&str, &str),
    context: HashMap<String, String>,
    principal: Option<Arc<Principal>>,
) -> Option<Response> {
    let mounts = web.edge.mounts();
    if mounts.is_empty() {
        return None;
    }
    let (reference, scopes) = match asked {
        Asked::Template(uri) => (
            Reference::for_resource(uri),
            mounts
                .mount_of_uri(uri)
                .map_or(&[][..], |(_, scopes)| scopes),
        ),
        Asked::Prompt(name) => (Reference::for_prompt(name), mounts.scopes_of(name)),
    };
    let mut request =
        CompleteRequestParams::new(reference, ArgumentInfo::new(argument.0, argument.1));
    if !context.is_empty() {
        request = request.with_context(CompletionContext::with_arguments(context));
    }
    let completed = mounts.complete(request, principal.as_deref()).await?;
    Some(match completed {
        Ok(result) => {
            let info = result.completion;
            let mut body = json!({
                "values": info.values,
                "hasMore": info.has_more.unwrap_or(false),
            });
            if let Some(total) = info.total {
                body["total"] = total.into();
            }
            (
                [(header::CONTENT_TYPE, "application/json")],
                body.to_string(),
            )
                .into_response()
        }
        Err(e) => failed(web, e.into_tool_error(), scopes),
    })
}
