//! `POST /api/complete`: the values an argument of a resource template or
//! a prompt may take, as MCP's `completion/complete` gives them — an
//! enum's from the schema with no call, an `@complete` argument's from its
//! handler through the port, a mounted server's through its mount.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use super::Web;
use super::call::{NO_SCOPES, admitted, answer, failed, invalid_request};
use crate::edge::JsonObject;
use crate::edge::entry_json::{Completing, argument_text, ask, completing, completion_json};
use crate::entry::{EntryAnswer, EntryKind};
use crate::port::CallPort;
use crate::{Json, ResponseEnvelope, ToolError, codes};

/// The request's body.
#[derive(Deserialize)]
struct Asked {
    #[serde(rename = "ref")]
    reference: Reference,
    argument: Argument,
    #[serde(default)]
    context: Context,
}

/// What is completed: a resource template's variable or a prompt's
/// argument.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum Reference {
    Resource { uri: String },
    Prompt { name: String },
}

#[derive(Deserialize)]
struct Argument {
    name: String,
    #[serde(default)]
    value: String,
}

#[derive(Default, Deserialize)]
struct Context {
    #[serde(default)]
    arguments: JsonObject,
}

pub(super) async fn serve<P: CallPort>(
    State(web): State<Arc<Web<P>>>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let (principal, object) = match admitted(&web, &headers, body).await {
        Ok(admitted) => admitted,
        Err(refused) => return refused,
    };
    let asked: Asked = match serde_json::from_value(Json::Object(object)) {
        Ok(asked) => asked,
        Err(e) => {
            let e = invalid_request(format!(
                "the body is {{\"ref\": {{\"type\": \"resource\", \"uri\"}} or {{\"type\": \
                 \"prompt\", \"name\"}}, \"argument\": {{\"name\", \"value\"}}}}: {e}"
            ));
            return failed(&web, e, NO_SCOPES);
        }
    };
    let (entry, shown) = match &asked.reference {
        Reference::Resource { uri } => (web.entries.resource_by_template(uri), uri),
        Reference::Prompt { name } => (web.entries.prompt(name), name),
    };
    let Some(entry) = entry else {
        #[cfg(feature = "mount")]
        if let Some(completed) = complete_mounted(&web, &asked, principal).await {
            return completed;
        }
        let e = ToolError::new(
            codes::UNKNOWN_ENTRY,
            format!("nothing to complete: no prompt or resource template is `{shown}`"),
        )
        .with_details(json!({ "ref": shown }));
        return failed(&web, e, NO_SCOPES);
    };
    // The other arguments as the handler takes them: strings.
    let context: JsonObject = asked
        .context
        .arguments
        .into_iter()
        .map(|(k, v)| (k, Json::String(argument_text(v))))
        .collect();
    let argument = &asked.argument;
    let completion = match completing(entry, &argument.name, &argument.value, &context) {
        Completing::Done(completion) => completion,
        Completing::Ask(request) => {
            let options = super::call_options(principal);
            match ask(
                web.edge.port(),
                EntryKind::Complete,
                entry,
                &request,
                options,
            )
            .await
            {
                Ok(ResponseEnvelope::Success(EntryAnswer::Completion(c))) => c,
                Ok(ResponseEnvelope::Error(e)) | Err(e) => return failed(&web, e, &entry.scopes),
                Ok(_) => {
                    return answer::<()>(&ResponseEnvelope::Error(ToolError::internal(
                        "the server answered a completion with something else",
                    )));
                }
            }
        }
    };
    (
        [(header::CONTENT_TYPE, "application/json")],
        completion_json(completion).to_string(),
    )
        .into_response()
}

/// `asked` completed by the mount that serves what it names; `None` when
/// none does.
#[cfg(feature = "mount")]
async fn complete_mounted<P: CallPort>(
    web: &Web<P>,
    asked: &Asked,
    principal: Option<Arc<crate::Principal>>,
) -> Option<Response> {
    use super::mounted_complete::{Asked as Mounted, complete};
    let mounted = match &asked.reference {
        Reference::Resource { uri } => Mounted::Template(uri),
        Reference::Prompt { name } => Mounted::Prompt(name),
    };
    // MCP sends the other arguments as strings.
    let context = asked
        .context
        .arguments
        .iter()
        .map(|(k, v)| (k.clone(), argument_text(v.clone())))
        .collect();
    let argument = (asked.argument.name.as_str(), asked.argument.value.as_str());
    complete(web, mounted, argument, context, principal).await
}
