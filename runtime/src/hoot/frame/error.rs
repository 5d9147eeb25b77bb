//! Why a HOOT01 message was refused, and what its sender is told.

use std::fmt;

use super::{Command, ContentType, MAX_SERVICE_LEN, Message, RequestId, TRACEPARENT_LEN};
use crate::ToolError;
use crate::hoot::body::error_body;

/// The rule of the HOOT01 framing a message broke.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FrameError {
    /// The message does not have exactly 7 frames.
    FrameCount {
        /// How many it has.
        got: usize,
    },
    /// Frame 3 (request id) is not 16 bytes.
    RequestId {
        /// How many bytes it holds.
        len: usize,
    },
    /// Frame 0 is not `HOOT01`.
    Magic {
        /// How many bytes it holds.
        len: usize,
        /// Its first bytes (up to 6; the rest are zero).
        head: [u8; 6],
    },
    /// Frame 1 (command) is not 1 byte.
    CommandLength {
        /// How many bytes it holds.
        len: usize,
    },
    /// Frame 1 holds a byte that is no [`Command`].
    Command(u8),
    /// Frame 2 (content type) is not 1 byte.
    ContentTypeLength {
        /// How many bytes it holds.
        len: usize,
    },
    /// Frame 2 holds a byte that is no [`ContentType`].
    ContentType(u8),
    /// Frame 4 (service) is longer than 255 bytes.
    ServiceTooLong {
        /// How many bytes it holds.
        len: usize,
    },
    /// Frame 4 (service) is not UTF-8.
    ServiceUtf8 {
        /// Where the first invalid sequence starts.
        valid_up_to: usize,
    },
    /// Frame 5 (traceparent) is longer than 55 bytes.
    Traceparent {
        /// How many bytes it holds.
        len: usize,
    },
    /// The command does not take this content type.
    ContentTypeForCommand {
        /// Frame 1.
        command: Command,
        /// Frame 2.
        content_type: ContentType,
    },
    /// Content type None, but frame 6 (body) is not empty.
    BodyNotEmpty {
        /// How many bytes it holds.
        len: usize,
    },
    /// Frame 6 (body) is larger than the receiver's limit.
    BodyTooLarge {
        /// How many bytes it holds.
        len: usize,
        /// The limit.
        max: usize,
    },
}

impl FrameError {
    pub(super) fn magic(frame: &[u8]) -> Self {
        let mut head = [0; 6];
        for (slot, &byte) in head.iter_mut().zip(frame) {
            *slot = byte;
        }
        FrameError::Magic {
            len: frame.len(),
            head,
        }
    }

    /// Whether a message with this error can be answered: false when it
    /// has no request id to answer with (a wrong frame count or a frame 3
    /// that is not 16 bytes).
    pub fn answerable(&self) -> bool {
        !matches!(
            self,
            FrameError::FrameCount { .. } | FrameError::RequestId { .. }
        )
    }

    /// The `INVALID_REQUEST` error a server answers with; its message says
    /// what was wrong.
    pub fn to_tool_error(&self) -> ToolError {
        ToolError::invalid_request(self.to_string())
    }
}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrameError::FrameCount { got } => {
                write!(f, "a HOOT01 message has 7 frames, this one has {got}")
            }
            FrameError::RequestId { len } => {
                write!(f, "HOOT01 frame 3 (request id) holds {len} bytes, not 16")
            }
            FrameError::Magic { len, head } => {
                let shown = head.get(..*len).unwrap_or(head).escape_ascii();
                match len {
                    0 => f.write_str("HOOT01 frame 0 (magic) is empty, not `HOOT01`"),
                    1..=6 => write!(f, "HOOT01 frame 0 (magic) holds `{shown}`, not `HOOT01`"),
                    _ => write!(
                        f,
                        "HOOT01 frame 0 (magic) holds {len} bytes starting `{shown}`, \
                         not `HOOT01`"
                    ),
                }
            }
            FrameError::CommandLength { len } => {
                write!(f, "HOOT01 frame 1 (command) holds {len} bytes, not 1")
            }
            FrameError::Command(byte) => write!(
                f,
                "HOOT01 frame 1 (command) holds {byte:#04x}, which is no command"
            ),
            FrameError::ContentTypeLength { len } => {
                write!(f, "HOOT01 frame 2 (content type) holds {len} bytes, not 1")
            }
            FrameError::ContentType(byte) => write!(
                f,
                "HOOT01 frame 2 (content type) holds {byte:#04x}, which is no content type"
            ),
            FrameError::ServiceTooLong { len } => write!(
                f,
                "HOOT01 frame 4 (service) holds {len} bytes, more than {MAX_SERVICE_LEN}"
            ),
            FrameError::ServiceUtf8 { valid_up_to } => write!(
                f,
                "HOOT01 frame 4 (service) is not UTF-8 (from byte {valid_up_to})"
            ),
            FrameError::Traceparent { len } => write!(
                f,
                "HOOT01 frame 5 (traceparent) holds {len} bytes, more than {TRACEPARENT_LEN}"
            ),
            FrameError::ContentTypeForCommand {
                command,
                content_type,
            } => write!(
                f,
                "a HOOT01 {command} cannot have content type {content_type} (frame 2)"
            ),
            FrameError::BodyNotEmpty { len } => write!(
                f,
                "HOOT01 frame 6 (body) holds {len} bytes, but content type None \
                 requires it empty"
            ),
            FrameError::BodyTooLarge { len, max } => write!(
                f,
                "HOOT01 frame 6 (body) holds {len} bytes, more than the limit of {max}"
            ),
        }
    }
}

impl std::error::Error for FrameError {}

/// A message [`decode`](super::decode) refused: the [`FrameError`], and the
/// request id when the message can be answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    request_id: Option<RequestId>,
    error: FrameError,
}

impl Refused {
    pub(super) fn unanswerable(error: FrameError) -> Self {
        Refused {
            request_id: None,
            error,
        }
    }

    pub(super) fn answerable(request_id: RequestId, error: FrameError) -> Self {
        Refused {
            request_id: Some(request_id),
            error,
        }
    }

    /// The message's request id: `None` exactly when
    /// [`FrameError::answerable`] is false, and then a receiver drops the
    /// message and counts it.
    pub fn request_id(&self) -> Option<RequestId> {
        self.request_id
    }

    /// The rule the message broke.
    pub fn error(&self) -> &FrameError {
        &self.error
    }

    /// The rule the message broke, by value.
    pub fn into_error(self) -> FrameError {
        self.error
    }

    /// The `INVALID_REQUEST` error a server answers with.
    pub fn to_tool_error(&self) -> ToolError {
        self.error.to_tool_error()
    }

    /// The Reply a server sends back: the same request id and the body
    /// `{"error": {"code": "INVALID_REQUEST", "message": …}}`. `None` when
    /// the message cannot be answered.
    pub fn reply(&self) -> Option<Message> {
        let request_id = self.request_id?;
        let error = self.to_tool_error();
        let body = error_body(&error.code, &error.message);
        Some(Message::reply(request_id, body))
    }
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.error, f)
    }
}

impl std::error::Error for Refused {}
