//! Handlers behind HOOT01 that talk back. A call whose body says
//! `talk_back` may get, before its final Reply, non-final Replies of what
//! its handler says to its caller (a log message, progress) and asks of it
//! (a completion, input, roots); the caller answers each question with an
//! Answer message. A gateway passes them on to its own client, so that a
//! handler behind it reaches the MCP client as one in the gateway's process
//! would.

use serde::{Deserialize, Serialize};

use crate::caller::{Elicited, LogLevel, Root, Sampled, SamplingRequest};
use crate::codec::{self, Limits};
use crate::{Json, ToolError};

/// What a handler says back: the body of a non-final Reply,
/// `{"log": {..}}`, `{"progress": {..}}` or `{"ask": {..}}`.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Talk {
    /// A log message.
    Log {
        level: LogLevel,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        logger: Option<String>,
        data: Json,
    },
    /// How far the call has got, from 0 to 1.
    Progress { fraction: f32 },
    /// A question, numbered within its call; the Answer says the number.
    Ask { id: u32, question: Question },
}

/// The envelope keys of [`Talk`]'s Replies: none is a call's last.
pub(crate) const KEYS: [&str; 3] = ["log", "progress", "ask"];

/// A question a handler asks its caller.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Question {
    /// A completion from the client's model.
    Sample {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        key: Option<String>,
        request: SamplingRequest,
    },
    /// Input from the client's user, shaped by `schema`.
    Elicit {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        key: Option<String>,
        message: String,
        schema: Json,
    },
    /// The client's roots.
    Roots {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        key: Option<String>,
    },
}

/// The body of an Answer: `{"id": n, "answer": {..}}`.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct AnswerBody {
    pub(crate) id: u32,
    pub(crate) answer: Answered,
}

/// What the caller answered.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Answered {
    Sampled(Sampled),
    Elicited {
        action: ElicitAction,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        content: Option<Json>,
    },
    Roots(Vec<Root>),
    /// The caller could not or would not answer (`UNSUPPORTED`, the
    /// client's refusal, MCP 2026-07-28's `INPUT_REQUIRED`).
    Error(ToolError),
}

/// What the user did with an elicitation, on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ElicitAction {
    Accept,
    Decline,
    Cancel,
}

impl Answered {
    pub(crate) fn elicited(outcome: Elicited<Json>) -> Self {
        match outcome {
            Elicited::Accepted(content) => Answered::Elicited {
                action: ElicitAction::Accept,
                content: Some(content),
            },
            Elicited::Declined => Answered::Elicited {
                action: ElicitAction::Decline,
                content: None,
            },
            Elicited::Cancelled => Answered::Elicited {
                action: ElicitAction::Cancel,
                content: None,
            },
        }
    }
}

/// Encodes a [`Talk`] or an [`AnswerBody`]; a value that does not encode
/// (a log's data holding a map with non-string keys, say) becomes `None`.
pub(crate) fn encode<T: Serialize>(value: &T) -> Option<Vec<u8>> {
    codec::to_msgpack(value).ok()
}

/// Decodes a [`Talk`] or an [`AnswerBody`] within `limits`.
pub(crate) fn decode<T: serde::de::DeserializeOwned>(
    body: &[u8],
    limits: Limits,
) -> Result<T, ToolError> {
    codec::from_msgpack(body, limits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::caller::SamplingRequest;

    #[test]
    fn talk_and_answers_round_trip_as_tagged_maps() {
        let talk = Talk::Ask {
            id: 3,
            question: Question::Sample {
                key: Some("name".into()),
                request: SamplingRequest::new("Name it.", 20),
            },
        };
        let bytes = encode(&talk).expect("encodes");
        let json: Json = decode(&bytes, Limits::default()).expect("any value");
        assert_eq!(json["ask"]["id"], 3);
        assert_eq!(json["ask"]["question"]["sample"]["key"], "name");
        let Talk::Ask {
            id: 3,
            question: Question::Sample { request, .. },
        } = decode(&bytes, Limits::default()).expect("decodes")
        else {
            panic!("the question")
        };
        assert_eq!(request.max_tokens, 20);

        let log = encode(&Talk::Log {
            level: LogLevel::Warning,
            logger: None,
            data: serde_json::json!({"n": 1}),
        })
        .expect("encodes");
        let json: Json = decode(&log, Limits::default()).expect("any value");
        assert_eq!(
            json,
            serde_json::json!({"log": {"level": "warning", "data": {"n": 1}}})
        );

        let answer = AnswerBody {
            id: 3,
            answer: Answered::elicited(Elicited::Declined),
        };
        let json: Json =
            decode(&encode(&answer).expect("encodes"), Limits::default()).expect("any value");
        assert_eq!(
            json,
            serde_json::json!({"id": 3, "answer": {"elicited": {"action": "decline"}}})
        );
    }
}
