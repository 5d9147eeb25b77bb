//! The call body's `principal`: who a gateway authenticated, forwarded to
//! the backend with their scopes.
//!
//! `{"subject": str, "issuer"?: str, "client_id"?: str, "scopes"?: [str],
//! "every_scope"?: bool}`, every string and the list bounded, so that a
//! body cannot make a backend hold more than a few hundred kilobytes for
//! one principal.

use serde::{Deserialize, Serialize};

use crate::{Principal, ToolError};

/// Longest `subject`, `issuer` or `client_id`, in bytes.
const MAX_NAME_BYTES: usize = 1024;
/// Most scopes a forwarded principal holds.
const MAX_SCOPES: usize = 256;
/// Longest scope, in bytes.
const MAX_SCOPE_BYTES: usize = 256;

/// The map as it is written and read; strings borrow from the body.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Forwarded<'a> {
    #[serde(borrow)]
    subject: &'a str,
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    issuer: Option<&'a str>,
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    client_id: Option<&'a str>,
    #[serde(borrow, default, skip_serializing_if = "Vec::is_empty")]
    scopes: Vec<&'a str>,
    #[serde(default, skip_serializing_if = "is_false")]
    every_scope: bool,
}

#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
fn is_false(b: &bool) -> bool {
    !b
}

/// Appends `principal` as the `principal` value.
pub(super) fn write(out: &mut Vec<u8>, principal: &Principal) {
    let scopes = principal.scopes();
    let forwarded = Forwarded {
        subject: principal.subject(),
        issuer: principal.issuer(),
        client_id: principal.client_id(),
        every_scope: scopes.is_none(),
        scopes: scopes.map(Iterator::collect).unwrap_or_default(),
    };
    // Writing a map of strings, a list and a bool into a Vec cannot fail.
    let _ = rmp_serde::encode::write_named(out, &forwarded);
}

/// Reads the `principal` value, `bytes` being exactly one MsgPack value.
///
/// # Errors
/// `INVALID_REQUEST` naming what is wrong: not a map, an unknown key, no
/// `subject`, a value of the wrong type, a string or list over its bound,
/// `every_scope` beside `scopes`.
pub(super) fn read(bytes: &[u8]) -> Result<Principal, ToolError> {
    let forwarded: Forwarded<'_> =
        rmp_serde::from_slice(bytes).map_err(|e| invalid(&e.to_string()))?;
    for (key, value) in [
        ("subject", Some(forwarded.subject)),
        ("issuer", forwarded.issuer),
        ("client_id", forwarded.client_id),
    ] {
        if value.is_some_and(|v| v.len() > MAX_NAME_BYTES) {
            return Err(invalid(&format!(
                "`{key}` is longer than {MAX_NAME_BYTES} bytes"
            )));
        }
    }
    if forwarded.subject.is_empty() {
        return Err(invalid("`subject` is empty"));
    }
    if forwarded.scopes.len() > MAX_SCOPES {
        return Err(invalid(&format!(
            "{} scopes, more than {MAX_SCOPES}",
            forwarded.scopes.len()
        )));
    }
    if let Some(long) = forwarded.scopes.iter().find(|s| s.len() > MAX_SCOPE_BYTES) {
        return Err(invalid(&format!(
            "a scope of {} bytes, more than {MAX_SCOPE_BYTES}",
            long.len()
        )));
    }
    if forwarded.every_scope && !forwarded.scopes.is_empty() {
        return Err(invalid("`every_scope` is true and `scopes` is given too"));
    }
    let mut principal = Principal::new(forwarded.subject);
    if let Some(issuer) = forwarded.issuer {
        principal = principal.with_issuer(issuer);
    }
    if let Some(client_id) = forwarded.client_id {
        principal = principal.with_client_id(client_id);
    }
    Ok(if forwarded.every_scope {
        principal.with_every_scope()
    } else {
        principal.with_scopes(forwarded.scopes)
    })
}

fn invalid(what: &str) -> ToolError {
    ToolError::invalid_request(format!("`principal` in the call body: {what}"))
}
