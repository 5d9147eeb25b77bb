//! Who may use a route: the `Host` and `Origin` rules and the bearer
//! token of the server's [`HttpConfig`], one parser and one rule set for
//! MCP and the web routes alike.

use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};

use std::sync::Arc;

use super::HttpConfig;
use super::failure::Failure;
use crate::Principal;

/// The rules, from the server's `HttpConfig`.
#[derive(Clone, Debug)]
pub(crate) struct Access {
    hosts: Vec<String>,
    origins: Vec<String>,
    /// The static bearer token and who shows it: trusted with every scope.
    bearer: Option<(String, Arc<Principal>)>,
    /// The OAuth tokens accepted.
    #[cfg(feature = "auth")]
    auth: Option<super::Auth>,
    /// `Bearer`, with where the resource's metadata is when there is some:
    /// every `401` and `403` challenge starts with it.
    challenge: Arc<str>,
}

impl Access {
    pub(crate) fn new(config: &HttpConfig) -> Self {
        #[cfg(feature = "auth")]
        let challenge = match &config.auth {
            Some(auth) => format!(
                "Bearer resource_metadata=\"{}\"",
                super::auth::metadata_url(auth.resource())
            ),
            None => "Bearer".to_owned(),
        };
        #[cfg(not(feature = "auth"))]
        let challenge = "Bearer".to_owned();
        Access {
            hosts: config.allowed_hosts.clone(),
            origins: config.allowed_origins.clone(),
            bearer: config.bearer_token.clone().map(|token| {
                let principal = Principal::new(STATIC_SUBJECT).with_every_scope();
                (token, Arc::new(principal))
            }),
            #[cfg(feature = "auth")]
            auth: config.auth.clone(),
            challenge: Arc::from(challenge),
        }
    }

    /// Checks a request for a route anyone on an allowed site may read (the
    /// page): a host or origin not allowed is refused.
    pub(crate) fn check_site(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        self.site(headers).map_err(counted)
    }

    /// [`check_site`](Self::check_site) but for the counting.
    fn site(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
        if !self.hosts.is_empty()
            && !host.is_some_and(|h| self.hosts.iter().any(|a| host_matches(a, h)))
        {
            return Err(Refusal::Host);
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let allowed = origin.to_str().is_ok_and(|o| {
                self.origins.is_empty() || self.origins.iter().any(|a| origin_matches(a, o))
            });
            if !allowed {
                return Err(Refusal::Origin);
            }
        }
        Ok(())
    }

    /// Admits a request: its site, then its credentials. `Ok(None)` when
    /// the server authenticates nobody; `Ok(Some)` names who is calling.
    pub(crate) async fn admit(
        &self,
        headers: &HeaderMap,
    ) -> Result<Option<Arc<Principal>>, Refusal> {
        self.check_site(headers)?;
        self.authenticate(bearer(headers)).await
    }

    /// As [`admit`](Self::admit), for the WebSocket route: a browser's
    /// WebSocket cannot send headers, so the token may come as the URL's
    /// `access_token` (RFC 6750 § 2.3) instead.
    #[cfg(feature = "web")]
    pub(crate) async fn admit_socket(
        &self,
        headers: &HeaderMap,
        query: &str,
    ) -> Result<Option<Arc<Principal>>, Refusal> {
        self.check_site(headers)?;
        let from_query = query
            .split('&')
            .find_map(|pair| pair.strip_prefix("access_token="));
        self.authenticate(bearer(headers).or(from_query)).await
    }

    /// Who shows the token `given`: the static token's principal, or the
    /// one an OAuth access token names. Nobody when the server has neither.
    async fn authenticate(&self, given: Option<&str>) -> Result<Option<Arc<Principal>>, Refusal> {
        if let (Some((expected, principal)), Some(given)) = (&self.bearer, given)
            && constant_time_eq(given.as_bytes(), expected.as_bytes())
        {
            return Ok(Some(principal.clone()));
        }
        #[cfg(feature = "auth")]
        if let Some(auth) = &self.auth {
            let Some(token) = given else {
                return Err(self.refuse(Failure::Missing));
            };
            return match auth.verify(token).await {
                Ok(principal) => Ok(Some(principal)),
                Err(failure) => Err(self.refuse(failure)),
            };
        }
        match (&self.bearer, given) {
            (None, _) => Ok(None),
            (Some(_), None) => Err(self.refuse(Failure::Missing)),
            (Some(_), Some(_)) => {
                Err(self.refuse(Failure::Invalid("it is not this server's token".to_owned())))
            }
        }
    }

    fn refuse(&self, failure: Failure) -> Refusal {
        counted(Refusal::Credentials {
            failure,
            challenge: self.challenge.clone(),
        })
    }

    /// The `WWW-Authenticate` value of a call refused for lack of `scopes`
    /// (RFC 6750 § 3.1).
    #[cfg(feature = "web")]
    pub(crate) fn insufficient_scope(&self, scopes: &[&str]) -> String {
        format!(
            "{}, error=\"insufficient_scope\", scope=\"{}\"",
            self.challenge,
            scopes.join(" ")
        )
    }
}

/// `refused`, counted in the metrics by its reason: every refusal is
/// made through here.
fn counted(refused: Refusal) -> Refusal {
    crate::metrics::auth_failure(refused.reason());
    refused
}

/// The subject of the static bearer token's principal.
const STATIC_SUBJECT: &str = "bearer-token";

/// The token of an `Authorization: Bearer …` header.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
}

/// Why a request was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The `Host` is not an allowed host: `403`.
    Host,
    /// The `Origin` is not an allowed origin: `403`.
    Origin,
    /// No credentials, or none accepted: `401` with the challenge; keys
    /// that cannot be had to check them: `503`.
    Credentials {
        failure: Failure,
        challenge: Arc<str>,
    },
}

impl Refusal {
    /// Its `reason` label in the metrics: `host`, `origin`, `missing`,
    /// `invalid` or `unavailable`.
    fn reason(&self) -> &'static str {
        match self {
            Refusal::Host => "host",
            Refusal::Origin => "origin",
            Refusal::Credentials { failure, .. } => match failure {
                Failure::Missing => "missing",
                Failure::Invalid(_) => "invalid",
                Failure::Unavailable(_) => "unavailable",
            },
        }
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        match self {
            Refusal::Host => {
                (StatusCode::FORBIDDEN, "Forbidden: this Host is not allowed").into_response()
            }
            Refusal::Origin => (
                StatusCode::FORBIDDEN,
                "Forbidden: this Origin is not allowed",
            )
                .into_response(),
            Refusal::Credentials {
                failure: Failure::Missing,
                challenge,
            } => (
                StatusCode::UNAUTHORIZED,
                [(header::WWW_AUTHENTICATE, challenge.to_string())],
                "Unauthorized: this server needs `Authorization: Bearer <token>`",
            )
                .into_response(),
            Refusal::Credentials {
                failure: Failure::Invalid(why),
                challenge,
            } => {
                // A header value may not hold `"` or `\` unescaped, nor
                // control characters: the description is kept printable.
                let description: String = why
                    .chars()
                    .map(|c| {
                        if c == '"' || c == '\\' || c.is_control() {
                            '\''
                        } else {
                            c
                        }
                    })
                    .collect();
                let value = format!(
                    "{challenge}, error=\"invalid_token\", error_description=\"{description}\""
                );
                (
                    StatusCode::UNAUTHORIZED,
                    [(header::WWW_AUTHENTICATE, value)],
                    format!("Unauthorized: the token is refused: {why}"),
                )
                    .into_response()
            }
            Refusal::Credentials {
                failure: Failure::Unavailable(why),
                ..
            } => (
                StatusCode::SERVICE_UNAVAILABLE,
                [(header::RETRY_AFTER, "5")],
                format!("Service Unavailable: the token cannot be checked now: {why}"),
            )
                .into_response(),
        }
    }
}

/// `localhost` allows `localhost` on any port; `localhost:8787` only that
/// port.
fn host_matches(allowed: &str, host: &str) -> bool {
    if allowed.eq_ignore_ascii_case(host) {
        return true;
    }
    split_port(host).is_some_and(|(name, _)| allowed.eq_ignore_ascii_case(name))
}

/// `http://localhost:*` allows that scheme and host on any port (or none);
/// anything else must match exactly.
fn origin_matches(allowed: &str, origin: &str) -> bool {
    if allowed.eq_ignore_ascii_case(origin) {
        return true;
    }
    let (Some(prefix), Some((scheme, host))) =
        (allowed.strip_suffix(":*"), origin.split_once("://"))
    else {
        return false;
    };
    let name = split_port(host).map_or(host, |(name, _)| name);
    prefix.eq_ignore_ascii_case(&format!("{scheme}://{name}"))
}

/// `name:port` split at the port, for a port of digits (`[::1]:80` too).
fn split_port(host: &str) -> Option<(&str, &str)> {
    let (name, port) = host.rsplit_once(':')?;
    let digits = !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit());
    (digits && !name.ends_with(':') && (!name.contains(':') || name.ends_with(']')))
        .then_some((name, port))
}

/// Compared in constant time, so the answer's timing does not tell how much
/// of a guess was right.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_match_with_any_port_unless_one_is_named() {
        assert!(host_matches("localhost", "localhost:8787"));
        assert!(host_matches("localhost", "LOCALHOST"));
        assert!(host_matches("[::1]", "[::1]:80"));
        assert!(host_matches("localhost:8787", "localhost:8787"));
        assert!(!host_matches("localhost:8787", "localhost:9000"));
        assert!(!host_matches("localhost", "evil.example"));
        assert!(!host_matches("localhost", "localhost.evil.example:80"));
    }

    #[test]
    fn origins_match_exactly_or_by_port_wildcard() {
        assert!(origin_matches(
            "http://localhost:*",
            "http://localhost:5173"
        ));
        assert!(origin_matches("http://localhost:*", "http://localhost"));
        assert!(!origin_matches(
            "http://localhost:*",
            "https://localhost:5173"
        ));
        assert!(!origin_matches(
            "http://localhost:*",
            "http://localhost.evil:80"
        ));
        assert!(origin_matches("https://app.example", "https://app.example"));
        assert!(!origin_matches(
            "https://app.example",
            "https://app.example:444"
        ));
    }
}
