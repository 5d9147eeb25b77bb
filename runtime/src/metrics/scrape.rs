//! A scrape: the process's registry, then what the ports hold now, as
//! Prometheus text (exposition format 0.0.4).

use std::fmt;

use prometheus_client::encoding::prometheus_text;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;

use super::registry::{METRICS, PREFIX, ReasonLabel, StateLabel};
use crate::port::Gauges;

/// `text/plain; version=0.0.4; charset=utf-8`.
pub(crate) use prometheus_text::CONTENT_TYPE;

/// Every metric of the process, and the sums of `ports`' gauges: the
/// body of `/metrics`.
///
/// # Errors
/// The formatter's, which writing to a `String` does not raise.
pub(crate) fn encode(ports: &[Gauges]) -> Result<String, fmt::Error> {
    let mut text = String::new();
    prometheus_text::encode(&mut text, &METRICS.registry)?;
    prometheus_text::encode(&mut text, &now(ports))?;
    Ok(text)
}

/// A registry of this scrape's gauges: each one some port has, summed
/// over the ports that have it.
fn now(ports: &[Gauges]) -> Registry {
    let mut registry = Registry::with_prefix(PREFIX);
    let pending = sum(ports, |g| g.jobs_pending);
    let running = sum(ports, |g| g.jobs_running);
    if pending.is_some() || running.is_some() {
        let jobs = Family::<StateLabel, Gauge>::default();
        for (state, n) in [("pending", pending), ("running", running)] {
            jobs.get_or_create(&StateLabel { state })
                .set(n.unwrap_or(0));
        }
        registry.register(
            "jobs",
            "Jobs of this process not yet finished, by state",
            jobs,
        );
    }
    let single = [
        (
            "workers_live",
            "HOOT01 backends in rotation (a gateway's workers)",
            sum(ports, |g| g.workers_live),
        ),
        (
            "workers",
            "HOOT01 backends configured, in rotation or not",
            sum(ports, |g| g.workers),
        ),
        (
            "hoot_calls_in_flight",
            "HOOT01 calls sent to a backend and not yet answered",
            sum(ports, |g| g.hoot_in_flight),
        ),
        (
            "hoot_serving",
            "HOOT01 calls a server took and has not answered",
            sum(ports, |g| g.hoot_serving),
        ),
        (
            "hoot_serving_limit",
            "HOOT01 calls a server takes at once before it answers BUSY",
            sum(ports, |g| g.hoot_serving_limit),
        ),
    ];
    for (name, help, value) in single {
        if let Some(value) = value {
            let gauge = Gauge::<i64>::default();
            gauge.set(value);
            registry.register(name, help, gauge);
        }
    }
    if let Some(value) = sum(ports, |g| g.hoot_turned_away) {
        let counter = Counter::<u64>::default();
        counter.inc_by(value.unsigned_abs());
        registry.register(
            "hoot_turned_away",
            "HOOT01 Requests a server answered BUSY (too many in flight) or UNAVAILABLE \
             (shutting down)",
            counter,
        );
    }
    let key = sum(ports, |g| g.hoot_key_refused);
    let handshake = sum(ports, |g| g.hoot_handshake_failed);
    if key.is_some() || handshake.is_some() {
        let refused = Family::<ReasonLabel, Counter>::default();
        for (reason, n) in [("key", key), ("handshake", handshake)] {
            refused
                .get_or_create(&ReasonLabel { reason })
                .inc_by(n.unwrap_or(0).unsigned_abs());
        }
        registry.register(
            "hoot_auth_failures",
            "CURVE handshakes a HOOT01 server refused, by reason: key (not allowed), \
             handshake (failed before a key could be checked)",
            refused,
        );
    }
    registry
}

/// The sum of a gauge over the ports that have it; `None` when none has.
fn sum(ports: &[Gauges], gauge: impl Fn(&Gauges) -> Option<u64>) -> Option<i64> {
    ports
        .iter()
        .filter_map(gauge)
        .reduce(u64::saturating_add)
        .map(|n| i64::try_from(n).unwrap_or(i64::MAX))
}
