//! The protected-resource metadata of RFC 9728, and where a `401`'s
//! challenge says it is.

use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;

use super::Auth;
use crate::Json;

/// Where RFC 9728 puts the metadata of `resource`: the well-known part
/// between its origin and its path.
pub(crate) fn metadata_url(resource: &str) -> String {
    let (origin, path) = split(resource);
    format!("{origin}/.well-known/oauth-protected-resource{path}")
}

/// `https://host/mcp` as (`https://host`, `/mcp`); the path without a
/// trailing `/`.
fn split(resource: &str) -> (&str, &str) {
    let resource = resource.trim_end_matches('/');
    let Some(start) = resource.find("://").map(|i| i + 3) else {
        return (resource, "");
    };
    match resource[start..].find('/') {
        Some(slash) => resource.split_at(start + slash),
        None => (resource, ""),
    }
}

/// The metadata document: this resource, who issues its tokens, the
/// scopes its tools need, and how to send a token.
fn document(auth: &Auth, scopes: &[&str]) -> Json {
    serde_json::json!({
        "resource": auth.resource(),
        "authorization_servers": auth.issuers().collect::<Vec<_>>(),
        "scopes_supported": scopes,
        "bearer_methods_supported": ["header"],
    })
}

/// The metadata route: the well-known path with the resource's path
/// after it (RFC 9728 § 3.1), so that each resource a server serves (a
/// gateway's routes) has its own. Open to anyone: it is what a client
/// reads before it has a token.
pub(crate) fn routes(auth: &Auth, scopes: &[&str]) -> Router {
    let body = document(auth, scopes).to_string();
    let (_, path) = split(auth.resource());
    let serve = move || {
        let body = body.clone();
        async move { ([(header::CONTENT_TYPE, "application/json")], body).into_response() }
    };
    Router::new().route(
        &format!("/.well-known/oauth-protected-resource{path}"),
        get(serve),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metadata_lives_before_the_resources_path() {
        assert_eq!(
            metadata_url("https://tools.example/mcp"),
            "https://tools.example/.well-known/oauth-protected-resource/mcp"
        );
        assert_eq!(
            metadata_url("https://tools.example"),
            "https://tools.example/.well-known/oauth-protected-resource"
        );
        assert_eq!(
            metadata_url("http://127.0.0.1:8787/a/b/"),
            "http://127.0.0.1:8787/.well-known/oauth-protected-resource/a/b"
        );
    }
}
