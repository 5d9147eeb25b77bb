//! What an [`Auth`](super::Auth) holds: the resource, its issuers and
//! the bounds of a check, shared by its clones.

use std::sync::OnceLock;
use std::time::Duration;

use jsonwebtoken::Algorithm;

use super::fetch::Fetcher;
use super::keys::IssuerKeys;
use super::verified::Verified;

/// The settings and state of one `Auth`.
pub(super) struct Inner {
    /// This resource's URI: the audience tokens must name.
    pub(super) resource: String,
    pub(super) issuers: Vec<IssuerKeys>,
    pub(super) leeway: Duration,
    pub(super) algorithms: Vec<Algorithm>,
    pub(super) refetch_after: Duration,
    pub(super) metadata_timeout: Duration,
    /// The client for the issuers' documents, made on first use.
    pub(super) fetcher: OnceLock<Result<Fetcher, String>>,
    /// Tokens already verified, until they expire.
    pub(super) verified: Verified,
}

impl Inner {
    /// The same settings, with no keys fetched and no token verified yet.
    pub(super) fn unshared(&self) -> Inner {
        Inner {
            resource: self.resource.clone(),
            issuers: self
                .issuers
                .iter()
                .map(|i| IssuerKeys::new(i.issuer().to_owned()))
                .collect(),
            leeway: self.leeway,
            algorithms: self.algorithms.clone(),
            refetch_after: self.refetch_after,
            metadata_timeout: self.metadata_timeout,
            fetcher: OnceLock::new(),
            verified: Verified::default(),
        }
    }
}
