//! `@scopes`: the OAuth scopes a call of a tool needs, all of them. Written
//! on a tool, or on `category` as the default of the file's tools; a
//! tool's own list replaces the default, and `@scopes()` needs none.

use std::collections::HashMap;

use crate::diag::{Ctxt, messages};
use crate::model::Scope;
use crate::source::{Sources, Span};
use crate::syntax::ast::{Attr, LitKind};

/// The scopes one `@scopes` lists, each a scope token and each once, in
/// the order written, with the span of its string.
/// `@scopes("cas read")` → TW316; `@scopes("a", "a")` → TW102.
pub(super) fn written(cx: &mut Ctxt, attr: &Attr) -> Vec<(String, Span)> {
    let mut out: Vec<(String, Span)> = Vec::new();
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for arg in &attr.args {
        let LitKind::Str(scope) = &arg.kind else {
            continue;
        };
        if let Some(problem) = token_problem(scope) {
            cx.push(messages::invalid_scope(arg.span, scope, problem));
            continue;
        }
        if let Some(&first) = seen.get(scope.as_str()) {
            cx.push(messages::duplicate_scope(arg.span, scope, first));
            continue;
        }
        seen.insert(scope, arg.span);
        out.push((scope.clone(), arg.span));
    }
    out
}

/// Why `scope` is not an RFC 6749 §3.3 scope-token, if it is not: one or
/// more of `%x21 / %x23-5B / %x5D-7E`, printable ASCII but for space, `"`
/// and `\`.
pub(crate) fn token_problem(scope: &str) -> Option<&'static str> {
    if scope.is_empty() {
        return Some("is empty");
    }
    let bad = scope
        .chars()
        .find(|&c| !matches!(c, '\x21' | '\x23'..='\x5b' | '\x5d'..='\x7e'))?;
    Some(match bad {
        ' ' => "holds a space (a token carries its scopes separated by spaces)",
        '"' => "holds a `\"`",
        '\\' => "holds a `\\`",
        c if c.is_ascii_control() || c.is_whitespace() => "holds a control or whitespace character",
        _ => "holds a character outside printable ASCII",
    })
}

/// The scopes a call of a tool needs: its own `@scopes` when written
/// (even empty), else its category's, else none.
pub(super) fn effective(
    own: Option<&[(String, Span)]>,
    category: Option<&[(String, Span)]>,
    sources: &Sources,
) -> Vec<Scope> {
    own.or(category)
        .unwrap_or_default()
        .iter()
        .map(|(name, span)| Scope {
            name: name.clone(),
            location: sources.location(*span),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::token_problem;
    use crate::diag::Code;
    use crate::{Sources, check};

    #[test]
    fn scopes_are_rfc_6749_scope_tokens() {
        for good in [
            "cas:read",
            "a",
            "https://x.example/auth/drive",
            "!#$[]{}~",
            "A-Z_0.9",
        ] {
            assert_eq!(token_problem(good), None, "{good}");
        }
        for bad in [
            "",
            "cas read",
            "cas\"read",
            "cas\\read",
            "caf\u{e9}",
            "tab\t",
            "x\u{7f}",
        ] {
            assert!(token_problem(bad).is_some(), "{bad:?}");
        }
    }

    fn scopes(text: &str) -> Vec<(String, Vec<String>)> {
        let mut sources = Sources::new();
        sources.add("cas.tool", text);
        let model = check(&sources)
            .unwrap_or_else(|d| panic!("{}", d.render(&sources, crate::ColorChoice::Never)));
        model
            .tools
            .iter()
            .map(|t| (t.name.clone(), t.scope_names().map(str::to_owned).collect()))
            .collect()
    }

    fn codes(text: &str) -> Vec<Code> {
        let mut sources = Sources::new();
        sources.add("cas.tool", text);
        check(&sources)
            .err()
            .map_or_else(Vec::new, |d| d.iter().map(|d| d.code).collect())
    }

    #[test]
    fn a_tools_own_scopes_replace_its_categorys() {
        let found = scopes(
            "@scopes(\"cas:read\", \"cas:audit\") category cas;\n\
             tool cas_get { timing sync }\n\
             @scopes(\"cas:write\") tool cas_store { timing sync }\n\
             @scopes() tool cas_ping { timing sync }\n\
             @scopes(\"cas:write\", \"cas:read\") tool cas_move { timing sync }",
        );
        let want = |name: &str, scopes: &[&str]| {
            (
                name.to_owned(),
                scopes.iter().map(|s| (*s).to_owned()).collect(),
            )
        };
        assert_eq!(
            found,
            [
                want("cas_get", &["cas:read", "cas:audit"]),
                want("cas_store", &["cas:write"]),
                want("cas_ping", &[]),
                want("cas_move", &["cas:write", "cas:read"]),
            ]
        );
    }

    #[test]
    fn without_any_scopes_a_tool_needs_none() {
        assert_eq!(
            scopes("category cas;\ntool cas_get { timing sync }"),
            [("cas_get".to_owned(), Vec::new())]
        );
    }

    #[test]
    fn the_default_reaches_only_its_own_files_tools() {
        let mut sources = Sources::new();
        sources.add(
            "a.tool",
            "@scopes(\"a:read\") category a;\ntool a_get { timing sync }",
        );
        sources.add("b.tool", "tool b_get { timing sync }");
        let model = check(&sources).expect("valid");
        assert_eq!(
            model
                .tool("a_get")
                .unwrap()
                .scope_names()
                .collect::<Vec<_>>(),
            ["a:read"]
        );
        assert_eq!(model.tool("b_get").unwrap().scope_names().count(), 0);
        assert_eq!(model.scopes(), ["a:read"]);
    }

    #[test]
    fn the_catalogues_scopes_are_sorted_and_each_once() {
        let mut sources = Sources::new();
        sources.add(
            "cas.tool",
            "@scopes(\"cas:write\", \"cas:read\") tool cas_store { timing sync }\n\
             @scopes(\"cas:read\") tool cas_get { timing sync }\n\
             @scopes(\"admin\") tool cas_wipe { timing sync }",
        );
        let model = check(&sources).expect("valid");
        assert_eq!(model.scopes(), ["admin", "cas:read", "cas:write"]);
    }

    #[test]
    fn bad_scopes_are_refused() {
        for (text, code) in [
            (
                "@scopes(\"cas read\") tool t { timing sync }",
                Code::InvalidScope,
            ),
            ("@scopes(\"\") tool t { timing sync }", Code::InvalidScope),
            (
                "@scopes(\"a\", \"b\", \"a\") tool t { timing sync }",
                Code::Duplicate,
            ),
            ("@scopes(\"a\\\\b\") category c;", Code::InvalidScope),
            (
                "@scopes(1) tool t { timing sync }",
                Code::AttributeArguments,
            ),
            (
                "@scopes(\"a\") @scopes(\"b\") tool t { timing sync }",
                Code::DuplicateAttribute,
            ),
            (
                "tool t { timing sync @scopes(\"a\") action a { } }",
                Code::AttributeTarget,
            ),
            ("@scopes(\"a\") struct S { }", Code::AttributeTarget),
            ("struct S { @scopes(\"a\") f: u8 }", Code::AttributeTarget),
            ("@toolset(\"x\") category c;", Code::AttributeTarget),
        ] {
            assert_eq!(codes(text), [code], "{text}");
        }
    }

    #[test]
    fn scopes_on_an_action_point_to_the_tool() {
        let mut sources = Sources::new();
        sources.add(
            "t.tool",
            "tool fs { timing sync @scopes(\"fs:read\") action read { } }",
        );
        let d = check(&sources).unwrap_err();
        let help = d.iter().next().unwrap().help.clone().unwrap_or_default();
        assert!(help.contains("write `@scopes` on the tool"), "{help}");
    }
}
