//! [`Otlp`]: spans exported to a collector over OTLP/HTTP with protobuf.

use std::fmt;
use std::time::Duration;

use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::{Protocol, SpanExporter, WithExportConfig, WithHttpConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing_subscriber::Registry;
use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::layer::SubscriberExt;

use super::export::OnRuntime;

/// How long one export may take before it is given up.
const EXPORT_TIMEOUT: Duration = Duration::from_secs(10);

/// Crates whose own `tracing` spans and events are not the calls': the MCP
/// SDK's session and transport spans, the HTTP stack's, the exporter's.
const QUIET: [&str; 8] = [
    "rmcp",
    "hyper",
    "hyper_util",
    "h2",
    "tower",
    "axum",
    "redis",
    "opentelemetry",
];

/// Spans exported to an OpenTelemetry collector over OTLP/HTTP
/// (protobuf), in batches, from a thread of the SDK's own.
///
/// ```no_run
/// # async fn demo() -> Result<(), toolwright::otel::OtelError> {
/// let telemetry = toolwright::otel::Otlp::new("http://127.0.0.1:4318")
///     .service_name("gateway")
///     .install()?;
/// // … serve …
/// telemetry.shutdown().await;
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct Otlp {
    endpoint: String,
    service_name: String,
}

impl Otlp {
    /// Spans sent to the collector at `base_url` (spans are POSTed to
    /// `base_url/v1/traces`), as the standard `OTEL_EXPORTER_OTLP_ENDPOINT`
    /// names it.
    pub fn new(base_url: impl AsRef<str>) -> Self {
        Otlp {
            endpoint: format!("{}/v1/traces", base_url.as_ref().trim_end_matches('/')),
            service_name: "toolwright".into(),
        }
    }

    /// The `service.name` every span's resource carries; `toolwright`
    /// unless set (`OTEL_SERVICE_NAME`, when set, wins over both).
    #[must_use]
    pub fn service_name(mut self, name: impl Into<String>) -> Self {
        self.service_name = name.into();
        self
    }

    /// The URL spans are POSTed to.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// Makes the process's `tracing` subscriber one that exports spans:
    /// the runtime's call spans, and those handlers make, at `INFO` and
    /// above. Call it on the tokio runtime the server runs on; keep the
    /// [`Telemetry`] and shut it down before the process ends, which sends
    /// the spans not yet sent.
    ///
    /// # Errors
    /// [`OtelError`] when there is no tokio runtime, the endpoint is not a
    /// URL, or the process already has a `tracing` subscriber.
    pub fn install(self) -> Result<Telemetry, OtelError> {
        let runtime = tokio::runtime::Handle::try_current().map_err(|_| {
            OtelError::new("spans are exported from a tokio runtime, and there is none")
        })?;
        let exporter = SpanExporter::builder()
            .with_http()
            .with_http_client(OnRuntime::new(runtime, EXPORT_TIMEOUT))
            .with_protocol(Protocol::HttpBinary)
            .with_endpoint(&self.endpoint)
            .with_timeout(EXPORT_TIMEOUT)
            .build()
            .map_err(|e| OtelError::new(format!("the OTLP exporter for {}: {e}", self.endpoint)))?;
        let resource = Resource::builder()
            .with_service_name(self.service_name)
            .build();
        let provider = SdkTracerProvider::builder()
            .with_batch_exporter(exporter)
            .with_resource(resource)
            .build();
        let tracer = provider.tracer("toolwright");
        let quiet = QUIET.iter().fold(
            Targets::new().with_default(LevelFilter::INFO),
            |targets, quiet| targets.with_target(*quiet, LevelFilter::OFF),
        );
        // Source locations, threads, targets and busy/idle times are the
        // layer's own additions, not the calls': each is work on every
        // span for attributes no convention asks for.
        let layer = tracing_opentelemetry::layer()
            .with_tracer(tracer)
            .with_location(false)
            .with_threads(false)
            .with_target(false)
            .with_tracked_inactivity(false);
        // A filter for the whole subscriber, not the layer's own: with one
        // layer they select the same spans, and a global filter's verdict
        // is cached per callsite, where a layer's is kept per span.
        let subscriber = Registry::default().with(quiet).with(layer);
        tracing::subscriber::set_global_default(subscriber).map_err(|_| {
            OtelError::new("the process already has a `tracing` subscriber; add a tracing-opentelemetry layer to it instead")
        })?;
        Ok(Telemetry { provider })
    }
}

/// The exporter [`Otlp::install`] set up. Shut it down before the process
/// ends: spans still batched are sent then.
#[derive(Debug)]
pub struct Telemetry {
    provider: SdkTracerProvider,
}

impl Telemetry {
    /// Sends the spans not yet sent and stops exporting. Blocks a thread
    /// of tokio's blocking pool, not the caller's, while it sends.
    pub async fn shutdown(self) {
        let provider = self.provider;
        // The export runs on the runtime (see `export.rs`): waiting for it
        // on a runtime thread could wait for ever.
        let _ = tokio::task::spawn_blocking(move || provider.shutdown()).await;
    }
}

/// Why spans cannot be exported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OtelError {
    message: String,
}

impl OtelError {
    fn new(message: impl Into<String>) -> Self {
        OtelError {
            message: message.into(),
        }
    }
}

impl fmt::Display for OtelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for OtelError {}
