//! `Principal`: who a call is made for, as an authenticating door found
//! it, and the scopes its credentials grant.

use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

use sha2::{Digest, Sha256};

use crate::jobs::Owner;
use crate::{ToolError, ToolInfo, codes};

/// Who a call is made for: the subject an access token names (`sub`), the
/// client it was issued to, its issuer, and the scopes it grants.
///
/// A door that authenticates its callers (an HTTP server with
/// [`Auth`](crate::http::Auth) or a bearer token) puts one on every call:
/// the call may use a tool only when the principal holds every scope the
/// tool declares with `@scopes`, the jobs it starts belong to the
/// principal ([`Principal::owner`]), and its handler reads it from its
/// [`Context`](crate::Context). A call without one (no authentication
/// configured, stdio, a Rust caller) is not checked.
#[derive(Clone, PartialEq, Eq)]
pub struct Principal {
    subject: Arc<str>,
    client_id: Option<Arc<str>>,
    issuer: Option<Arc<str>>,
    scopes: Scopes,
}

/// The scopes a principal holds.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Scopes {
    /// Every scope: a credential the server trusts outright (its static
    /// bearer token).
    All,
    /// These.
    Granted(BTreeSet<Box<str>>),
}

impl Principal {
    /// The principal `subject`, holding no scope.
    pub fn new(subject: impl Into<String>) -> Self {
        Principal {
            subject: Arc::from(subject.into()),
            client_id: None,
            issuer: None,
            scopes: Scopes::Granted(BTreeSet::new()),
        }
    }

    /// Grants `scopes` (as an OAuth `scope` claim lists them), besides
    /// those it holds.
    #[must_use]
    pub fn with_scopes<I, S>(mut self, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        if let Scopes::Granted(held) = &mut self.scopes {
            held.extend(scopes.into_iter().map(|s| Box::from(s.as_ref())));
        }
        self
    }

    /// Grants every scope: for a credential the server trusts outright.
    #[must_use]
    pub fn with_every_scope(mut self) -> Self {
        self.scopes = Scopes::All;
        self
    }

    /// Names the client the credential was issued to (`client_id`,
    /// `azp`).
    #[must_use]
    pub fn with_client_id(mut self, client_id: impl Into<String>) -> Self {
        self.client_id = Some(Arc::from(client_id.into()));
        self
    }

    /// Names the credential's issuer (`iss`): subjects are unique within
    /// their issuer.
    #[must_use]
    pub fn with_issuer(mut self, issuer: impl Into<String>) -> Self {
        self.issuer = Some(Arc::from(issuer.into()));
        self
    }

    /// The subject (`sub`).
    pub fn subject(&self) -> &str {
        &self.subject
    }

    /// The client the credential was issued to, when it says.
    pub fn client_id(&self) -> Option<&str> {
        self.client_id.as_deref()
    }

    /// The credential's issuer, when it has one.
    pub fn issuer(&self) -> Option<&str> {
        self.issuer.as_deref()
    }

    /// True when it holds `scope`.
    pub fn has_scope(&self, scope: &str) -> bool {
        match &self.scopes {
            Scopes::All => true,
            Scopes::Granted(held) => held.contains(scope),
        }
    }

    /// The scopes it was granted by name; `None` when it holds every scope.
    pub fn scopes(&self) -> Option<impl Iterator<Item = &str>> {
        match &self.scopes {
            Scopes::All => None,
            Scopes::Granted(held) => Some(held.iter().map(|s| &**s)),
        }
    }

    /// Which of `needed` it does not hold, in their order.
    pub fn missing<'a>(&self, needed: &[&'a str]) -> Vec<&'a str> {
        needed
            .iter()
            .copied()
            .filter(|scope| !self.has_scope(scope))
            .collect()
    }

    /// `Ok` when it may call `tool`; else `FORBIDDEN`, naming the scopes
    /// it lacks in the message and in `details.scopes`.
    ///
    /// # Errors
    /// `FORBIDDEN` when it lacks a scope `tool` needs.
    pub fn may_call(&self, tool: &ToolInfo) -> Result<(), ToolError> {
        self.may_use(tool.name, tool.scopes)
    }

    /// `Ok` when it may use `name` (a tool, a resource, a prompt), which
    /// needs `needed`; else `FORBIDDEN`, naming the scopes it lacks in the
    /// message and in `details.scopes`.
    ///
    /// # Errors
    /// `FORBIDDEN` when it lacks a scope of `needed`.
    pub fn may_use(&self, name: &str, needed: &[&str]) -> Result<(), ToolError> {
        let missing = self.missing(needed);
        if missing.is_empty() {
            return Ok(());
        }
        let named: Vec<String> = missing.iter().map(|s| format!("`{s}`")).collect();
        let (noun, them) = if missing.len() == 1 {
            ("scope", "it")
        } else {
            ("scopes", "them")
        };
        Err(ToolError::new(
            codes::FORBIDDEN,
            format!(
                "`{name}` needs the {noun} {}, and this caller's credentials do not grant {them}",
                named.join(", ")
            ),
        )
        .with_details(serde_json::json!({
            "scopes": missing,
            "required": needed,
        })))
    }

    /// The owner of the jobs and tasks its calls start: the same for the
    /// same subject of the same issuer on every door, replica and restart.
    pub fn owner(&self) -> Owner {
        const MAX: usize = crate::jobs::MAX_OWNER_BYTES;
        let name = match &self.issuer {
            Some(issuer) => format!("principal:{}@{issuer}", self.subject),
            None => format!("principal:{}", self.subject),
        };
        if name.len() <= MAX {
            return Owner::new(&name);
        }
        // Too long for a HOOT01 call body: a digest names it instead.
        let digest = Sha256::digest(name.as_bytes());
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        Owner::new(&format!("principal-sha256:{hex}"))
    }
}

impl fmt::Debug for Principal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Principal")
            .field("subject", &self.subject)
            .field("client_id", &self.client_id)
            .field("issuer", &self.issuer)
            .field("scopes", &self.scopes)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ToolTiming;

    fn tool(scopes: &'static [&'static str]) -> ToolInfo {
        ToolInfo {
            name: "cas_store",
            title: None,
            description: "",
            timing: ToolTiming::Sync,
            actions: &[],
            streams: false,
            paged: false,
            task_required: false,
            builtin: false,
            toolsets: &[],
            scopes,
        }
    }

    #[test]
    fn a_principal_may_call_a_tool_only_with_every_scope_it_needs() {
        let reader = Principal::new("ada").with_scopes(["cas:read"]);
        assert!(reader.may_call(&tool(&[])).is_ok());
        assert!(reader.may_call(&tool(&["cas:read"])).is_ok());
        let e = reader
            .may_call(&tool(&["cas:read", "cas:write", "cas:admin"]))
            .expect_err("lacks two");
        assert_eq!(e.code, codes::FORBIDDEN);
        assert_eq!(
            e.message,
            "`cas_store` needs the scopes `cas:write`, `cas:admin`, and this caller's \
             credentials do not grant them"
        );
        assert_eq!(
            e.details.expect("details")["scopes"],
            serde_json::json!(["cas:write", "cas:admin"])
        );
        let trusted = Principal::new("ops").with_every_scope();
        assert!(trusted.may_call(&tool(&["cas:write"])).is_ok());
        assert!(trusted.scopes().is_none());
    }

    #[test]
    fn the_owner_is_the_subject_within_its_issuer() {
        let a = Principal::new("ada").with_issuer("https://id.example");
        let b = Principal::new("ada").with_issuer("https://other.example");
        assert_eq!(a.owner().as_str(), "principal:ada@https://id.example");
        assert_ne!(a.owner(), b.owner());
        assert_eq!(Principal::new("ada").owner().as_str(), "principal:ada");
        let long = Principal::new("x".repeat(300)).owner();
        assert!(long.as_str().starts_with("principal-sha256:"));
        assert!(long.as_str().len() <= crate::jobs::MAX_OWNER_BYTES);
    }
}
