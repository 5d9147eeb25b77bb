//! `GET /api/resources?uri=<uri>`: a resource read through the port, its
//! contents answered as the body itself in their MIME type (so
//! `<img src>` and `fetch(…).text()` read it), kept as long as its
//! `@cache` says; a tool's app (`ui://<tool>`) answered from the
//! catalogue; a mounted server's resource read through its mount.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::Web;
use super::call::{NO_SCOPES, answer, failed, invalid_request};
use crate::edge::entry_json::ask;
use crate::edge::{App, Entry};
use crate::entry::{EntryAnswer, EntryKind, ResourceBody, ResourceContents};
use crate::port::CallPort;
use crate::{ResponseEnvelope, ToolError, codes};

pub(super) async fn serve<P: CallPort>(
    State(web): State<Arc<Web<P>>>,
    headers: HeaderMap,
    uri: Uri,
) -> Response {
    let principal = match web.access.admit(&headers).await {
        Ok(principal) => principal,
        Err(refused) => return refused.into_response(),
    };
    let Some(wanted) = query_value(uri.query().unwrap_or(""), "uri") else {
        let e = invalid_request("`uri` is required: GET /api/resources?uri=<the resource's URI>");
        return failed(&web, e, NO_SCOPES);
    };
    // A tool's app is the catalogue's own, as on MCP: no handler, no port.
    if let Some(app) = web.entries.app(&wanted) {
        if let Some(principal) = &principal
            && let Err(e) = app.permits(&wanted, principal)
        {
            return failed(&web, e, &app.scopes);
        }
        return page(app);
    }
    let found = match web.entries.resource(&wanted) {
        Ok(found) => found,
        Err(None) => {
            // A URI no catalogue resource matches may be a mount's.
            #[cfg(feature = "mount")]
            if let Some(read) = super::mounted_entries::read(&web, &wanted, principal).await {
                return read;
            }
            let e = ToolError::new(
                codes::UNKNOWN_ENTRY,
                format!("no resource has the URI `{wanted}`"),
            )
            .with_details(json!({ "resource": wanted }));
            return failed(&web, e, NO_SCOPES);
        }
        Err(Some(e)) => return failed(&web, e, NO_SCOPES),
    };
    let entry = found.entry;
    let options = super::call_options(principal);
    let port = web.edge.port();
    match ask(port, EntryKind::Resource, entry, &found.arguments, options).await {
        Ok(ResponseEnvelope::Success(EntryAnswer::Contents(contents))) => body(entry, contents),
        Ok(ResponseEnvelope::Error(e)) | Err(e) => failed(&web, e, &entry.scopes),
        Ok(other) => {
            let kind = match other {
                ResponseEnvelope::Success(_) => "another entry's answer",
                _ => "a job",
            };
            let e = ToolError::internal(format!("the server answered a read with {kind}"));
            answer::<()>(&ResponseEnvelope::Error(e))
        }
    }
}

/// A tool's app as the response's body, in its declared MIME type as MCP
/// gives it (hosts match the type whole); without `@cache`, so
/// `no-cache`.
fn page(app: &App) -> Response {
    respond(&app.mime, app.html.clone().into_bytes(), "no-cache")
}

/// The contents as the response's body: in the read's own MIME type when
/// it has one, else the declared one; text as UTF-8.
fn body(entry: &Entry, contents: ResourceContents) -> Response {
    let mime = contents
        .mime_type
        .as_deref()
        .or(entry.mime.as_deref())
        .unwrap_or("application/octet-stream");
    let (mime, bytes) = match contents.body {
        ResourceBody::Text(text) if mime.contains("charset=") => {
            (mime.to_owned(), text.into_bytes())
        }
        ResourceBody::Text(text) => (format!("{mime}; charset=utf-8"), text.into_bytes()),
        ResourceBody::Blob(bytes) => (mime.to_owned(), bytes.0),
    };
    respond(&mime, bytes, &cache_control(entry))
}

/// A `200` with `bytes` as the body, of type `mime`, kept as `cache` says.
pub(super) fn respond(mime: &str, bytes: Vec<u8>, cache: &str) -> Response {
    let mut response = (StatusCode::OK, bytes).into_response();
    let head = response.headers_mut();
    let content_type = HeaderValue::from_str(mime)
        .unwrap_or_else(|_| HeaderValue::from_static("application/octet-stream"));
    head.insert(header::CONTENT_TYPE, content_type);
    if let Ok(cache) = HeaderValue::from_str(cache) {
        head.insert(header::CACHE_CONTROL, cache);
    }
    // A handler chooses the MIME type: an HTML or SVG resource must not
    // run script in this origin, whoever opens it. An app's page is HTML
    // for a host to render in a sandboxed frame of its own, so it is no
    // exception: it reaches this origin only through its host.
    head.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    head.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'; sandbox"),
    );
    response
}

/// `Cache-Control` as the resource's `@cache(ttl_ms, scope)` says:
/// `max-age` in whole seconds, `public` or `private`; `no-cache` without
/// it.
fn cache_control(entry: &Entry) -> String {
    entry.cache.as_ref().map_or_else(
        || "no-cache".to_owned(),
        |cache| format!("max-age={}, {}", cache.ttl_ms / 1000, cache.scope),
    )
}

/// The first value of `key` in a query string, percent-decoded (`+` is a
/// space, as in a form); `None` when absent or empty.
pub(super) fn query_value(query: &str, key: &str) -> Option<String> {
    query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| {
            let v = v.replace('+', " ");
            percent_encoding::percent_decode_str(&v)
                .decode_utf8_lossy()
                .into_owned()
        })
        .filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edge::Entries;

    #[test]
    fn the_cache_header_is_the_resources_cache() {
        let entries = Entries::parse(
            &json!({
                "tools": [],
                "resources": [{"uri": "cas://index", "name": "index"}],
                "resourceTemplates": [{"uriTemplate": "cas://objects/{hash}", "name": "object"}],
                "readers": {
                    "index": {"inputSchema": {"type": "object"}, "contents": "json",
                              "cache": {"ttlMs": 5000, "cacheScope": "private"}},
                    "object": {"inputSchema": {"type": "object"}, "contents": "bytes",
                               "cache": {"ttlMs": 86_400_000, "cacheScope": "public"}}
                }
            })
            .to_string(),
        )
        .unwrap();
        let cache = |uri: &str| entries.resource(uri).map(|f| cache_control(f.entry)).ok();
        assert_eq!(cache("cas://index").as_deref(), Some("max-age=5, private"));
        assert_eq!(
            cache("cas://objects/ab").as_deref(),
            Some("max-age=86400, public")
        );
    }

    #[test]
    fn a_query_value_is_percent_decoded() {
        assert_eq!(
            query_value(
                "x=1&uri=cas%3A%2F%2Fobjects%2Fab%3Fpage%3D2%26all%3Dtrue",
                "uri"
            )
            .as_deref(),
            Some("cas://objects/ab?page=2&all=true")
        );
        assert_eq!(query_value("uri=a+b%2Bc", "uri").as_deref(), Some("a b+c"));
        assert_eq!(query_value("uri=", "uri"), None);
        assert_eq!(query_value("other=1", "uri"), None);
    }
}
