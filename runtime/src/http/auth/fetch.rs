//! A bounded GET of a JSON document, over HTTPS (or plain HTTP, for an
//! issuer on loopback): the issuer's metadata and keys.

use std::time::Duration;

use http_body_util::{BodyExt, Empty, Limited};
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;

use crate::Json;

/// The largest document read: metadata and key sets are a few KiB.
const MAX_DOCUMENT: usize = 1024 * 1024;

type Https = hyper_rustls::HttpsConnector<HttpConnector>;

/// A client for the issuer's documents.
#[derive(Clone)]
pub(super) struct Fetcher {
    client: Client<Https, Empty<Bytes>>,
    timeout: Duration,
}

impl Fetcher {
    /// A client that gives up on a document after `timeout`.
    ///
    /// # Errors
    /// When TLS cannot be set up with ring's provider.
    pub(super) fn new(timeout: Duration) -> Result<Self, String> {
        // The provider is this client's own: the process's default (if
        // anyone set one) is left alone.
        let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
        let https = hyper_rustls::HttpsConnectorBuilder::new()
            .with_provider_and_webpki_roots(provider)
            .map_err(|e| format!("TLS cannot be set up: {e}"))?
            .https_or_http()
            .enable_http1()
            .build();
        let client = Client::builder(TokioExecutor::new()).build(https);
        Ok(Fetcher { client, timeout })
    }

    /// GETs `url` and parses it as JSON.
    ///
    /// # Errors
    /// What went wrong, for the server's log and the `503` it answers: an
    /// address that is not a URL, a connection that failed or timed out, a
    /// status other than 200, a body over 1 MiB or not JSON.
    pub(super) async fn json(&self, url: &str) -> Result<Json, String> {
        let uri: hyper::Uri = url
            .parse()
            .map_err(|e| format!("`{url}` is not a URL: {e}"))?;
        let request = hyper::Request::get(uri)
            .header(hyper::header::ACCEPT, "application/json")
            .body(Empty::new())
            .map_err(|e| format!("GET {url}: {e}"))?;
        let exchange = async {
            let response = self
                .client
                .request(request)
                .await
                .map_err(|e| format!("GET {url}: {e}"))?;
            if response.status() != hyper::StatusCode::OK {
                return Err(format!("GET {url}: {}", response.status()));
            }
            let body = Limited::new(response.into_body(), MAX_DOCUMENT)
                .collect()
                .await
                .map_err(|e| format!("GET {url}: {e}"))?
                .to_bytes();
            serde_json::from_slice(&body).map_err(|e| format!("GET {url}: not JSON: {e}"))
        };
        tokio::time::timeout(self.timeout, exchange)
            .await
            .map_err(|_| format!("GET {url}: no answer within {:?}", self.timeout))?
    }
}
