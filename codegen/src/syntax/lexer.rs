//! Turns a file's text into tokens. Never fails: bad input becomes a
//! diagnostic and the lexer moves on, so the parser sees as much as it can.

use super::token::{Token, TokenKind};
use crate::diag::{Ctxt, messages};
use crate::source::{FileId, Span};

/// Lexes `text`, reporting problems into `cx`. The returned vector always
/// ends with an `Eof` token.
#[cfg(test)]
pub(crate) fn lex(file: FileId, text: &str, cx: &mut Ctxt) -> Vec<Token> {
    lex_with_comments(file, text, false, cx).0
}

/// A `//` comment (not a doc comment): the formatter keeps them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Comment {
    /// Byte offset of the first `/`.
    pub(crate) start: usize,
    /// The comment's text, `//` included, trailing whitespace removed.
    pub(crate) text: String,
}

/// Like [`lex`], also returning the plain comments in source order. `lossy`
/// says the text was decoded from invalid UTF-8: its U+FFFD characters stand
/// for bytes already reported, and are skipped without a second report.
pub(crate) fn lex_with_comments(
    file: FileId,
    text: &str,
    lossy: bool,
    cx: &mut Ctxt,
) -> (Vec<Token>, Vec<Comment>) {
    let mut lexer = Lexer {
        file,
        text,
        bytes: text.as_bytes(),
        pos: 0,
        tokens: Vec::new(),
        comments: Vec::new(),
        lossy,
        cx,
    };
    lexer.run();
    (lexer.tokens, lexer.comments)
}

struct Lexer<'a, 'c> {
    file: FileId,
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    tokens: Vec<Token>,
    comments: Vec<Comment>,
    lossy: bool,
    cx: &'c mut Ctxt,
}

impl Lexer<'_, '_> {
    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start, end)
    }

    fn peek(&self, offset: usize) -> Option<u8> {
        self.bytes.get(self.pos + offset).copied()
    }

    fn push(&mut self, kind: TokenKind, start: usize) {
        self.tokens.push(Token {
            kind,
            start,
            end: self.pos,
        });
    }

    fn run(&mut self) {
        // A UTF-8 byte order mark, as some editors write, is not content.
        if self.text.starts_with('\u{FEFF}') {
            self.pos = '\u{FEFF}'.len_utf8();
        }
        while let Some(b) = self.peek(0) {
            let start = self.pos;
            match b {
                b' ' | b'\t' | b'\r' | b'\n' => self.pos += 1,
                b'/' if self.peek(1) == Some(b'/') => self.comment(),
                b'/' if self.peek(1) == Some(b'*') => self.block_comment(),
                b'"' => self.string('"'),
                b'\'' => self.string('\''),
                b'0'..=b'9' => self.number(start),
                b'-' if self.peek(1).is_some_and(|c| c.is_ascii_digit()) => self.number(start),
                b'a'..=b'z' | b'A'..=b'Z' | b'_' => self.ident(),
                _ => {
                    let punct = match b {
                        b'{' => Some(TokenKind::LBrace),
                        b'}' => Some(TokenKind::RBrace),
                        b'(' => Some(TokenKind::LParen),
                        b')' => Some(TokenKind::RParen),
                        b'<' => Some(TokenKind::Lt),
                        b'>' => Some(TokenKind::Gt),
                        b'[' => Some(TokenKind::LBracket),
                        b']' => Some(TokenKind::RBracket),
                        b',' => Some(TokenKind::Comma),
                        b':' => Some(TokenKind::Colon),
                        b';' => Some(TokenKind::Semi),
                        b'=' => Some(TokenKind::Eq),
                        b'?' => Some(TokenKind::Question),
                        b'@' => Some(TokenKind::At),
                        _ => None,
                    };
                    if let Some(kind) = punct {
                        self.pos += 1;
                        self.push(kind, start);
                    } else {
                        // Step over one whole character, not one byte, so spans
                        // never split a UTF-8 sequence.
                        let c = self.text[start..].chars().next().unwrap_or('\u{FFFD}');
                        self.pos += c.len_utf8();
                        if !(self.lossy && c == '\u{FFFD}') {
                            let span = self.span(start, self.pos);
                            self.cx.push(messages::unexpected_char(span, c));
                        }
                    }
                }
            }
        }
        let end = self.text.len();
        self.tokens.push(Token {
            kind: TokenKind::Eof,
            start: end,
            end,
        });
    }

    fn line_end(&self) -> usize {
        self.text[self.pos..]
            .find('\n')
            .map_or(self.text.len(), |i| self.pos + i)
    }

    fn comment(&mut self) {
        let start = self.pos;
        let end = self.line_end();
        let line = &self.text[start..end];
        self.pos = end;
        // `///` documents; `////…` is a plain comment, as in Rust.
        if let Some(doc) = line
            .strip_prefix("///")
            .filter(|rest| !rest.starts_with('/'))
        {
            let doc = doc.strip_prefix(' ').unwrap_or(doc).trim_end();
            self.push(TokenKind::Doc(doc.to_owned()), start);
        } else {
            self.comments.push(Comment {
                start,
                text: line.trim_end().to_owned(),
            });
        }
    }

    fn block_comment(&mut self) {
        let start = self.pos;
        let end = self.text[start + 2..]
            .find("*/")
            .map_or(self.text.len(), |i| start + 2 + i + 2);
        self.pos = end;
        let span = self.span(start, start + 2);
        self.cx.push(messages::block_comment(span));
    }

    fn ident(&mut self) {
        let start = self.pos;
        while self
            .peek(0)
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            self.pos += 1;
        }
        let word = self.text[start..self.pos].to_owned();
        self.push(TokenKind::Ident(word), start);
    }

    fn digits(&mut self) {
        while self
            .peek(0)
            .is_some_and(|b| b.is_ascii_digit() || b == b'_')
        {
            self.pos += 1;
        }
    }

    fn number(&mut self, start: usize) {
        if self.peek(0) == Some(b'-') {
            self.pos += 1;
        }
        self.digits();
        let mut float = false;
        if self.peek(0) == Some(b'.') && self.peek(1).is_some_and(|b| b.is_ascii_digit()) {
            float = true;
            self.pos += 1;
            self.digits();
        }
        if matches!(self.peek(0), Some(b'e' | b'E')) {
            let sign = usize::from(matches!(self.peek(1), Some(b'+' | b'-')));
            if self.peek(1 + sign).is_some_and(|b| b.is_ascii_digit()) {
                float = true;
                self.pos += 1 + sign;
                self.digits();
            }
        }
        // A number running straight into letters (`12abc`, `0x1F`) is one
        // malformed token, not a number followed by a name.
        let mut junk = false;
        while self
            .peek(0)
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            junk = true;
            self.pos += 1;
        }
        let raw = &self.text[start..self.pos];
        let span = self.span(start, self.pos);
        if junk {
            let hex = raw.trim_start_matches('-').strip_prefix("0x");
            let reason = match hex.map(|h| u64::from_str_radix(&h.replace('_', ""), 16)) {
                Some(Ok(value)) => format!(
                    "hexadecimal literals are not supported; write `{}{value}`",
                    if raw.starts_with('-') { "-" } else { "" }
                ),
                Some(Err(_)) => {
                    "hexadecimal literals are not supported; write the number in decimal".to_owned()
                }
                None => "a number cannot run into letters".to_owned(),
            };
            self.cx.push(messages::invalid_number(span, &reason));
            self.push(TokenKind::Int(0), start);
            return;
        }
        let clean: String = raw.chars().filter(|&c| c != '_').collect();
        if float {
            match clean.parse::<f64>() {
                Ok(v) if v.is_finite() => self.push(TokenKind::Float(v), start),
                _ => {
                    self.cx.push(messages::invalid_number(
                        span,
                        "too large for a 64-bit float",
                    ));
                    self.push(TokenKind::Float(0.0), start);
                }
            }
        } else {
            // i128 holds every i64 and u64 value; anything beyond fits no IDL type.
            match clean.parse::<i128>() {
                Ok(v) if v >= i128::from(i64::MIN) && v <= i128::from(u64::MAX) => {
                    self.push(TokenKind::Int(v), start);
                }
                _ => {
                    self.cx.push(messages::invalid_number(
                        span,
                        "outside the range of every integer type (i64::MIN to u64::MAX)",
                    ));
                    self.push(TokenKind::Int(0), start);
                }
            }
        }
    }

    /// A string literal. `quote` is `"`, or `'` for the common slip of
    /// single quotes: reported once, then read as a string so that the rest
    /// of the line is not a cascade of errors.
    fn string(&mut self, quote: char) {
        let start = self.pos;
        self.pos += 1;
        let mut value = String::new();
        let mut terminated = false;
        loop {
            match self.text[self.pos..].chars().next() {
                Some(c) if c == quote => {
                    self.pos += 1;
                    terminated = true;
                    break;
                }
                None | Some('\n') => break,
                Some('\\') => self.escape(&mut value),
                Some(c) => {
                    value.push(c);
                    self.pos += c.len_utf8();
                }
            }
        }
        let diagnostic = match (quote, terminated) {
            ('"', true) => None,
            ('"', false) => Some(messages::unterminated_string(self.span(start, start + 1))),
            (_, true) => Some(messages::single_quotes(self.span(start, self.pos))),
            // A lone apostrophe: one character out of place, not a string.
            (_, false) => {
                self.pos = start + 1;
                self.cx.push(messages::unexpected_char(
                    self.span(start, start + 1),
                    quote,
                ));
                return;
            }
        };
        if let Some(d) = diagnostic {
            self.cx.push(d);
        }
        self.push(TokenKind::Str(value), start);
    }

    fn escape(&mut self, value: &mut String) {
        let start = self.pos;
        self.pos += 1;
        let Some(c) = self.text[self.pos..].chars().next() else {
            return;
        };
        self.pos += c.len_utf8();
        let decoded = match c {
            '\\' => Ok('\\'),
            '"' => Ok('"'),
            '\'' => Ok('\''),
            'n' => Ok('\n'),
            'r' => Ok('\r'),
            't' => Ok('\t'),
            '0' => Ok('\0'),
            'u' => self.unicode_escape(),
            _ => Err(None),
        };
        match decoded {
            Ok(c) => value.push(c),
            Err(reason) => {
                let span = self.span(start, self.pos);
                let seq = self.text[start..self.pos].to_owned();
                self.cx.push(messages::invalid_escape(span, &seq, reason));
            }
        }
    }

    /// `\u{1F600}`: called with `pos` just past the `u`. On error, `pos` is
    /// past the whole sequence and the reason says what is wrong with it.
    fn unicode_escape(&mut self) -> Result<char, Option<&'static str>> {
        const FORM: &str = "write `\\u{...}` with 1 to 6 hexadecimal digits";
        if self.peek(0) != Some(b'{') {
            return Err(Some(FORM));
        }
        let rest = &self.text[self.pos + 1..];
        let Some(close) = rest
            .find(['}', '"', '\n'])
            .filter(|&i| rest[i..].starts_with('}'))
        else {
            return Err(Some(FORM));
        };
        let hex = &rest[..close];
        self.pos += close + 2;
        if hex.is_empty() || hex.len() > 6 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(Some(FORM));
        }
        u32::from_str_radix(hex, 16)
            .ok()
            .and_then(char::from_u32)
            .ok_or(Some("not a Unicode scalar value (surrogates and values above 10FFFF are not characters)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> (Vec<TokenKind>, usize) {
        let mut cx = Ctxt::new();
        let tokens = lex(FileId(0), text, &mut cx);
        let errors = cx.gate().err().map_or(0, |d| d.len());
        (tokens.into_iter().map(|t| t.kind).collect(), errors)
    }

    #[test]
    fn lexes_punctuation_numbers_strings_and_docs() {
        let (k, errors) =
            kinds("/// Doc.\ntool a { x: i8 = -24, y: f32 = 1.5e3, s: string = \"a\\n\\u{e9}\" }");
        assert_eq!(errors, 0);
        assert_eq!(k[0], TokenKind::Doc("Doc.".into()));
        assert!(k.contains(&TokenKind::Int(-24)));
        assert!(k.contains(&TokenKind::Float(1500.0)));
        assert!(k.contains(&TokenKind::Str("a\né".into())));
        assert_eq!(k.last(), Some(&TokenKind::Eof));
    }

    #[test]
    fn four_slashes_are_a_plain_comment() {
        let (k, _) = kinds("//// not a doc\n// nor this\n");
        assert_eq!(k, vec![TokenKind::Eof]);
    }

    #[test]
    fn bad_input_is_reported_and_skipped() {
        let (k, errors) = kinds("# é \"open\n0x1F 99999999999999999999999 /* c */");
        assert_eq!(errors, 6);
        assert_eq!(k.last(), Some(&TokenKind::Eof));
    }

    #[test]
    fn a_lone_minus_is_not_a_number() {
        let (k, errors) = kinds("- 1");
        assert_eq!(errors, 1);
        assert_eq!(k, vec![TokenKind::Int(1), TokenKind::Eof]);
    }
}
