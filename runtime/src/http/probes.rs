//! The routes an orchestrator probes, beside every door: `/healthz`
//! (alive), `/readyz` (ready to take calls) and, with the `metrics`
//! feature, `/metrics` (Prometheus text). Probes carry no credentials, so
//! `/healthz` and `/readyz` are checked for their `Host` and `Origin`
//! alone; `/metrics` is guarded as every other route is.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use axum::Router;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::{Access, HttpConfig};
use crate::ServeError;
use crate::port::{CallPort, Gauges, Readiness};

/// Where each probe is served.
pub const HEALTHZ: &str = "/healthz";
/// See [`HEALTHZ`].
pub const READYZ: &str = "/readyz";
/// See [`HEALTHZ`]; served with the `metrics` feature alone.
pub const METRICS: &str = "/metrics";

/// The probe routes for one or more ports: ready when every port is.
/// [`McpServer::router`](crate::mcp::McpServer::router) and
/// [`web_router`](super::web_router) add them for their own port (unless
/// [`HttpConfig::probes`] is off); a server that merges several routers
/// on one listener turns theirs off and adds these once, for all its
/// ports:
///
/// ```no_run
/// # #[cfg(feature = "web")]
/// # fn run<S: toolwright::Service>(a: toolwright::Dispatcher<S>, b: toolwright::Dispatcher<S>)
/// # -> Result<axum::Router, toolwright::ServeError> {
/// use toolwright::http::{self, HttpConfig, Probes};
///
/// let config = HttpConfig::default().probes(false);
/// let router = http::web_router(a.clone(), &config)?;
/// Ok(router.merge(Probes::new().port(a).port(b).router(&config)?))
/// # }
/// ```
#[derive(Clone, Default)]
pub struct Probes {
    ports: Vec<Arc<dyn Probe>>,
}

impl std::fmt::Debug for Probes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Probes")
            .field("ports", &self.ports.len())
            .finish()
    }
}

impl Probes {
    /// Probes of no port yet: always ready.
    pub fn new() -> Self {
        Probes::default()
    }

    /// Adds `port`: ready only while it is too, its gauges in `/metrics`.
    #[must_use]
    pub fn port<P: CallPort>(mut self, port: P) -> Self {
        self.ports.push(Arc::new(port));
        self
    }

    /// Adds a HOOT01 server: ready only while it takes calls (not once
    /// it shuts down), its calls in flight and refusals in `/metrics`. A
    /// worker serving HOOT01 alone serves these probes on an HTTP listener
    /// of their own.
    #[cfg(feature = "hoot")]
    #[must_use]
    pub fn hoot_server(mut self, meter: crate::hoot::ServerMeter) -> Self {
        self.ports.push(Arc::new(meter));
        self
    }

    /// The routes, behind `config`'s access rules.
    ///
    /// # Errors
    /// [`ServeError::Config`] when MCP's path is one of theirs.
    pub fn router(self, config: &HttpConfig) -> Result<Router, ServeError> {
        let taken = [HEALTHZ, READYZ, METRICS];
        if taken.contains(&config.path.as_str()) {
            return Err(ServeError::Config(format!(
                "MCP at `{}` would hide a probe ({}): serve it at another path, or turn the \
                 probes off",
                config.path,
                taken.join(", ")
            )));
        }
        let shared = Arc::new(Shared {
            access: Access::new(config),
            ports: self.ports,
        });
        let (alive, ready) = (shared.clone(), shared.clone());
        let router = Router::new()
            .route(HEALTHZ, get(move |headers| healthz(alive.clone(), headers)))
            .route(READYZ, get(move |headers| readyz(ready.clone(), headers)));
        #[cfg(feature = "metrics")]
        let router = router.route(
            METRICS,
            get(move |headers| metrics(shared.clone(), headers)),
        );
        Ok(router)
    }
}

/// What the routes share.
struct Shared {
    access: Access,
    ports: Vec<Arc<dyn Probe>>,
}

/// A port as the probes see it (a [`CallPort`] is not object-safe).
trait Probe: Send + Sync + 'static {
    fn readiness(&self) -> Pin<Box<dyn Future<Output = Readiness> + Send + '_>>;
    #[cfg_attr(not(feature = "metrics"), allow(dead_code))] // read by `/metrics`
    fn gauges(&self) -> Gauges;
}

impl<P: CallPort> Probe for P {
    fn readiness(&self) -> Pin<Box<dyn Future<Output = Readiness> + Send + '_>> {
        Box::pin(CallPort::readiness(self))
    }

    fn gauges(&self) -> Gauges {
        CallPort::gauges(self)
    }
}

#[cfg(feature = "hoot")]
impl Probe for crate::hoot::ServerMeter {
    fn readiness(&self) -> Pin<Box<dyn Future<Output = Readiness> + Send + '_>> {
        let readiness = if self.accepting() {
            Readiness::Ready
        } else {
            Readiness::NotReady("the HOOT01 server is shutting down".into())
        };
        Box::pin(std::future::ready(readiness))
    }

    fn gauges(&self) -> Gauges {
        crate::hoot::ServerMeter::gauges(self)
    }
}

/// `200 ok` while the process serves.
async fn healthz(shared: Arc<Shared>, headers: HeaderMap) -> Response {
    if let Err(refused) = shared.access.check_site(&headers) {
        return refused.into_response();
    }
    text(StatusCode::OK, "ok\n")
}

/// `200 {"ready": true}` when every port is ready, else `503` with why
/// not: `{"ready": false, "reasons": [...]}`.
async fn readyz(shared: Arc<Shared>, headers: HeaderMap) -> Response {
    if let Err(refused) = shared.access.check_site(&headers) {
        return refused.into_response();
    }
    let mut reasons = Vec::new();
    for port in &shared.ports {
        if let Readiness::NotReady(why) = port.readiness().await {
            reasons.push(why);
        }
    }
    let (status, body) = if reasons.is_empty() {
        (StatusCode::OK, serde_json::json!({ "ready": true }))
    } else {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            serde_json::json!({ "ready": false, "reasons": reasons }),
        )
    };
    (
        status,
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body.to_string(),
    )
        .into_response()
}

/// Every metric of the process as Prometheus text, for a caller the
/// other routes would admit.
#[cfg(feature = "metrics")]
async fn metrics(shared: Arc<Shared>, headers: HeaderMap) -> Response {
    if let Err(refused) = shared.access.admit(&headers).await {
        return refused.into_response();
    }
    let gauges: Vec<Gauges> = shared.ports.iter().map(|port| port.gauges()).collect();
    match crate::metrics::encode(&gauges) {
        Ok(body) => (
            StatusCode::OK,
            [
                (header::CONTENT_TYPE, crate::metrics::CONTENT_TYPE),
                (header::CACHE_CONTROL, "no-store"),
            ],
            body,
        )
            .into_response(),
        Err(_) => text(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the metrics could not be written\n",
        ),
    }
}

fn text(status: StatusCode, body: &'static str) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}
