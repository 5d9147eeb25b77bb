//! `POST /api/tools/{name}`: JSON arguments in, the call's envelope out
//! as JSON, with an HTTP status that says how it ended.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::Web;
use super::events::query_values;
use crate::edge::{Edge, JsonObject, Outcome, Prepared};
use crate::http::body::Unread;
use crate::port::{CallOptions, CallPort};
use crate::{Json, Principal, ResponseEnvelope, ToolError, codes};

pub(super) async fn serve<P: CallPort>(
    State(web): State<Arc<Web<P>>>,
    Path(name): Path<String>,
    headers: HeaderMap,
    uri: Uri,
    body: Body,
) -> Response {
    let (principal, args) = match admitted(&web, &headers, body).await {
        Ok(admitted) => admitted,
        Err(refused) => return refused,
    };
    let tool = match Edge::<P>::tool(&name) {
        Ok(tool) => tool,
        Err(e) => {
            #[cfg(feature = "mount")]
            if web.edge.mounts().routes_tool(&name) {
                return super::mounted::call(&web, &name, args, principal).await;
            }
            web.edge.refused(&name, &e, principal.as_deref());
            return answer::<()>(&ResponseEnvelope::Error(e));
        }
    };
    #[cfg(feature = "otel")]
    let span = super::traced::span(tool.name, &headers, principal.as_ref());
    let mut options = super::call_options(principal);
    #[cfg(feature = "otel")]
    {
        options.span = Some(span.clone());
    }
    if super::streamed::wanted(&headers) {
        return streamed(&web, tool, args, options);
    }
    if let Some(wait) = query_values(uri.query().unwrap_or(""), "wait").first() {
        options = match (wait.as_str(), wait.parse::<u64>()) {
            ("done", _) => options.wait_until_done(),
            (_, Ok(ms)) => options.wait(Duration::from_millis(ms)),
            _ => {
                return answer::<()>(&invalid(format!(
                    "`wait` is a number of milliseconds or `done`, not `{wait}`"
                )));
            }
        };
    }
    let call = web.edge.call(tool, args, options);
    #[cfg(feature = "otel")]
    let call = tracing::Instrument::instrument(call, span.clone());
    let outcome = call.await;
    #[cfg(feature = "otel")]
    super::traced::record(&span, &outcome);
    match outcome {
        Outcome::Port(envelope) => answer(&envelope),
        Outcome::Edge(Ok(edge)) => answer(&ResponseEnvelope::Success(edge.value)),
        Outcome::Edge(Err(e)) => failed(&web, e, tool.scopes),
    }
}

/// A call whose client reads an event stream: readied by the edge, then
/// followed to its end (`streamed.rs`); one the edge answers is answered
/// as any call is.
fn streamed<P: CallPort>(
    web: &Arc<Web<P>>,
    tool: &'static crate::ToolInfo,
    mut args: JsonObject,
    options: CallOptions,
) -> Response {
    match web
        .edge
        .prepare(tool, &mut args, options.principal.as_deref())
    {
        Prepared::Call(request) => super::streamed::serve(web, tool, args, request, options),
        Prepared::Answered(Ok(edge)) => answer(&ResponseEnvelope::Success(edge.value)),
        Prepared::Answered(Err(e)) => failed(web, e, tool.scopes),
    }
}

/// The caller, admitted by the access rules, and its request's body as a
/// JSON object of arguments (an empty body is no arguments); or the
/// answer that refuses either.
pub(super) async fn admitted<P>(
    web: &Web<P>,
    headers: &HeaderMap,
    body: Body,
) -> Result<(Option<Arc<Principal>>, JsonObject), Response> {
    let principal = web
        .access
        .admit(headers)
        .await
        .map_err(IntoResponse::into_response)?;
    Ok((principal, arguments(web, headers, body).await?))
}

async fn arguments<P>(
    web: &Web<P>,
    headers: &HeaderMap,
    body: Body,
) -> Result<JsonObject, Response> {
    let limit = web.config.max_body_bytes;
    let bytes = match crate::http::body::read(headers, body, limit).await {
        Ok(bytes) => bytes,
        Err(Unread::TooLarge) => return Err(too_large(limit)),
        Err(Unread::Broken) => {
            return Err(failed(
                web,
                invalid_request("the request body was cut off"),
                NO_SCOPES,
            ));
        }
    };
    match serde_json::from_slice::<Json>(&bytes) {
        Ok(Json::Object(args)) => Ok(args),
        // An empty body is a call without arguments.
        Err(_) if bytes.iter().all(u8::is_ascii_whitespace) => Ok(JsonObject::new()),
        Ok(_) => Err(failed(
            web,
            invalid_request("the arguments must be a JSON object"),
            NO_SCOPES,
        )),
        Err(e) => Err(failed(
            web,
            invalid_request(format!("the body is not JSON: {e}")),
            NO_SCOPES,
        )),
    }
}

/// What [`failed`] names for an error no entry's scopes explain.
pub(super) const NO_SCOPES: &[&str] = &[];

/// An error as the error envelope with its status; a caller that lacks a
/// scope of `scopes` is told so in `WWW-Authenticate`, as RFC 6750 does.
pub(super) fn failed<P, S: AsRef<str>>(web: &Web<P>, e: ToolError, scopes: &[S]) -> Response {
    let forbidden = e.code == codes::FORBIDDEN;
    let mut response = answer::<()>(&ResponseEnvelope::Error(e));
    if forbidden {
        let scopes: Vec<&str> = scopes.iter().map(AsRef::as_ref).collect();
        let challenge = web.access.insufficient_scope(&scopes);
        if let Ok(value) = challenge.parse() {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, value);
        }
    }
    response
}

/// The envelope as JSON with its status (docs/web.md § Calling a tool).
pub(super) fn answer<R: Serialize>(envelope: &ResponseEnvelope<R>) -> Response {
    let status = match envelope {
        ResponseEnvelope::JobStarted { .. } => StatusCode::ACCEPTED,
        ResponseEnvelope::Error(e) => match e.code.as_ref() {
            codes::INVALID_REQUEST | codes::UNKNOWN_ACTION => StatusCode::BAD_REQUEST,
            codes::UNKNOWN_TOOL | codes::UNKNOWN_ENTRY => StatusCode::NOT_FOUND,
            codes::FORBIDDEN => StatusCode::FORBIDDEN,
            codes::UNAVAILABLE | codes::BUSY => StatusCode::SERVICE_UNAVAILABLE,
            _ => StatusCode::OK,
        },
        _ => StatusCode::OK,
    };
    match serde_json::to_vec(envelope) {
        Ok(body) => (status, [(header::CONTENT_TYPE, "application/json")], body).into_response(),
        Err(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the answer has no JSON form: {e}"),
        )
            .into_response(),
    }
}

fn invalid(message: impl Into<String>) -> ResponseEnvelope<()> {
    ResponseEnvelope::Error(invalid_request(message))
}

pub(super) fn invalid_request(message: impl Into<String>) -> ToolError {
    ToolError::new(codes::INVALID_REQUEST, message)
}

fn too_large(limit: usize) -> Response {
    (
        StatusCode::PAYLOAD_TOO_LARGE,
        // What is left of the body is not read: the connection is done.
        [(header::CONNECTION, "close")],
        format!("Payload Too Large: the limit is {limit} bytes"),
    )
        .into_response()
}
