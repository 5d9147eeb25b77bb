//! Completion: what may be typed at the cursor, judged from the text before
//! it on its line (the file need not parse while it is being written).

use lsp_types::{CompletionItem, CompletionItemKind};

use crate::model::{Model, Origin, Primitive, Timing, TypeKind};
use crate::syntax::keywords;

/// The completions for a cursor after `before` (the line up to the cursor).
pub(crate) fn complete(model: Option<&Model>, before: &str) -> Vec<CompletionItem> {
    let word_start = before
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    let prefix_context = before[..word_start].trim_end();
    if prefix_context.ends_with('@') {
        return attributes();
    }
    let previous_word = prefix_context
        .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
        .next()
        .unwrap_or("");
    if previous_word == keywords::TIMING {
        return timings();
    }
    if previous_word == keywords::CONTENTS {
        return contents(model);
    }
    // A struct's name, or `{`.
    if previous_word == keywords::ARGUMENTS {
        return declared(model);
    }
    let wants_type = prefix_context.ends_with(':')
        || prefix_context.ends_with('<')
        || [
            keywords::REQUEST,
            keywords::RESPONSE,
            keywords::ERRORS,
            keywords::STREAM,
        ]
        .contains(&previous_word);
    if wants_type {
        return types(model);
    }
    keywords()
}

/// After `contents`: `text`, `bytes`, or a declared type.
fn contents(model: Option<&Model>) -> Vec<CompletionItem> {
    let mut items = vec![
        item(
            keywords::TEXT,
            CompletionItemKind::KEYWORD,
            "a string (`text/plain`)",
        ),
        item(
            keywords::BYTES,
            CompletionItemKind::KEYWORD,
            "a blob, base64 in JSON (`application/octet-stream`)",
        ),
    ];
    items.extend(declared(model));
    items
}

fn item(label: &str, kind: CompletionItemKind, detail: &str) -> CompletionItem {
    CompletionItem {
        label: label.to_owned(),
        kind: Some(kind),
        detail: Some(detail.to_owned()),
        ..CompletionItem::default()
    }
}

fn attributes() -> Vec<CompletionItem> {
    crate::check::attrs::catalogue()
        .map(|(name, targets, args)| {
            item(
                name,
                CompletionItemKind::PROPERTY,
                &format!("on {targets}; takes {args}"),
            )
        })
        .collect()
}

fn timings() -> Vec<CompletionItem> {
    [
        (Timing::Sync, "answers inline"),
        (
            Timing::AsyncShort,
            "a job; inline if it ends within about 30 s",
        ),
        (
            Timing::AsyncMedium,
            "a job; inline if it ends within about 120 s",
        ),
        (Timing::AsyncLong, "a job; its id at once"),
        (
            Timing::FireAndForget,
            "acknowledged at once; failures recorded",
        ),
    ]
    .into_iter()
    .map(|(t, what)| item(t.as_str(), CompletionItemKind::ENUM_MEMBER, what))
    .collect()
}

fn types(model: Option<&Model>) -> Vec<CompletionItem> {
    let mut items: Vec<CompletionItem> = Primitive::NAMES
        .iter()
        .map(|p| item(p, CompletionItemKind::KEYWORD, "built-in type"))
        .collect();
    items.push(item(keywords::LIST, CompletionItemKind::KEYWORD, "list<T>"));
    items.push(item(
        keywords::MAP,
        CompletionItemKind::KEYWORD,
        "map<T>, string keys",
    ));
    items.extend(declared(model));
    items
}

/// The declared types of the catalogue, when it checks.
fn declared(model: Option<&Model>) -> Vec<CompletionItem> {
    let Some(model) = model else {
        return Vec::new();
    };
    model
        .types
        .iter()
        .filter(|def| matches!(def.origin, Origin::Declared))
        .map(|def| {
            let (kind, what) = match def.kind {
                TypeKind::Struct(_) => (CompletionItemKind::STRUCT, "struct"),
                TypeKind::Enum(_) => (CompletionItemKind::ENUM, "enum"),
                TypeKind::Union(_) => (CompletionItemKind::ENUM, "union"),
                TypeKind::Error(_) => (CompletionItemKind::ENUM, "error"),
            };
            let mut completion = item(&def.name, kind, what);
            completion.documentation = def.docs.clone().map(lsp_types::Documentation::String);
            completion
        })
        .collect()
}

/// The words that start an item or a clause of any body.
fn keywords() -> Vec<CompletionItem> {
    keywords::ITEMS
        .iter()
        .chain(keywords::CLAUSES)
        .map(|k| item(k, CompletionItemKind::KEYWORD, "keyword"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::complete;

    fn labels(before: &str) -> Vec<String> {
        complete(None, before)
            .into_iter()
            .map(|i| i.label)
            .collect()
    }

    #[test]
    fn the_text_before_the_cursor_decides() {
        assert!(labels("    @ran").contains(&"range".to_owned()));
        assert!(labels("    @").contains(&"deprecated".to_owned()));
        assert!(labels("    timing ").contains(&"async_long".to_owned()));
        assert!(labels("    timing as").contains(&"async_short".to_owned()));
        assert!(labels("        name: ").contains(&"string".to_owned()));
        assert!(labels("        tags: list<").contains(&"u32".to_owned()));
        assert!(labels("    errors ").contains(&"map".to_owned()));
        assert!(labels("").contains(&"tool".to_owned()));
        assert!(labels("    ti").contains(&"timing".to_owned()));
        assert!(labels("").contains(&"resource".to_owned()));
        assert!(labels("").contains(&"prompt".to_owned()));
        assert!(labels("    ur").contains(&"uri".to_owned()));
        assert!(labels("    contents ").contains(&"bytes".to_owned()));
        assert!(!labels("    arguments ").contains(&"string".to_owned()));
    }

    #[test]
    fn an_apps_attributes_are_offered_with_what_they_take() {
        let detail = |name: &str| {
            complete(None, "@app_")
                .into_iter()
                .find(|i| i.label == name)
                .and_then(|i| i.detail)
                .unwrap_or_else(|| panic!("`@{name}` is offered"))
        };
        assert!(detail("app_frames").starts_with("on tools with `@app`"));
        assert!(detail("app_base_uri").starts_with("on tools with `@app`"));
        assert!(detail("app_permissions").contains("`clipboard_write`"));
        assert!(detail("app_border").contains("`(false)`"));
        assert!(detail("app_visibility").contains("`model`, `app` or both"));
    }
}
