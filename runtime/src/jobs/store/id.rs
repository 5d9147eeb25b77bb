//! Job ids: `job_` followed by letters and digits, unique within a process
//! and hard to guess across restarts.

use std::collections::hash_map::RandomState;
use std::hash::BuildHasher;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::jobs::JobError;

/// The prefix every job id starts with.
const PREFIX: &str = "job_";

/// Longest id accepted from a caller. Ours are at most 4 + 11 + 11 bytes;
/// the bound keeps a hostile id from being copied around at length.
const MAX_LEN: usize = 64;

const DIGITS: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// Width of the random part: 62^11 > 2^64, so every u64 fits.
const RANDOM_WIDTH: usize = 11;

/// Makes job ids.
///
/// An id is the keyed hash of a counter (fixed width, so the two parts never
/// run into each other) followed by the counter itself. The counter makes ids
/// unique within the process; the hash, keyed by `RandomState`'s per-process
/// random keys, makes the ids of one run useless for guessing another's.
#[derive(Debug)]
pub(crate) struct IdGen {
    counter: AtomicU64,
    keys: RandomState,
}

impl IdGen {
    pub(crate) fn new() -> Self {
        IdGen {
            counter: AtomicU64::new(1),
            keys: RandomState::new(),
        }
    }

    /// The next id.
    pub(crate) fn next(&self) -> Arc<str> {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let random = self.keys.hash_one(n);

        let mut id = String::with_capacity(PREFIX.len() + 2 * RANDOM_WIDTH);
        id.push_str(PREFIX);
        push_base62(&mut id, random, RANDOM_WIDTH);
        push_base62(&mut id, n, 1);
        id.into()
    }
}

/// Appends `n` in base 62, left-padded with `0` to at least `width` digits.
fn push_base62(out: &mut String, mut n: u64, width: usize) {
    let mut digits = [b'0'; RANDOM_WIDTH];
    let mut len = 0;
    while n > 0 && len < digits.len() {
        // n % 62 < 62, so the index is in bounds and the cast is lossless.
        digits[len] = DIGITS[(n % 62) as usize];
        n /= 62;
        len += 1;
    }
    for &d in digits[..len.max(width)].iter().rev() {
        out.push(char::from(d));
    }
}

/// Checks that `id` has the shape of a job id: `^job_[A-Za-z0-9]+$`, at most
/// 64 bytes.
///
/// # Errors
/// [`JobError::InvalidJobId`] naming the id (cut to 64 bytes).
pub(crate) fn check(id: &str) -> Result<(), JobError> {
    let well_formed = id.len() <= MAX_LEN
        && id.strip_prefix(PREFIX).is_some_and(|rest| {
            !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_alphanumeric())
        });
    if well_formed {
        Ok(())
    } else {
        Err(JobError::InvalidJobId {
            job_id: shorten(id).to_owned(),
        })
    }
}

/// `id` cut to at most 64 bytes on a character boundary, for messages.
pub(crate) fn shorten(id: &str) -> &str {
    if id.len() <= MAX_LEN {
        return id;
    }
    let mut end = MAX_LEN;
    while !id.is_char_boundary(end) {
        end -= 1;
    }
    &id[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_well_formed_and_unique() {
        let ids = IdGen::new();
        let mut seen = std::collections::HashSet::new();
        for _ in 0..1000 {
            let id = ids.next();
            assert!(check(&id).is_ok(), "{id}");
            assert!(seen.insert(id));
        }
    }

    #[test]
    fn two_generators_differ() {
        assert_ne!(IdGen::new().next(), IdGen::new().next());
    }

    #[test]
    fn malformed_ids_are_rejected() {
        for id in [
            "", "job_", "job", "jobx", "job_a-b", "JOB_abc", "job_é", " job_a",
        ] {
            assert!(
                matches!(check(id), Err(JobError::InvalidJobId { .. })),
                "{id:?}"
            );
        }
        let long = format!("job_{}", "a".repeat(100));
        match check(&long) {
            Err(JobError::InvalidJobId { job_id }) => assert_eq!(job_id.len(), 64),
            other => panic!("{other:?}"),
        }
    }
}
