//! `GET /`: the viewer, the same static page for every catalogue. It holds
//! no catalogue data (it reads `api/tools` with the token), so it is served
//! without one; the Host and Origin rules still hold.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};

use super::Web;
use crate::port::CallPort;

/// The page: HTML, styles and script in one file, nothing loaded from
/// elsewhere.
const VIEWER: &str = include_str!("viewer.html");

pub(super) async fn serve<P: CallPort>(
    State(web): State<Arc<Web<P>>>,
    headers: HeaderMap,
) -> Response {
    if let Err(refused) = web.access.check_site(&headers) {
        return refused.into_response();
    }
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            // Everything the page needs is inline; nothing else may load.
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
                 connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'",
            ),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        VIEWER,
    )
        .into_response()
}
