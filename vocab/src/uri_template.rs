//! URI templates ([RFC 6570]) as a `resource`'s `uri` uses them: the IDL's
//! checker parses and validates them, the runtime expands them and reads
//! URIs back into their variables, and both use this one implementation so
//! that they cannot disagree.
//!
//! [RFC 6570]: https://www.rfc-editor.org/rfc/rfc6570
//!
//! # What a template may contain
//!
//! A template is a URI with expressions in braces: `cas://objects/{hash}`.
//! One without expressions is a fixed URI, and everything below applies to
//! it too (it expands to itself and matches only itself).
//!
//! - It starts with a scheme: a letter, then letters, digits, `+`, `-` or
//!   `.`, then `:` (RFC 3986), before any expression.
//! - Between expressions, the text is made of URI characters: RFC 3986's
//!   unreserved (`A`–`Z`, `a`–`z`, `0`–`9`, `-._~`) and reserved
//!   (`:/?#[]@!$&()*+,;=`) characters and percent-escapes (`%2F`), except
//!   `'`, which RFC 6570 leaves out of a template's literals. Anything else
//!   (a space, `<`, `"`, a non-ASCII letter) is written percent-encoded. A
//!   URI has at most one `#`: it begins the fragment (a `{#…}` expression
//!   counts as one).
//! - Expressions are RFC 6570's levels 1 to 3 without modifiers: an
//!   operator, one of `+ # . / ; ? &` or none, then one or more
//!   comma-separated variables: `{hash}`, `{+path}`, `{#section}`,
//!   `{.ext}`, `{/bucket,key}`, `{;rev}`, `{?page,size}`, `{&cursor}`.
//!   A prefix (`{hash:8}`) or explode (`{list*}`) modifier is refused, as
//!   are the operators RFC 6570 reserves (`= , ! @ |`).
//! - Variable names are snake_case (`[a-z][a-z0-9]*(_[a-z0-9]+)*`), the
//!   IDL's spelling of a field; each appears once in a template.
//! - An expression may directly follow another only when the URI still
//!   shows where the first one's value ends (see [Adjacent
//!   expressions](#adjacent-expressions)).
//!
//! # Expansion
//!
//! [`UriTemplate::expand`] follows RFC 6570 §3.2 for the operators above.
//! A value is a string. Characters outside the unreserved set are
//! percent-encoded (UTF-8, upper-case hex), except that `{+…}` and `{#…}`
//! also keep reserved characters and percent-escapes already in the value
//! (`{+half}` with `50%` gives `50%25`, with `50%25` gives `50%25` too). An
//! undefined variable (`None`) is left out with its separator, and an
//! expression whose variables are all undefined expands to nothing.
//!
//! # Matching
//!
//! [`UriTemplate::matches`] reads a URI back into the variables, the inverse
//! of expansion:
//!
//! - The text between expressions matches itself exactly, byte for byte
//!   (no case folding of the scheme or of escapes' hex digits: a client
//!   sends back the URIs it was given, or expands the template itself).
//! - A variable of `{…}`, `{.…}`, `{/…}`, `{;…}`, `{?…}` and `{&…}` matches
//!   unreserved characters and percent-escapes. A variable of `{+…}` also
//!   matches reserved characters other than `?` and `#`, so it may span `/`
//!   but stops at the query and the fragment; one of `{#…}` matches every
//!   reserved character but `#` (a fragment may hold `?` and `/`, never
//!   another `#`). Each value is percent-decoded; one that does not decode
//!   to UTF-8 means the URI does not match.
//! - Outside `{?…}` and `{&…}`, every variable must be present and is one or
//!   more characters long, except in `{;…}`, where `;name` is the empty
//!   value and `;name=value` any other. Several variables in one
//!   expression are joined as expansion joins them: `{x,y}` by `,` (which
//!   values of `{…}` cannot contain, as it is reserved and so encoded),
//!   `{.x,y}` by `.`, `{/x,y}` by `/`, `{;x,y}` by `;`.
//! - `{?a,b}` and `{&a,b}` match a query of `name=value` pairs joined by
//!   `&`, beginning with `?` (resp. `&`), in which every variable is
//!   optional and may be empty (`a=`), and those present come in the
//!   template's order; an unknown, repeated or misplaced key means no match.
//!   A missing variable is absent from the result. So `{?a,b}` matches
//!   the empty string, `?a=1`, `?b=2` and `?a=1&b=2`, but not `?b=2&a=1`.
//!   Expansion leaves out any undefined variable, as RFC 6570 says, but
//!   only missing query variables read back: a URI that lacks any other
//!   does not match.
//! - When a URI can be read in more than one way, because a value may hold
//!   the text that follows it (`{name}.{ext}` against `a.b.c`, `{+path}/x`
//!   against `a/x/x`), an earlier variable takes as much as it can and
//!   leaves the rest to the next: `name` is `a.b` and `ext` is `c`. A
//!   value whose expansion holds such text therefore reads back different
//!   (yet expands to the same URI). The UTF-8 check applies to this
//!   reading.
//! - A `{+…}` value holding `?` or `#`, or a `{#…}` value holding `#`,
//!   expands as RFC 6570 says but does not read back: those characters
//!   begin the query or fragment. A `{+…}` or `{#…}` value holding a
//!   percent-escape expands unchanged and so reads back decoded.
//!
//! Matching runs the template as an automaton over the URI's bytes,
//! following every reading at once (a Pike VM): its time is at most the
//! URI's length times the template's size, with no backtracking, and its
//! memory, besides the values it returns, depends on the template only: a
//! hostile URI of any length costs no more than reading it.
//!
//! # Adjacent expressions
//!
//! An expression may directly follow another (no literal between them)
//! only when its expansion begins with a character the other's values
//! cannot hold, so that the boundary is never in doubt. `{…}` and `{+…}`
//! begin with a value, and `{.…}` with `.`, which values hold: none of
//! them may follow another expression. Where the others may:
//!
//! | after | may come directly |
//! |---|---|
//! | `{…}`, `{.…}`, `{/…}`, `{;…}`, `{?…}`, `{&…}` | `{/…}`, `{;…}`, `{?…}`, `{&…}`, `{#…}` |
//! | `{+…}` | `{?…}`, `{#…}` |
//! | `{#…}` | none (a second `{#…}` would be a second `#`) |
//!
//! As `{?…}` and `{&…}` may expand to nothing, the expression after one
//! must also be allowed after whatever comes directly before it:
//! `{+path}{?q}{&r}` is refused, as `{+path}{&r}` would be.
//! `{/bucket}{/key}` is the same as `{/bucket,key}`.
//!
//! # Overlap
//!
//! [`UriTemplate::overlap`] is exact, queries included: it finds a URI
//! both templates match whenever there is one (for two templates, the
//! shortest such URI), and the URI it returns is one both match (but for
//! the approximation below). Both
//! templates are automata over characters (their query expressions too,
//! which are regular: optional pairs in a fixed order); the search walks
//! their product breadth-first and returns the characters of the first
//! accepting pair it reaches, preferring lower-case letters, then digits,
//! when several would do.
//!
//! The one approximation, on the side of reporting an overlap: between two
//! templates, a percent-escape counts as three characters, whether or not
//! the value it falls in decodes to UTF-8. It can only matter when a
//! literal of one template holds an escape of a byte that is not UTF-8 on
//! its own, such as `%FF`, where the other has a variable. A fixed URI
//! against anything is checked with [`UriTemplate::matches`] itself, so it
//! is exact without exception.
//!
//! # Bounds
//!
//! Nothing here recurses on its input. Parsing is linear in the template;
//! the automaton has a few states per character of the template; matching
//! is as above; overlap takes time and memory at most the product of the
//! two automata's sizes, and in practice about their sum, as literals keep
//! the two in step.

use std::collections::HashMap;
use std::collections::HashSet;
use std::collections::hash_map::Entry;
use std::fmt;
use std::ops::Range;

/// A parsed, validated URI template (or fixed URI); see the [module
/// docs](self) for what it may contain and how it matches.
///
/// Two templates are equal when their texts are.
#[derive(Clone)]
pub struct UriTemplate {
    text: String,
    parts: Vec<Part>,
    /// Byte range in `text` of each part.
    spans: Vec<Range<usize>>,
    nfa: Nfa,
}

/// A piece of a template: literal text or an expression.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// Text copied as it is (URI characters, escapes left as written).
    Literal(String),
    /// An expression in braces: `{?page,size}`.
    Expression {
        /// The operator after `{`.
        operator: Operator,
        /// The variables, in the order written.
        variables: Vec<String>,
    },
}

/// An expression's operator (RFC 6570 §2.2), which says how its variables
/// expand and match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operator {
    /// `{var}`: the value, unreserved characters kept, the rest encoded.
    Simple,
    /// `{+var}`: the value with reserved characters kept as well.
    Reserved,
    /// `{#var}`: `#` then the value, reserved characters kept.
    Fragment,
    /// `{.var}`: `.` then the value.
    Label,
    /// `{/var}`: `/` then the value.
    Path,
    /// `{;var}`: `;var=value`, or `;var` when the value is empty.
    PathParam,
    /// `{?var}`: `?var=value`, pairs joined by `&`; variables optional.
    Query,
    /// `{&var}`: `&var=value`, continuing a query; variables optional.
    QueryContinuation,
}

/// Why a text is not a template the IDL accepts. `offset` and `len` are
/// byte offsets into the text, to put a caret under the culprit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateError {
    /// Where the culprit begins, in bytes from the start of the text.
    pub offset: usize,
    /// The culprit's length in bytes (0 only for an empty text).
    pub len: usize,
    /// What is wrong.
    pub kind: TemplateErrorKind,
}

/// What is wrong with a template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TemplateErrorKind {
    /// It does not start with `scheme:` (RFC 3986: a letter, then letters,
    /// digits, `+`, `-` or `.`, then `:`). The span is the text before the
    /// first `:`, `/`, `?`, `#` or brace.
    NoScheme,
    /// A character that may not appear in a URI template: one outside
    /// RFC 3986's unreserved and reserved sets (a space, `<`, `"`, a
    /// non-ASCII letter…), `'` (which RFC 6570 leaves out), a `%` that does
    /// not begin an escape of two hex digits, or a second `#` (a second
    /// `{#…}` included, the span then being its operator).
    InvalidCharacter(char),
    /// A `{` without a `}` (before the end or the next `{`).
    Unclosed,
    /// A `}` without a `{`.
    Unopened,
    /// An empty text (span of length 0), or an expression naming no
    /// variable: `{}`, `{+}`, `{a,}`, `{*}`.
    Empty,
    /// A variable name that is not snake_case:
    /// `[a-z][a-z0-9]*(_[a-z0-9]+)*`.
    InvalidVariableName(String),
    /// A modifier, `:` for a prefix (`{hash:8}`) or `*` for explode
    /// (`{list*}`): not supported.
    Modifier(char),
    /// An operator RFC 6570 §2.2 reserves for future extensions: `=`, `,`,
    /// `!`, `@` or `|`.
    ReservedOperator(char),
    /// A variable used twice in one template (the span is the second use).
    RepeatedVariable(String),
    /// An expression directly after another whose values could run into
    /// it, so that a URI could not be read back (the span covers both).
    /// Self-delimiting, and so allowed directly after another, are the
    /// expressions that begin with a character the previous one's values
    /// cannot hold: `{/…}`, `{;…}`, `{?…}`, `{&…}` and `{#…}` after `{…}`,
    /// `{.…}`, `{/…}`, `{;…}`, `{?…}` or `{&…}`; `{?…}` and `{#…}` after
    /// `{+…}`; nothing after `{#…}`. `{…}`, `{+…}` and `{.…}` never are.
    /// As `{?…}` and `{&…}` may expand to nothing, what follows one must
    /// also be allowed after the expression before it.
    AdjacentExpressions,
}

impl TemplateError {
    /// The culprit's byte range in the text.
    pub fn span(&self) -> Range<usize> {
        self.offset..self.offset + self.len
    }
}

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            TemplateErrorKind::NoScheme => f.write_str(
                "a URI must start with a scheme such as `cas:` \
                 (a letter, then letters, digits, `+`, `-` or `.`, then `:`)",
            ),
            TemplateErrorKind::InvalidCharacter('%') => f.write_str(
                "`%` must begin a percent-escape of two hexadecimal digits, \
                 such as `%2F` (`%25` for `%` itself)",
            ),
            TemplateErrorKind::InvalidCharacter('#') => f.write_str(
                "a URI has one `#` at most: it begins the fragment, which cannot hold another",
            ),
            TemplateErrorKind::InvalidCharacter('\'') => f.write_str(
                "`'` may not appear in a URI template (RFC 6570 leaves it out): write `%27`",
            ),
            TemplateErrorKind::InvalidCharacter(c) => {
                let shown = if *c == ' ' {
                    "a space".to_owned()
                } else if c.is_control() {
                    format!("the control character U+{:04X}", u32::from(*c))
                } else {
                    format!("`{c}`")
                };
                let mut utf8 = [0; 4];
                let escaped: String = c
                    .encode_utf8(&mut utf8)
                    .bytes()
                    .map(|b| format!("%{b:02X}"))
                    .collect();
                write!(f, "{shown} may not appear in a URI: write `{escaped}`")
            }
            TemplateErrorKind::Unclosed => {
                f.write_str("`{` opens an expression that no `}` closes")
            }
            TemplateErrorKind::Unopened => {
                f.write_str("`}` closes no expression (a literal `}` is written `%7D`)")
            }
            TemplateErrorKind::Empty if self.len == 0 => f.write_str("the URI is empty"),
            TemplateErrorKind::Empty => {
                f.write_str("a variable name is missing in this expression")
            }
            TemplateErrorKind::InvalidVariableName(name) => write!(
                f,
                "`{name}` is not a snake_case variable name (lower-case letters and digits, \
                 starting with a letter, words joined by single underscores)"
            ),
            TemplateErrorKind::Modifier(':') => f.write_str(
                "this expression uses a prefix modifier (`:n`), \
                 which Toolwright templates do not support",
            ),
            TemplateErrorKind::Modifier('*') => f.write_str(
                "this expression uses an explode modifier (`*`), \
                 which Toolwright templates do not support",
            ),
            TemplateErrorKind::Modifier(c) => write!(
                f,
                "this expression uses the modifier `{c}`, which Toolwright templates do not support"
            ),
            TemplateErrorKind::ReservedOperator(c) => write!(
                f,
                "`{c}` is an operator RFC 6570 reserves for future extensions, \
                 which Toolwright templates do not support"
            ),
            TemplateErrorKind::RepeatedVariable(name) => {
                write!(
                    f,
                    "the variable `{name}` appears more than once in the template"
                )
            }
            TemplateErrorKind::AdjacentExpressions => f.write_str(
                "nothing shows where the first expression's value ends and the next begins: \
                 put a literal such as `/` between them",
            ),
        }
    }
}

impl std::error::Error for TemplateError {}

impl Operator {
    /// Every operator, in the order of RFC 6570's table.
    pub const ALL: [Operator; 8] = [
        Operator::Simple,
        Operator::Reserved,
        Operator::Fragment,
        Operator::Label,
        Operator::Path,
        Operator::PathParam,
        Operator::Query,
        Operator::QueryContinuation,
    ];

    /// The operator as written after `{`: `""`, `"+"`, `"#"`, `"."`, `"/"`,
    /// `";"`, `"?"` or `"&"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Operator::Simple => "",
            Operator::Reserved => "+",
            Operator::Fragment => "#",
            Operator::Label => ".",
            Operator::Path => "/",
            Operator::PathParam => ";",
            Operator::Query => "?",
            Operator::QueryContinuation => "&",
        }
    }

    /// Whether its variables are optional when matching (`{?…}`, `{&…}`).
    pub const fn is_query(self) -> bool {
        matches!(self, Operator::Query | Operator::QueryContinuation)
    }

    fn from_byte(b: u8) -> Option<Operator> {
        Operator::ALL
            .into_iter()
            .find(|op| op.as_str().as_bytes() == [b])
    }

    /// What the expansion begins with when a variable is defined
    /// (RFC 6570 appendix A, "first").
    const fn first(self) -> &'static str {
        match self {
            Operator::Simple | Operator::Reserved => "",
            _ => self.as_str(),
        }
    }

    /// What joins two defined variables ("sep").
    const fn separator(self) -> u8 {
        match self {
            Operator::Simple | Operator::Reserved | Operator::Fragment => b',',
            Operator::Label => b'.',
            Operator::Path => b'/',
            Operator::PathParam => b';',
            Operator::Query | Operator::QueryContinuation => b'&',
        }
    }

    /// Whether each value comes as `name=value` ("named").
    const fn named(self) -> bool {
        matches!(
            self,
            Operator::PathParam | Operator::Query | Operator::QueryContinuation
        )
    }

    /// Whether expansion keeps reserved characters and escapes ("allow").
    const fn allows_reserved(self) -> bool {
        matches!(self, Operator::Reserved | Operator::Fragment)
    }

    /// The character a non-empty expansion begins with, when it does not
    /// begin with a value.
    const fn lead(self) -> Option<u8> {
        match self {
            Operator::Simple | Operator::Reserved => None,
            Operator::Fragment => Some(b'#'),
            Operator::Label => Some(b'.'),
            Operator::Path => Some(b'/'),
            Operator::PathParam => Some(b';'),
            Operator::Query => Some(b'?'),
            Operator::QueryContinuation => Some(b'&'),
        }
    }

    /// The characters a value matches, besides percent-escapes.
    const fn value_class(self) -> u128 {
        match self {
            Operator::Reserved => (UNRESERVED | RESERVED) & !bit(b'?') & !bit(b'#'),
            Operator::Fragment => (UNRESERVED | RESERVED) & !bit(b'#'),
            _ => UNRESERVED,
        }
    }

    /// Whether an expression with operator `next` may directly follow one
    /// with this operator: `next` begins with a character this one's values
    /// cannot hold.
    const fn may_precede(self, next: Operator) -> bool {
        match next.lead() {
            Some(c) => !in_class(self.value_class(), c),
            None => false,
        }
    }
}

// ASCII character classes as bit sets.

const fn bit(c: u8) -> u128 {
    1 << c
}

const fn set(chars: &[u8]) -> u128 {
    let mut mask = 0;
    let mut i = 0;
    while i < chars.len() {
        mask |= bit(chars[i]);
        i += 1;
    }
    mask
}

const fn range(from: u8, to: u8) -> u128 {
    let mut mask = 0;
    let mut c = from;
    while c <= to {
        mask |= bit(c);
        c += 1;
    }
    mask
}

const fn in_class(mask: u128, b: u8) -> bool {
    b < 128 && mask & bit(b) != 0
}

const ALPHA: u128 = range(b'a', b'z') | range(b'A', b'Z');
const DIGIT: u128 = range(b'0', b'9');
const HEXDIG: u128 = DIGIT | range(b'a', b'f') | range(b'A', b'F');
const UNRESERVED: u128 = ALPHA | DIGIT | set(b"-._~");
const RESERVED: u128 = set(b":/?#[]@") | set(b"!$&'()*+,;=");
/// Characters a literal may hold as they are (`%` begins an escape).
const LITERAL: u128 = (UNRESERVED | RESERVED) & !bit(b'\'');
const SCHEME: u128 = ALPHA | DIGIT | set(b"+-.");

fn is_hex(b: Option<&u8>) -> bool {
    b.is_some_and(|&b| in_class(HEXDIG, b))
}

fn is_snake_case(name: &str) -> bool {
    let bytes = name.as_bytes();
    let Some((&first, rest)) = bytes.split_first() else {
        return false;
    };
    if !first.is_ascii_lowercase() {
        return false;
    }
    let mut after_underscore = false;
    for &b in rest {
        match b {
            b'a'..=b'z' | b'0'..=b'9' => after_underscore = false,
            b'_' if !after_underscore => after_underscore = true,
            _ => return false,
        }
    }
    !after_underscore
}

fn error(offset: usize, len: usize, kind: TemplateErrorKind) -> TemplateError {
    TemplateError { offset, len, kind }
}

impl UriTemplate {
    /// Parses and validates `text`; see the [module docs](self) for what is
    /// accepted. The first problem, from the left, is the error.
    pub fn parse(text: &str) -> Result<Self, TemplateError> {
        let (parts, spans) = Parser::new(text).parse()?;
        let nfa = Nfa::build(&parts);
        Ok(UriTemplate {
            text: text.to_owned(),
            parts,
            spans,
            nfa,
        })
    }

    /// The text it was parsed from.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Its literals and expressions, in order.
    pub fn parts(&self) -> &[Part] {
        &self.parts
    }

    /// Whether it has at least one expression (else it is a fixed URI).
    pub fn is_template(&self) -> bool {
        self.parts
            .iter()
            .any(|part| matches!(part, Part::Expression { .. }))
    }

    /// Its variables and their expressions' operators, in order of
    /// appearance.
    pub fn variables(&self) -> impl Iterator<Item = (&str, Operator)> {
        self.parts.iter().flat_map(|part| {
            let (operator, variables) = match part {
                Part::Expression {
                    operator,
                    variables,
                } => (*operator, variables.as_slice()),
                Part::Literal(_) => (Operator::Simple, &[][..]),
            };
            variables.iter().map(move |v| (v.as_str(), operator))
        })
    }

    /// Byte range in the source text of the expression naming `variable`,
    /// braces included; `None` when no expression names it.
    pub fn variable_span(&self, variable: &str) -> Option<Range<usize>> {
        self.parts
            .iter()
            .zip(&self.spans)
            .find_map(|(part, span)| match part {
                Part::Expression { variables, .. } if variables.iter().any(|v| v == variable) => {
                    Some(span.clone())
                }
                _ => None,
            })
    }

    /// Expands with the values given (None = undefined: omitted, as RFC 6570
    /// §3.2.1 says); see [Expansion](self#expansion).
    pub fn expand(&self, value: impl Fn(&str) -> Option<String>) -> String {
        let mut out = String::with_capacity(self.text.len());
        for part in &self.parts {
            let (operator, variables) = match part {
                Part::Literal(text) => {
                    out.push_str(text);
                    continue;
                }
                Part::Expression {
                    operator,
                    variables,
                } => (*operator, variables),
            };
            let mut first = true;
            for name in variables {
                let Some(value) = value(name) else {
                    continue;
                };
                if first {
                    out.push_str(operator.first());
                    first = false;
                } else {
                    out.push(char::from(operator.separator()));
                }
                if operator.named() {
                    out.push_str(name);
                    if value.is_empty() {
                        if operator.is_query() {
                            out.push('=');
                        }
                        continue;
                    }
                    out.push('=');
                }
                encode(&mut out, &value, operator.allows_reserved());
            }
        }
        out
    }

    /// The variables' decoded values if `uri` matches, in variable order;
    /// `None` when it does not match. Undefined query variables are absent.
    /// See [Matching](self#matching).
    pub fn matches(&self, uri: &str) -> Option<Vec<(String, String)>> {
        if !self.is_template() {
            return (uri == self.text).then(Vec::new);
        }
        let captures = self.nfa.run(uri.as_bytes())?;
        let mut values = Vec::new();
        for (i, (name, _)) in self.variables().enumerate() {
            let (start, end) = (captures[2 * i], captures[2 * i + 1]);
            if start == UNSET || end == UNSET {
                continue;
            }
            values.push((name.to_owned(), decode(&uri.as_bytes()[start..end])?));
        }
        Some(values)
    }

    /// A URI both match, if there is one (for a fixed URI vs a template,
    /// or two templates): the checker reports it in its diagnostic. Exact;
    /// see [Overlap](self#overlap).
    pub fn overlap(&self, other: &UriTemplate) -> Option<String> {
        match (self.is_template(), other.is_template()) {
            (false, _) => other.matches(&self.text).map(|_| self.text.clone()),
            (true, false) => self.matches(&other.text).map(|_| other.text.clone()),
            (true, true) => self.nfa.intersection(&other.nfa),
        }
    }
}

impl fmt::Display for UriTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl fmt::Debug for UriTemplate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("UriTemplate")
            .field("text", &self.text)
            .field("parts", &self.parts)
            .finish()
    }
}

impl PartialEq for UriTemplate {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for UriTemplate {}

impl std::hash::Hash for UriTemplate {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.text.hash(state);
    }
}

impl std::str::FromStr for UriTemplate {
    type Err = TemplateError;

    fn from_str(text: &str) -> Result<Self, TemplateError> {
        UriTemplate::parse(text)
    }
}

/// Appends `value` percent-encoded: unreserved characters as they are, and
/// with `reserved` reserved characters and existing escapes too.
fn encode(out: &mut String, value: &str, reserved: bool) {
    let bytes = value.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if in_class(UNRESERVED, b) || (reserved && in_class(RESERVED, b)) {
            out.push(char::from(b));
        } else if reserved && b == b'%' && is_hex(bytes.get(i + 1)) && is_hex(bytes.get(i + 2)) {
            out.push_str(&value[i..i + 3]);
            i += 2;
        } else {
            const HEX: &[u8; 16] = b"0123456789ABCDEF";
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0xF)]));
        }
        i += 1;
    }
}

/// Decodes percent-escapes; `None` unless the result is UTF-8. `text` holds
/// `%` only as the start of an escape (the automaton saw to it).
fn decode(text: &[u8]) -> Option<String> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let escaped = (text[i] == b'%')
            .then(|| text.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok());
        match escaped {
            Some(b) => {
                out.push(b);
                i += 3;
            }
            None => {
                out.push(text[i]);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    parts: Vec<Part>,
    spans: Vec<Range<usize>>,
    names: HashSet<&'a str>,
    /// Whether a `#` (literal or `{#…}`) has been seen.
    fragment: bool,
    /// When the last part is a `{?…}` or `{&…}` expression: the index of
    /// the expression directly before the run of such expressions it ends,
    /// if one is.
    before_queries: Option<usize>,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Parser {
            text,
            bytes: text.as_bytes(),
            parts: Vec::new(),
            spans: Vec::new(),
            names: HashSet::new(),
            fragment: false,
            before_queries: None,
        }
    }

    fn parse(mut self) -> Result<(Vec<Part>, Vec<Range<usize>>), TemplateError> {
        if self.text.is_empty() {
            return Err(error(0, 0, TemplateErrorKind::Empty));
        }
        self.scheme()?;
        let bytes = self.bytes;
        let mut literal = 0;
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'{' => {
                    self.literal(literal..i);
                    let close = (i + 1..bytes.len())
                        .find(|&j| matches!(bytes[j], b'{' | b'}'))
                        .filter(|&j| bytes[j] == b'}')
                        .ok_or_else(|| {
                            let end = (i + 1..bytes.len())
                                .find(|&j| bytes[j] == b'{')
                                .unwrap_or(bytes.len());
                            error(i, end - i, TemplateErrorKind::Unclosed)
                        })?;
                    self.expression(i, close)?;
                    i = close + 1;
                    literal = i;
                }
                b'}' => return Err(error(i, 1, TemplateErrorKind::Unopened)),
                b'%' => {
                    if !(is_hex(bytes.get(i + 1)) && is_hex(bytes.get(i + 2))) {
                        let len = 1 + bytes[i + 1..]
                            .iter()
                            .take(2)
                            .take_while(|&&b| in_class(LITERAL & !bit(b'#'), b))
                            .count();
                        return Err(error(i, len, TemplateErrorKind::InvalidCharacter('%')));
                    }
                    i += 3;
                }
                b'#' => {
                    if self.fragment {
                        return Err(error(i, 1, TemplateErrorKind::InvalidCharacter('#')));
                    }
                    self.fragment = true;
                    i += 1;
                }
                b if in_class(LITERAL, b) => i += 1,
                _ => {
                    // `i` is on a character boundary: everything before it
                    // was ASCII.
                    let c = self.text[i..].chars().next().unwrap_or('\u{FFFD}');
                    return Err(error(
                        i,
                        c.len_utf8(),
                        TemplateErrorKind::InvalidCharacter(c),
                    ));
                }
            }
        }
        self.literal(literal..bytes.len());
        Ok((self.parts, self.spans))
    }

    fn scheme(&self) -> Result<(), TemplateError> {
        let bytes = self.bytes;
        if bytes[0].is_ascii_alphabetic() {
            let end = bytes
                .iter()
                .position(|&b| !in_class(SCHEME, b))
                .unwrap_or(bytes.len());
            if bytes.get(end) == Some(&b':') {
                return Ok(());
            }
        }
        let end = bytes
            .iter()
            .position(|b| b":/?#{}".contains(b))
            .unwrap_or(bytes.len());
        let len = if end == 0 {
            self.text.chars().next().map_or(0, char::len_utf8)
        } else {
            end
        };
        Err(error(0, len, TemplateErrorKind::NoScheme))
    }

    /// The operator of the expression at `index` in the parts.
    fn operator(&self, index: usize) -> Operator {
        match self.parts[index] {
            Part::Expression { operator, .. } => operator,
            Part::Literal(_) => Operator::Simple,
        }
    }

    fn literal(&mut self, span: Range<usize>) {
        if !span.is_empty() {
            self.parts
                .push(Part::Literal(self.text[span.clone()].to_owned()));
            self.spans.push(span);
        }
    }

    /// The expression between the braces at `open` and `close`.
    fn expression(&mut self, open: usize, close: usize) -> Result<(), TemplateError> {
        let text = self.text;
        let bytes = self.bytes;
        let whole = || error(open, close + 1 - open, TemplateErrorKind::Empty);
        let mut start = open + 1;
        if start == close {
            return Err(whole());
        }
        let operator = match bytes[start] {
            c @ (b'=' | b',' | b'!' | b'@' | b'|') => {
                return Err(error(
                    start,
                    1,
                    TemplateErrorKind::ReservedOperator(char::from(c)),
                ));
            }
            c => Operator::from_byte(c).unwrap_or(Operator::Simple),
        };
        if operator != Operator::Simple {
            if operator == Operator::Fragment {
                if self.fragment {
                    return Err(error(start, 1, TemplateErrorKind::InvalidCharacter('#')));
                }
                self.fragment = true;
            }
            start += 1;
            if start == close {
                return Err(whole());
            }
        }
        let first = start;
        let mut variables = Vec::new();
        loop {
            let end = (start..close).find(|&j| bytes[j] == b',').unwrap_or(close);
            if start == end {
                // An empty name: blame the comma before it, or else the one
                // after it.
                let comma = if start > first { start - 1 } else { end };
                return Err(error(comma, 1, TemplateErrorKind::Empty));
            }
            let name_end = (start..end)
                .find(|&j| matches!(bytes[j], b':' | b'*'))
                .unwrap_or(end);
            let name = &text[start..name_end];
            if name.is_empty() {
                return Err(error(start, end - start, TemplateErrorKind::Empty));
            }
            if !is_snake_case(name) {
                return Err(error(
                    start,
                    name.len(),
                    TemplateErrorKind::InvalidVariableName(name.to_owned()),
                ));
            }
            match bytes[name_end..end].first() {
                Some(b':') => {
                    return Err(error(
                        name_end,
                        end - name_end,
                        TemplateErrorKind::Modifier(':'),
                    ));
                }
                Some(_) => return Err(error(name_end, 1, TemplateErrorKind::Modifier('*'))),
                None => {}
            }
            if !self.names.insert(name) {
                return Err(error(
                    start,
                    name.len(),
                    TemplateErrorKind::RepeatedVariable(name.to_owned()),
                ));
            }
            variables.push(name.to_owned());
            if end == close {
                break;
            }
            start = end + 1;
        }
        // The expression directly before this one, if any, and, when that is
        // a query expression (which may expand to nothing), the one before
        // their run too: the others in the run have the same values.
        let last = self.parts.len().checked_sub(1);
        let previous = last.filter(|&k| matches!(self.parts[k], Part::Expression { .. }));
        let before = previous.filter(|&k| self.operator(k).is_query());
        for k in [previous, before.and(self.before_queries)]
            .into_iter()
            .flatten()
        {
            if !self.operator(k).may_precede(operator) {
                let from = self.spans[k].start;
                return Err(error(
                    from,
                    close + 1 - from,
                    TemplateErrorKind::AdjacentExpressions,
                ));
            }
        }
        self.before_queries = match before {
            Some(_) => self.before_queries,
            None => previous,
        };
        self.parts.push(Part::Expression {
            operator,
            variables,
        });
        self.spans.push(open..close + 1);
        Ok(())
    }
}

/// A capture slot not set.
const UNSET: usize = usize::MAX;

/// An instruction of the automaton. Byte transitions test a class of ASCII
/// bytes; the rest move without reading.
#[derive(Clone, Copy, Debug)]
enum Inst {
    /// Reads one byte in the class, then goes on.
    Byte(u128, usize),
    /// Tries the first branch, then the second (a lower priority).
    Split(usize, usize),
    /// Goes on elsewhere.
    Jump(usize),
    /// Records the position in a capture slot, then goes on.
    Save(usize, usize),
    /// Accepts, at the end of the input.
    Match,
}

impl Inst {
    /// Where it goes without reading, if it does.
    fn epsilon(self) -> [Option<usize>; 2] {
        match self {
            Inst::Split(a, b) => [Some(a), Some(b)],
            Inst::Jump(to) | Inst::Save(_, to) => [Some(to), None],
            Inst::Byte(..) | Inst::Match => [None, None],
        }
    }
}

/// A template as an automaton over a URI's bytes, with a capture slot pair
/// per variable.
#[derive(Clone, Debug)]
struct Nfa {
    insts: Vec<Inst>,
    slots: usize,
}

/// A branch target not known yet.
const HOLE: usize = usize::MAX;

impl Nfa {
    fn build(parts: &[Part]) -> Nfa {
        let mut b = Builder { insts: Vec::new() };
        let mut slot = 0;
        for part in parts {
            let (operator, variables) = match part {
                Part::Literal(text) => {
                    b.literal(text.as_bytes());
                    continue;
                }
                Part::Expression {
                    operator,
                    variables,
                } => (*operator, variables),
            };
            let class = operator.value_class();
            match operator {
                Operator::Simple | Operator::Reserved | Operator::Fragment => {
                    b.literal(operator.first().as_bytes());
                    for (i, _) in variables.iter().enumerate() {
                        if i > 0 {
                            b.literal(b",");
                        }
                        b.value(slot, class, true);
                        slot += 1;
                    }
                }
                Operator::Label | Operator::Path => {
                    for _ in variables {
                        b.literal(&[operator.separator()]);
                        b.value(slot, class, true);
                        slot += 1;
                    }
                }
                Operator::PathParam => {
                    for name in variables {
                        b.literal(b";");
                        b.literal(name.as_bytes());
                        let split = b.hole();
                        let with_value = b.pc();
                        b.literal(b"=");
                        b.value(slot, class, true);
                        let jump = b.hole();
                        let empty = b.pc();
                        b.push(Inst::Save(2 * slot, empty + 1));
                        b.push(Inst::Save(2 * slot + 1, empty + 2));
                        b.insts[split] = Inst::Split(with_value, empty);
                        b.insts[jump] = Inst::Jump(b.pc());
                        slot += 1;
                    }
                }
                Operator::Query | Operator::QueryContinuation => {
                    b.query(operator, variables, slot);
                    slot += variables.len();
                }
            }
        }
        b.push(Inst::Match);
        Nfa {
            insts: b.insts,
            slots: 2 * slot,
        }
    }

    /// The capture slots of the preferred reading of the whole `input`:
    /// a Pike VM, threads in priority order, at most one per instruction.
    fn run(&self, input: &[u8]) -> Option<Vec<usize>> {
        let mut current = Threads::new(self.insts.len(), self.slots);
        let mut next = Threads::new(self.insts.len(), self.slots);
        let mut scratch = vec![UNSET; self.slots];
        let mut stack = Vec::new();
        self.add(&mut current, 0, 0, &mut scratch, &mut stack);
        for pos in 0..=input.len() {
            if current.pcs.is_empty() {
                return None;
            }
            for i in 0..current.pcs.len() {
                let pc = current.pcs[i];
                match self.insts[pc] {
                    Inst::Byte(class, to)
                        if input.get(pos).is_some_and(|&b| in_class(class, b)) =>
                    {
                        scratch.copy_from_slice(current.captures(pc));
                        self.add(&mut next, to, pos + 1, &mut scratch, &mut stack);
                    }
                    Inst::Match if pos == input.len() => {
                        return Some(current.captures(pc).to_vec());
                    }
                    _ => {}
                }
            }
            std::mem::swap(&mut current, &mut next);
            next.clear();
        }
        None
    }

    /// Adds a thread at `pc` with the captures in `scratch`, following moves
    /// that read nothing (with a stack of its own, not recursion), first
    /// branches first.
    fn add(
        &self,
        threads: &mut Threads,
        pc: usize,
        pos: usize,
        scratch: &mut [usize],
        stack: &mut Vec<Frame>,
    ) {
        stack.push(Frame::Visit(pc));
        while let Some(frame) = stack.pop() {
            let pc = match frame {
                Frame::Restore(slot, value) => {
                    scratch[slot] = value;
                    continue;
                }
                Frame::Visit(pc) => pc,
            };
            if !threads.insert(pc) {
                continue;
            }
            match self.insts[pc] {
                Inst::Jump(to) => stack.push(Frame::Visit(to)),
                Inst::Split(first, second) => {
                    stack.push(Frame::Visit(second));
                    stack.push(Frame::Visit(first));
                }
                Inst::Save(slot, to) => {
                    stack.push(Frame::Restore(slot, scratch[slot]));
                    scratch[slot] = pos;
                    stack.push(Frame::Visit(to));
                }
                Inst::Byte(..) | Inst::Match => threads.set_captures(pc, scratch),
            }
        }
    }

    /// The shortest string both automata accept: a breadth-first search of
    /// their product, one layer per character, moves that read nothing
    /// taken within a layer.
    fn intersection(&self, other: &Nfa) -> Option<String> {
        const PREFERRED: &[u8] =
            b"abcdefghijklmnopqrstuvwxyz0123456789-._~ABCDEFGHIJKLMNOPQRSTUVWXYZ/";
        let pick = |class: u128| {
            PREFERRED
                .iter()
                .copied()
                .find(|&c| in_class(class, c))
                .unwrap_or(class.trailing_zeros() as u8)
        };
        type State = (usize, usize);
        let (a, b) = (&self.insts, &other.insts);
        let start: State = (0, 0);
        // How each state was first reached: from which, reading what.
        let mut parents: HashMap<State, (State, Option<u8>)> = HashMap::new();
        parents.insert(start, (start, None));
        let mut frontier = vec![start];
        let mut layer = Vec::new();
        while !frontier.is_empty() {
            layer.clear();
            while let Some(state) = frontier.pop() {
                layer.push(state);
                let (p, q) = state;
                let moves = match (a[p].epsilon(), b[q].epsilon()) {
                    ([None, None], [None, None]) => continue,
                    ([None, None], qs) => qs.map(|q| q.map(|q| (p, q))),
                    (ps, _) => ps.map(|p| p.map(|p| (p, q))),
                };
                for to in moves.into_iter().flatten() {
                    if let Entry::Vacant(entry) = parents.entry(to) {
                        entry.insert((state, None));
                        frontier.push(to);
                    }
                }
            }
            for &state in &layer {
                let (p, q) = state;
                match (a[p], b[q]) {
                    (Inst::Match, Inst::Match) => {
                        let mut witness = Vec::new();
                        let mut at = state;
                        while at != start {
                            let (from, read) = parents[&at];
                            witness.extend(read);
                            at = from;
                        }
                        witness.reverse();
                        return Some(witness.into_iter().map(char::from).collect());
                    }
                    (Inst::Byte(x, to_p), Inst::Byte(y, to_q)) if x & y != 0 => {
                        if let Entry::Vacant(entry) = parents.entry((to_p, to_q)) {
                            entry.insert((state, Some(pick(x & y))));
                            frontier.push((to_p, to_q));
                        }
                    }
                    _ => {}
                }
            }
        }
        None
    }
}

enum Frame {
    Visit(usize),
    Restore(usize, usize),
}

/// The threads at one position: a sparse set of instructions, in priority
/// order, each with its captures.
struct Threads {
    pcs: Vec<usize>,
    index: Vec<usize>,
    captures: Vec<usize>,
    slots: usize,
}

impl Threads {
    fn new(insts: usize, slots: usize) -> Self {
        Threads {
            pcs: Vec::with_capacity(insts),
            index: vec![0; insts],
            captures: vec![UNSET; insts * slots],
            slots,
        }
    }

    /// Adds `pc`; false if it was there already.
    fn insert(&mut self, pc: usize) -> bool {
        let i = self.index[pc];
        if i < self.pcs.len() && self.pcs[i] == pc {
            return false;
        }
        self.index[pc] = self.pcs.len();
        self.pcs.push(pc);
        true
    }

    fn captures(&self, pc: usize) -> &[usize] {
        &self.captures[pc * self.slots..(pc + 1) * self.slots]
    }

    fn set_captures(&mut self, pc: usize, captures: &[usize]) {
        self.captures[pc * self.slots..(pc + 1) * self.slots].copy_from_slice(captures);
    }

    fn clear(&mut self) {
        self.pcs.clear();
    }
}

struct Builder {
    insts: Vec<Inst>,
}

impl Builder {
    fn pc(&self) -> usize {
        self.insts.len()
    }

    fn push(&mut self, inst: Inst) {
        self.insts.push(inst);
    }

    /// A branch to fill in later.
    fn hole(&mut self) -> usize {
        self.insts.push(Inst::Jump(HOLE));
        self.insts.len() - 1
    }

    fn literal(&mut self, text: &[u8]) {
        for &c in text {
            let next = self.pc() + 1;
            self.push(Inst::Byte(bit(c), next));
        }
    }

    /// A value captured in `slot`: characters of `class` and escapes, at
    /// least one if `non_empty`, as many as possible first.
    fn value(&mut self, slot: usize, class: u128, non_empty: bool) {
        self.push(Inst::Save(2 * slot, self.pc() + 1));
        // Zero or more: a split before the loop; one or more: after.
        let entry = (!non_empty).then(|| self.hole());
        let atom = self.pc();
        self.push(Inst::Split(atom + 1, atom + 2));
        let plain = self.pc();
        self.push(Inst::Byte(class, HOLE));
        let escape = self.pc();
        self.push(Inst::Byte(bit(b'%'), escape + 1));
        self.push(Inst::Byte(HEXDIG, escape + 2));
        self.push(Inst::Byte(HEXDIG, HOLE));
        let after = match entry {
            Some(entry) => {
                let exit = self.pc();
                self.insts[entry] = Inst::Split(atom, exit);
                entry
            }
            None => {
                let split = self.pc();
                self.push(Inst::Split(atom, split + 1));
                split
            }
        };
        self.insts[plain] = Inst::Byte(class, after);
        self.insts[escape + 2] = Inst::Byte(HEXDIG, after);
        self.push(Inst::Save(2 * slot + 1, self.pc() + 1));
    }

    /// `{?a,b,…}` or `{&a,b,…}`: nothing, or the first character then a
    /// non-empty subsequence of `name=value` pairs in order, joined by `&`.
    fn query(&mut self, operator: Operator, variables: &[String], first_slot: usize) {
        let lead = operator.lead().unwrap_or(b'?');
        let n = variables.len();
        // starts[k]: take variable k as the first, or try k + 1; the last
        // entry skips the whole expression.
        let starts: Vec<usize> = (0..=n).map(|_| self.hole()).collect();
        // afters[j]: after a pair, take variable j next, or try j + 1; the
        // last entry ends the expression.
        let afters: Vec<usize> = (0..=n).map(|_| self.hole()).collect();
        let mut ends = vec![starts[n], afters[n]];
        for (k, name) in variables.iter().enumerate() {
            let take = self.pc();
            self.literal(&[lead]);
            self.pair(name, first_slot + k);
            self.push(Inst::Jump(afters[k + 1]));
            self.insts[starts[k]] = Inst::Split(take, starts[k + 1]);
            if k > 0 {
                let more = self.pc();
                self.literal(b"&");
                self.pair(name, first_slot + k);
                self.push(Inst::Jump(afters[k + 1]));
                self.insts[afters[k]] = Inst::Split(more, afters[k + 1]);
            }
        }
        // afters[0] is never reached (a pair comes first); let it end too.
        ends.push(afters[0]);
        let end = self.pc();
        for hole in ends {
            self.insts[hole] = Inst::Jump(end);
        }
    }

    fn pair(&mut self, name: &str, slot: usize) {
        self.literal(name.as_bytes());
        self.literal(b"=");
        self.value(slot, UNRESERVED, false);
    }
}
