//! Tokens produced by the lexer.

use std::fmt;

/// What kind of token, with its decoded value where it has one.
#[derive(Clone, Debug, PartialEq)]
pub enum TokenKind {
    /// An identifier or contextual keyword.
    Ident(String),
    /// An integer literal (sign included).
    Int(i128),
    /// A floating-point literal (sign included).
    Float(f64),
    /// A string literal, escapes decoded.
    Str(String),
    /// One `///` line, without the slashes and one leading space.
    Doc(String),
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `,`
    Comma,
    /// `:`
    Colon,
    /// `;`
    Semi,
    /// `=`
    Eq,
    /// `?`
    Question,
    /// `@`
    At,
    /// End of file.
    Eof,
}

impl TokenKind {
    /// How the token reads in "expected …, found …" messages.
    pub fn describe(&self) -> String {
        match self {
            TokenKind::Ident(s) => format!("`{s}`"),
            TokenKind::Int(_) | TokenKind::Float(_) => "a number".to_owned(),
            TokenKind::Str(_) => "a string".to_owned(),
            TokenKind::Doc(_) => "a doc comment".to_owned(),
            TokenKind::Eof => "end of file".to_owned(),
            punct => format!("`{punct}`"),
        }
    }
}

impl fmt::Display for TokenKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            TokenKind::Ident(s) => s.as_str(),
            TokenKind::Int(n) => return write!(f, "{n}"),
            TokenKind::Float(n) => return write!(f, "{n}"),
            TokenKind::Str(s) => return write!(f, "{s:?}"),
            TokenKind::Doc(s) => return write!(f, "///{s}"),
            TokenKind::LBrace => "{",
            TokenKind::RBrace => "}",
            TokenKind::LParen => "(",
            TokenKind::RParen => ")",
            TokenKind::Lt => "<",
            TokenKind::Gt => ">",
            TokenKind::LBracket => "[",
            TokenKind::RBracket => "]",
            TokenKind::Comma => ",",
            TokenKind::Colon => ":",
            TokenKind::Semi => ";",
            TokenKind::Eq => "=",
            TokenKind::Question => "?",
            TokenKind::At => "@",
            TokenKind::Eof => "end of file",
        };
        f.write_str(s)
    }
}

/// A token and the bytes it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// The kind and value.
    pub kind: TokenKind,
    /// Byte offset of the first byte.
    pub start: usize,
    /// Byte offset one past the last byte.
    pub end: usize,
}
