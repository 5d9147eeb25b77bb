//! Where a call goes: the job tools follow their job to the backend that
//! runs it; every other call goes to the least busy backend.

use serde::Deserialize;

use crate::codec::{self, Limits};
use crate::{ToolError, codes};

/// Where a request must go.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Route {
    /// Any backend.
    Any,
    /// The backend that runs these jobs.
    Jobs(Vec<String>),
}

/// The job tools that name jobs, and so must reach their backend.
const ROUTED: [&str; 3] = ["job_status", "job_cancel", "job_poll"];

/// The route of a MsgPack request. Only a job tool's request is read past
/// its tool name.
pub(super) fn of(request: &[u8]) -> Route {
    match tool_name(request) {
        Some(tool) if ROUTED.contains(&tool) => {}
        _ => return Route::Any,
    }
    #[derive(Deserialize)]
    struct JobRefs {
        #[serde(default)]
        job_id: Option<String>,
        #[serde(default)]
        job_ids: Option<Vec<String>>,
    }
    match codec::from_msgpack::<JobRefs>(request, Limits::default()) {
        Ok(JobRefs {
            job_id: Some(id), ..
        }) => Route::Jobs(vec![id]),
        Ok(JobRefs {
            job_ids: Some(ids), ..
        }) if !ids.is_empty() => Route::Jobs(ids),
        _ => Route::Any,
    }
}

/// The tool a request names, when `tool` is its first key (as every
/// encoder writes it).
pub(super) fn tool_name(request: &[u8]) -> Option<&str> {
    let mut rest = request;
    let _entries = rmp::decode::read_map_len(&mut rest).ok()?;
    let (key, rest) = rmp::decode::read_str_from_slice(rest).ok()?;
    if key != "tool" {
        return None;
    }
    let (tool, _) = rmp::decode::read_str_from_slice(rest).ok()?;
    Some(tool)
}

/// The first key of an envelope and the bytes of its value:
/// (`"success"`, …), (`"stream_chunk"`, …).
pub(crate) fn envelope_key(body: &[u8]) -> Option<(&str, &[u8])> {
    let mut rest = body;
    if rmp::decode::read_map_len(&mut rest).ok()? != 1 {
        return None;
    }
    rmp::decode::read_str_from_slice(rest).ok()
}

/// The error of an `error` envelope's value when it is a backend's refusal
/// of the service a message named: `UNKNOWN_SERVICE` with the services it
/// serves in its details (a tool's own error of that name has none).
pub(super) fn unknown_service(value: &[u8]) -> Option<ToolError> {
    let error = codec::from_msgpack::<ToolError>(value, Limits::default()).ok()?;
    let refusal = error.code == codes::UNKNOWN_SERVICE
        && error
            .details
            .as_ref()
            .is_some_and(|d| d.get("serves").is_some());
    refusal.then_some(error)
}

/// The `job_id` of a `job_started` or `stream_start` envelope's value.
pub(super) fn job_id(value: &[u8]) -> Option<String> {
    #[derive(Deserialize)]
    struct Started {
        job_id: String,
    }
    codec::from_msgpack::<Started>(value, Limits::default())
        .ok()
        .map(|s| s.job_id)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// JSON text as MsgPack, keys in the order written.
    fn msgpack(json: &str) -> Vec<u8> {
        codec::json_to_msgpack(json.as_bytes(), Limits::default())
            .unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn job_tools_route_to_their_jobs_and_the_rest_anywhere() {
        let route = |json| of(&msgpack(json));
        assert_eq!(route(r#"{"tool": "add", "a": 1, "b": 2}"#), Route::Any);
        assert_eq!(
            route(r#"{"tool": "job_status", "job_id": "job_1"}"#),
            Route::Jobs(vec!["job_1".into()])
        );
        assert_eq!(
            route(r#"{"tool": "job_poll", "job_ids": ["a", "b"], "timeout_ms": 5}"#),
            Route::Jobs(vec!["a".into(), "b".into()])
        );
        assert_eq!(route(r#"{"tool": "job_poll"}"#), Route::Any);
        assert_eq!(route(r#"{"tool": "job_list"}"#), Route::Any);
        // Not the first key: read as any other call.
        assert_eq!(
            route(r#"{"job_id": "job_1", "tool": "job_status"}"#),
            Route::Any
        );
        assert_eq!(of(b"\xc1garbage"), Route::Any);
    }

    #[test]
    fn an_envelope_key_and_its_job_id_are_read() {
        let body = msgpack(
            r#"{"job_started": {"job_id": "job_9", "tool": "t", "expected_timing": "async_long"}}"#,
        );
        let (key, value) = envelope_key(&body).unwrap_or_else(|| panic!("a key"));
        assert_eq!(key, "job_started");
        assert_eq!(job_id(value).as_deref(), Some("job_9"));
        assert_eq!(envelope_key(b"\x80"), None);
    }
}
