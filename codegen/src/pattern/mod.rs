//! `@pattern` expressions: one dialect with one meaning in every language.
//!
//! A pattern is written in ECMA-262 syntax with the `u` flag, which is what
//! JSON Schema's `pattern` keyword and the TypeScript validators use, and
//! restricted to what also runs on the Rust validators (`regex-lite` in the
//! runtime, the `regex` crate under pydantic): literals, `.`, classes,
//! `\d \w \s` and their negations, `^ $ \b \B`, groups, alternation and
//! greedy or lazy quantifiers. Lookaround, backreferences, named groups,
//! inline flags, Unicode property escapes and the escapes other dialects
//! add (`\A`, `\z`, POSIX classes) are refused at check time (TW308).
//!
//! The engines disagree on what `\d`, `\w`, `\s`, `.` and `\b` mean (ASCII
//! or Unicode, which line terminators), so the Rust and Python backends
//! get a translation with every class spelt out as ranges of code points:
//! it matches exactly the strings the ECMA-262 expression matches.

mod class;
mod parse;
mod sample;
mod translate;

pub(crate) use parse::{Error, parse};
pub(crate) use sample::sample;

/// The expression for the Rust runtime's `regex-lite`. Call on checked
/// patterns only; one that does not parse is returned as written.
pub(crate) fn rust(source: &str) -> String {
    parse(source).map_or_else(
        |_| source.to_owned(),
        |ast| translate::emit(&ast, translate::Engine::RegexLite),
    )
}

/// True when `s` matches the checked pattern `source`, as the Rust
/// runtime's validator decides it.
pub(crate) fn matches(source: &str, s: &str) -> bool {
    regex_lite::Regex::new(&rust(source)).is_ok_and(|re| re.is_match(s))
}

/// The expression for pydantic's default engine (the `regex` crate).
pub(crate) fn python(source: &str) -> String {
    parse(source).map_or_else(
        |_| source.to_owned(),
        |ast| translate::emit(&ast, translate::Engine::Regex),
    )
}

#[cfg(test)]
mod tests;
