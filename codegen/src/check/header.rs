//! `@header`: a tool argument MCP clients mirror into an HTTP header
//! (`Mcp-Param-<name>`, SEP-2243), so that a proxy or load balancer can
//! route on it without reading the body. It must be a field of a tool's
//! own request, its name an HTTP token, used once per request.

use std::collections::{HashMap, HashSet};

use crate::diag::{Ctxt, messages};
use crate::model::{Tool, ToolKind, TypeDef, TypeId, TypeKind};
use crate::source::Sources;

/// Checks where every `@header` field is and that no two of a request
/// share a header (its name is checked with the field, in `fields`).
/// `@header` on a field of a struct no request is → TW315.
pub(crate) fn check(types: &[TypeDef], tools: &[Tool], sources: &Sources, cx: &mut Ctxt) {
    let requests: HashSet<TypeId> = tools
        .iter()
        .filter_map(|tool| match &tool.kind {
            ToolKind::Single(endpoint) => endpoint.request,
            ToolKind::Actions(_) => None,
        })
        .collect();
    let in_actions: HashSet<TypeId> = tools
        .iter()
        .filter_map(|tool| match &tool.kind {
            ToolKind::Actions(actions) => Some(actions),
            ToolKind::Single(_) => None,
        })
        .flatten()
        .filter_map(|action| action.endpoint.request)
        .collect();
    for def in types {
        let fields = def.kind.fields();
        let mut seen: HashMap<String, &str> = HashMap::new();
        for field in fields {
            let Some(name) = &field.header else {
                continue;
            };
            let span = sources.name_span(field.location);
            let top_level = matches!(def.kind, TypeKind::Struct(_)) && requests.contains(&def.id);
            if !top_level {
                let why = if in_actions.contains(&def.id) {
                    "an action's request"
                } else {
                    "which is not a tool's request"
                };
                cx.push(messages::header_placement(span, &def.name, why));
                continue;
            }
            match seen.get(&name.to_ascii_lowercase()) {
                Some(first) => cx.push(messages::duplicate_header(span, name, first)),
                None => {
                    seen.insert(name.to_ascii_lowercase(), &field.name);
                }
            }
        }
    }
}

/// Why `name` cannot follow `Mcp-Param-` in a header name, if it cannot:
/// an HTTP token (RFC 9110 `tchar`s), not empty.
pub(crate) fn name_problem(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        return Some("names no header");
    }
    if name.chars().all(tchar) {
        None
    } else if !name.is_ascii() {
        Some("is not ASCII")
    } else {
        Some(
            "holds a character a header name cannot (a space, a colon, a control character, a separator)",
        )
    }
}

/// An HTTP token character (RFC 9110 `tchar`), of header names and of
/// MIME types alike.
pub(crate) fn tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

#[cfg(test)]
mod tests {
    use super::name_problem;

    #[test]
    fn header_names_are_http_tokens() {
        for good in ["Region", "Tenant-Id", "x.y", "A1", "~"] {
            assert_eq!(name_problem(good), None, "{good}");
        }
        for bad in [
            "",
            "My Region",
            "Region:Primary",
            "Région",
            "Region\t1",
            "a/b",
        ] {
            assert!(name_problem(bad).is_some(), "{bad:?}");
        }
    }
}
