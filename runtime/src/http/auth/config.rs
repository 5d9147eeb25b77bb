//! `Auth`: which tokens an HTTP server accepts.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use jsonwebtoken::Algorithm;

use super::keys::IssuerKeys;
use super::settings::Inner;
use super::token;
use crate::Principal;
use crate::http::failure::Failure;

/// Which OAuth access tokens a server accepts: JWTs issued for
/// `resource` (their `aud`) by one of its issuers, signed with a key the
/// issuer publishes. Set it with [`HttpConfig::auth`](crate::http::HttpConfig::auth).
///
/// ```
/// use toolwright::http::{Auth, HttpConfig};
/// let config = HttpConfig::default().auth(
///     Auth::new("https://tools.example/mcp").issuer("https://id.example"),
/// );
/// ```
///
/// Tokens signed with RS256/384/512, PS256/384/512, ES256, ES384 or EdDSA
/// are accepted; HMAC, which needs the issuer's secret, and `none` never.
/// Each issuer's keys are found through its metadata (RFC 8414's
/// `/.well-known/oauth-authorization-server`, else OpenID Connect
/// discovery), fetched on first use, kept, and fetched again when a token
/// names a key they lack (a rotation), at most once per
/// [`Auth::refetch_after`]. Clones share the keys; a clone configured
/// further gets keys of its own.
#[derive(Clone)]
pub struct Auth {
    pub(super) inner: Arc<Inner>,
}

impl std::fmt::Debug for Auth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let issuers: Vec<&str> = self.inner.issuers.iter().map(IssuerKeys::issuer).collect();
        f.debug_struct("Auth")
            .field("resource", &self.inner.resource)
            .field("issuers", &issuers)
            .field("leeway", &self.inner.leeway)
            .field("algorithms", &self.inner.algorithms)
            .finish_non_exhaustive()
    }
}

impl Auth {
    /// Accepts tokens for `resource`, this server's canonical URI as
    /// clients name it (`https://tools.example/mcp`): their `aud` must
    /// hold it. Add the issuers it trusts with [`Auth::issuer`].
    pub fn new(resource: impl Into<String>) -> Self {
        Auth {
            inner: Arc::new(Inner {
                resource: resource.into(),
                issuers: Vec::new(),
                leeway: Duration::from_secs(60),
                algorithms: vec![
                    Algorithm::RS256,
                    Algorithm::RS384,
                    Algorithm::RS512,
                    Algorithm::PS256,
                    Algorithm::PS384,
                    Algorithm::PS512,
                    Algorithm::ES256,
                    Algorithm::ES384,
                    Algorithm::EdDSA,
                ],
                refetch_after: Duration::from_secs(30),
                metadata_timeout: Duration::from_secs(10),
                fetcher: OnceLock::new(),
                verified: Default::default(),
            }),
        }
    }

    /// The settings to change: this `Auth`'s own, or, when a clone shares
    /// them, a copy of them with keys and verified tokens of its own.
    fn inner_mut(&mut self) -> &mut Inner {
        if Arc::get_mut(&mut self.inner).is_none() {
            self.inner = Arc::new(self.inner.unshared());
        }
        Arc::get_mut(&mut self.inner).unwrap_or_else(|| unreachable!("just made unshared"))
    }

    /// Trusts tokens from the authorization server `issuer` (its `iss`,
    /// exactly as its metadata states it). Call it again for more.
    #[must_use]
    pub fn issuer(mut self, issuer: impl Into<String>) -> Self {
        let keys = IssuerKeys::new(issuer.into());
        self.inner_mut().issuers.push(keys);
        self
    }

    /// How far `exp` and `nbf` may be off: clocks differ. Default 60 s,
    /// at most 5 minutes.
    #[must_use]
    pub fn leeway(mut self, leeway: Duration) -> Self {
        self.inner_mut().leeway = leeway.min(Duration::from_secs(300));
        self
    }

    /// The least time between two fetches of an issuer's keys when tokens
    /// name keys it lacks: a client making up key ids cannot make the
    /// server fetch on every call. Default 30 s.
    #[must_use]
    pub fn refetch_after(mut self, after: Duration) -> Self {
        self.inner_mut().refetch_after = after;
        self
    }

    /// This resource's URI.
    pub fn resource(&self) -> &str {
        &self.inner.resource
    }

    /// The issuers it trusts.
    pub fn issuers(&self) -> impl Iterator<Item = &str> {
        self.inner.issuers.iter().map(IssuerKeys::issuer)
    }

    /// Checks `token`: who it names, or why it is refused.
    pub(crate) async fn verify(&self, token: &str) -> Result<Arc<Principal>, Failure> {
        token::verify(&self.inner, token).await
    }
}
