//! Python spellings of IDL names: attribute escapes, class names, enum
//! members, and Python string literals. Wire names never change: an escaped
//! attribute (`from_`) carries its wire name as a pydantic alias.

use heck::{ToShoutySnakeCase, ToUpperCamelCase};

/// Python's hard keywords (3.11). Soft keywords (`match`, `case`, `type`,
/// `_`) are ordinary identifiers where attributes live.
pub(crate) const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// Names an attribute must not take in a generated class body: a field
/// with a default binds its name there, and later annotations in the same
/// body would see the field instead of the builtin or module (`list[...]`,
/// `wire.I64`); the rest are attributes of `pydantic.BaseModel` that a
/// field would shadow.
const SHADOWING: &[&str] = &[
    // Names the generated annotations and defaults use.
    "bool",
    "bytes",
    "dict",
    "float",
    "int",
    "list",
    "str",
    "models",
    "pydantic",
    "typing",
    "wire",
    // `pydantic.BaseModel` attributes (the `model_` prefix is checked apart).
    "construct",
    "copy",
    "from_orm",
    "json",
    "parse_file",
    "parse_obj",
    "parse_raw",
    "schema",
    "schema_json",
    "update_forward_refs",
    "validate",
];

/// True for a Python hard keyword.
pub(crate) fn is_keyword(word: &str) -> bool {
    KEYWORDS.contains(&word)
}

/// The attribute of a field: the wire name, with a trailing underscore
/// when it is a keyword or would shadow something (`from` → `from_`,
/// `list` → `list_`, `model_id` → `model_id_`). The IDL forbids trailing
/// underscores, so the escape never meets another field.
pub(crate) fn attribute(name: &str) -> String {
    if is_keyword(name) || SHADOWING.contains(&name) || name.starts_with("model_") {
        format!("{name}_")
    } else {
        name.to_owned()
    }
}

/// The class of a declared type: its IDL name, unless that is a keyword
/// (`None` → `None_`).
pub(crate) fn class(name: &str) -> String {
    if is_keyword(name) {
        format!("{name}_")
    } else {
        name.to_owned()
    }
}

/// `not_found` → `NotFound`.
pub(crate) fn pascal(name: &str) -> String {
    name.to_upper_camel_case()
}

/// An enum member: the value in SCREAMING_SNAKE_CASE (`utf16le` →
/// `UTF16LE`), which no keyword or `StrEnum` attribute spells.
pub(crate) fn member(value: &str) -> String {
    let shouty = value.to_shouty_snake_case();
    if shouty.is_empty() {
        "VALUE".to_owned()
    } else {
        shouty
    }
}

/// Hands out names unique within one module: a wanted name already taken
/// gets the first free numeric suffix (`FsReadCall2`).
#[derive(Default)]
pub(crate) struct Unique {
    taken: std::collections::HashSet<String>,
}

impl Unique {
    /// Marks names as taken without handing them out.
    pub(crate) fn reserve<'a>(&mut self, names: impl IntoIterator<Item = &'a str>) {
        self.taken.extend(names.into_iter().map(str::to_owned));
    }

    /// `wanted`, or `wanted` with a suffix when it is taken.
    pub(crate) fn name(&mut self, wanted: String) -> String {
        if self.taken.insert(wanted.clone()) {
            return wanted;
        }
        let mut n = 2;
        loop {
            let candidate = format!("{wanted}{n}");
            if self.taken.insert(candidate.clone()) {
                return candidate;
            }
            n += 1;
        }
    }
}

/// A Python string literal for `text`: double quotes, escapes for `\`,
/// `"` and control characters; other characters as they are.
pub(crate) fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            // Line and paragraph separators end a line in some editors.
            '\u{2028}' | '\u{2029}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The body of a docstring: `\` and `"""` escaped so the text reads back
/// as written, a trailing `"` kept off the closing quotes, and lines after
/// the first indented by `indent` spaces (blank lines stay empty).
pub(crate) fn docstring(text: &str, indent: usize) -> String {
    let escaped = text
        .trim()
        .replace('\\', "\\\\")
        .replace("\"\"\"", "\\\"\\\"\\\"");
    let pad = " ".repeat(indent);
    let mut out = String::with_capacity(escaped.len() + 16);
    for (i, line) in escaped.lines().enumerate() {
        if i > 0 {
            out.push('\n');
            if !line.trim().is_empty() {
                out.push_str(&pad);
            }
        }
        out.push_str(line.trim_end());
    }
    if out.ends_with('"') {
        out.push(' ');
    }
    if out.contains('\n') {
        // A multi-line docstring closes on a line of its own.
        out.push('\n');
        out.push_str(&pad);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_and_shadowing_names_get_an_underscore() {
        for word in [
            "from", "class", "def", "lambda", "import", "in", "is", "async", "await", "del",
            "global", "pass", "yield",
        ] {
            assert_eq!(attribute(word), format!("{word}_"), "{word}");
        }
        for word in ["list", "str", "json", "schema", "model_id", "wire"] {
            assert_eq!(attribute(word), format!("{word}_"), "{word}");
        }
        // Soft keywords and other languages' keywords are fine in Python.
        for word in [
            "type",
            "match",
            "case",
            "self",
            "default",
            "function",
            "delete",
            "new",
            "enum",
            "interface",
            "id",
            "modelling",
        ] {
            assert_eq!(attribute(word), word, "{word}");
        }
    }

    #[test]
    fn class_names_escape_only_keywords() {
        assert_eq!(class("None"), "None_");
        assert_eq!(class("True"), "True_");
        assert_eq!(class("Region"), "Region");
        assert_eq!(class("Field"), "Field");
    }

    #[test]
    fn enum_members_are_shouty() {
        assert_eq!(member("utf16le"), "UTF16LE");
        assert_eq!(member("async_long"), "ASYNC_LONG");
        assert_eq!(member("none"), "NONE");
        assert_eq!(member("x86_64"), "X86_64");
    }

    #[test]
    fn unique_names_get_suffixes() {
        let mut unique = Unique::default();
        unique.reserve(["FsReadCall"]);
        assert_eq!(unique.name("FsReadCall".to_owned()), "FsReadCall2");
        assert_eq!(unique.name("FsReadCall".to_owned()), "FsReadCall3");
        assert_eq!(unique.name("AddCall".to_owned()), "AddCall");
    }

    #[test]
    fn strings_and_docstrings_read_back_as_written() {
        assert_eq!(string("a\"b\\c\nd"), r#""a\"b\\c\nd""#);
        assert_eq!(string("\u{1}é"), "\"\\x01é\"");
        assert_eq!(
            docstring("Say \"\"\"hi\"\"\"", 4),
            "Say \\\"\\\"\\\"hi\\\"\\\"\\\" "
        );
        assert_eq!(docstring(r"a \d b", 4), r"a \\d b");
        assert_eq!(
            docstring("One.\n\nTwo\nthree.", 4),
            "One.\n\n    Two\n    three.\n    "
        );
    }
}
