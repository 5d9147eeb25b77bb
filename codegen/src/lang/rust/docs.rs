//! Doc comments: IDL docs become `#[doc]` attributes (printed as `///`),
//! made safe for rustdoc first.
//!
//! IDL docs are Markdown written for every target, not for rustdoc. Left
//! as they are, a fenced block without a language would become a doctest
//! in the user's crate, and `[verse]` or `list<string>` would trip
//! rustdoc's link and HTML lints under `-D warnings`.

use proc_macro2::TokenStream;
use quote::quote;

/// `#[doc = " line"]` per line of `text` (after [`rustdoc`]).
pub(crate) fn attrs(text: &str) -> TokenStream {
    let lines = rustdoc(text);
    let lines = lines.lines().map(|line| {
        // A leading space makes prettyplease print `/// line`, as a person
        // would write it.
        let line = if line.is_empty() {
            String::new()
        } else {
            format!(" {line}")
        };
        quote!(#[doc = #line])
    });
    quote!(#(#lines)*)
}

/// The item's own docs, or `fallback` when the IDL has none: every public
/// item of the generated code is documented (users' crates often deny
/// `missing_docs`).
pub(crate) fn or(docs: Option<&str>, fallback: impl FnOnce() -> String) -> TokenStream {
    match docs {
        Some(text) if !text.trim().is_empty() => attrs(text),
        _ => attrs(&fallback()),
    }
}

/// Rewrites Markdown so rustdoc shows what the author meant without
/// running or resolving anything: bare code fences and indented code
/// become ```` ```text ````, and outside code, `[`, `]` and `<` are
/// escaped (Markdown links and `<https://…>` autolinks are kept) and bare
/// URLs are wrapped in `<…>`.
pub(crate) fn rustdoc(text: &str) -> String {
    let mut out = Vec::new();
    let mut fence: Option<String> = None;
    let mut indented = false;
    let mut previous_blank = true;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if let Some(marker) = &fence {
            out.push(line.to_owned());
            if trimmed.starts_with(marker.as_str()) {
                fence = None;
            }
            continue;
        }
        if let Some(marker) = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m)) {
            close_indented(&mut out, &mut indented);
            let run: String = trimmed
                .chars()
                .take_while(|c| marker.starts_with(*c))
                .collect();
            let info = trimmed[run.len()..].trim();
            let indent = &line[..line.len() - trimmed.len()];
            if info.is_empty() {
                out.push(format!("{indent}{run}text"));
            } else {
                out.push(line.to_owned());
            }
            fence = Some(run);
            previous_blank = false;
            continue;
        }
        let is_code = line.starts_with("    ") && !trimmed.is_empty();
        if is_code && (indented || previous_blank) {
            if !indented {
                out.push("```text".to_owned());
                indented = true;
            }
            out.push(line[4..].to_owned());
            continue;
        }
        if indented && trimmed.is_empty() {
            // A blank line may sit inside an indented block; close it only
            // when prose follows.
            out.push(String::new());
            previous_blank = true;
            continue;
        }
        close_indented(&mut out, &mut indented);
        out.push(inline(line));
        previous_blank = trimmed.is_empty();
    }
    close_indented(&mut out, &mut indented);
    if fence.is_some() {
        // An unclosed fence would swallow whatever rustdoc appends.
        out.push("```".to_owned());
    }
    out.join("\n")
}

fn close_indented(out: &mut Vec<String>, indented: &mut bool) {
    if *indented {
        // Blank lines before the prose belong after the fence.
        let mut blanks = 0;
        while out.last().is_some_and(String::is_empty) {
            out.pop();
            blanks += 1;
        }
        out.push("```".to_owned());
        out.extend(std::iter::repeat_n(String::new(), blanks));
        *indented = false;
    }
}

/// Escapes one line of prose, leaving code spans, links and autolinks alone.
fn inline(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 8);
    let mut rest = line;
    while let Some(c) = rest.chars().next() {
        if c == '`' {
            let ticks = rest.len() - rest.trim_start_matches('`').len();
            let fence = &rest[..ticks];
            let after = &rest[ticks..];
            if let Some(end) = after.find(fence) {
                let span_len = ticks + end + ticks;
                out.push_str(&rest[..span_len]);
                rest = &rest[span_len..];
            } else {
                out.push_str(fence);
                rest = after;
            }
            continue;
        }
        let kept = match c {
            '[' => link_len(rest),
            '<' => autolink_len(rest),
            _ => None,
        };
        if let Some(len) = kept {
            out.push_str(&rest[..len]);
            rest = &rest[len..];
            continue;
        }
        if rest.starts_with("http://") || rest.starts_with("https://") {
            let len = url_len(rest);
            out.push('<');
            out.push_str(&rest[..len]);
            out.push('>');
            rest = &rest[len..];
            continue;
        }
        if matches!(c, '[' | ']' | '<') {
            out.push('\\');
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Length of `[text](target)` at the start of `s`, if it is one.
fn link_len(s: &str) -> Option<usize> {
    let close = s.find("](")?;
    if s[1..close].contains(['[', ']']) {
        return None;
    }
    let target_end = s[close + 2..].find(')')?;
    Some(close + 2 + target_end + 1)
}

/// Length of `<http…>` at the start of `s`, if it is one.
fn autolink_len(s: &str) -> Option<usize> {
    let inner = &s[1..];
    if !(inner.starts_with("http://") || inner.starts_with("https://")) {
        return None;
    }
    let end = inner.find(['>', ' '])?;
    (inner.as_bytes()[end] == b'>').then_some(end + 2)
}

/// Length of a bare URL at the start of `s`, without trailing punctuation.
fn url_len(s: &str) -> usize {
    let end = s
        .find(|c: char| c.is_whitespace() || c == '<')
        .unwrap_or(s.len());
    let url = s[..end].trim_end_matches(['.', ',', ';', ':', ')', '!', '?', '\'', '"']);
    url.len()
}

#[cfg(test)]
mod tests {
    use super::rustdoc;

    #[test]
    fn prose_brackets_and_angles_are_escaped_but_code_is_not() {
        assert_eq!(
            rustdoc("Markers such as `[verse]` and [chorus]; `list<T>` or list<T>."),
            "Markers such as `[verse]` and \\[chorus\\]; `list<T>` or list\\<T>."
        );
        assert_eq!(
            rustdoc("Author as `Name <email>`."),
            "Author as `Name <email>`."
        );
        assert_eq!(rustdoc("``a ` b`` [x]"), "``a ` b`` \\[x\\]");
        assert_eq!(rustdoc("unclosed ` tick [x]"), "unclosed ` tick \\[x\\]");
    }

    #[test]
    fn links_and_urls_stay_links() {
        assert_eq!(
            rustdoc("See [the spec](https://x.org/a)."),
            "See [the spec](https://x.org/a)."
        );
        assert_eq!(rustdoc("See <https://x.org>."), "See <https://x.org>.");
        assert_eq!(rustdoc("See https://x.org/a."), "See <https://x.org/a>.");
    }

    #[test]
    fn code_never_becomes_a_doctest() {
        assert_eq!(rustdoc("```\nlet x = 1;\n```"), "```text\nlet x = 1;\n```");
        assert_eq!(rustdoc("```json\n[1]\n```"), "```json\n[1]\n```");
        assert_eq!(
            rustdoc("Example:\n\n    abc [x]\n\n    def\n\nDone."),
            "Example:\n\n```text\nabc [x]\n\ndef\n```\n\nDone."
        );
        assert_eq!(rustdoc("```\nnever closed"), "```text\nnever closed\n```");
        // A continuation line of a paragraph is not code.
        assert_eq!(rustdoc("text\n    more"), "text\n    more");
    }

    #[test]
    fn odd_input_does_not_panic() {
        for text in [
            "[",
            "]",
            "<",
            "<http",
            "<https://",
            "`",
            "[a](",
            "https://",
            "    ",
            "\u{e9}[\u{e9}",
        ] {
            let _ = rustdoc(text);
        }
    }
}
