//! One issuer's signing keys: found through its metadata, fetched on
//! first use, kept, and fetched again when a token names a key they lack.

use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::{Jwk, JwkSet, PublicKeyUse};
use jsonwebtoken::{Algorithm, DecodingKey};

use super::fetch::Fetcher;
use crate::http::failure::Failure;

/// Where and when an issuer's keys were last fetched.
#[derive(Default)]
struct Fetched {
    /// The key set's URL, from the issuer's metadata.
    jwks_uri: Option<String>,
    /// The last attempt, whether it worked or not.
    at: Option<Instant>,
}

/// One key of the set, ready to verify with.
#[derive(Clone)]
struct Key {
    kid: Option<String>,
    /// The algorithm the set pins it to, if it does.
    algorithm: Option<Algorithm>,
    key: DecodingKey,
}

/// An issuer and its keys.
pub(super) struct IssuerKeys {
    issuer: String,
    /// The keys, read on every token; replaced whole by a fetch.
    keys: RwLock<Arc<Vec<Key>>>,
    /// Held while fetching: one fetch at a time, and a token that waited
    /// for it finds the new keys.
    fetched: tokio::sync::Mutex<Fetched>,
}

impl IssuerKeys {
    pub(super) fn new(issuer: String) -> Self {
        IssuerKeys {
            issuer,
            keys: RwLock::default(),
            fetched: tokio::sync::Mutex::default(),
        }
    }

    /// The issuer, as tokens' `iss` name it.
    pub(super) fn issuer(&self) -> &str {
        &self.issuer
    }

    /// The key that verifies a token signed with `algorithm` under `kid`:
    /// from the keys kept, else from the keys fetched again, unless they
    /// were fetched less than `refetch_after` ago.
    pub(super) async fn key(
        &self,
        fetcher: &Fetcher,
        kid: Option<&str>,
        algorithm: Algorithm,
        refetch_after: Duration,
    ) -> Result<DecodingKey, Failure> {
        if let Some(key) = self.find(kid, algorithm) {
            return Ok(key);
        }
        let mut fetched = self.fetched.lock().await;
        // Another token's fetch may have brought it meanwhile.
        if let Some(key) = self.find(kid, algorithm) {
            return Ok(key);
        }
        let recent = fetched.at.is_some_and(|at| at.elapsed() < refetch_after);
        if !recent {
            fetched.at = Some(Instant::now());
            let keys = self.fetch(fetcher, &mut fetched).await?;
            *self.keys.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(keys);
            if let Some(key) = self.find(kid, algorithm) {
                return Ok(key);
            }
        } else if self.current().is_empty() {
            return Err(Failure::Unavailable(format!(
                "the keys of `{}` could not be fetched; trying again shortly",
                self.issuer
            )));
        }
        Err(Failure::Invalid(match kid {
            Some(kid) => format!("`{}` publishes no {algorithm:?} key `{kid}`", self.issuer),
            None => format!(
                "the token names no key (`kid`), and `{}` publishes other than one {algorithm:?} key",
                self.issuer
            ),
        }))
    }

    fn current(&self) -> Arc<Vec<Key>> {
        self.keys.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// The kept key for `kid` and `algorithm`; without a `kid`, the only
    /// key that fits.
    fn find(&self, kid: Option<&str>, algorithm: Algorithm) -> Option<DecodingKey> {
        let keys = self.current();
        let fits = |k: &&Key| k.algorithm.is_none_or(|a| a == algorithm);
        match kid {
            Some(kid) => keys
                .iter()
                .filter(fits)
                .find(|k| k.kid.as_deref() == Some(kid))
                .map(|k| k.key.clone()),
            None => {
                let mut fitting = keys.iter().filter(fits);
                match (fitting.next(), fitting.next()) {
                    (Some(only), None) => Some(only.key.clone()),
                    _ => None,
                }
            }
        }
    }

    /// Fetches the key set, finding its URL first if need be.
    async fn fetch(&self, fetcher: &Fetcher, fetched: &mut Fetched) -> Result<Vec<Key>, Failure> {
        let jwks_uri = match &fetched.jwks_uri {
            Some(uri) => uri.clone(),
            None => {
                let uri = self.discover(fetcher).await?;
                fetched.jwks_uri = Some(uri.clone());
                uri
            }
        };
        let document = fetcher
            .json(&jwks_uri)
            .await
            .map_err(Failure::Unavailable)?;
        let set: JwkSet = serde_json::from_value(document)
            .map_err(|e| Failure::Unavailable(format!("{jwks_uri} is not a JWK set: {e}")))?;
        // A key the set marks for encryption, of a kind the algorithms
        // cannot use, or that does not decode is left out: the others
        // still verify.
        Ok(set.keys.iter().filter_map(usable).collect())
    }

    /// The issuer's `jwks_uri`, from its RFC 8414 metadata, else its
    /// OpenID Connect discovery document. The document must name this
    /// issuer (RFC 8414 § 3.3).
    async fn discover(&self, fetcher: &Fetcher) -> Result<String, Failure> {
        let mut tried = Vec::new();
        for url in metadata_urls(&self.issuer) {
            match fetcher.json(&url).await {
                Ok(document) => {
                    let named = document.get("issuer").and_then(|v| v.as_str());
                    if named != Some(self.issuer.as_str()) {
                        return Err(Failure::Unavailable(format!(
                            "{url} names the issuer {named:?}, not `{}`",
                            self.issuer
                        )));
                    }
                    return match document.get("jwks_uri").and_then(|v| v.as_str()) {
                        Some(uri) => Ok(uri.to_owned()),
                        None => Err(Failure::Unavailable(format!("{url} has no `jwks_uri`"))),
                    };
                }
                Err(e) => tried.push(e),
            }
        }
        Err(Failure::Unavailable(format!(
            "no metadata found for `{}`: {}",
            self.issuer,
            tried.join("; ")
        )))
    }
}

/// A JWK as a key to verify with, when it is one.
fn usable(jwk: &Jwk) -> Option<Key> {
    if matches!(&jwk.common.public_key_use, Some(u) if *u != PublicKeyUse::Signature) {
        return None;
    }
    let algorithm = match jwk.common.key_algorithm {
        Some(named) => Some(Algorithm::try_from(named).ok()?),
        None => None,
    };
    let key = DecodingKey::from_jwk(jwk).ok()?;
    Some(Key {
        kid: jwk.common.key_id.clone(),
        algorithm,
        key,
    })
}

/// Where an issuer's metadata may be: RFC 8414 puts the well-known part
/// before the issuer's path, OpenID Connect after it.
fn metadata_urls(issuer: &str) -> [String; 2] {
    let issuer = issuer.trim_end_matches('/');
    let (origin, path) = match issuer.find("://").map(|i| i + 3) {
        Some(start) => match issuer[start..].find('/') {
            Some(slash) => issuer.split_at(start + slash),
            None => (issuer, ""),
        },
        None => (issuer, ""),
    };
    [
        format!("{origin}/.well-known/oauth-authorization-server{path}"),
        format!("{issuer}/.well-known/openid-configuration"),
    ]
}

#[cfg(test)]
mod tests {
    use super::metadata_urls;

    #[test]
    fn metadata_is_looked_for_where_rfc_8414_and_openid_put_it() {
        assert_eq!(
            metadata_urls("https://id.example"),
            [
                "https://id.example/.well-known/oauth-authorization-server",
                "https://id.example/.well-known/openid-configuration",
            ]
        );
        assert_eq!(
            metadata_urls("https://id.example/tenant/1/"),
            [
                "https://id.example/.well-known/oauth-authorization-server/tenant/1",
                "https://id.example/tenant/1/.well-known/openid-configuration",
            ]
        );
    }
}
