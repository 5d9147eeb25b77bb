//! Who may use a route: the `Host` and `Origin` rules and the bearer
//! token of the server's [`HttpConfig`], one parser and one rule set for
//! MCP and the web routes alike.

use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::HttpConfig;

/// The rules, from the server's `HttpConfig`.
#[derive(Clone, Debug)]
pub(crate) struct Access {
    hosts: Vec<String>,
    origins: Vec<String>,
    bearer: Option<String>,
}

impl Access {
    pub(crate) fn new(config: &HttpConfig) -> Self {
        Access {
            hosts: config.allowed_hosts.clone(),
            origins: config.allowed_origins.clone(),
            bearer: config.bearer_token.clone(),
        }
    }

    /// Checks a request: a host or origin not allowed, or no token when
    /// `token` is needed, is refused.
    pub(crate) fn check(&self, headers: &HeaderMap, token: bool) -> Result<(), Refusal> {
        self.check_site(headers)?;
        if token {
            self.check_token(bearer(headers))
        } else {
            Ok(())
        }
    }

    /// As [`check`](Self::check), for the WebSocket route: a browser's
    /// WebSocket cannot send headers, so the token may come as the URL's
    /// `access_token` (RFC 6750 § 2.3) instead.
    #[cfg(feature = "web")]
    pub(crate) fn check_socket(&self, headers: &HeaderMap, query: &str) -> Result<(), Refusal> {
        self.check_site(headers)?;
        let from_query = query
            .split('&')
            .find_map(|pair| pair.strip_prefix("access_token="));
        self.check_token(bearer(headers).or(from_query))
    }

    /// The `Host` and, from a browser, the `Origin`.
    fn check_site(&self, headers: &HeaderMap) -> Result<(), Refusal> {
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

    /// The token given, when the server has one.
    fn check_token(&self, given: Option<&str>) -> Result<(), Refusal> {
        match &self.bearer {
            Some(expected)
                if !given.is_some_and(|g| constant_time_eq(g.as_bytes(), expected.as_bytes())) =>
            {
                Err(Refusal::Token)
            }
            _ => Ok(()),
        }
    }
}

/// The token of an `Authorization: Bearer …` header.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
}

/// Why a request was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The `Host` is not an allowed host: `403`.
    Host,
    /// The `Origin` is not an allowed origin: `403`.
    Origin,
    /// The bearer token is missing or wrong: `401`.
    Token,
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
            Refusal::Token => (
                StatusCode::UNAUTHORIZED,
                [(header::WWW_AUTHENTICATE, "Bearer")],
                "Unauthorized: this server needs `Authorization: Bearer <token>`",
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
