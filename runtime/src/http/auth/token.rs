//! One access token checked: its shape and algorithm, its issuer, the
//! key that signed it, then its claims (`iss`, `aud`, `exp`, `nbf`,
//! `sub`), and who it names.

use std::sync::Arc;

use base64::Engine as _;
use jsonwebtoken::{Validation, errors::ErrorKind};
use serde::Deserialize;

use super::fetch::Fetcher;
use super::settings::Inner;
use crate::Principal;
use crate::http::failure::Failure;

/// The longest token read: real ones are a few KiB.
const MAX_TOKEN: usize = 16 * 1024;

/// The claims read from a verified token.
#[derive(Deserialize)]
struct Claims {
    sub: String,
    iss: String,
    /// Required by the validation; read to know how long to keep it.
    exp: u64,
    /// RFC 8693 / RFC 9068: space-separated.
    #[serde(default)]
    scope: Option<String>,
    /// Some issuers send a list instead.
    #[serde(default)]
    scp: Option<Scp>,
    #[serde(default)]
    client_id: Option<String>,
    #[serde(default)]
    azp: Option<String>,
}

/// `scp`, as a list or one space-separated string.
#[derive(Deserialize)]
#[serde(untagged)]
enum Scp {
    List(Vec<String>),
    Text(String),
}

/// Checks `token` for `auth`: who it names, or why it is refused.
pub(super) async fn verify(auth: &Inner, token: &str) -> Result<Arc<Principal>, Failure> {
    if token.len() > MAX_TOKEN {
        return Err(invalid(format!("it is over {MAX_TOKEN} bytes")));
    }
    if let Some(principal) = auth.verified.get(token, auth.leeway) {
        return Ok(principal);
    }
    // `none` and unknown names do not parse as an algorithm at all.
    let header = jsonwebtoken::decode_header(token).map_err(|e| invalid(describe(e.kind())))?;
    let algorithm = header.alg;
    if !auth.algorithms.contains(&algorithm) {
        return Err(invalid(format!(
            "{algorithm:?} is not an accepted algorithm"
        )));
    }
    // The issuer picks the keys; the signature and the claim itself are
    // checked against them below.
    let named = unverified_issuer(token)?;
    let Some(issuer) = auth.issuers.iter().find(|i| i.issuer() == named) else {
        return Err(invalid(format!("its issuer `{named}` is not trusted here")));
    };
    let fetcher = fetcher(auth)?;
    let key = issuer
        .key(
            fetcher,
            header.kid.as_deref(),
            algorithm,
            auth.refetch_after,
        )
        .await?;
    let mut validation = Validation::new(algorithm);
    validation.leeway = auth.leeway.as_secs();
    validation.validate_nbf = true;
    validation.set_issuer(&[issuer.issuer()]);
    validation.set_audience(&[&auth.resource]);
    validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
    let data = jsonwebtoken::decode::<Claims>(token, &key, &validation)
        .map_err(|e| invalid(describe(e.kind())))?;
    let exp = data.claims.exp;
    let principal = Arc::new(principal(data.claims));
    auth.verified
        .keep(token, principal.clone(), exp, auth.leeway);
    Ok(principal)
}

/// The client for the issuers' documents, made on first use.
fn fetcher(auth: &Inner) -> Result<&Fetcher, Failure> {
    auth.fetcher
        .get_or_init(|| Fetcher::new(auth.metadata_timeout))
        .as_ref()
        .map_err(|e| Failure::Unavailable(e.clone()))
}

/// The `iss` of a token not yet verified.
fn unverified_issuer(token: &str) -> Result<String, Failure> {
    #[derive(Deserialize)]
    struct Iss {
        iss: Option<String>,
    }
    let payload = token
        .split('.')
        .nth(1)
        .ok_or_else(|| invalid("it is not a JWT".to_owned()))?;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload)
        .map_err(|_| invalid("its payload is not base64url".to_owned()))?;
    let iss: Iss = serde_json::from_slice(&bytes)
        .map_err(|_| invalid("its payload is not a JSON object".to_owned()))?;
    iss.iss
        .ok_or_else(|| invalid("it names no issuer (`iss`)".to_owned()))
}

/// Who verified claims name.
fn principal(claims: Claims) -> Principal {
    let mut scopes: Vec<String> = claims
        .scope
        .as_deref()
        .map(|s| s.split_ascii_whitespace().map(str::to_owned).collect())
        .unwrap_or_default();
    match claims.scp {
        Some(Scp::List(list)) => scopes.extend(list),
        Some(Scp::Text(text)) => scopes.extend(text.split_ascii_whitespace().map(str::to_owned)),
        None => {}
    }
    let mut principal = Principal::new(claims.sub)
        .with_issuer(claims.iss)
        .with_scopes(scopes);
    if let Some(client) = claims.client_id.or(claims.azp) {
        principal = principal.with_client_id(client);
    }
    principal
}

fn invalid(why: String) -> Failure {
    Failure::Invalid(why)
}

/// What a verification error says of the token, for its `401`.
fn describe(kind: &ErrorKind) -> String {
    match kind {
        ErrorKind::ExpiredSignature => "it has expired".to_owned(),
        ErrorKind::ImmatureSignature => "it is not valid yet (`nbf`)".to_owned(),
        ErrorKind::InvalidAudience => "it is not meant for this resource (`aud`)".to_owned(),
        ErrorKind::InvalidIssuer => "its issuer is not trusted here".to_owned(),
        ErrorKind::InvalidSignature => "its signature does not verify".to_owned(),
        ErrorKind::MissingRequiredClaim(claim) => format!("it has no `{claim}`"),
        ErrorKind::InvalidClaimFormat(claim) => format!("its `{claim}` is malformed"),
        ErrorKind::InvalidAlgorithm | ErrorKind::InvalidAlgorithmName => {
            "its algorithm is not accepted, or does not fit its key".to_owned()
        }
        _ => "it is not a well-formed signed JWT".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jsonwebtoken::Algorithm;

    /// True for the algorithms a token may be signed with by default.
    fn asymmetric(algorithm: Algorithm) -> bool {
        !matches!(
            algorithm,
            Algorithm::HS256 | Algorithm::HS384 | Algorithm::HS512
        )
    }

    #[test]
    fn scopes_come_from_scope_or_scp() {
        let claims: Claims = serde_json::from_value(serde_json::json!({
            "sub": "ada", "iss": "https://id.example", "exp": 0,
            "scope": "cas:read cas:write", "scp": ["admin"], "azp": "app",
        }))
        .unwrap();
        let p = principal(claims);
        assert!(p.has_scope("cas:read") && p.has_scope("cas:write") && p.has_scope("admin"));
        assert_eq!(p.client_id(), Some("app"));
        assert_eq!(p.issuer(), Some("https://id.example"));
    }

    #[test]
    fn a_clone_configured_further_leaves_the_original_alone() {
        let base = super::super::Auth::new("https://r.example");
        let more = base.clone().issuer("https://id.example");
        assert_eq!(base.issuers().count(), 0);
        assert_eq!(more.issuers().collect::<Vec<_>>(), ["https://id.example"]);
    }

    #[test]
    fn the_default_algorithms_are_asymmetric() {
        let auth = super::super::Auth::new("https://r.example");
        assert!(auth.inner.algorithms.iter().all(|a| asymmetric(*a)));
    }
}
