//! The run-length encoding TOON compresses payloads with.
//!
//! The encoder walks its input; at each position it takes the run of
//! identical bytes starting there, at most [`MAX_RUN`] long. A run of at
//! least [`MIN_RUN`] bytes, or any run of [`ESCAPE`] bytes, is written as
//! `ESCAPE <byte> <count>`; a shorter run is written as its bytes. So
//! 257 × `a` is `FF 61 FF 61 61`, and a lone `FF` is `FF FF 01`.
//!
//! Most payloads are JSON text without a run of four, so the encoder
//! looks for the next place where a run starts with word-wide bit tricks,
//! 32 positions per step, and copies everything before it in one go.

use memchr::memchr;

use super::{DecodeError, ErrorKind};

/// The byte that starts an encoded run.
pub const ESCAPE: u8 = 0xFF;
/// The shortest run written as `ESCAPE <byte> <count>` (shorter runs of a
/// byte other than [`ESCAPE`] are written as they are).
pub const MIN_RUN: usize = 4;
/// The longest run one `ESCAPE <byte> <count>` holds.
pub const MAX_RUN: usize = 255;

/// Encodes `input`.
pub fn encode(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    encode_bounded(input, next_run(input, 0), &mut out, usize::MAX);
    out
}

/// Encodes `input` when that takes fewer than `limit` bytes; `None`
/// otherwise. It stops as soon as the output reaches `limit`, and input
/// with no run to encode costs one scan and no allocation.
pub fn encode_shorter_than(input: &[u8], limit: usize) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    append_shorter_than(input, &mut out, limit).then_some(out)
}

/// Appends the encoding of `input` to `out` when `out` then stays shorter
/// than `limit`; otherwise leaves `out` as it was and returns false.
pub(crate) fn append_shorter_than(input: &[u8], out: &mut Vec<u8>, limit: usize) -> bool {
    let base = out.len();
    // Without a single run the output is the input: it cannot be shorter.
    let first = next_run(input, 0);
    if first == input.len() || base.saturating_add(first) >= limit {
        return false;
    }
    out.reserve(input.len().min(limit - base));
    if encode_bounded(input, first, out, limit) {
        true
    } else {
        out.truncate(base);
        false
    }
}

/// Appends the encoding of `input`, whose first run starts at `start`, to
/// `out` while `out` stays shorter than `limit`; false when it would not.
fn encode_bounded(input: &[u8], mut start: usize, out: &mut Vec<u8>, limit: usize) -> bool {
    let mut at = 0;
    loop {
        out.extend_from_slice(&input[at..start]);
        let Some(&byte) = input.get(start) else {
            return out.len() < limit;
        };
        let len = run_len(&input[start..], byte);
        // `len` is at most MAX_RUN, so it fits the count byte.
        out.extend_from_slice(&[ESCAPE, byte, len as u8]);
        if out.len() >= limit {
            return false;
        }
        at = start + len;
        start = next_run(input, at);
    }
}

/// How many bytes at the start of `input` equal `byte`, up to [`MAX_RUN`].
fn run_len(input: &[u8], byte: u8) -> usize {
    let input = &input[..input.len().min(MAX_RUN)];
    let pattern = u64::from(byte) * LOW;
    let mut len = 0;
    while let Some(w) = input.get(len..).and_then(|r| r.first_chunk::<8>()) {
        let diff = u64::from_le_bytes(*w) ^ pattern;
        if diff != 0 {
            return len + (diff.trailing_zeros() / 8) as usize;
        }
        len += 8;
    }
    len + input[len..].iter().take_while(|&&b| b == byte).count()
}

const LOW: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;
const SEVEN: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The high bit of each byte of `v` that is zero. Exact, unlike the
/// shorter `(v - LOW) & !v & HIGH`, which also flags bytes above a zero.
#[inline]
fn zero_bytes(v: u64) -> u64 {
    !(((v & SEVEN) + SEVEN) | v) & HIGH
}

/// The high bit of each byte of `v` that is `0xFF`.
#[inline]
fn escape_bytes(v: u64) -> u64 {
    ((v & SEVEN) + LOW) & v & HIGH
}

/// The eight bytes of `bytes` from `at`, little-endian. `at + 8` is
/// within `bytes` wherever this is called, so the `0` is never used, and
/// the compiler sees it and drops the branch.
#[inline(always)]
fn word<const N: usize>(bytes: &[u8; N], at: usize) -> u64 {
    bytes[at..]
        .first_chunk::<8>()
        .map_or(0, |w| u64::from_le_bytes(*w))
}

/// The high bit of byte j is set when position j of `bytes` starts an
/// encoded run: an [`ESCAPE`], or [`MIN_RUN`] equal bytes (byte j equals
/// bytes j + 1, j + 2 and j + 3, so XOR gives zero bytes).
#[inline(always)]
fn run_starts<const N: usize>(bytes: &[u8; N], at: usize) -> u64 {
    let w = word(bytes, at);
    let same = (w ^ word(bytes, at + 1)) | (w ^ word(bytes, at + 2)) | (w ^ word(bytes, at + 3));
    zero_bytes(same) | escape_bytes(w)
}

/// Positions looked at per step of the fast scan.
const BLOCK: usize = 32;

/// The first position from `at` where the encoder writes an encoded run:
/// an [`ESCAPE`] byte, or [`MIN_RUN`] equal bytes. `input.len()` when there
/// is none.
///
/// Every position before it is copied as it is: a run that started
/// earlier and reached past it would itself have been found first.
pub(crate) fn next_run(input: &[u8], mut at: usize) -> usize {
    // Most input has no run for long stretches: only ask whether a block
    // of positions holds one, branching once per block.
    while let Some(block) = input
        .get(at..)
        .and_then(|r| r.first_chunk::<{ BLOCK + 3 }>())
    {
        let any = run_starts(block, 0)
            | run_starts(block, 8)
            | run_starts(block, 16)
            | run_starts(block, 24);
        if any != 0 {
            break;
        }
        at += BLOCK;
    }
    while let Some(window) = input.get(at..).and_then(|r| r.first_chunk::<11>()) {
        let hits = run_starts(window, 0);
        if hits != 0 {
            return at + (hits.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    while let Some(&byte) = input.get(at) {
        let run = input.get(at..at + MIN_RUN);
        if byte == ESCAPE || run.is_some_and(|r| r.iter().all(|&b| b == byte)) {
            return at;
        }
        at += 1;
    }
    input.len()
}

/// Decodes `input`, refusing to produce more than `max_len` bytes.
///
/// # Errors
/// `bad_compression` when an [`ESCAPE`] is not followed by a byte and a
/// count, or the count is 0; `decompressed_too_large` when the output
/// would pass `max_len` (checked before the output grows).
pub fn decode(input: &[u8], max_len: usize) -> Result<Vec<u8>, DecodeError> {
    let mut out = Vec::new();
    decode_into(input, &mut out, max_len)?;
    Ok(out)
}

/// Decodes `input` onto the end of `out`, which may then hold at most
/// `max_len` bytes. On error, `out` holds what was decoded so far.
///
/// # Errors
/// As [`decode`].
pub fn decode_into(input: &[u8], out: &mut Vec<u8>, max_len: usize) -> Result<(), DecodeError> {
    let mut rest = input;
    loop {
        let literal = memchr(ESCAPE, rest).unwrap_or(rest.len());
        grow(out, literal, max_len, input.len() - rest.len())?;
        out.extend_from_slice(&rest[..literal]);
        let offset = input.len() - rest.len() + literal;
        let run = &rest[literal..];
        let (byte, count) = match *run {
            [] => return Ok(()),
            [ESCAPE, byte, count, ..] => (byte, usize::from(count)),
            _ => {
                return Err(DecodeError::bad_compression(format!(
                    "the escape byte at offset {offset} is not followed by a byte and a count"
                )));
            }
        };
        if count == 0 {
            return Err(DecodeError::bad_compression(format!(
                "the run at offset {offset} has a count of 0"
            )));
        }
        grow(out, count, max_len, offset)?;
        out.resize(out.len() + count, byte);
        rest = &run[3..];
    }
}

/// Makes room for `more` bytes in `out` without letting it pass `max_len`,
/// and without reserving beyond `max_len` when it doubles.
#[inline]
fn grow(out: &mut Vec<u8>, more: usize, max_len: usize, offset: usize) -> Result<(), DecodeError> {
    let needed = out.len().saturating_add(more);
    if needed > max_len {
        return Err(DecodeError::new(
            ErrorKind::DecompressedTooLarge,
            format!(
                "the payload decompresses to more than the limit of {max_len} bytes \
                 (passed at offset {offset} of the compressed data)"
            ),
        ));
    }
    if needed > out.capacity() {
        let target = needed.max(out.capacity().saturating_mul(2)).min(max_len);
        out.reserve_exact(target - out.len());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The encoder as the specification words it, one position at a time.
    fn reference(input: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut at = 0;
        while at < input.len() {
            let byte = input[at];
            let mut len = 1;
            while at + len < input.len() && input[at + len] == byte && len < MAX_RUN {
                len += 1;
            }
            if len >= MIN_RUN || byte == ESCAPE {
                out.extend_from_slice(&[ESCAPE, byte, len as u8]);
            } else {
                out.extend_from_slice(&input[at..at + len]);
            }
            at += len;
        }
        out
    }

    #[test]
    fn examples_of_the_specification() {
        assert_eq!(encode(&[b'a'; 257]), [0xFF, b'a', 0xFF, b'a', b'a']);
        assert_eq!(encode(&[0xFF]), [0xFF, 0xFF, 1]);
        assert_eq!(encode(b"aaab"), b"aaab");
        assert_eq!(encode(b"aaaab"), [0xFF, b'a', 4, b'b']);
        assert_eq!(encode(b""), b"");
    }

    #[test]
    fn the_word_scan_finds_what_the_byte_walk_finds() {
        // Every run length from 1 to 6 of a byte, at every offset within
        // and across the 8-byte words and 32-position blocks, among bytes
        // that never repeat.
        for len in 1..=6 {
            for offset in 0..80 {
                for byte in [b'x', 0xFF, 0x00, 0x7F, 0x80, 0xFE] {
                    let mut input: Vec<u8> = (0..96u8).map(|i| i.wrapping_mul(37) | 1).collect();
                    input.retain(|&b| b != byte && b != 0xFF);
                    input[offset..offset + len].fill(byte);
                    assert_eq!(
                        encode(&input),
                        reference(&input),
                        "a run of {len} × {byte:#04x} at {offset}"
                    );
                    assert_eq!(
                        decode(&encode(&input), usize::MAX).as_deref(),
                        Ok(&input[..])
                    );
                }
            }
        }
    }

    #[test]
    fn escape_and_zero_masks_are_exact() {
        for a in 0..=u8::MAX {
            for b in [0u8, 1, 0x7F, 0x80, 0xFE, 0xFF] {
                let v = u64::from_le_bytes([a, b, a, b, b, a, 0, 0xFF]);
                let mask = |f: fn(u8) -> bool| {
                    v.to_le_bytes()
                        .iter()
                        .enumerate()
                        .filter(|(_, x)| f(**x))
                        .map(|(i, _)| 0x80u64 << (8 * i))
                        .sum::<u64>()
                };
                assert_eq!(zero_bytes(v), mask(|x| x == 0), "{v:#018x}");
                assert_eq!(escape_bytes(v), mask(|x| x == 0xFF), "{v:#018x}");
            }
        }
    }

    #[test]
    fn encode_shorter_than_gives_up_at_the_limit() {
        let runs = [b'a'; 100];
        assert_eq!(encode_shorter_than(&runs, 4), Some(vec![0xFF, b'a', 100]));
        assert_eq!(encode_shorter_than(&runs, 3), None);
        assert_eq!(
            encode_shorter_than(b"no runs here at all", usize::MAX),
            None
        );
        let mostly_literal = [&b"abcdefgh"[..], &[b'z'; 4]].concat();
        assert_eq!(encode_shorter_than(&mostly_literal, 11), None);
        assert_eq!(
            encode_shorter_than(&mostly_literal, 12).map(|v| v.len()),
            Some(11)
        );
    }

    #[test]
    fn malformed_input_is_bad_compression() {
        let kind = |input: &[u8]| decode(input, usize::MAX).map_err(|e| e.kind());
        assert_eq!(kind(&[b'a', 0xFF]), Err(ErrorKind::BadCompression));
        assert_eq!(kind(&[0xFF, b'a']), Err(ErrorKind::BadCompression));
        assert_eq!(kind(&[0xFF, b'a', 0]), Err(ErrorKind::BadCompression));
        assert_eq!(decode(&[0xFF, 0xFF, 1], usize::MAX), Ok(vec![0xFF]));
    }

    #[test]
    fn the_limit_holds_before_the_output_grows() {
        let bomb: Vec<u8> = [0xFF, 0, 0xFF].repeat(1000);
        let error = decode(&bomb, 1 << 16).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::DecompressedTooLarge);
        let mut out = Vec::new();
        assert!(decode_into(&bomb, &mut out, 1 << 16).is_err());
        assert!(out.len() <= 1 << 16 && out.capacity() <= 1 << 16);
        assert_eq!(decode(&bomb, 255_000).map(|v| v.len()), Ok(255_000));
        assert_eq!(
            decode(b"abc", 2).map_err(|e| e.kind()),
            Err(ErrorKind::DecompressedTooLarge)
        );
    }
}
