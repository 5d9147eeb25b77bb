//! [`Mount`]: what to mount and under which prefix, and how the prefix
//! goes on (and comes off) a mounted server's names and URIs.

use std::ffi::OsString;
use std::fmt;

/// Longest prefix accepted: a prefixed tool name must stay within MCP's
/// 128 characters for most of the names it mounts.
const MAX_PREFIX: usize = 32;

/// One MCP server to mount: where it is and the prefix its names get.
#[derive(Clone, Debug)]
pub struct Mount {
    pub(super) prefix: String,
    pub(super) target: Target,
    pub(super) scopes: Vec<String>,
}

/// Where a mounted server is.
#[derive(Clone, Debug)]
pub(super) enum Target {
    /// A command that speaks MCP on its stdin and stdout, started (and
    /// restarted) by the mounting server.
    Command {
        program: OsString,
        args: Vec<OsString>,
    },
    /// A Streamable HTTP endpoint.
    Http(String),
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Command { program, .. } => write!(f, "`{}`", program.to_string_lossy()),
            Target::Http(url) => f.write_str(url),
        }
    }
}

/// A prefix that cannot name a mount.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidPrefix {
    prefix: String,
}

impl fmt::Display for InvalidPrefix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` cannot prefix a mounted server's names: use 1 to {MAX_PREFIX} letters, digits \
             or `-`, starting with a letter",
            self.prefix
        )
    }
}

impl std::error::Error for InvalidPrefix {}

impl Mount {
    /// The MCP server at a Streamable HTTP `url`
    /// (`http://127.0.0.1:9000/mcp`), its names prefixed with `prefix`.
    ///
    /// # Errors
    /// [`InvalidPrefix`] unless `prefix` is 1 to 32 ASCII letters, digits
    /// or `-`, starting with a letter (the `_` is the separator).
    pub fn http(prefix: &str, url: impl Into<String>) -> Result<Self, InvalidPrefix> {
        Ok(Mount {
            prefix: checked(prefix)?,
            target: Target::Http(url.into()),
            scopes: Vec::new(),
        })
    }

    /// The MCP server `program` runs on its stdin and stdout, started with
    /// `args`; restarted when it exits.
    ///
    /// # Errors
    /// As [`Mount::http`].
    pub fn command(
        prefix: &str,
        program: impl Into<OsString>,
        args: impl IntoIterator<Item = impl Into<OsString>>,
    ) -> Result<Self, InvalidPrefix> {
        Ok(Mount {
            prefix: checked(prefix)?,
            target: Target::Command {
                program: program.into(),
                args: args.into_iter().map(Into::into).collect(),
            },
            scopes: Vec::new(),
        })
    }

    /// Lets only callers holding every one of `scopes` use the mounted
    /// server's tools, resources and prompts (a server that authenticates
    /// its callers; see [`Principal`](crate::Principal)): others are
    /// answered `FORBIDDEN`, as for a catalogue tool's `@scopes`. By
    /// default a mount needs none, and every caller let in may use it.
    #[must_use]
    pub fn scopes(mut self, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// The prefix of its names.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }
}

fn checked(prefix: &str) -> Result<String, InvalidPrefix> {
    let starts = prefix
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic());
    let rest = prefix
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-');
    if starts && rest && prefix.len() <= MAX_PREFIX {
        Ok(prefix.to_owned())
    } else {
        Err(InvalidPrefix {
            prefix: prefix.chars().take(MAX_PREFIX * 2).collect(),
        })
    }
}

/// A mounted tool's or prompt's name as served: `<prefix>_<name>`.
pub(super) fn prefixed(prefix: &str, name: &str) -> String {
    format!("{prefix}_{name}")
}

/// A mounted resource's URI (or URI template) as served: the prefix as the
/// first segment after the scheme's `://`, so `mem://notes/a` of mount
/// `b` is `mem://b/notes/a`. A URI with no `://` (`urn:x`) keeps its
/// form, prefixed as `<prefix>+urn:x`.
pub(super) fn prefixed_uri(prefix: &str, uri: &str) -> String {
    match uri.split_once("://") {
        Some((scheme, rest)) => format!("{scheme}://{prefix}/{rest}"),
        None => format!("{prefix}+{uri}"),
    }
}

/// The mounted server's own URI for a URI served under `prefix`, or
/// `None` when it is not one of the mount's.
pub(super) fn unprefixed_uri(prefix: &str, uri: &str) -> Option<String> {
    match uri.split_once("://") {
        Some((scheme, rest)) => {
            let rest = rest.strip_prefix(prefix)?.strip_prefix('/')?;
            Some(format!("{scheme}://{rest}"))
        }
        None => uri
            .strip_prefix(prefix)?
            .strip_prefix('+')
            .map(str::to_owned),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_are_checked() {
        assert!(Mount::http("other", "http://x/mcp").is_ok());
        assert!(Mount::http("a-1", "http://x/mcp").is_ok());
        for bad in ["", "1a", "a_b", "a b", "é", &"a".repeat(33)] {
            let error = Mount::http(bad, "http://x/mcp").unwrap_err();
            assert!(error.to_string().contains("cannot prefix"), "{bad}");
        }
    }

    #[test]
    fn uris_round_trip_through_their_prefix() {
        for uri in [
            "mem://notes/a",
            "studio://cas/{hash}",
            "urn:isbn:1",
            "file:///etc/x",
        ] {
            let served = prefixed_uri("b", uri);
            assert_eq!(
                unprefixed_uri("b", &served).as_deref(),
                Some(uri),
                "{served}"
            );
            assert_eq!(unprefixed_uri("c", &served), None, "{served}");
        }
        assert_eq!(prefixed_uri("b", "mem://notes/a"), "mem://b/notes/a");
        assert_eq!(prefixed_uri("b", "file:///etc/x"), "file://b//etc/x");
        // A URI of the same scheme but another mount's (or none) is not it.
        assert_eq!(unprefixed_uri("b", "mem://bb/x"), None);
        assert_eq!(unprefixed_uri("b", "mem://b"), None);
    }
}
