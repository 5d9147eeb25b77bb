//! Why a TOON frame could not be read or written.

use std::fmt;

/// What kind of problem a [`DecodeError`] reports. Every TOON implementation
/// (Rust, TypeScript, Python) reports the same kinds, by the names of
/// [`ErrorKind::as_str`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input is shorter than the 18-byte header.
    TruncatedHeader,
    /// The header's version is not one the decoder accepts.
    UnsupportedVersion,
    /// The header's message type is not one of the eight defined.
    UnknownType,
    /// The input ends before the payload the header announces.
    TruncatedPayload,
    /// The header announces a payload larger than the decoder's limit.
    PayloadTooLarge,
    /// The RLE stream is malformed: a dangling escape, a zero count.
    BadCompression,
    /// The payload would decompress to more than the decoder's limit.
    DecompressedTooLarge,
    /// The payload is not what its version and type require: invalid JSON
    /// or MsgPack, a missing coding byte, a value of the wrong shape.
    InvalidPayload,
}

impl ErrorKind {
    /// Every kind, in the order of the header checks and then the payload's.
    pub const ALL: [ErrorKind; 8] = [
        ErrorKind::TruncatedHeader,
        ErrorKind::UnsupportedVersion,
        ErrorKind::UnknownType,
        ErrorKind::PayloadTooLarge,
        ErrorKind::TruncatedPayload,
        ErrorKind::BadCompression,
        ErrorKind::DecompressedTooLarge,
        ErrorKind::InvalidPayload,
    ];

    /// The kind's machine-readable name, shared by every implementation:
    /// `truncated_header`, `unsupported_version`, …
    pub const fn as_str(self) -> &'static str {
        match self {
            ErrorKind::TruncatedHeader => "truncated_header",
            ErrorKind::UnsupportedVersion => "unsupported_version",
            ErrorKind::UnknownType => "unknown_type",
            ErrorKind::TruncatedPayload => "truncated_payload",
            ErrorKind::PayloadTooLarge => "payload_too_large",
            ErrorKind::BadCompression => "bad_compression",
            ErrorKind::DecompressedTooLarge => "decompressed_too_large",
            ErrorKind::InvalidPayload => "invalid_payload",
        }
    }

    /// The kind named `name` (the inverse of [`ErrorKind::as_str`]).
    pub fn from_name(name: &str) -> Option<ErrorKind> {
        ErrorKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A frame that could not be decoded: a [`kind`](DecodeError::kind) for
/// programs and a reason for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    kind: ErrorKind,
    reason: String,
}

impl DecodeError {
    /// An error of `kind`, with the reason shown after the kind's name.
    pub fn new(kind: ErrorKind, reason: impl Into<String>) -> Self {
        DecodeError {
            kind,
            reason: reason.into(),
        }
    }

    /// What kind of problem this is.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// What exactly is wrong, for people.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    pub(crate) fn invalid_payload(reason: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidPayload, reason)
    }

    pub(crate) fn bad_compression(reason: impl Into<String>) -> Self {
        Self::new(ErrorKind::BadCompression, reason)
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid TOON frame ({}): {}", self.kind, self.reason)
    }
}

impl std::error::Error for DecodeError {}

/// A value that could not be written as a TOON frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError {
    reason: String,
}

impl EncodeError {
    pub(crate) fn new(reason: impl Into<String>) -> Self {
        EncodeError {
            reason: reason.into(),
        }
    }

    /// What went wrong.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot encode TOON frame: {}", self.reason)
    }
}

impl std::error::Error for EncodeError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_snake_case_and_round_trip() {
        let mut names: Vec<&str> = ErrorKind::ALL.iter().map(|k| k.as_str()).collect();
        for (kind, name) in ErrorKind::ALL.iter().zip(&names) {
            assert_eq!(ErrorKind::from_name(name), Some(*kind));
            assert!(name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'));
        }
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ErrorKind::ALL.len());
        assert_eq!(ErrorKind::from_name("truncated"), None);
    }

    #[test]
    fn display_names_the_kind_and_the_reason() {
        let e = DecodeError::new(ErrorKind::UnknownType, "type 0x09 is not defined");
        assert_eq!(
            e.to_string(),
            "invalid TOON frame (unknown_type): type 0x09 is not defined"
        );
        assert_eq!(e.kind(), ErrorKind::UnknownType);
    }
}
