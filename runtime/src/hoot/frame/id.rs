//! Request ids (frame 3) and W3C traceparents (frame 5).

use std::collections::hash_map::RandomState;
use std::fmt;
use std::hash::BuildHasher;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use super::TRACEPARENT_LEN;

const HEX: &[u8; 16] = b"0123456789abcdef";

/// 16 bytes no one can guess: the keyed hashes of a process-wide counter.
///
/// The counter gives every call a different input; `RandomState`'s keys,
/// drawn from the operating system once per process, make the output
/// unpredictable (SipHash is a keyed pseudorandom function), so ids of one
/// run say nothing about another's.
fn random_bytes() -> [u8; 16] {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    static KEYS: OnceLock<RandomState> = OnceLock::new();
    let keys = KEYS.get_or_init(RandomState::new);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let high = keys.hash_one((n, 0u8));
    let low = keys.hash_one((n, 1u8));
    (u128::from(high) << 64 | u128::from(low)).to_be_bytes()
}

/// Writes each byte of `bytes` as two lowercase hex digits into `out`.
fn put_hex(out: &mut [u8], bytes: &[u8]) {
    for (pair, &byte) in out.chunks_exact_mut(2).zip(bytes) {
        pair.copy_from_slice(&[HEX[usize::from(byte >> 4)], HEX[usize::from(byte & 0x0f)]]);
    }
}

/// Reads two lowercase hex digits of `text` into each byte of `out`;
/// `text` is hex already (a parsed or made [`Traceparent`]).
fn get_hex(text: &[u8], out: &mut [u8]) {
    let digit = |c: u8| match c {
        b'0'..=b'9' => c - b'0',
        _ => c.wrapping_sub(b'a').wrapping_add(10) & 0x0f,
    };
    for (pair, byte) in text.chunks_exact(2).zip(out) {
        *byte = digit(pair[0]) << 4 | digit(pair[1]);
    }
}

/// A UUID in binary (RFC 9562 byte order), naming the call a message
/// belongs to. Displayed as 36 lowercase characters,
/// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RequestId([u8; 16]);

impl RequestId {
    /// The nil UUID, all zeros.
    pub const NIL: RequestId = RequestId([0; 16]);

    /// A fresh random (version 4) UUID.
    // A `Default` would have to choose between this and `NIL`; neither is
    // the obvious one.
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        let mut bytes = random_bytes();
        bytes[6] = (bytes[6] & 0x0f) | 0x40;
        bytes[8] = (bytes[8] & 0x3f) | 0x80;
        RequestId(bytes)
    }

    /// The id in `bytes`, if they are exactly 16.
    pub fn from_bytes(bytes: &[u8]) -> Option<Self> {
        <[u8; 16]>::try_from(bytes).ok().map(RequestId)
    }

    /// The 16 bytes of frame 3.
    pub const fn as_bytes(&self) -> &[u8; 16] {
        &self.0
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, byte) in self.0.iter().enumerate() {
            if matches!(i, 4 | 6 | 8 | 10) {
                f.write_str("-")?;
            }
            write!(f, "{byte:02x}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A W3C trace-context `traceparent`, version 00:
/// `00-<32 hex trace-id>-<16 hex parent-id>-<2 hex flags>`, lowercase, with
/// neither id all zeros.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Traceparent([u8; TRACEPARENT_LEN]);

impl Traceparent {
    /// The traceparent in `bytes`, if they are a valid version-00 value.
    /// Anything else (another length or shape, uppercase hex, an all-zero
    /// id, another version) is `None`: W3C trace-context has a receiver
    /// ignore a traceparent it cannot read.
    pub fn parse(bytes: &[u8]) -> Option<Self> {
        let bytes = <[u8; TRACEPARENT_LEN]>::try_from(bytes).ok()?;
        let shape = bytes.iter().enumerate().all(|(i, &b)| match i {
            2 | 35 | 52 => b == b'-',
            _ => matches!(b, b'0'..=b'9' | b'a'..=b'f'),
        });
        let nonzero = |range: std::ops::Range<usize>| {
            bytes
                .get(range)
                .is_some_and(|id| id.iter().any(|&b| b != b'0'))
        };
        let valid = shape && bytes.starts_with(b"00") && nonzero(3..35) && nonzero(36..52);
        valid.then_some(Traceparent(bytes))
    }

    /// The start of a new trace: a fresh trace id and parent id, flags `01`
    /// (sampled: whoever starts a trace means it to be recorded).
    pub fn new_root() -> Self {
        let mut text = [b'-'; TRACEPARENT_LEN];
        text[..2].copy_from_slice(b"00");
        put_hex(&mut text[3..35], &nonzero(random_bytes()));
        put_hex(&mut text[53..], &[0x01]);
        Traceparent(text).with_new_parent()
    }

    /// The traceparent of a span: its trace id, its own id (the parent of
    /// whatever the receiver makes) and its flags. `None` when either id is
    /// all zeros, which W3C trace context forbids.
    pub fn from_ids(trace_id: [u8; 16], parent_id: [u8; 8], flags: u8) -> Option<Self> {
        if trace_id == [0; 16] || parent_id == [0; 8] {
            return None;
        }
        let mut text = [b'-'; TRACEPARENT_LEN];
        text[..2].copy_from_slice(b"00");
        put_hex(&mut text[3..35], &trace_id);
        put_hex(&mut text[36..52], &parent_id);
        put_hex(&mut text[53..], &[flags]);
        Some(Traceparent(text))
    }

    /// The trace id, 16 bytes.
    pub fn trace_id(&self) -> [u8; 16] {
        let mut id = [0; 16];
        get_hex(&self.0[3..35], &mut id);
        id
    }

    /// The parent id: the caller's span, 8 bytes.
    pub fn parent_id(&self) -> [u8; 8] {
        let mut id = [0; 8];
        get_hex(&self.0[36..52], &mut id);
        id
    }

    /// The trace flags (`0x01`: sampled).
    pub fn flags(&self) -> u8 {
        let mut flags = [0; 1];
        get_hex(&self.0[53..], &mut flags);
        flags[0]
    }

    /// The same trace and flags with a fresh parent id: what a caller sends
    /// on for a call it makes while serving this one.
    #[must_use]
    pub fn child(&self) -> Self {
        self.with_new_parent()
    }

    fn with_new_parent(mut self) -> Self {
        let id = nonzero(random_bytes());
        put_hex(&mut self.0[36..52], &id[..8]);
        self
    }

    /// The 55 characters.
    pub fn as_str(&self) -> &str {
        // `parse` and the constructors admit ASCII only.
        std::str::from_utf8(&self.0).unwrap_or_default()
    }

    /// The 55 bytes of frame 5.
    pub const fn as_bytes(&self) -> &[u8; TRACEPARENT_LEN] {
        &self.0
    }
}

/// `bytes` with its first 8 bytes (and so the whole) not all zero.
fn nonzero(mut bytes: [u8; 16]) -> [u8; 16] {
    if bytes[..8] == [0; 8] {
        bytes[7] = 1;
    }
    bytes
}

impl fmt::Display for Traceparent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Traceparent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Traceparent").field(&self.as_str()).finish()
    }
}
