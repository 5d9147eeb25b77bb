//! Lexical errors (`TW00x`): bytes and tokens the lexer cannot use.

use super::super::Diagnostic;
use super::Code;
use crate::source::Span;

pub(crate) fn invalid_utf8(span: Span) -> Diagnostic {
    Diagnostic::error(Code::InvalidUtf8, span, "this file is not valid UTF-8")
        .label("invalid byte sequence here")
        .help("save the file as UTF-8")
}

pub(crate) fn unexpected_char(span: Span, c: char) -> Diagnostic {
    // Show the character as it looks, unless it does not look like anything.
    let shown = if c.is_control() || c.is_whitespace() || c == '\u{FEFF}' {
        format!("U+{:04X}", u32::from(c))
    } else {
        c.to_string()
    };
    let d = Diagnostic::error(
        Code::UnexpectedChar,
        span,
        format!("unexpected character `{shown}`"),
    );
    match c {
        '#' => d.help("comments start with `//`"),
        '-' => d.help("`-` is only valid as the sign of a number literal"),
        '\'' => d.help("strings use double quotes: \"...\""),
        c if !c.is_ascii() && c.is_alphabetic() => {
            d.note("IDL names are ASCII so that every target language can spell them")
        }
        _ => d,
    }
}

pub(crate) fn unterminated_string(span: Span) -> Diagnostic {
    Diagnostic::error(
        Code::UnterminatedString,
        span,
        "unterminated string literal",
    )
    .label("string starts here")
    .help("close it with `\"` on the same line")
}

pub(crate) fn invalid_escape(span: Span, seq: &str, reason: Option<&str>) -> Diagnostic {
    match reason {
        None => Diagnostic::error(
            Code::InvalidEscape,
            span,
            format!("unknown escape sequence `{seq}`"),
        )
        .help(r#"valid escapes are \\ \" \' \n \r \t \0 and \u{XXXX}"#),
        Some(reason) => Diagnostic::error(
            Code::InvalidEscape,
            span,
            format!("invalid escape sequence `{seq}`"),
        )
        .label(reason.to_owned()),
    }
}

pub(crate) fn single_quotes(span: Span) -> Diagnostic {
    Diagnostic::error(Code::UnexpectedChar, span, "strings use double quotes")
        .label("single-quoted")
        .help("write \"...\"")
}

pub(crate) fn block_comment(span: Span) -> Diagnostic {
    Diagnostic::error(Code::BlockComment, span, "block comments are not supported")
        .help("use `//` for comments and `///` for documentation")
}

pub(crate) fn invalid_number(span: Span, reason: &str) -> Diagnostic {
    Diagnostic::error(
        Code::InvalidNumber,
        span,
        format!("invalid number: {reason}"),
    )
}
