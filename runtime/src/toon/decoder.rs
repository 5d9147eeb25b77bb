//! Reading frames, within limits.

use std::borrow::Cow;

use serde::de::DeserializeOwned;

use super::retag::{CallPayload, ResultPayload};
use super::{
    COMPRESSED, DecodeError, ErrorKind, HEADER_SIZE, Header, MessageType, PLAIN, ToolResult,
    Version, rle,
};
use crate::codec::{self, Limits};

/// Reads frames: checks the header, then the payload's length against the
/// input and the limits, then decompresses, and (for the typed methods)
/// decodes the payload.
///
/// The checks run in the order of the error kinds: `truncated_header`,
/// `unsupported_version`, `unknown_type`, `payload_too_large` (from the
/// header alone, so a huge length costs nothing), `truncated_payload`,
/// then `bad_compression`, `decompressed_too_large` and `invalid_payload`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decoder {
    max_payload: u32,
    max_decompressed: Option<usize>,
    max_depth: usize,
    v1: bool,
    v2: bool,
}

impl Default for Decoder {
    fn default() -> Self {
        let limits = Limits::default();
        Decoder {
            max_payload: u32::try_from(limits.max_bytes).unwrap_or(u32::MAX),
            max_decompressed: None,
            max_depth: limits.max_depth,
            v1: true,
            v2: true,
        }
    }
}

impl Decoder {
    /// A decoder of both versions, with payloads up to 64 MiB (compressed
    /// or not) and nesting up to 128 deep, as the runtime's
    /// [`Limits`](crate::codec::Limits).
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the largest payload length a header may announce.
    #[must_use]
    pub fn max_payload(mut self, bytes: u32) -> Self {
        self.max_payload = bytes;
        self
    }

    /// Sets the largest size a compressed payload may expand to (by
    /// default the largest payload length).
    #[must_use]
    pub fn max_decompressed(mut self, bytes: usize) -> Self {
        self.max_decompressed = Some(bytes);
        self
    }

    /// Sets the deepest nesting of arrays and maps a payload may have.
    #[must_use]
    pub fn max_depth(mut self, depth: usize) -> Self {
        self.max_depth = depth;
        self
    }

    /// Accepts only these versions; frames of others are
    /// `unsupported_version`.
    #[must_use]
    pub fn versions(mut self, versions: &[Version]) -> Self {
        self.v1 = versions.contains(&Version::V1);
        self.v2 = versions.contains(&Version::V2);
        self
    }

    /// True when it reads frames of `version`.
    pub fn accepts(&self, version: Version) -> bool {
        match version {
            Version::V1 => self.v1,
            Version::V2 => self.v2,
        }
    }

    fn decompressed_limit(&self) -> usize {
        self.max_decompressed
            .unwrap_or(usize::try_from(self.max_payload).unwrap_or(usize::MAX))
    }

    /// Reads the frame at the start of `input`: its header and its payload,
    /// decompressed. Bytes after the frame are not looked at; see
    /// [`Frame::size`].
    ///
    /// # Errors
    /// Any kind but `invalid_payload`, except for a version 2 payload
    /// without a known coding byte.
    pub fn decode_frame<'a>(&self, input: &'a [u8]) -> Result<Frame<'a>, DecodeError> {
        let header = Header::parse(input)?;
        if !self.accepts(header.version) {
            let accepted: Vec<String> = Version::ALL
                .iter()
                .filter(|v| self.accepts(**v))
                .map(|v| v.as_u8().to_string())
                .collect();
            return Err(DecodeError::new(
                ErrorKind::UnsupportedVersion,
                format!(
                    "version {} frames are not accepted here (accepted: {})",
                    header.version.as_u8(),
                    if accepted.is_empty() {
                        "none".to_owned()
                    } else {
                        accepted.join(", ")
                    }
                ),
            ));
        }
        if header.payload_len > self.max_payload {
            return Err(DecodeError::new(
                ErrorKind::PayloadTooLarge,
                format!(
                    "the header announces a payload of {} bytes; the limit is {} bytes",
                    header.payload_len, self.max_payload
                ),
            ));
        }
        let body = &input[HEADER_SIZE..];
        // The length fits `usize`: it is at most `max_payload`, a `u32`.
        let len = header.payload_len as usize;
        let Some(payload) = body.get(..len) else {
            return Err(DecodeError::new(
                ErrorKind::TruncatedPayload,
                format!(
                    "the header announces a payload of {len} bytes; only {} follow it",
                    body.len()
                ),
            ));
        };
        let (compressed, data) = match header.version {
            Version::V1 => match payload.split_first() {
                Some((&COMPRESSED, data)) => (true, data),
                _ => (false, payload),
            },
            Version::V2 => match payload.split_first() {
                Some((&PLAIN, data)) => (false, data),
                Some((&COMPRESSED, data)) => (true, data),
                Some((&other, _)) => {
                    return Err(DecodeError::invalid_payload(format!(
                        "a version 2 payload starts with the coding byte 0x00 or 0x5A, not {other:#04x}"
                    )));
                }
                None => {
                    return Err(DecodeError::invalid_payload(
                        "a version 2 payload starts with a coding byte; this one is empty",
                    ));
                }
            },
        };
        let payload = if compressed {
            Cow::Owned(rle::decode(data, self.decompressed_limit())?)
        } else {
            Cow::Borrowed(data)
        };
        Ok(Frame {
            header,
            compressed,
            payload,
            max_depth: self.max_depth,
        })
    }

    /// Reads a frame and decodes its payload as `T`.
    ///
    /// # Errors
    /// As [`Decoder::decode_frame`], and `invalid_payload` when the payload
    /// is not a `T`.
    pub fn decode<T: DeserializeOwned>(&self, input: &[u8]) -> Result<Message<T>, DecodeError> {
        let frame = self.decode_frame(input)?;
        let value = frame.value()?;
        Ok(frame.into_message(value))
    }

    /// Reads a `TOOL_CALL` frame into `R`, a catalogue's `ToolRequest` (or
    /// any type read from `{"tool": name, ...fields}`).
    ///
    /// # Errors
    /// As [`Decoder::decode`]; `invalid_payload` as well for a frame of
    /// another type.
    pub fn decode_tool_call<R: DeserializeOwned>(
        &self,
        input: &[u8],
    ) -> Result<Message<R>, DecodeError> {
        let frame = self.decode_frame(input)?;
        frame.expect_type(MessageType::ToolCall)?;
        let CallPayload(request) = frame.value()?;
        Ok(frame.into_message(request))
    }

    /// Reads a `TOOL_RESULT` frame; `R` is a catalogue's `ToolResponse`.
    ///
    /// # Errors
    /// As [`Decoder::decode_tool_call`].
    pub fn decode_tool_result<R: DeserializeOwned>(
        &self,
        input: &[u8],
    ) -> Result<Message<ToolResult<R>>, DecodeError> {
        let frame = self.decode_frame(input)?;
        frame.expect_type(MessageType::ToolResult)?;
        let ResultPayload(result) = frame.value()?;
        Ok(frame.into_message(result))
    }
}

/// A frame as read: its header and its payload, decompressed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame<'a> {
    header: Header,
    compressed: bool,
    payload: Cow<'a, [u8]>,
    max_depth: usize,
}

impl Frame<'_> {
    /// The header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// True when the payload was compressed.
    pub fn compressed(&self) -> bool {
        self.compressed
    }

    /// The payload, decompressed and without v2's coding byte: JSON text
    /// (v1) or MsgPack (v2).
    pub fn payload(&self) -> &[u8] {
        &self.payload
    }

    /// How many bytes of the input the frame took: the header and the
    /// payload length it announces. A stream's next frame starts there.
    pub fn size(&self) -> usize {
        HEADER_SIZE + self.header.payload_len as usize
    }

    /// Decodes the payload as `T`.
    ///
    /// # Errors
    /// `invalid_payload`, naming what is wrong.
    pub fn value<T: DeserializeOwned>(&self) -> Result<T, DecodeError> {
        let limits = Limits::default()
            .max_bytes(usize::MAX)
            .max_depth(self.max_depth);
        let decoded = match self.header.version {
            Version::V1 => codec::from_json(&self.payload, limits),
            Version::V2 => codec::from_msgpack(&self.payload, limits),
        };
        decoded.map_err(|e| {
            DecodeError::invalid_payload(format!(
                "the {} payload of a {} frame: {}",
                match self.header.version {
                    Version::V1 => "JSON",
                    Version::V2 => "MsgPack",
                },
                self.header.message_type,
                e.message
            ))
        })
    }

    fn expect_type(&self, expected: MessageType) -> Result<(), DecodeError> {
        if self.header.message_type != expected {
            return Err(DecodeError::invalid_payload(format!(
                "expected a {expected} frame, found a {} frame",
                self.header.message_type
            )));
        }
        Ok(())
    }

    fn into_message<T>(self, value: T) -> Message<T> {
        Message {
            size: self.size(),
            header: self.header,
            compressed: self.compressed,
            value,
        }
    }
}

/// A decoded frame: its header and its payload as a `T`.
#[derive(Clone, Debug, PartialEq)]
pub struct Message<T> {
    /// The header.
    pub header: Header,
    /// True when the payload was compressed.
    pub compressed: bool,
    /// How many bytes of the input the frame took (see [`Frame::size`]).
    pub size: usize,
    /// The payload.
    pub value: T,
}
