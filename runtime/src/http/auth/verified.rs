//! Tokens already verified, kept until they expire: a client sends the
//! same token with every call, and checking its signature each time would
//! cost more than the call (an Ed25519 or RSA verification against a
//! `tools/call` of `add`). Only the token's digest is kept, never the
//! token.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};

use crate::Principal;

/// Tokens kept at most; past it, the expired go, and if none has, all.
const MAX_KEPT: usize = 4096;

/// A verified token's principal and its `exp`.
type Entry = (Arc<Principal>, u64);

/// Verified tokens by digest: who each names and when it expires.
#[derive(Default)]
pub(super) struct Verified(Mutex<HashMap<[u8; 32], Entry>>);

impl Verified {
    /// Who `token` names, if it was verified and has not expired (within
    /// `leeway`).
    pub(super) fn get(&self, token: &str, leeway: Duration) -> Option<Arc<Principal>> {
        let digest = digest(token);
        let kept = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let (principal, exp) = kept.get(&digest)?;
        (now() < exp.saturating_add(leeway.as_secs())).then(|| principal.clone())
    }

    /// Keeps `token`, verified, naming `principal` until `exp`.
    pub(super) fn keep(&self, token: &str, principal: Arc<Principal>, exp: u64, leeway: Duration) {
        let mut kept = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if kept.len() >= MAX_KEPT {
            let now = now();
            kept.retain(|_, (_, exp)| now < exp.saturating_add(leeway.as_secs()));
            if kept.len() >= MAX_KEPT {
                kept.clear();
            }
        }
        kept.insert(digest(token), (principal, exp));
    }
}

fn digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Seconds since the Unix epoch, as `exp` counts them.
fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_token_is_found_until_it_expires() {
        let verified = Verified::default();
        let ada = Arc::new(Principal::new("ada"));
        verified.keep("live", ada.clone(), now() + 60, Duration::ZERO);
        verified.keep("dead", ada, now() - 120, Duration::from_secs(60));
        assert_eq!(
            verified
                .get("live", Duration::ZERO)
                .map(|p| p.subject().to_owned()),
            Some("ada".to_owned())
        );
        assert!(verified.get("dead", Duration::from_secs(60)).is_none());
        assert!(verified.get("never", Duration::ZERO).is_none());
    }
}
