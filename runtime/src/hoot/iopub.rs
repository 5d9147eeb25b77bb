//! IOPub: what a server publishes about the calls it serves and the jobs
//! they run, for subscribers that never block on a reply. Each message is
//! two frames, a topic and a MsgPack body (docs/wire.md, "IOPub").
//!
//! Topics are paths a SUB socket filters by prefix:
//! `job/<tool>/<job_id>/<event>` (`started`, `progress`, `chunk`,
//! `finished`), `call/<tool>/<request_id>/<event>` (`start`,
//! `complete`) and `resource/updated`: subscribe to `job/` for every job,
//! `job/garden_play/` for one tool's, `call/` for every call, `resource/`
//! for resources' updates.

use serde::{Deserialize, Serialize};

use super::RequestId;
use crate::jobs::JobEvent;
use crate::{ResponseEnvelope, codec};

/// The prefix of every job topic.
pub const JOB_TOPIC: &str = "job/";
/// The prefix of every call topic.
pub const CALL_TOPIC: &str = "call/";
/// The topic of a resource's update: its body is `{"uri": str}`.
pub const RESOURCE_UPDATED_TOPIC: &str = "resource/updated";

/// What `resource/updated` says: the resource at `uri` changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResourceUpdated {
    /// The resource's URI.
    pub uri: String,
}

/// A resource update as its IOPub frames.
pub(super) fn resource_frames(uri: &str) -> Option<[Vec<u8>; 2]> {
    let body = codec::to_msgpack(&ResourceUpdated {
        uri: uri.to_owned(),
    })
    .ok()?;
    Some([RESOURCE_UPDATED_TOPIC.as_bytes().to_vec(), body])
}

/// What `call/…/complete` says of a call's final answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallEvent {
    /// The call's request id, in its text form.
    pub request_id: String,
    /// The tool called.
    pub tool: String,
    /// `start`, or how the call ended: `success`, `error` or
    /// `job_started`.
    pub outcome: String,
    /// The error's code, for `error`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// The job, for `job_started`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub job_id: Option<String>,
    /// The W3C `traceparent` of the worker's span for the call, when the
    /// server records spans (feature `otel`): the event belongs to that
    /// trace, and the job of a `job_started` runs in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traceparent: Option<String>,
}

impl CallEvent {
    /// The event for a call that has started.
    pub(super) fn start(request_id: RequestId, tool: &str) -> Self {
        CallEvent {
            request_id: request_id.to_string(),
            tool: tool.to_owned(),
            outcome: "start".into(),
            code: None,
            job_id: None,
            traceparent: traceparent(),
        }
    }

    /// The event for a call answered with `envelope`.
    pub(super) fn complete<R>(
        request_id: RequestId,
        tool: &str,
        envelope: &ResponseEnvelope<R>,
    ) -> Self {
        let (outcome, code, job_id) = match envelope {
            ResponseEnvelope::Success(_) => ("success", None, None),
            ResponseEnvelope::Error(e) => ("error", Some(e.code.to_string()), None),
            ResponseEnvelope::JobStarted { job_id, .. } => {
                ("job_started", None, Some(job_id.clone()))
            }
            _ => ("stream", None, None),
        };
        CallEvent {
            request_id: request_id.to_string(),
            tool: tool.to_owned(),
            outcome: outcome.into(),
            code,
            job_id,
            traceparent: traceparent(),
        }
    }

    /// The message's two frames.
    pub(super) fn frames(&self) -> Option<[Vec<u8>; 2]> {
        let kind = if self.outcome == "start" {
            "start"
        } else {
            "complete"
        };
        let topic = format!("{CALL_TOPIC}{}/{}/{kind}", self.tool, self.request_id);
        Some([topic.into_bytes(), codec::to_msgpack(self).ok()?])
    }
}

/// The trace of the call being served (see [`CallEvent::traceparent`]).
fn traceparent() -> Option<String> {
    #[cfg(feature = "otel")]
    return super::traced::current_traceparent();
    #[cfg(not(feature = "otel"))]
    None
}

/// The two frames that publish `event` of a job running `tool`.
pub(super) fn job_frames(tool: &str, event: &JobEvent) -> Option<[Vec<u8>; 2]> {
    let kind = match event {
        JobEvent::Started { .. } => "started",
        JobEvent::Progress { .. } => "progress",
        JobEvent::Chunk { .. } => "chunk",
        JobEvent::Finished { .. } => "finished",
        // A kind added later is published under its own name once it has one.
        #[allow(unreachable_patterns)]
        _ => return None,
    };
    let topic = format!("{JOB_TOPIC}{tool}/{}/{kind}", event.job_id());
    Some([topic.into_bytes(), codec::to_msgpack(event).ok()?])
}

/// A published message, read back: a job event or a call event.
#[derive(Clone, Debug, PartialEq)]
pub enum Published {
    /// From a `job/` topic.
    Job(JobEvent),
    /// From a `call/` topic.
    Call(CallEvent),
    /// From `resource/updated`.
    ResourceUpdated(ResourceUpdated),
}

/// Reads one IOPub message; `None` for anything that is not one.
pub fn decode_published(frames: &[Vec<u8>]) -> Option<Published> {
    let [topic, body] = frames else {
        return None;
    };
    let limits = codec::Limits::default();
    if topic.starts_with(JOB_TOPIC.as_bytes()) {
        codec::from_msgpack(body, limits).ok().map(Published::Job)
    } else if topic.starts_with(CALL_TOPIC.as_bytes()) {
        codec::from_msgpack(body, limits).ok().map(Published::Call)
    } else if topic == RESOURCE_UPDATED_TOPIC.as_bytes() {
        codec::from_msgpack(body, limits)
            .ok()
            .map(Published::ResourceUpdated)
    } else {
        None
    }
}
