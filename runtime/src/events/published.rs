//! `Published`: an event as the hub sends it. A call records only what is
//! cheap — names, MsgPack bytes, times — and the event's JSON is built the
//! first time a subscriber reads it, once for all of them. A busy server
//! whose subscribers skip most events never builds those.

use std::sync::OnceLock;
use std::time::Duration;

use super::trace::MAX_EVENT_TEXT;
use super::{CallError, ToolComplete, ToolEvent, ToolSource, ToolStart};
use crate::jobs::Owner;
use crate::time;
use crate::{Json, ToolError};

/// An event as the hub sends it: what the call recorded, and the
/// [`ToolEvent`] and its JSON text, each built once when first asked for.
#[derive(Debug)]
pub struct Published {
    raw: Raw,
    event: OnceLock<ToolEvent>,
    json: OnceLock<String>,
}

/// What a call records for one event.
#[derive(Debug)]
pub(super) struct Raw {
    pub(super) kind: Kind,
    pub(super) call_id: u64,
    pub(super) tool: String,
    pub(super) action: Option<String>,
    pub(super) source: ToolSource,
    /// Milliseconds since the Unix epoch.
    pub(super) at: u64,
    /// Who the call was made for, when its door said.
    pub(super) owner: Option<Owner>,
}

#[derive(Debug)]
pub(super) enum Kind {
    /// The request, MsgPack, or its size when it is too large to keep.
    Start(Payload),
    Complete {
        job_id: Option<String>,
        outcome: Result<Payload, ToolError>,
        duration: Duration,
    },
    /// The call failed before it started.
    Refused(ToolError),
}

/// A request or response: MsgPack bytes, JSON already built, or the size
/// of one too large to carry.
#[derive(Debug)]
pub(super) enum Payload {
    Msgpack(Vec<u8>),
    Json(Json),
    /// JSON that carries no `tool` or `action` tag to leave out: a
    /// mounted server's arguments and results, whatever their fields.
    #[cfg(feature = "mount")]
    Plain(Json),
    TooLarge(usize),
}

impl Payload {
    /// `bytes`, kept when they are small enough to carry.
    pub(super) fn msgpack(bytes: &[u8]) -> Payload {
        if bytes.len() > MAX_EVENT_TEXT {
            Payload::TooLarge(bytes.len())
        } else {
            Payload::Msgpack(bytes.to_vec())
        }
    }

    /// As JSON text without the `tool` and `action` tags.
    fn text(&self) -> String {
        let value = match self {
            Payload::TooLarge(n) => return format!("{{\"truncated_bytes\":{n}}}"),
            Payload::Msgpack(bytes) => match crate::edge::msgpack_to_json(bytes) {
                Ok(value) => value,
                Err(_) => return "null".to_owned(),
            },
            Payload::Json(value) => value.clone(),
            #[cfg(feature = "mount")]
            Payload::Plain(value) => return bounded(value.to_string()),
        };
        let text = match value {
            Json::Object(mut fields) => {
                fields.remove(crate::wire::TOOL_TAG);
                if fields
                    .get(crate::wire::ACTION_TAG)
                    .is_some_and(Json::is_string)
                {
                    fields.remove(crate::wire::ACTION_TAG);
                }
                Json::Object(fields).to_string()
            }
            other => other.to_string(),
        };
        bounded(text)
    }
}

/// `text`, or what replaces it when it is too large to carry.
fn bounded(text: String) -> String {
    if text.len() > MAX_EVENT_TEXT {
        format!("{{\"truncated_bytes\":{}}}", text.len())
    } else {
        text
    }
}

impl Published {
    pub(super) fn new(raw: Raw) -> Self {
        Published {
            raw,
            event: OnceLock::new(),
            json: OnceLock::new(),
        }
    }

    /// The tool called, without building the event.
    pub fn tool_name(&self) -> &str {
        &self.raw.tool
    }

    /// Who the call was made for, when its door said: a feed shows a
    /// caller its own calls. Not part of the event.
    pub fn owner(&self) -> Option<&Owner> {
        self.raw.owner.as_ref()
    }

    /// `tool_start`, `tool_complete` or `error`, without building the
    /// event.
    pub fn kind(&self) -> &'static str {
        match self.raw.kind {
            Kind::Start(_) => "tool_start",
            Kind::Complete { .. } => "tool_complete",
            Kind::Refused(_) => "error",
        }
    }

    /// The event.
    pub fn event(&self) -> &ToolEvent {
        self.event.get_or_init(|| self.build())
    }

    /// The event as JSON text, on one line.
    pub fn json(&self) -> &str {
        self.json.get_or_init(|| {
            // The event's fields are strings, numbers and booleans: it
            // always has a JSON form.
            serde_json::to_string(self.event()).unwrap_or_default()
        })
    }

    fn build(&self) -> ToolEvent {
        let raw = &self.raw;
        let call_id = format!("c{}", raw.call_id);
        let timestamp = time::iso(raw.at);
        match &raw.kind {
            Kind::Start(request) => ToolEvent::ToolStart(ToolStart {
                call_id,
                tool_name: raw.tool.clone(),
                action: raw.action.clone(),
                tool_input: request.text(),
                source: raw.source,
                timestamp,
            }),
            Kind::Complete {
                job_id,
                outcome,
                duration,
            } => {
                let (tool_result, error_code) = match outcome {
                    Ok(response) => (response.text(), None),
                    Err(e) => {
                        let mut value = serde_json::json!({ "code": e.code, "message": e.message });
                        if let Some(details) = &e.details {
                            value["details"] = details.clone();
                        }
                        (value.to_string(), Some(e.code.to_string()))
                    }
                };
                ToolEvent::ToolComplete(ToolComplete {
                    call_id,
                    job_id: job_id.clone(),
                    tool_name: raw.tool.clone(),
                    action: raw.action.clone(),
                    tool_result,
                    success: error_code.is_none(),
                    error_code,
                    // Whole microseconds: the clock says no more, and the
                    // decimal text reads back as the same number.
                    duration_ms: u32::try_from(duration.as_micros())
                        .map_or(f64::from(u32::MAX), f64::from)
                        / 1000.0,
                    source: raw.source,
                    timestamp,
                })
            }
            Kind::Refused(error) => ToolEvent::Error(CallError {
                call_id,
                tool_name: (!raw.tool.is_empty()).then(|| raw.tool.clone()),
                message: error.message.clone(),
                code: error.code.to_string(),
                source: raw.source,
                timestamp,
            }),
        }
    }
}

impl std::ops::Deref for Published {
    type Target = ToolEvent;

    fn deref(&self) -> &ToolEvent {
        self.event()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec;

    fn start(request: Payload) -> Published {
        Published::new(Raw {
            kind: Kind::Start(request),
            call_id: 7,
            tool: "fs".into(),
            action: Some("write".into()),
            source: ToolSource::Local,
            at: 0,
            owner: None,
        })
    }

    #[test]
    fn the_input_leaves_out_the_tags() {
        let request = codec::json_to_msgpack(
            br#"{"tool":"fs","action":"write","path":"a","n":2}"#,
            codec::Limits::default(),
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        let published = start(Payload::msgpack(&request));
        let ToolEvent::ToolStart(event) = published.event() else {
            panic!("a start");
        };
        assert_eq!(event.tool_input, r#"{"n":2,"path":"a"}"#);
        assert_eq!(event.call_id, "c7");
        assert_eq!(event.timestamp, "1970-01-01T00:00:00.000Z");
        assert!(
            published
                .json()
                .starts_with(r#"{"type":"tool_start","call_id":"c7""#)
        );
    }

    #[test]
    fn garbage_and_large_payloads_are_described() {
        let ToolEvent::ToolStart(event) = start(Payload::msgpack(&[0xc1])).event().clone() else {
            panic!("a start");
        };
        assert_eq!(event.tool_input, "null");
        let large = vec![0xc0; MAX_EVENT_TEXT + 1];
        let ToolEvent::ToolStart(event) = start(Payload::msgpack(&large)).event().clone() else {
            panic!("a start");
        };
        assert_eq!(
            event.tool_input,
            format!("{{\"truncated_bytes\":{}}}", MAX_EVENT_TEXT + 1)
        );
    }
}
