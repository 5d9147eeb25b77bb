//! The seven frames of a HOOT01 message, encoded and decoded without
//! copying the body.

mod error;
mod id;
#[cfg(test)]
mod tests;

use std::fmt;

pub use error::{FrameError, Refused};
pub use id::{RequestId, Traceparent};

/// Frame 0 of every HOOT01 message.
pub const MAGIC: &[u8; 6] = b"HOOT01";

/// How many frames a HOOT01 message has (not counting the routing identity
/// a ROUTER socket puts in front).
pub const FRAMES: usize = 7;

/// The longest service name (frame 4), in bytes.
pub const MAX_SERVICE_LEN: usize = 255;

/// The length of a version-00 traceparent, the longest frame 5 accepted.
pub const TRACEPARENT_LEN: usize = 55;

/// What a message does, from frame 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
#[non_exhaustive]
pub enum Command {
    /// A call, client to server; its body is a call body
    /// ([`CallBody`](super::CallBody)).
    Request = 0x01,
    /// An answer to a Request, server to client: one `ResponseEnvelope`.
    Reply = 0x02,
    /// A liveness check, either way; a server answers with the same id.
    Heartbeat = 0x03,
    /// Cancels the Request with the same id, client to server.
    Cancel = 0x04,
    /// The server accepts calls, server to client.
    Ready = 0x05,
    /// The sender is going away, either way.
    Disconnect = 0x06,
    /// The answer to a question a call's handler asked its caller (in a
    /// non-final Reply), client to server, with the call's id.
    Answer = 0x07,
}

impl Command {
    /// Every command, in the order of their bytes.
    pub const ALL: [Command; 7] = [
        Command::Request,
        Command::Reply,
        Command::Heartbeat,
        Command::Cancel,
        Command::Ready,
        Command::Disconnect,
        Command::Answer,
    ];

    /// The command with this byte, if one is defined.
    pub const fn from_byte(byte: u8) -> Option<Command> {
        Some(match byte {
            0x01 => Command::Request,
            0x02 => Command::Reply,
            0x03 => Command::Heartbeat,
            0x04 => Command::Cancel,
            0x05 => Command::Ready,
            0x06 => Command::Disconnect,
            0x07 => Command::Answer,
            _ => return None,
        })
    }

    /// The byte of frame 1.
    pub const fn as_byte(self) -> u8 {
        self as u8
    }

    /// The name the specification gives it: `Request`, `Reply`, …
    pub const fn name(self) -> &'static str {
        match self {
            Command::Request => "Request",
            Command::Reply => "Reply",
            Command::Heartbeat => "Heartbeat",
            Command::Cancel => "Cancel",
            Command::Ready => "Ready",
            Command::Disconnect => "Disconnect",
            Command::Answer => "Answer",
        }
    }

    /// Whether a message of this command may have `content_type`: a Request
    /// or an Answer MsgPack, a Reply MsgPack or RawBinary, every other
    /// command None.
    pub const fn allows(self, content_type: ContentType) -> bool {
        matches!(
            (self, content_type),
            (Command::Request | Command::Answer, ContentType::MsgPack)
                | (
                    Command::Reply,
                    ContentType::MsgPack | ContentType::RawBinary
                )
                | (
                    Command::Heartbeat | Command::Cancel | Command::Ready | Command::Disconnect,
                    ContentType::None
                )
        )
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How the body (frame 6) is encoded, from frame 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
#[non_exhaustive]
pub enum ContentType {
    /// No body: frame 6 is empty.
    None = 0x00,
    /// One MsgPack value.
    MsgPack = 0x01,
    /// Opaque bytes.
    RawBinary = 0x02,
}

impl ContentType {
    /// Every content type, in the order of their bytes.
    pub const ALL: [ContentType; 3] = [
        ContentType::None,
        ContentType::MsgPack,
        ContentType::RawBinary,
    ];

    /// The content type with this byte, if one is defined.
    pub const fn from_byte(byte: u8) -> Option<ContentType> {
        Some(match byte {
            0x00 => ContentType::None,
            0x01 => ContentType::MsgPack,
            0x02 => ContentType::RawBinary,
            _ => return None,
        })
    }

    /// The byte of frame 2.
    pub const fn as_byte(self) -> u8 {
        self as u8
    }

    /// The name the specification gives it: `None`, `MsgPack`, `RawBinary`.
    pub const fn name(self) -> &'static str {
        match self {
            ContentType::None => "None",
            ContentType::MsgPack => "MsgPack",
            ContentType::RawBinary => "RawBinary",
        }
    }
}

impl fmt::Display for ContentType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One HOOT01 message, as [`decode`] returns it and [`encode`] takes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// Frame 1.
    pub command: Command,
    /// Frame 2.
    pub content_type: ContentType,
    /// Frame 3: the call this message belongs to.
    pub request_id: RequestId,
    /// Frame 4: the service a Request addresses; empty means whatever the
    /// server serves. At most 255 bytes.
    pub service: String,
    /// Frame 5, when it holds a valid version-00 traceparent.
    pub traceparent: Option<Traceparent>,
    /// Frame 6.
    pub body: Vec<u8>,
}

impl Message {
    /// A Request carrying `body`, a call body (see
    /// [`encode_call`](super::encode_call)), to `service` (empty for
    /// whatever the server serves). A service over 255 bytes is refused by
    /// the receiver.
    pub fn request(request_id: RequestId, service: impl Into<String>, body: Vec<u8>) -> Self {
        Message {
            command: Command::Request,
            content_type: ContentType::MsgPack,
            request_id,
            service: service.into(),
            traceparent: None,
            body,
        }
    }

    /// A Reply carrying `body`, one MsgPack `ResponseEnvelope`.
    pub fn reply(request_id: RequestId, body: Vec<u8>) -> Self {
        Message {
            command: Command::Reply,
            content_type: ContentType::MsgPack,
            request_id,
            service: String::new(),
            traceparent: None,
            body,
        }
    }

    /// An Answer to a question of the call `request_id`'s handler.
    pub fn answer(request_id: RequestId, body: Vec<u8>) -> Self {
        Message {
            command: Command::Answer,
            content_type: ContentType::MsgPack,
            request_id,
            service: String::new(),
            traceparent: None,
            body,
        }
    }

    /// A Heartbeat; its answer carries the same id.
    pub fn heartbeat(request_id: RequestId) -> Self {
        Self::empty(Command::Heartbeat, request_id)
    }

    /// A Cancel of the call `request_id`.
    pub fn cancel(request_id: RequestId) -> Self {
        Self::empty(Command::Cancel, request_id)
    }

    /// A Ready, in answer to the Heartbeat `request_id`.
    pub fn ready(request_id: RequestId) -> Self {
        Self::empty(Command::Ready, request_id)
    }

    /// A Disconnect, with the nil id.
    pub fn disconnect() -> Self {
        Self::empty(Command::Disconnect, RequestId::NIL)
    }

    /// Sets frame 5.
    #[must_use]
    pub fn with_traceparent(mut self, traceparent: Traceparent) -> Self {
        self.traceparent = Some(traceparent);
        self
    }

    fn empty(command: Command, request_id: RequestId) -> Self {
        Message {
            command,
            content_type: ContentType::None,
            request_id,
            service: String::new(),
            traceparent: None,
            body: Vec::new(),
        }
    }
}

/// The seven frames of `message`. The body and the service move into
/// frames 6 and 4 without being copied. Nothing is checked: a message that
/// breaks a rule of [`decode`] is refused by the receiver.
pub fn encode(message: Message) -> [Vec<u8>; FRAMES] {
    let Message {
        command,
        content_type,
        request_id,
        service,
        traceparent,
        body,
    } = message;
    [
        MAGIC.to_vec(),
        vec![command.as_byte()],
        vec![content_type.as_byte()],
        request_id.as_bytes().to_vec(),
        service.into_bytes(),
        traceparent.map_or_else(Vec::new, |t| t.as_bytes().to_vec()),
        body,
    ]
}

/// Reads the frames of one message (without a ROUTER's identity frame).
/// The body and the service move into the [`Message`] without being
/// copied.
///
/// The frame count and frame 3 are checked first, since the request id is
/// needed to answer anything; then frames 0, 1, 2, 4 and 5 in turn, the
/// content type against the command, and the body. The first rule broken
/// is reported. Frame 5 holding 55 bytes or fewer that are not a valid
/// traceparent is not an error: it decodes as `None`.
///
/// # Errors
/// [`Refused`]: the [`FrameError`], with the request id when the message
/// can be answered.
pub fn decode(frames: Vec<Vec<u8>>, max_body: usize) -> Result<Message, Refused> {
    let got = frames.len();
    let Ok(frames) = <[Vec<u8>; FRAMES]>::try_from(frames) else {
        return Err(Refused::unanswerable(FrameError::FrameCount { got }));
    };
    let [_, _, _, id, ..] = &frames;
    let Some(request_id) = RequestId::from_bytes(id) else {
        let len = id.len();
        return Err(Refused::unanswerable(FrameError::RequestId { len }));
    };
    fields(frames, request_id, max_body).map_err(|error| Refused::answerable(request_id, error))
}

/// Checks and moves every frame but the request id, already read.
fn fields(
    frames: [Vec<u8>; FRAMES],
    request_id: RequestId,
    max_body: usize,
) -> Result<Message, FrameError> {
    let [magic, command, content_type, _, service, traceparent, body] = frames;
    if magic != MAGIC {
        return Err(FrameError::magic(&magic));
    }
    let command = match *command {
        [byte] => Command::from_byte(byte).ok_or(FrameError::Command(byte))?,
        _ => return Err(FrameError::CommandLength { len: command.len() }),
    };
    let content_type = match *content_type {
        [byte] => ContentType::from_byte(byte).ok_or(FrameError::ContentType(byte))?,
        _ => {
            let len = content_type.len();
            return Err(FrameError::ContentTypeLength { len });
        }
    };
    if service.len() > MAX_SERVICE_LEN {
        return Err(FrameError::ServiceTooLong { len: service.len() });
    }
    let service = String::from_utf8(service).map_err(|e| FrameError::ServiceUtf8 {
        valid_up_to: e.utf8_error().valid_up_to(),
    })?;
    if traceparent.len() > TRACEPARENT_LEN {
        let len = traceparent.len();
        return Err(FrameError::Traceparent { len });
    }
    if !command.allows(content_type) {
        return Err(FrameError::ContentTypeForCommand {
            command,
            content_type,
        });
    }
    if content_type == ContentType::None && !body.is_empty() {
        return Err(FrameError::BodyNotEmpty { len: body.len() });
    }
    if body.len() > max_body {
        let (len, max) = (body.len(), max_body);
        return Err(FrameError::BodyTooLarge { len, max });
    }
    Ok(Message {
        command,
        content_type,
        request_id,
        service,
        traceparent: Traceparent::parse(&traceparent),
        body,
    })
}
