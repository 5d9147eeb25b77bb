//! The HTTP client the OTLP exporter posts with: hyper, on the tokio
//! runtime the server runs on.

use std::time::Duration;

use opentelemetry_http::hyper::HyperClient;
use opentelemetry_http::{Bytes, HttpClient, HttpError, Request, Response};

/// hyper's client for the exporter, each request run on `runtime`.
///
/// The SDK's batch processor exports from a thread of its own, outside any
/// tokio runtime, where hyper cannot run: each request is spawned on the
/// server's runtime and awaited from there.
#[derive(Debug, Clone)]
pub(super) struct OnRuntime {
    client: HyperClient,
    runtime: tokio::runtime::Handle,
}

impl OnRuntime {
    /// A client whose requests give up after `timeout`.
    pub(super) fn new(runtime: tokio::runtime::Handle, timeout: Duration) -> Self {
        OnRuntime {
            client: HyperClient::with_default_connector(timeout, None),
            runtime,
        }
    }
}

#[async_trait::async_trait]
impl HttpClient for OnRuntime {
    async fn send_bytes(&self, request: Request<Bytes>) -> Result<Response<Bytes>, HttpError> {
        let client = self.client.clone();
        self.runtime
            .spawn(async move { client.send_bytes(request).await })
            .await?
    }
}
