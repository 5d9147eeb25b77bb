//! Where the studio's spans go: `serve … --otlp URL` and `gateway …
//! --otlp URL` export them to the OpenTelemetry collector at `URL` (spans
//! POSTed to `URL/v1/traces`), as does `$OTEL_EXPORTER_OTLP_ENDPOINT`
//! when no `--otlp` is given. Neither: no spans are made.

use toolwright::otel::{Otlp, Telemetry};

/// The standard variable naming the collector's base URL.
const ENDPOINT_VAR: &str = "OTEL_EXPORTER_OTLP_ENDPOINT";

/// Takes `--otlp URL` out of `args` and, when it or
/// `$OTEL_EXPORTER_OTLP_ENDPOINT` names a collector, exports spans there
/// as `service` (`$OTEL_SERVICE_NAME` wins when set).
pub(crate) fn take(args: &mut Vec<String>, service: &str) -> Result<Option<Telemetry>, String> {
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
    let otlp = Otlp::new(&url).service_name(service);
    let endpoint = otlp.endpoint().to_owned();
    let telemetry = otlp.install().map_err(|e| e.to_string())?;
    eprintln!("studio: spans go to {endpoint}");
    Ok(Some(telemetry))
}
