//! `GET /api/tools`: the catalogue's generated metadata, each tool's,
//! resource's and prompt's `source` set to where this port runs it, each
//! tool's `served` to whether it has a handler here (when the port knows),
//! with an ETag, gzipped for a client that accepts it.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use tower_http::compression::CompressionLayer;

use super::Web;
use crate::events::ToolSource;
use crate::port::CallPort;
use crate::{Catalogue, Json};

/// The document as served: the catalogue's, built once, and with mounted
/// servers, rebuilt when what they list changes.
pub(crate) struct Document {
    local: Arc<Served>,
    /// The catalogue's document, to add mounted tools to.
    #[cfg(feature = "mount")]
    base: Json,
    /// The document with the mounts' tools, and the mounts' generation it
    /// was built at.
    #[cfg(feature = "mount")]
    mounted: std::sync::Mutex<Option<(u64, Arc<Served>)>>,
}

/// A document's text and its tag.
pub(super) struct Served {
    body: String,
    etag: String,
}

impl Served {
    fn new(document: &Json) -> Arc<Self> {
        let body = document.to_string();
        let etag = format!("\"{:016x}\"", fnv1a(body.as_bytes()));
        Arc::new(Served { body, etag })
    }
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
        // Whether each tool has a handler here, when the port knows.
        if let Some(not_served) = P::NOT_SERVED {
            let tools = document.get_mut("tools").and_then(Json::as_array_mut);
            for entry in tools.into_iter().flatten().filter_map(Json::as_object_mut) {
                let name = entry.get("name").and_then(Json::as_str).unwrap_or("");
                let served = !not_served.contains(&name);
                entry.insert("served".to_owned(), served.into());
            }
        }
        Ok(Document {
            local: Served::new(&document),
            #[cfg(feature = "mount")]
            base: document,
            #[cfg(feature = "mount")]
            mounted: std::sync::Mutex::default(),
        })
    }

    /// The document as it is now: with the tools of the mounts that
    /// answer, when there are mounts.
    fn current<P: CallPort>(&self, web: &Web<P>) -> Arc<Served> {
        #[cfg(feature = "mount")]
        {
            let mounts = web.edge.mounts();
            if !mounts.is_empty() {
                let generation = mounts.generation();
                let mut mounted = self
                    .mounted
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                if let Some((built, served)) = mounted.as_ref()
                    && *built == generation
                {
                    return served.clone();
                }
                let served = Served::new(&super::mounted::document(&self.base, mounts));
                *mounted = Some((generation, served.clone()));
                return served;
            }
        }
        let _ = web;
        self.local.clone()
    }
}

/// Gzip for the document alone, when the request's `Accept-Encoding`
/// allows it: the largest answer of the web routes, fetched by every page
/// load, and JSON this repetitive shrinks tenfold (the studio's, 590 KB to
/// 59 KB). A `304` has no body to compress, and the ETag passes through as
/// it is: it names the document whatever its encoding, and `Vary:
/// Accept-Encoding` keeps caches from mixing the two.
pub(super) fn compression() -> CompressionLayer {
    CompressionLayer::new()
}

pub(super) async fn serve<P: CallPort>(
    State(web): State<Arc<Web<P>>>,
    headers: HeaderMap,
) -> Response {
    if let Err(refused) = web.access.admit(&headers).await {
        return refused.into_response();
    }
    let document = web.tools.current(&web);
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
