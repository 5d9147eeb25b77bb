//! `GET /api/tools`: the catalogue's generated metadata, each tool's,
//! resource's and prompt's `source` set to where this port runs it, with
//! an ETag.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::Web;
use crate::events::ToolSource;
use crate::port::CallPort;
use crate::{Catalogue, Json};

/// The document as served, built once.
pub(crate) struct Document {
    body: String,
    etag: String,
}

impl Document {
    pub(super) fn new<P: CallPort>(source: ToolSource) -> Result<Self, String> {
        let mut document: Json = serde_json::from_str(<P::Catalogue as Catalogue>::METADATA)
            .map_err(|e| format!("the catalogue's METADATA is not JSON: {e}"))?;
        for list in ["tools", "resources", "prompts"] {
            let entries = document.get_mut(list).and_then(Json::as_array_mut);
            for entry in entries
                .into_iter()
                .flatten()
                .filter_map(Json::as_object_mut)
            {
                entry.insert("source".to_owned(), source.as_str().into());
            }
        }
        let body = document.to_string();
        let etag = format!("\"{:016x}\"", fnv1a(body.as_bytes()));
        Ok(Document { body, etag })
    }
}

pub(super) async fn serve<P: CallPort>(
    State(web): State<Arc<Web<P>>>,
    headers: HeaderMap,
) -> Response {
    if let Err(refused) = web.access.admit(&headers).await {
        return refused.into_response();
    }
    let document = &web.tools;
    let cached = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|tags| {
            tags.split(',')
                .any(|t| t.trim() == document.etag || t.trim() == "*")
        });
    let head = [
        (header::ETAG, document.etag.clone()),
        (header::CACHE_CONTROL, "no-cache".to_owned()),
    ];
    if cached {
        return (StatusCode::NOT_MODIFIED, head).into_response();
    }
    (
        head,
        [(header::CONTENT_TYPE, "application/json")],
        document.body.clone(),
    )
        .into_response()
}

/// FNV-1a, 64 bits: the tag only has to change when the body does.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, b| {
        (hash ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
