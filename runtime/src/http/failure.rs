//! `Failure`: why a request's credentials were not accepted, whichever
//! verifier said so.

/// Why a request's credentials were not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Failure {
    /// It shows none: `401` with the challenge alone (RFC 6750 § 3.1).
    Missing,
    /// It shows a token this server does not accept, and why: `401`
    /// `invalid_token`.
    Invalid(String),
    /// The keys to check it with cannot be had now, and why: `503`. The
    /// token may be good; the client may retry.
    #[cfg_attr(not(feature = "auth"), allow(dead_code))] // made by `auth` alone
    Unavailable(String),
}
