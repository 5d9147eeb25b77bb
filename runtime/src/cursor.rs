//! Cursors of `@paged` tools: the handler says where its next page starts
//! (any string: an offset, a key), and the caller gets that position
//! signed, bound to the tool, the action and every other argument of the
//! call. A cursor comes back opened, so a handler only ever sees positions
//! it made, for the query it is answering; one that was changed, made up,
//! or issued for other arguments (or by a server with another key) is
//! `INVALID_CURSOR` before any handler runs.
//!
//! A cursor is base64url (no padding) of `1 ‖ position ‖ tag`, where `tag`
//! is the first 16 bytes of HMAC-SHA256 over the call's MsgPack (its cursor
//! left out) and the position. It is signed, not encrypted: a client can
//! read the position, so it should not hold secrets.

use std::sync::OnceLock;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{KeyInit, Mac};
use serde::Serialize;

use crate::{ToolError, codes};

type HmacSha256 = hmac::Hmac<sha2::Sha256>;

/// The version byte cursors start with.
const VERSION: u8 = 1;
/// Bytes of the tag kept in a cursor: 128 bits, as in common practice for
/// truncated HMACs.
const TAG: usize = 16;
/// What the MAC is over, first, so that it serves no other purpose.
const DOMAIN: &[u8] = b"toolwright/cursor/1";

/// The key cursors are signed with. Servers behind one address, or one
/// whose cursors should outlive a restart, share one
/// ([`DispatcherConfig::cursor_key`](crate::DispatcherConfig::cursor_key));
/// otherwise each process picks its own at random.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct CursorKey([u8; 32]);

impl CursorKey {
    /// A key of these bytes; keep them secret.
    pub const fn from_bytes(bytes: [u8; 32]) -> Self {
        CursorKey(bytes)
    }

    /// The process's own random key, made on first use.
    ///
    /// # Errors
    /// `INTERNAL` when the system has no randomness to give.
    pub(crate) fn process() -> Result<CursorKey, ToolError> {
        static KEY: OnceLock<Result<CursorKey, String>> = OnceLock::new();
        KEY.get_or_init(|| {
            let mut key = [0u8; 32];
            getrandom::fill(&mut key)
                .map(|()| CursorKey(key))
                .map_err(|e| e.to_string())
        })
        .clone()
        .map_err(|e| {
            ToolError::internal(format!(
                "no random key to sign cursors with ({e}); set DispatcherConfig::cursor_key"
            ))
        })
    }

    /// The scope of one call: `request` is the call with its cursor left
    /// out.
    ///
    /// # Errors
    /// `INTERNAL` when the request does not encode.
    pub(crate) fn scope<R: Serialize>(&self, request: &R) -> Result<Scope, ToolError> {
        let query = crate::codec::to_msgpack(request)?;
        let mut mac = <HmacSha256 as KeyInit>::new_from_slice(&self.0)
            .map_err(|e| ToolError::internal(format!("cursor key: {e}")))?;
        mac.update(DOMAIN);
        mac.update(&u64::try_from(query.len()).unwrap_or(u64::MAX).to_be_bytes());
        mac.update(&query);
        Ok(Scope { mac })
    }
}

impl std::fmt::Debug for CursorKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CursorKey(..)")
    }
}

/// One call's cursors: what opens the cursor it came with and seals the
/// one it answers with.
#[derive(Clone)]
pub(crate) struct Scope {
    mac: HmacSha256,
}

impl Scope {
    fn tag(&self, position: &[u8]) -> HmacSha256 {
        let mut mac = self.mac.clone();
        mac.update(position);
        mac
    }

    /// The cursor for `position`.
    pub(crate) fn seal(&self, position: &str) -> String {
        let tag = self.tag(position.as_bytes()).finalize().into_bytes();
        let mut raw = Vec::with_capacity(1 + position.len() + TAG);
        raw.push(VERSION);
        raw.extend_from_slice(position.as_bytes());
        raw.extend_from_slice(&tag[..TAG]);
        URL_SAFE_NO_PAD.encode(raw)
    }

    /// The position `cursor` was sealed with.
    ///
    /// # Errors
    /// `INVALID_CURSOR` when it is not a cursor this key sealed for this
    /// query.
    pub(crate) fn open(&self, cursor: &str) -> Result<String, ToolError> {
        let raw = URL_SAFE_NO_PAD
            .decode(cursor)
            .map_err(|_| invalid("it is not base64url"))?;
        let (&version, rest) = raw.split_first().ok_or_else(|| invalid("it is empty"))?;
        if version != VERSION {
            return Err(invalid("it is of an unknown version"));
        }
        let Some(split) = rest.len().checked_sub(TAG) else {
            return Err(invalid("it is too short"));
        };
        let (position, tag) = rest.split_at(split);
        self.tag(position).verify_truncated_left(tag).map_err(|_| {
            invalid("it was issued for other arguments, by another server, or before a restart")
        })?;
        String::from_utf8(position.to_vec()).map_err(|_| invalid("its position is not UTF-8"))
    }
}

impl crate::Paging {
    /// A page after which another follows, starting at `position`: what
    /// the handler finds in the request's `cursor` when it is asked for
    /// that page. The caller sees it sealed into an opaque cursor.
    pub fn next(position: impl Into<String>) -> Self {
        crate::Paging {
            cursor: Some(position.into()),
            more: true,
        }
    }

    /// The last page.
    pub fn last() -> Self {
        crate::Paging {
            cursor: None,
            more: false,
        }
    }
}

fn invalid(why: &str) -> ToolError {
    ToolError::new(
        codes::INVALID_CURSOR,
        format!(
            "the cursor is not one this server issued for this call: {why}; \
             send the same arguments with the `paging.cursor` of the previous page, \
             or none to start again"
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope(key: u8, query: &str) -> Scope {
        CursorKey::from_bytes([key; 32])
            .scope(&query)
            .expect("encodes")
    }

    #[test]
    fn a_sealed_position_opens_again() {
        let s = scope(1, "q");
        for position in ["", "40", "key/with/slashes", "é"] {
            let cursor = s.seal(position);
            assert!(
                cursor
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
            );
            assert_eq!(s.open(&cursor).expect("opens"), position);
        }
    }

    #[test]
    fn another_query_or_key_refuses_it() {
        let cursor = scope(1, "q").seal("40");
        for other in [scope(1, "r"), scope(2, "q")] {
            let e = other.open(&cursor).expect_err("refused");
            assert_eq!(e.code, codes::INVALID_CURSOR);
            assert!(e.message.contains("other arguments"), "{}", e.message);
        }
    }

    #[test]
    fn a_changed_or_made_up_cursor_is_refused() {
        let s = scope(1, "q");
        let cursor = s.seal("40");
        let mut raw = URL_SAFE_NO_PAD.decode(&cursor).expect("base64");
        raw[1] = b'9';
        let changed = URL_SAFE_NO_PAD.encode(&raw);
        raw[0] = 2;
        let versioned = URL_SAFE_NO_PAD.encode(&raw);
        for (bad, why) in [
            (changed.as_str(), "other arguments"),
            (versioned.as_str(), "unknown version"),
            ("", "empty"),
            ("AQ", "too short"),
            ("not a cursor!", "base64url"),
            (&cursor[..cursor.len() - 2], "other arguments"),
        ] {
            let e = s.open(bad).expect_err(bad);
            assert_eq!(e.code, codes::INVALID_CURSOR, "{bad}");
            assert!(e.message.contains(why), "{bad}: {}", e.message);
        }
    }
}
