//! `POST /api/prompts/{name}`: a prompt got through the port with a JSON
//! object of arguments, its messages answered as MCP's `GetPromptResult`;
//! a mounted server's prompt got through its mount.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::Web;
use super::call::{NO_SCOPES, admitted, answer, failed};
use crate::edge::entry_json::{ask, prompt_json};
use crate::entry::{EntryAnswer, EntryKind};
use crate::port::CallPort;
use crate::{Json, ResponseEnvelope, ToolError, codes};

pub(super) async fn serve<P: CallPort>(
    State(web): State<Arc<Web<P>>>,
    Path(name): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let (principal, args) = match admitted(&web, &headers, body).await {
        Ok(admitted) => admitted,
        Err(refused) => return refused,
    };
    let Some(entry) = web.entries.prompt(&name) else {
        // A name no catalogue prompt has may be a mount's.
        #[cfg(feature = "mount")]
        if let Some(got) = super::mounted_entries::prompt_of(&web, &name, args, principal).await {
            return got;
        }
        let e = ToolError::new(
            codes::UNKNOWN_ENTRY,
            format!("no prompt is called `{name}`"),
        )
        .with_details(json!({ "prompt": name }));
        return failed(&web, e, NO_SCOPES);
    };
    // A prompt's arguments are strings (or an enum's values), as MCP
    // sends them; a number or a boolean is taken as its text.
    let strings = args.into_iter().map(|(k, v)| match v {
        Json::String(text) => (k, text),
        other => (k, other.to_string()),
    });
    let arguments = match entry.arguments(strings) {
        Ok(arguments) => arguments,
        Err(e) => return failed(&web, e, &entry.scopes),
    };
    let options = super::call_options(principal);
    match ask(
        web.edge.port(),
        EntryKind::Prompt,
        entry,
        &arguments,
        options,
    )
    .await
    {
        Ok(ResponseEnvelope::Success(EntryAnswer::Prompt(messages))) => {
            let body = prompt_json(&messages, entry.description.as_deref());
            (
                [(header::CONTENT_TYPE, "application/json")],
                body.to_string(),
            )
                .into_response()
        }
        Ok(ResponseEnvelope::Error(e)) | Err(e) => failed(&web, e, &entry.scopes),
        Ok(_) => answer::<()>(&ResponseEnvelope::Error(ToolError::internal(
            "the server answered a prompt with something other than its messages",
        ))),
    }
}
