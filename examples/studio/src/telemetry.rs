//! Where the studio's spans go: `serve … --otlp URL` and `gateway …
//! --otlp URL` export them to the OpenTelemetry collector at `URL` (spans
//! POSTed to `URL/v1/traces`), as does `$OTEL_EXPORTER_OTLP_ENDPOINT`
//! when no `--otlp` is given. Neither: no spans are made. A studio built
//! without its `otel` feature makes none and refuses `--otlp`.

/// The standard variable naming the collector's base URL.
const ENDPOINT_VAR: &str = "OTEL_EXPORTER_OTLP_ENDPOINT";

/// The exporter, while spans are exported.
#[derive(Debug)]
pub(crate) struct Exporting {
    #[cfg(feature = "otel")]
    telemetry: toolwright::otel::Telemetry,
}

impl Exporting {
    /// Sends the spans still batched.
    pub(crate) async fn shutdown(self) {
        #[cfg(feature = "otel")]
        self.telemetry.shutdown().await;
    }
}

/// Takes `--otlp URL` out of `args` and, when it or
/// `$OTEL_EXPORTER_OTLP_ENDPOINT` names a collector, exports spans there
/// as `service` (`$OTEL_SERVICE_NAME` wins when set).
pub(crate) fn take(args: &mut Vec<String>, service: &str) -> Result<Option<Exporting>, String> {
    let flag = match args.iter().position(|a| a == "--otlp") {
        Some(at) if at + 1 < args.len() => {
            let url = args.remove(at + 1);
            args.remove(at);
            Some(url)
        }
        Some(_) => return Err("--otlp needs the collector's URL".into()),
        None => None,
    };
    let Some(url) = flag.or_else(|| std::env::var(ENDPOINT_VAR).ok().filter(|u| !u.is_empty()))
    else {
        return Ok(None);
    };
    export(&url, service).map(Some)
}

#[cfg(feature = "otel")]
fn export(url: &str, service: &str) -> Result<Exporting, String> {
    let otlp = toolwright::otel::Otlp::new(url).service_name(service);
    let endpoint = otlp.endpoint().to_owned();
    let telemetry = otlp.install().map_err(|e| e.to_string())?;
    eprintln!("studio: spans go to {endpoint}");
    Ok(Exporting { telemetry })
}

#[cfg(not(feature = "otel"))]
fn export(url: &str, service: &str) -> Result<Exporting, String> {
    Err(format!(
        "spans for {service} cannot go to {url}: this studio is built without its `otel` \
         feature (build it with the default features)"
    ))
}
