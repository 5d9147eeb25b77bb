//! Reading an IDL doc comment the same way in every backend. A leaf: the
//! Rust and Python backends take an error's message from it.

use crate::model::{Example, ExampleOutcome};

/// The first paragraph of the docs, its lines joined: what a variant of an
/// `error` says as its message (a sentence wrapped over two `///` lines is
/// still one sentence), and what a Python envelope says of a tool or an
/// action. `None` when the docs are missing or blank.
pub(crate) fn first_paragraph(docs: Option<&str>) -> Option<String> {
    let lines: Vec<&str> = docs?
        .lines()
        .map(str::trim)
        .skip_while(|l| l.is_empty())
        .take_while(|l| !l.is_empty())
        .collect();
    (!lines.is_empty()).then(|| lines.join(" "))
}

/// `docs` followed by the declared examples, one line each (`title:
/// request → response`), as the TypeScript and Python bindings document a
/// tool or action; `docs` as it is when there are none.
pub(crate) fn with_examples(docs: Option<&str>, examples: &[Example]) -> Option<String> {
    if examples.is_empty() {
        return docs.map(str::to_owned);
    }
    let json = |v: &serde_json::Value| serde_json::to_string(v).unwrap_or_default();
    let mut out = docs.map_or_else(String::new, |d| format!("{}\n\n", d.trim_end()));
    out.push_str("Examples:\n");
    for e in examples {
        let outcome = match &e.outcome {
            ExampleOutcome::Succeeds => "succeeds".to_owned(),
            ExampleOutcome::Response { value } => format!("`{}`", json(value)),
            ExampleOutcome::Error { code, .. } => format!("fails with `{code}`"),
        };
        out.push_str(&format!(
            "\n- {}: `{}` → {outcome}",
            e.title,
            json(&e.request)
        ));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::first_paragraph;

    #[test]
    fn the_first_paragraph_is_its_lines_joined() {
        assert_eq!(
            first_paragraph(Some("The file was\n  not found.\n\nTry another.")).as_deref(),
            Some("The file was not found.")
        );
        assert_eq!(
            first_paragraph(Some("\n\n  Leading blank lines.\n")).as_deref(),
            Some("Leading blank lines.")
        );
        assert_eq!(first_paragraph(Some("One.")).as_deref(), Some("One."));
    }

    #[test]
    fn missing_or_blank_docs_have_no_first_paragraph() {
        assert_eq!(first_paragraph(None), None);
        assert_eq!(first_paragraph(Some("")), None);
        assert_eq!(first_paragraph(Some(" \n \n")), None);
    }
}
