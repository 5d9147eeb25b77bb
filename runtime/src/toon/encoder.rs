//! Writing frames.

use serde::Serialize;

use super::payload::{ToolFailure, ToolResult};
use super::splice::{self, Tagged};
use super::{
    COMPRESSED, COMPRESSION_THRESHOLD, EncodeError, HEADER_SIZE, Header, MessageType, PLAIN,
    Version, rle,
};

/// When a frame was sent and where it sits in its sender's sequence: the
/// header fields the caller chooses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stamp {
    /// Unix time in milliseconds.
    pub timestamp: u64,
    /// The sender's sequence number.
    pub sequence_id: u32,
}

/// Writes frames of one version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Encoder {
    version: Version,
    compression: bool,
}

impl Encoder {
    /// An encoder of `version` frames that compresses where it pays.
    pub const fn new(version: Version) -> Self {
        Encoder {
            version,
            compression: true,
        }
    }

    /// Turns compression on (the default) or off.
    #[must_use]
    pub const fn compression(mut self, on: bool) -> Self {
        self.compression = on;
        self
    }

    /// The version of the frames it writes.
    pub const fn version(&self) -> Version {
        self.version
    }

    /// Frames `raw`, a payload already written in the encoder's version's
    /// encoding (JSON text for v1, MsgPack for v2), compressing it when it
    /// is over [`COMPRESSION_THRESHOLD`] bytes and compression makes the
    /// payload shorter.
    ///
    /// # Errors
    /// When the payload does not fit the header's 32-bit length, or a v1
    /// payload starts with the byte that marks compression (`Z` is not
    /// JSON).
    pub fn frame(
        &self,
        message_type: MessageType,
        stamp: Stamp,
        raw: &[u8],
    ) -> Result<Vec<u8>, EncodeError> {
        if self.version == Version::V1 && raw.first() == Some(&COMPRESSED) {
            return Err(EncodeError::new(
                "a version 1 payload is JSON text, which cannot start with 0x5A",
            ));
        }
        let mut out = Vec::with_capacity(HEADER_SIZE + 1 + raw.len());
        out.extend_from_slice(&[0; HEADER_SIZE]);
        let compressed = self.compression && raw.len() > COMPRESSION_THRESHOLD && {
            out.push(COMPRESSED);
            // Used only when the marker and the RLE bytes together are
            // shorter than the raw payload.
            let limit = out.len() + raw.len() - 1;
            let shorter = rle::append_shorter_than(raw, &mut out, limit);
            if !shorter {
                out.pop();
            }
            shorter
        };
        if !compressed {
            if self.version == Version::V2 {
                out.push(PLAIN);
            }
            out.extend_from_slice(raw);
        }
        let payload_len = u32::try_from(out.len() - HEADER_SIZE).map_err(|_| {
            EncodeError::new(format!(
                "a payload of {} bytes does not fit the header's 32-bit length",
                out.len() - HEADER_SIZE
            ))
        })?;
        let header = Header {
            version: self.version,
            message_type,
            payload_len,
            timestamp: stamp.timestamp,
            sequence_id: stamp.sequence_id,
        };
        out[..HEADER_SIZE].copy_from_slice(&header.to_bytes());
        Ok(out)
    }

    /// Writes `value` as the payload: JSON for v1, MsgPack (structs as
    /// maps) for v2.
    ///
    /// # Errors
    /// When `value` cannot be written (a non-finite float in JSON, say), or
    /// as [`Encoder::frame`].
    pub fn encode<T: Serialize + ?Sized>(
        &self,
        message_type: MessageType,
        stamp: Stamp,
        value: &T,
    ) -> Result<Vec<u8>, EncodeError> {
        let raw = match self.version {
            Version::V1 => serde_json::to_vec(value)
                .map_err(|e| EncodeError::new(format!("cannot write JSON: {e}")))?,
            Version::V2 => rmp_serde::to_vec_named(value)
                .map_err(|e| EncodeError::new(format!("cannot write MsgPack: {e}")))?,
        };
        self.frame(message_type, stamp, &raw)
    }

    /// A `TOOL_CALL` frame of `request`, a catalogue's `ToolRequest` (or
    /// any value written as `{"tool": name, ...fields}`): the payload is
    /// `{"toolName": name, "args": {...fields}}`.
    ///
    /// # Errors
    /// When `request` is not written as a map whose first key is `tool`,
    /// or as [`Encoder::encode`].
    pub fn encode_tool_call<R: Serialize + ?Sized>(
        &self,
        stamp: Stamp,
        request: &R,
    ) -> Result<Vec<u8>, EncodeError> {
        let tagged = Tagged::write(self.version, request)?;
        let raw = splice::tool_call(self.version, &tagged);
        self.frame(MessageType::ToolCall, stamp, &raw)
    }

    /// A `TOOL_RESULT` frame: `{"success": true, "toolName", "data",
    /// "duration"}` with the response's fields as `data`, or `{"success":
    /// false, "toolName", "error", "duration"}`.
    ///
    /// # Errors
    /// When the response names another tool than `result.tool`, is not
    /// written as a map whose first key is `tool`, or as
    /// [`Encoder::encode`].
    pub fn encode_tool_result<R: Serialize>(
        &self,
        stamp: Stamp,
        result: &ToolResult<R>,
    ) -> Result<Vec<u8>, EncodeError> {
        match &result.outcome {
            Ok(response) => {
                let tagged = Tagged::write(self.version, response)?;
                if tagged.name != result.tool {
                    return Err(EncodeError::new(format!(
                        "the result is of tool `{}` but its response is of tool `{}`",
                        result.tool, tagged.name
                    )));
                }
                let raw = splice::tool_success(self.version, &tagged, result.duration_ms);
                self.frame(MessageType::ToolResult, stamp, &raw)
            }
            Err(error) => self.encode(
                MessageType::ToolResult,
                stamp,
                &ToolFailure {
                    success: false,
                    tool_name: &result.tool,
                    error,
                    duration: result.duration_ms,
                },
            ),
        }
    }
}
