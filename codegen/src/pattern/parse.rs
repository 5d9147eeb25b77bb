//! The portable subset of ECMA-262 (with the `u` flag) as a tree; every
//! construct outside it is an [`Error`] that says why and what to write.

use super::class::Set;

/// A parsed pattern.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Node {
    /// Matches the empty string.
    Empty,
    /// Any one of the code points.
    Set(Set),
    /// `^`: the start of the string.
    Start,
    /// `$`: the end of the string.
    End,
    /// `\b` (true) or `\B` (false), with ECMA-262's ASCII word characters.
    Boundary(bool),
    /// `( … )` or `(?: … )`: captures do not change what matches.
    Group(Box<Node>),
    Concat(Vec<Node>),
    Alternation(Vec<Node>),
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
        greedy: bool,
    },
}

/// Why a pattern is refused: the bytes of the pattern at fault, what is
/// wrong, and what to write instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Error {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) message: String,
    pub(crate) hint: Option<&'static str>,
}

/// The largest repetition count: bigger ones blow up the compiled size of
/// the Rust engines.
const MAX_REPEAT: u32 = 1000;
/// The deepest group nesting.
const MAX_DEPTH: usize = 64;

/// Parses `source`.
pub(crate) fn parse(source: &str) -> Result<Node, Error> {
    let mut p = Parser {
        src: source,
        pos: 0,
        depth: 0,
    };
    let node = p.alternation()?;
    if p.pos < source.len() {
        // Only an unmatched `)` stops the top level early.
        return Err(p.error(p.pos, p.pos + 1, "unmatched `)`", None));
    }
    Ok(node)
}

struct Parser<'a> {
    src: &'a str,
    pos: usize,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn peek_at(&self, n: usize) -> Option<char> {
        self.src[self.pos..].chars().nth(n)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn error(
        &self,
        start: usize,
        end: usize,
        message: impl Into<String>,
        hint: Option<&'static str>,
    ) -> Error {
        Error {
            start,
            end: end.min(self.src.len()).max(start),
            message: message.into(),
            hint,
        }
    }

    fn alternation(&mut self) -> Result<Node, Error> {
        let mut branches = vec![self.concat()?];
        while self.eat('|') {
            branches.push(self.concat()?);
        }
        Ok(if branches.len() == 1 {
            branches.pop().unwrap_or(Node::Empty)
        } else {
            Node::Alternation(branches)
        })
    }

    fn concat(&mut self) -> Result<Node, Error> {
        let mut items = Vec::new();
        while let Some(c) = self.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let start = self.pos;
            let atom = self.atom()?;
            let quantifiable = !matches!(atom, Node::Start | Node::End | Node::Boundary(_));
            let atom = self.quantifier(atom, start, quantifiable)?;
            items.push(atom);
        }
        Ok(match items.len() {
            0 => Node::Empty,
            1 => items.pop().unwrap_or(Node::Empty),
            _ => Node::Concat(items),
        })
    }

    fn quantifier(&mut self, atom: Node, start: usize, quantifiable: bool) -> Result<Node, Error> {
        let q_start = self.pos;
        let (min, max) = match self.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => match self.braces()? {
                Some(bounds) => bounds,
                None => {
                    return Err(self.error(
                        q_start,
                        q_start + 1,
                        "a lone `{` is not allowed with the `u` flag",
                        Some("write `\\{` for a literal brace"),
                    ));
                }
            },
            _ => return Ok(atom),
        };
        if self.pos == q_start {
            // `*`, `+` or `?`: `braces` moved past its own.
            self.pos += 1;
        }
        if !quantifiable {
            return Err(self.error(
                start,
                self.pos,
                "an anchor or word boundary cannot be repeated",
                None,
            ));
        }
        let greedy = !self.eat('?');
        if matches!(self.peek(), Some('*' | '+' | '?' | '{')) {
            return Err(self.error(
                self.pos,
                self.pos + 1,
                "nothing to repeat: a quantifier cannot follow a quantifier",
                Some("possessive quantifiers (`a*+`) are not ECMA-262; group instead: `(?:a*)+`"),
            ));
        }
        Ok(Node::Repeat {
            node: Box::new(atom),
            min,
            max,
            greedy,
        })
    }

    /// `{n}`, `{n,}` or `{n,m}` at `pos`, consumed; `None` (nothing
    /// consumed) when the brace does not start one.
    fn braces(&mut self) -> Result<Option<(u32, Option<u32>)>, Error> {
        let start = self.pos;
        let rest = &self.src[start + 1..];
        let Some(close) = rest.find('}') else {
            return Ok(None);
        };
        let inner = &rest[..close];
        let (lo, hi) = match inner.split_once(',') {
            None => (inner, Some(inner)),
            Some((lo, hi)) => (lo, (!hi.is_empty()).then_some(hi)),
        };
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !digits(lo) || hi.is_some_and(|h| !digits(h)) {
            if lo.is_empty() && hi.is_some_and(digits) {
                return Err(self.error(
                    start,
                    start + close + 2,
                    "`{,n}` is not a quantifier in ECMA-262",
                    Some("write `{0,n}`"),
                ));
            }
            return Ok(None);
        }
        let end = start + close + 2;
        let number = |s: &str| -> Result<u32, Error> {
            s.parse::<u32>()
                .ok()
                .filter(|n| *n <= MAX_REPEAT)
                .ok_or_else(|| {
                    self.error(
                        start,
                        end,
                        format!("a repetition count above {MAX_REPEAT}"),
                        Some("bound the length with `@length` instead"),
                    )
                })
        };
        let min = number(lo)?;
        let max = hi.map(number).transpose()?;
        if max.is_some_and(|max| max < min) {
            return Err(self.error(
                start,
                end,
                "the quantifier's numbers are out of order",
                None,
            ));
        }
        self.pos = end;
        Ok(Some((min, max)))
    }

    fn atom(&mut self) -> Result<Node, Error> {
        let start = self.pos;
        let Some(c) = self.bump() else {
            return Ok(Node::Empty);
        };
        match c {
            '^' => Ok(Node::Start),
            '$' => Ok(Node::End),
            '.' => Ok(Node::Set(Set::dot())),
            '(' => self.group(start),
            '[' => self.class(start).map(Node::Set),
            '\\' => self.atom_escape(start),
            '*' | '+' | '?' => Err(self.error(start, self.pos, "nothing to repeat", None)),
            '{' => {
                self.pos = start;
                Err(match self.braces()? {
                    Some(_) => self.error(start, start + 1, "nothing to repeat", None),
                    None => self.error(
                        start,
                        start + 1,
                        "a lone `{` is not allowed with the `u` flag",
                        Some("write `\\{` for a literal brace"),
                    ),
                })
            }
            '}' | ']' => Err(self.error(
                start,
                self.pos,
                format!("a lone `{c}` is not allowed with the `u` flag"),
                Some("escape it with a backslash"),
            )),
            c => Ok(Node::Set(Set::of(&[(c as u32, c as u32)]))),
        }
    }

    fn group(&mut self, start: usize) -> Result<Node, Error> {
        if self.eat('?') {
            let what = match (self.peek(), self.peek_at(1)) {
                (Some(':'), _) => {
                    self.pos += 1;
                    None
                }
                (Some('='), _) | (Some('!'), _) => Some((
                    "lookahead is not supported: the Rust and Python validators have none",
                    None,
                )),
                (Some('<'), Some('=' | '!')) => Some((
                    "lookbehind is not supported: the Rust and Python validators have none",
                    None,
                )),
                (Some('<' | 'P'), _) => Some((
                    "named groups are not supported: Python and ECMA-262 spell them differently",
                    Some("use `( … )` or `(?: … )`; captures do not change what matches"),
                )),
                _ => Some((
                    "inline flags and other `(?…)` groups are not ECMA-262",
                    Some("JavaScript has no inline flags; write both cases out, e.g. `[Aa]`"),
                )),
            };
            if let Some((message, hint)) = what {
                return Err(self.error(start, self.pos + 1, message, hint));
            }
        }
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(start, self.pos, "groups nested too deeply", None));
        }
        let inner = self.alternation()?;
        self.depth -= 1;
        if !self.eat(')') {
            return Err(self.error(start, start + 1, "unclosed group", Some("add a `)`")));
        }
        Ok(Node::Group(Box::new(inner)))
    }

    fn atom_escape(&mut self, start: usize) -> Result<Node, Error> {
        match self.peek() {
            Some('b') => {
                self.pos += 1;
                Ok(Node::Boundary(true))
            }
            Some('B') => {
                self.pos += 1;
                Ok(Node::Boundary(false))
            }
            _ => self.escape(start, false),
        }
    }

    /// The escape after a `\` at `start`, as a set; in a class when
    /// `in_class` (where `\b` is a backspace and `\-` a dash).
    fn escape(&mut self, start: usize, in_class: bool) -> Result<Node, Error> {
        let Some(c) = self.bump() else {
            return Err(self.error(start, self.pos, "a pattern cannot end with `\\`", None));
        };
        let one = |c: u32| Ok(Node::Set(Set::of(&[(c, c)])));
        match c {
            'd' => Ok(Node::Set(Set::digit())),
            'D' => Ok(Node::Set(Set::digit().complement())),
            'w' => Ok(Node::Set(Set::word())),
            'W' => Ok(Node::Set(Set::word().complement())),
            's' => Ok(Node::Set(Set::space())),
            'S' => Ok(Node::Set(Set::space().complement())),
            'n' => one(0x0A),
            'r' => one(0x0D),
            't' => one(0x09),
            'f' => one(0x0C),
            'v' => one(0x0B),
            'b' if in_class => one(0x08),
            '-' if in_class => one(u32::from('-')),
            '0' if !self.peek().is_some_and(|c| c.is_ascii_digit()) => one(0),
            'x' => {
                let value = self.hex(2).ok_or_else(|| {
                    self.error(start, self.pos, "`\\x` takes exactly two hex digits", None)
                })?;
                one(value)
            }
            'u' => self.unicode(start).map(|c| Node::Set(Set::of(&[(c, c)]))),
            '^' | '$' | '\\' | '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|'
            | '/' => one(c as u32),
            '1'..='9' | 'k' => Err(self.error(
                start,
                self.pos,
                "backreferences are not supported: the Rust validators have none",
                None,
            )),
            'p' | 'P' => Err(self.error(
                start,
                self.pos,
                "Unicode property escapes are not supported by the Rust validators",
                Some("spell the ranges out, e.g. `[A-Za-z\\u00C0-\\u024F]`"),
            )),
            'A' | 'z' | 'Z' => Err(self.error(
                start,
                self.pos,
                format!("`\\{c}` is not ECMA-262"),
                Some("anchor with `^` and `$`: without flags they mean the start and end of the string"),
            )),
            'c' => Err(self.error(start, self.pos, "control escapes (`\\cX`) are not supported", Some("write the code point, e.g. `\\x01`"))),
            c => Err(self.error(
                start,
                self.pos,
                format!("`\\{c}` is not an escape of ECMA-262 with the `u` flag"),
                Some("only syntax characters (`^$\\.*+?()[]{}|/`) may be escaped; write other characters as they are"),
            )),
        }
    }

    fn hex(&mut self, n: usize) -> Option<u32> {
        let digits = self.src.get(self.pos..self.pos + n)?;
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        self.pos += n;
        u32::from_str_radix(digits, 16).ok()
    }

    /// `\uHHHH` (a surrogate pair of two combines) or `\u{H…}`, just past
    /// the `u`.
    fn unicode(&mut self, start: usize) -> Result<u32, Error> {
        let bad = |p: &Self, message: &str| p.error(start, p.pos, message.to_owned(), None);
        if self.eat('{') {
            let close = self.src[self.pos..]
                .find('}')
                .ok_or_else(|| bad(self, "`\\u{` is not closed"))?;
            let digits = &self.src[self.pos..self.pos + close];
            self.pos += close + 1;
            let value = (!digits.is_empty() && digits.len() <= 6)
                .then(|| u32::from_str_radix(digits, 16).ok())
                .flatten()
                .filter(|v| char::from_u32(*v).is_some())
                .ok_or_else(|| bad(self, "`\\u{…}` must name a Unicode scalar value"))?;
            return Ok(value);
        }
        let high = self
            .hex(4)
            .ok_or_else(|| bad(self, "`\\u` takes four hex digits or `{…}`"))?;
        if (0xD800..=0xDBFF).contains(&high) && self.src[self.pos..].starts_with("\\u") {
            let save = self.pos;
            self.pos += 2;
            match self.hex(4) {
                Some(low) if (0xDC00..=0xDFFF).contains(&low) => {
                    return Ok(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00));
                }
                _ => self.pos = save,
            }
        }
        if (0xD800..=0xDFFF).contains(&high) {
            return Err(bad(self, "a lone surrogate matches no string"));
        }
        Ok(high)
    }

    fn class(&mut self, start: usize) -> Result<Set, Error> {
        if self.src[self.pos..].starts_with(':') {
            let end = self.src[self.pos..]
                .find(":]")
                .map_or(self.pos + 1, |i| self.pos + i + 2);
            return Err(self.error(
                start,
                end,
                "POSIX classes such as `[:alpha:]` are not ECMA-262",
                Some("write the ranges, e.g. `[A-Za-z]`"),
            ));
        }
        let negated = self.eat('^');
        let mut set = Set::new();
        loop {
            let item_start = self.pos;
            let Some(c) = self.peek() else {
                return Err(self.error(
                    start,
                    start + 1,
                    "unclosed character class",
                    Some("add a `]`"),
                ));
            };
            if c == ']' {
                self.pos += 1;
                break;
            }
            if c == '[' && self.peek_at(1) == Some(':') {
                let end = self.src[self.pos..]
                    .find(":]")
                    .map_or(self.pos + 2, |i| self.pos + i + 2);
                return Err(self.error(
                    item_start,
                    end,
                    "POSIX classes such as `[:alpha:]` are not ECMA-262",
                    Some("write the ranges, e.g. `[A-Za-z]`"),
                ));
            }
            if c == '[' {
                // ECMA-262 reads it as a plain `[`; the `regex` crate (and so
                // JSON Schema validators built on it) as a nested class, and
                // Python warns of one.
                return Err(self.error(
                    item_start,
                    item_start + 1,
                    "a `[` inside a class is read as a nested class by some engines",
                    Some("escape it: `\\[`"),
                ));
            }
            let low = self.class_atom()?;
            if self.peek() == Some('-') && self.peek_at(1).is_some_and(|c| c != ']') {
                self.pos += 1;
                let high = self.class_atom()?;
                let (Some(lo), Some(hi)) = (single(&low), single(&high)) else {
                    return Err(self.error(
                        item_start,
                        self.pos,
                        "a class escape such as `\\d` cannot bound a range",
                        Some("escape the dash (`\\-`) or move it to the end of the class"),
                    ));
                };
                if lo > hi {
                    return Err(self.error(item_start, self.pos, "range out of order", None));
                }
                set.add(lo, hi);
            } else {
                set.union(&low);
            }
        }
        if set.is_empty() && !negated {
            return Err(self.error(
                start,
                self.pos,
                "`[]` matches nothing",
                Some(
                    "remove it, or write `[^]`-free alternatives: `[\\s\\S]` matches any character",
                ),
            ));
        }
        let set = if negated { set.complement() } else { set };
        if set.is_empty() {
            return Err(self.error(
                start,
                self.pos,
                "this class matches nothing",
                Some("`[\\s\\S]` matches any character"),
            ));
        }
        Ok(set)
    }

    fn class_atom(&mut self) -> Result<Set, Error> {
        let start = self.pos;
        match self.bump() {
            Some('\\') => match self.escape(start, true)? {
                Node::Set(set) => Ok(set),
                _ => Err(self.error(start, self.pos, "not allowed in a class", None)),
            },
            Some(c) => Ok(Set::of(&[(c as u32, c as u32)])),
            None => Err(self.error(start, start, "unclosed character class", Some("add a `]`"))),
        }
    }
}

/// The one code point of a set that holds one.
fn single(set: &Set) -> Option<u32> {
    match set.ranges() {
        [(lo, hi)] if lo == hi => Some(*lo),
        _ => None,
    }
}
