//! A `@pattern`, compiled once, the first time a value is checked.

use std::sync::OnceLock;

/// A `@pattern` of the catalogue: the expression as written in the IDL
/// (ECMA-262, what JSON Schema and TypeScript use) and the same expression
/// as the generator translated it for this engine, with every shorthand
/// class spelt out so that it matches exactly what ECMA-262 matches.
#[derive(Debug)]
pub struct Pattern {
    source: &'static str,
    translated: &'static str,
    compiled: OnceLock<Option<regex_lite::Regex>>,
}

impl Pattern {
    /// A pattern; `translated` is compiled when first used.
    pub const fn new(source: &'static str, translated: &'static str) -> Self {
        Pattern {
            source,
            translated,
            compiled: OnceLock::new(),
        }
    }

    /// The expression as written in the IDL.
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// True when the expression matches somewhere in `value`. An expression
    /// that does not compile (which the generator's checks rule out)
    /// matches nothing, so nothing unchecked gets through.
    pub fn is_match(&self, value: &str) -> bool {
        self.compiled
            .get_or_init(|| regex_lite::Regex::new(self.translated).ok())
            .as_ref()
            .is_some_and(|re| re.is_match(value))
    }
}
