//! The 18-byte TOON header and the protocol versions.

use std::fmt;

use super::{DecodeError, ErrorKind, MessageType};

/// Size of the header: `<BBIQI` little-endian.
pub const HEADER_SIZE: usize = 18;

/// What the payload of a frame is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Version {
    /// UTF-8 JSON; a first byte `0x5A` marks an RLE-compressed payload.
    V1 = 1,
    /// A coding byte (`0x00` plain, `0x5A` RLE), then MsgPack.
    V2 = 2,
}

impl Version {
    /// Both versions, oldest first.
    pub const ALL: [Version; 2] = [Version::V1, Version::V2];

    /// The version with this header byte, if one is defined.
    pub const fn from_u8(value: u8) -> Option<Version> {
        match value {
            1 => Some(Version::V1),
            2 => Some(Version::V2),
            _ => None,
        }
    }

    /// The header byte.
    pub const fn as_u8(self) -> u8 {
        self as u8
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "v{}", self.as_u8())
    }
}

/// The fields of a TOON header.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Header {
    /// Byte 0: the payload's encoding.
    pub version: Version,
    /// Byte 1: what the frame carries.
    pub message_type: MessageType,
    /// Bytes 2..6, u32 LE: the payload's length in bytes, as sent (so
    /// compressed, and counting v2's coding byte).
    pub payload_len: u32,
    /// Bytes 6..14, u64 LE: Unix time of sending, in milliseconds.
    pub timestamp: u64,
    /// Bytes 14..18, u32 LE: the sender's sequence number.
    pub sequence_id: u32,
}

impl Header {
    /// The header's 18 bytes.
    pub fn to_bytes(&self) -> [u8; HEADER_SIZE] {
        let mut out = [0; HEADER_SIZE];
        out[0] = self.version.as_u8();
        out[1] = self.message_type.as_u8();
        out[2..6].copy_from_slice(&self.payload_len.to_le_bytes());
        out[6..14].copy_from_slice(&self.timestamp.to_le_bytes());
        out[14..18].copy_from_slice(&self.sequence_id.to_le_bytes());
        out
    }

    /// Reads the header at the start of `input`, checking (in this order)
    /// that the input holds a whole header, that the version and the
    /// message type are defined. The payload is not looked at.
    ///
    /// # Errors
    /// `truncated_header`, `unsupported_version` or `unknown_type`.
    pub fn parse(input: &[u8]) -> Result<Header, DecodeError> {
        let Some(bytes) = input.first_chunk::<HEADER_SIZE>() else {
            return Err(DecodeError::new(
                ErrorKind::TruncatedHeader,
                format!(
                    "{} bytes is shorter than the {HEADER_SIZE}-byte header",
                    input.len()
                ),
            ));
        };
        let version = Version::from_u8(bytes[0]).ok_or_else(|| {
            DecodeError::new(
                ErrorKind::UnsupportedVersion,
                format!("version {} is not defined (1 and 2 are)", bytes[0]),
            )
        })?;
        let message_type = MessageType::from_u8(bytes[1]).ok_or_else(|| {
            DecodeError::new(
                ErrorKind::UnknownType,
                format!(
                    "message type {:#04x} is not defined (0x01 to 0x08 are)",
                    bytes[1]
                ),
            )
        })?;
        Ok(Header {
            version,
            message_type,
            payload_len: u32::from_le_bytes([bytes[2], bytes[3], bytes[4], bytes[5]]),
            timestamp: u64::from_le_bytes([
                bytes[6], bytes[7], bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13],
            ]),
            sequence_id: u32::from_le_bytes([bytes[14], bytes[15], bytes[16], bytes[17]]),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_sit_where_the_layout_says() {
        let header = Header {
            version: Version::V1,
            message_type: MessageType::Status,
            payload_len: 0x0403_0201,
            timestamp: 0x0c0b_0a09_0807_0605,
            sequence_id: 0x100f_0e0d,
        };
        let bytes = header.to_bytes();
        assert_eq!(
            bytes,
            [1, 4, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]
        );
        assert_eq!(Header::parse(&bytes), Ok(header));
    }

    #[test]
    fn checks_come_in_the_order_of_the_specification() {
        let kind = |bytes: &[u8]| Header::parse(bytes).map_err(|e| e.kind());
        assert_eq!(kind(&[1; 17]), Err(ErrorKind::TruncatedHeader));
        assert_eq!(kind(&[]), Err(ErrorKind::TruncatedHeader));
        // Version before type: both are wrong here.
        let mut bytes = [0u8; HEADER_SIZE];
        assert_eq!(kind(&bytes), Err(ErrorKind::UnsupportedVersion));
        bytes[0] = 3;
        assert_eq!(kind(&bytes), Err(ErrorKind::UnsupportedVersion));
        bytes[0] = 2;
        assert_eq!(kind(&bytes), Err(ErrorKind::UnknownType));
        bytes[1] = 9;
        assert_eq!(kind(&bytes), Err(ErrorKind::UnknownType));
        bytes[1] = 8;
        assert!(kind(&bytes).is_ok());
    }
}
