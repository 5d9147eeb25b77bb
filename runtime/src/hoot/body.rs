//! The call body: a Request's frame 6, the tool request with how to wait
//! for it. The request's bytes are found and passed on, never re-encoded.

mod principal;
#[cfg(test)]
mod tests;

use std::sync::Arc;
use std::time::Duration;

use crate::codec::Limits;
use crate::{Principal, ToolError};

/// A decoded call body, borrowing the request from the frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallBody<'a> {
    /// The tool request map (`{"tool": "add", "a": 1, "b": 2}`), as sent.
    pub request: &'a [u8],
    /// How long the server may wait for a job call before answering
    /// `job_started`; `None` for the tool's timing-class budget.
    pub wait: Option<Duration>,
    /// Whether a waited-on job call sends its stream as Replies.
    pub stream: bool,
    /// Who the call is made for (see [`Owner`](crate::jobs::Owner)): a
    /// gateway passes its caller along, so that the jobs the call starts
    /// belong to that caller on the backend too.
    pub owner: Option<&'a str>,
    /// Whether the caller takes what the handler says back while it runs:
    /// its logs and progress, and its questions (sampling, elicitation,
    /// roots), which the caller answers with Answer messages. A gateway
    /// sets it when its own client can be reached.
    pub talk_back: bool,
    /// Who the gateway authenticated the call's caller as, with their
    /// scopes. A backend trusts it only from a peer it authenticated
    /// itself (over CURVE), or when told to trust its network.
    pub principal: Option<Arc<Principal>>,
}

impl<'a> CallBody<'a> {
    /// Reads a call body: a map with `request` (required), `wait_ms`,
    /// `stream`, `owner`, `talk_back` and `principal`, in any order.
    /// `wait_ms` may also be `nil`, meaning absent.
    ///
    /// # Errors
    /// `INVALID_REQUEST` naming what is wrong: a body over
    /// `limits.max_bytes`, not a map, a key that is unknown, repeated or
    /// not a string, no `request`, a value of the wrong type, a `request`
    /// that is truncated or nests deeper than `limits.max_depth`, bytes
    /// after the map.
    pub fn decode(body: &'a [u8], limits: Limits) -> Result<Self, ToolError> {
        limits.check_size(body.len())?;
        let mut r = Reader::new(body);
        let entries = match r.byte() {
            Some(marker @ 0x80..=0x8f) => Some(u64::from(marker & 0x0f)),
            Some(0xde) => r.uint(2),
            Some(0xdf) => r.uint(4),
            Some(_) => return Err(invalid("the call body is not a MsgPack map")),
            None => return Err(invalid("the call body is empty")),
        }
        .ok_or_else(|| truncated(""))?;

        let mut request = None;
        let mut wait = None;
        let mut stream = None;
        let mut owner = None;
        let mut talk_back = None;
        let mut principal = None;
        // Every entry either fills one of six slots or is refused, so
        // this loop ends by the seventh entry whatever the header claims.
        for _ in 0..entries {
            let key = match r.byte() {
                Some(marker @ 0xa0..=0xbf) => r.take(u64::from(marker & 0x1f)),
                Some(marker @ 0xd9..=0xdb) => r.uint(1 << (marker - 0xd9)).and_then(|n| r.take(n)),
                Some(_) => return Err(invalid("a key of the call body is not a string")),
                None => None,
            }
            .ok_or_else(|| truncated(""))?;
            match key {
                b"request" => {
                    once(request.is_some(), "request")?;
                    request = Some(read_request(&mut r, limits.max_depth)?);
                }
                b"wait_ms" => {
                    once(wait.is_some(), "wait_ms")?;
                    wait = Some(read_wait(&mut r)?);
                }
                b"stream" => {
                    once(stream.is_some(), "stream")?;
                    stream = Some(read_bool(&mut r, "stream")?);
                }
                b"talk_back" => {
                    once(talk_back.is_some(), "talk_back")?;
                    talk_back = Some(read_bool(&mut r, "talk_back")?);
                }
                b"owner" => {
                    once(owner.is_some(), "owner")?;
                    owner = Some(read_owner(&mut r)?);
                }
                b"principal" => {
                    once(principal.is_some(), "principal")?;
                    principal = Some(read_principal(&mut r)?);
                }
                _ => {
                    let shown = String::from_utf8_lossy(key.get(..64).unwrap_or(key));
                    return Err(invalid(format!(
                        "the call body has an unknown key `{shown}`; \
                         its keys are `request`, `wait_ms`, `stream`, `owner`, `talk_back` \
                         and `principal`"
                    )));
                }
            }
        }
        if !r.rest().is_empty() {
            return Err(invalid("trailing bytes after the call body"));
        }
        Ok(CallBody {
            request: request.ok_or_else(|| invalid("the call body has no `request`"))?,
            wait: wait.flatten().map(Duration::from_millis),
            stream: stream.unwrap_or(false),
            owner,
            talk_back: talk_back.unwrap_or(false),
            principal: principal.map(Arc::new),
        })
    }

    /// The body's bytes: `request`, then `wait_ms` when given (in whole
    /// milliseconds, rounded down), `stream` when true, `owner` when given,
    /// `talk_back` when true and `principal` when given. `request` must be one encoded tool request
    /// map; its bytes are copied in as they are.
    pub fn encode(&self) -> Vec<u8> {
        let entries = 1
            + u8::from(self.wait.is_some())
            + u8::from(self.stream)
            + u8::from(self.owner.is_some())
            + u8::from(self.talk_back)
            + u8::from(self.principal.is_some());
        let mut out = Vec::with_capacity(self.request.len() + 32);
        out.push(0x80 | entries);
        push_str(&mut out, "request");
        out.extend_from_slice(self.request);
        if let Some(wait) = self.wait {
            push_str(&mut out, "wait_ms");
            push_uint(
                &mut out,
                u64::try_from(wait.as_millis()).unwrap_or(u64::MAX),
            );
        }
        if self.stream {
            push_str(&mut out, "stream");
            out.push(0xc3);
        }
        if let Some(owner) = self.owner {
            push_str(&mut out, "owner");
            push_str(&mut out, owner);
        }
        if self.talk_back {
            push_str(&mut out, "talk_back");
            out.push(0xc3);
        }
        if let Some(forwarded) = &self.principal {
            push_str(&mut out, "principal");
            principal::write(&mut out, forwarded);
        }
        out
    }
}

/// Longest `owner` a call body may carry, in bytes.
pub use crate::jobs::MAX_OWNER_BYTES;

/// The call body `{"request": <request>, "wait_ms": …, "stream": true}`,
/// with `wait_ms` only when `wait` is given (in whole milliseconds, rounded
/// down) and `stream` only when true. `request` must be one encoded tool
/// request map; its bytes are copied in as they are.
pub fn encode_call(request: &[u8], wait: Option<Duration>, stream: bool) -> Vec<u8> {
    CallBody {
        request,
        wait,
        stream,
        owner: None,
        talk_back: false,
        principal: None,
    }
    .encode()
}

/// The tool a request names, for IOPub topics and spans; `_` when it
/// names none.
pub(crate) fn tool_of(request: &[u8]) -> String {
    #[derive(serde::Deserialize)]
    struct Tagged {
        tool: String,
    }
    crate::codec::from_msgpack::<Tagged>(request, Limits::default())
        .map(|t| t.tool)
        .unwrap_or_else(|_| "_".into())
}

/// The envelope `{"error": {"code": code, "message": message}}`, as
/// `ResponseEnvelope::Error` encodes it.
pub(crate) fn error_body(code: &str, message: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(32 + code.len() + message.len());
    out.push(0x81);
    push_str(&mut out, "error");
    out.push(0x82);
    push_str(&mut out, "code");
    push_str(&mut out, code);
    push_str(&mut out, "message");
    push_str(&mut out, message);
    out
}

/// A bool value of the call body's `key`.
fn read_bool(r: &mut Reader<'_>, key: &str) -> Result<bool, ToolError> {
    match r.byte() {
        Some(0xc2) => Ok(false),
        Some(0xc3) => Ok(true),
        Some(_) => Err(invalid(format!("`{key}` in the call body is not a bool"))),
        None => Err(truncated(&format!(" in `{key}`"))),
    }
}

fn push_str(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    // Our strings are keys and messages, far below 4 GiB; cut rather than
    // write a length that lies.
    let bytes = bytes.get(..u32::MAX as usize).unwrap_or(bytes);
    let len = bytes.len();
    if let Ok(n @ 0..=31) = u8::try_from(len) {
        out.push(0xa0 | n);
    } else if let Ok(n) = u8::try_from(len) {
        out.extend_from_slice(&[0xd9, n]);
    } else if let Ok(n) = u16::try_from(len) {
        out.push(0xda);
        out.extend_from_slice(&n.to_be_bytes());
    } else {
        out.push(0xdb);
        out.extend_from_slice(&u32::try_from(len).unwrap_or(u32::MAX).to_be_bytes());
    }
    out.extend_from_slice(bytes);
}

fn push_uint(out: &mut Vec<u8>, n: u64) {
    if let Ok(n @ 0..=0x7f) = u8::try_from(n) {
        out.push(n);
    } else if let Ok(n) = u8::try_from(n) {
        out.extend_from_slice(&[0xcc, n]);
    } else if let Ok(n) = u16::try_from(n) {
        out.push(0xcd);
        out.extend_from_slice(&n.to_be_bytes());
    } else if let Ok(n) = u32::try_from(n) {
        out.push(0xce);
        out.extend_from_slice(&n.to_be_bytes());
    } else {
        out.push(0xcf);
        out.extend_from_slice(&n.to_be_bytes());
    }
}

fn invalid(message: impl Into<String>) -> ToolError {
    ToolError::invalid_request(message)
}

fn truncated(place: &str) -> ToolError {
    invalid(format!("the call body is truncated{place}"))
}

fn once(seen: bool, key: &str) -> Result<(), ToolError> {
    if seen {
        return Err(invalid(format!("the call body has `{key}` twice")));
    }
    Ok(())
}

/// The `owner` value: a UTF-8 string of at most [`MAX_OWNER_BYTES`].
fn read_owner<'a>(r: &mut Reader<'a>) -> Result<&'a str, ToolError> {
    let len = match r.byte() {
        Some(marker @ 0xa0..=0xbf) => Some(u64::from(marker & 0x1f)),
        Some(marker @ 0xd9..=0xdb) => r.uint(1 << (marker - 0xd9)),
        Some(_) => return Err(invalid("`owner` in the call body is not a string")),
        None => None,
    }
    .ok_or_else(|| truncated(" in `owner`"))?;
    if len > MAX_OWNER_BYTES as u64 {
        return Err(invalid(format!(
            "`owner` in the call body is {len} bytes, more than {MAX_OWNER_BYTES}"
        )));
    }
    let bytes = r.take(len).ok_or_else(|| truncated(" in `owner`"))?;
    std::str::from_utf8(bytes).map_err(|_| invalid("`owner` in the call body is not UTF-8"))
}

/// The `principal` value: a map of at most two levels.
fn read_principal(r: &mut Reader<'_>) -> Result<Principal, ToolError> {
    let rest = r.rest();
    if !matches!(rest.first(), Some(0x80..=0x8f | 0xde | 0xdf)) {
        return Err(invalid("`principal` in the call body is not a map"));
    }
    let len =
        skip_value(rest, 2).map_err(|e| invalid(format!("`principal` in the call body: {e}")))?;
    let bytes = r
        .take(len as u64)
        .ok_or_else(|| truncated(" in `principal`"))?;
    principal::read(bytes)
}

/// The `request` value: a map, skipped over without decoding it.
fn read_request<'a>(r: &mut Reader<'a>, max_depth: usize) -> Result<&'a [u8], ToolError> {
    let rest = r.rest();
    if !matches!(rest.first(), Some(0x80..=0x8f | 0xde | 0xdf)) {
        let what = if rest.is_empty() {
            "missing"
        } else {
            "not a map"
        };
        return Err(invalid(format!("`request` in the call body is {what}")));
    }
    let len = skip_value(rest, max_depth)
        .map_err(|e| invalid(format!("`request` in the call body: {e}")))?;
    r.take(len as u64).ok_or_else(|| truncated(" in `request`"))
}

/// The `wait_ms` value: any integer encoding of a value ≥ 0, or `nil`.
fn read_wait(r: &mut Reader<'_>) -> Result<Option<u64>, ToolError> {
    let value = match r.byte() {
        Some(n @ 0x00..=0x7f) => Some(u64::from(n)),
        Some(0xc0) => return Ok(None),
        Some(marker @ 0xcc..=0xcf) => r.uint(1 << (marker - 0xcc)),
        Some(marker @ 0xd0..=0xd3) => {
            let width = 1 << (marker - 0xd0);
            // A signed value is accepted when it is not negative: the top
            // bit of its first byte is clear.
            let first = r.rest().first().copied();
            let n = r.uint(width);
            match first {
                Some(b) if b & 0x80 != 0 => return Err(not_unsigned()),
                _ => n,
            }
        }
        Some(_) => return Err(not_unsigned()),
        None => None,
    };
    value.map(Some).ok_or_else(|| truncated(" in `wait_ms`"))
}

fn not_unsigned() -> ToolError {
    invalid("`wait_ms` in the call body is not an unsigned integer")
}

/// Why a value could not be skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SkipError {
    /// The bytes end inside the value.
    Truncated,
    /// The byte 0xc1, which MsgPack never uses.
    Reserved,
    /// Arrays and maps nest deeper than the limit.
    TooDeep(usize),
    /// A header claims more values than there are bytes left.
    TooManyItems,
}

impl std::fmt::Display for SkipError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SkipError::Truncated => f.write_str("truncated MsgPack"),
            SkipError::Reserved => f.write_str("the byte 0xc1 is not a MsgPack value"),
            SkipError::TooDeep(max) => write!(f, "nesting deeper than the limit of {max}"),
            SkipError::TooManyItems => {
                f.write_str("an array or map header claims more items than bytes remain")
            }
        }
    }
}

/// What follows a marker: bytes of data, or more values.
enum Next {
    Bytes(u64),
    Values(u64),
}

/// The length of the one MsgPack value at the start of `bytes`, found
/// without decoding or allocating more than `max_depth` counters.
///
/// One counter holds the values still to read; every array header adds its
/// length, every map header twice its length. As each value takes at least
/// one byte, a header that takes the counter past the bytes left is
/// refused at once. A stack holds the values left in each open array or
/// map, so its height is the nesting depth.
fn skip_value(bytes: &[u8], max_depth: usize) -> Result<usize, SkipError> {
    let mut r = Reader::new(bytes);
    let mut pending: u64 = 1;
    let mut open: Vec<u64> = Vec::new();
    while pending > 0 {
        let marker = r.byte().ok_or(SkipError::Truncated)?;
        pending -= 1;
        if let Some(left) = open.last_mut() {
            *left = left.saturating_sub(1);
        }
        match next(marker, &mut r)? {
            Next::Bytes(n) => {
                r.take(n).ok_or(SkipError::Truncated)?;
            }
            Next::Values(n) => {
                if open.len() >= max_depth {
                    return Err(SkipError::TooDeep(max_depth));
                }
                pending = pending.saturating_add(n);
                if pending > r.rest().len() as u64 {
                    return Err(SkipError::TooManyItems);
                }
                open.push(n);
            }
        }
        while open.last() == Some(&0) {
            open.pop();
        }
    }
    Ok(r.pos)
}

/// Reads what follows `marker` up to its data: the length of the data, or
/// the number of values inside.
fn next(marker: u8, r: &mut Reader<'_>) -> Result<Next, SkipError> {
    let mut len = |width| r.uint(width).ok_or(SkipError::Truncated);
    Ok(match marker {
        // fixint, nil, false, true
        0x00..=0x7f | 0xc0 | 0xc2 | 0xc3 | 0xe0..=0xff => Next::Bytes(0),
        0x80..=0x8f => Next::Values(2 * u64::from(marker & 0x0f)),
        0x90..=0x9f => Next::Values(u64::from(marker & 0x0f)),
        0xa0..=0xbf => Next::Bytes(u64::from(marker & 0x1f)),
        0xc1 => return Err(SkipError::Reserved),
        // bin 8/16/32, str 8/16/32: a length, then the data
        0xc4 | 0xd9 => Next::Bytes(len(1)?),
        0xc5 | 0xda => Next::Bytes(len(2)?),
        0xc6 | 0xdb => Next::Bytes(len(4)?),
        // ext 8/16/32: the length counts the data, not the type byte before it
        0xc7 => Next::Bytes(len(1)? + 1),
        0xc8 => Next::Bytes(len(2)? + 1),
        0xc9 => Next::Bytes(len(4)? + 1),
        // uint, int and float of 1, 2, 4 and 8 bytes
        0xcc | 0xd0 => Next::Bytes(1),
        0xcd | 0xd1 => Next::Bytes(2),
        0xca | 0xce | 0xd2 => Next::Bytes(4),
        0xcb | 0xcf | 0xd3 => Next::Bytes(8),
        // fixext 1/2/4/8/16: a type byte before the data
        0xd4 => Next::Bytes(2),
        0xd5 => Next::Bytes(3),
        0xd6 => Next::Bytes(5),
        0xd7 => Next::Bytes(9),
        0xd8 => Next::Bytes(17),
        0xdc => Next::Values(len(2)?),
        0xdd => Next::Values(len(4)?),
        0xde => Next::Values(2 * len(2)?),
        0xdf => Next::Values(2 * len(4)?),
    })
}

/// Bytes read front to back; every read checks what is left.
struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Reader { bytes, pos: 0 }
    }

    fn rest(&self) -> &'a [u8] {
        self.bytes.get(self.pos..).unwrap_or_default()
    }

    fn byte(&mut self) -> Option<u8> {
        self.take(1).and_then(|b| b.first().copied())
    }

    /// The next `n` bytes, or `None` (and nothing read) when fewer are left.
    fn take(&mut self, n: u64) -> Option<&'a [u8]> {
        let n = usize::try_from(n).ok()?;
        let taken = self.rest().get(..n)?;
        self.pos += n;
        Some(taken)
    }

    /// A big-endian unsigned integer of `width` bytes (at most 8).
    fn uint(&mut self, width: u64) -> Option<u64> {
        let bytes = self.take(width)?;
        Some(bytes.iter().fold(0, |n, &b| n << 8 | u64::from(b)))
    }
}
