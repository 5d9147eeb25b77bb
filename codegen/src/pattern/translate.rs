//! A parsed pattern written out for the Rust engines, each class spelt out
//! as code point ranges so that it means what ECMA-262 says it means.

use std::fmt::Write as _;

use super::class::Set;
use super::parse::Node;

/// The engine a translation is for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Engine {
    /// `regex-lite`, the Rust runtime's: `\b` is already ASCII.
    RegexLite,
    /// The `regex` crate, under pydantic: `\b` is Unicode unless told.
    Regex,
}

pub(crate) fn emit(node: &Node, engine: Engine) -> String {
    let mut out = String::new();
    write(node, engine, &mut out);
    out
}

fn write(node: &Node, engine: Engine, out: &mut String) {
    match node {
        Node::Empty => {}
        Node::Set(set) => set_expr(set, out),
        Node::Start => out.push('^'),
        Node::End => out.push('$'),
        Node::Boundary(yes) => out.push_str(match (engine, yes) {
            (Engine::RegexLite, true) => r"\b",
            (Engine::RegexLite, false) => r"\B",
            (Engine::Regex, true) => r"(?-u:\b)",
            (Engine::Regex, false) => r"(?-u:\B)",
        }),
        Node::Group(inner) => {
            out.push_str("(?:");
            write(inner, engine, out);
            out.push(')');
        }
        Node::Concat(items) => {
            for item in items {
                write(item, engine, out);
            }
        }
        Node::Alternation(branches) => {
            for (i, branch) in branches.iter().enumerate() {
                if i > 0 {
                    out.push('|');
                }
                write(branch, engine, out);
            }
        }
        Node::Repeat {
            node,
            min,
            max,
            greedy,
        } => {
            write(node, engine, out);
            match (min, max) {
                (0, None) => out.push('*'),
                (1, None) => out.push('+'),
                (0, Some(1)) => out.push('?'),
                (min, None) => {
                    let _ = write!(out, "{{{min},}}");
                }
                (min, Some(max)) if min == max => {
                    let _ = write!(out, "{{{min}}}");
                }
                (min, Some(max)) => {
                    let _ = write!(out, "{{{min},{max}}}");
                }
            }
            if !greedy {
                out.push('?');
            }
        }
    }
}

/// One code point as itself, or a class of ranges.
fn set_expr(set: &Set, out: &mut String) {
    if let [(lo, hi)] = set.ranges()
        && lo == hi
    {
        literal(*lo, false, out);
        return;
    }
    out.push('[');
    for &(lo, hi) in set.ranges() {
        literal(lo, true, out);
        if hi > lo {
            if hi > lo + 1 {
                out.push('-');
            }
            literal(hi, true, out);
        }
    }
    out.push(']');
}

/// A code point as the engines read it: printable ASCII as itself (escaped
/// where it means something), anything else as `\x{…}`.
fn literal(c: u32, in_class: bool, out: &mut String) {
    let meta = if in_class {
        // In a class: the class syntax, and the set operators of `regex`.
        r"\[]^-&~"
    } else {
        r"\.+*?()|[]{}^$#&-~"
    };
    match char::from_u32(c) {
        Some(ch) if (' '..='~').contains(&ch) => {
            if meta.contains(ch) {
                out.push('\\');
            }
            out.push(ch);
        }
        _ => {
            let _ = write!(out, "\\x{{{c:X}}}");
        }
    }
}
