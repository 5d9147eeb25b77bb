//! A string a pattern matches: what a generated example shows for a
//! `@pattern` field, so the docs and try-it never offer a value the server
//! would refuse.
//!
//! The pattern's tree is walked once per candidate: each class gives
//! readable characters (lower-case letters, then digits, then upper-case,
//! then the rest, cycling so `[0-9a-f]{64}` reads like a hash), each
//! repetition its least count plus a stretch, each alternation one branch.
//! Every candidate is proved with the Rust engine before it is returned.

use super::class::Set;
use super::parse::{Node, parse};

/// How much longer than its least count each repetition is tried, in
/// order, to reach a `@length` minimum.
const STRETCHES: &[u32] = &[0, 1, 2, 4, 8, 16, 32, 64, 128];

/// A string `pattern` matches whose length in characters is within
/// `length`, when such a string is found; `None` for a pattern that does
/// not parse or whose strings all miss the length.
pub(crate) fn sample(pattern: &str, length: Option<(u64, u64)>) -> Option<String> {
    let tree = parse(pattern).ok()?;
    let engine = regex_lite::Regex::new(&super::rust(pattern)).ok()?;
    let (min, max) = length.unwrap_or((0, u64::MAX));
    let branches = branch_count(&tree).clamp(1, 8);
    for &stretch in STRETCHES {
        for branch in 0..branches {
            let mut out = String::new();
            write(&tree, stretch, branch, &mut out);
            // A pattern not anchored at its end matches longer strings
            // too: filling up to the minimum may be all a sample needs.
            let n = out.chars().count() as u64;
            if n < min && min - n <= 64 {
                out.extend(std::iter::repeat_n('a', (min - n) as usize));
            }
            let n = out.chars().count() as u64;
            if (min..=max).contains(&n) && engine.is_match(&out) {
                return Some(out);
            }
        }
    }
    None
}

/// The most branches any alternation of the pattern has.
fn branch_count(node: &Node) -> usize {
    match node {
        Node::Alternation(nodes) => nodes
            .iter()
            .map(branch_count)
            .max()
            .unwrap_or(0)
            .max(nodes.len()),
        Node::Concat(nodes) => nodes.iter().map(branch_count).max().unwrap_or(0),
        Node::Group(inner) | Node::Repeat { node: inner, .. } => branch_count(inner),
        _ => 0,
    }
}

fn write(node: &Node, stretch: u32, branch: usize, out: &mut String) {
    match node {
        Node::Empty | Node::Start | Node::End | Node::Boundary(_) => {}
        Node::Set(set) => out.extend(readable(set, 1)),
        Node::Group(inner) => write(inner, stretch, branch, out),
        Node::Concat(nodes) => {
            for n in nodes {
                write(n, stretch, branch, out);
            }
        }
        Node::Alternation(nodes) => {
            if let Some(n) = nodes.get(branch.min(nodes.len().saturating_sub(1))) {
                write(n, stretch, branch, out);
            }
        }
        Node::Repeat { node, min, max, .. } => {
            let count = min.saturating_add(stretch).min(max.unwrap_or(u32::MAX));
            match node.as_ref() {
                // A class repeated: its characters in turn, not one over.
                Node::Set(set) => out.extend(readable(set, count as usize)),
                inner => {
                    for _ in 0..count {
                        write(inner, stretch, branch, out);
                    }
                }
            }
        }
    }
}

/// `count` characters of `set`, the most readable first, cycling.
fn readable(set: &Set, count: usize) -> Vec<char> {
    const ORDER: &[(u32, u32)] = &[
        ('a' as u32, 'z' as u32),
        ('0' as u32, '9' as u32),
        ('A' as u32, 'Z' as u32),
        ('-' as u32, '.' as u32),
        ('_' as u32, '_' as u32),
        (' ' as u32, '~' as u32),
    ];
    let mut chars: Vec<char> = Vec::new();
    for &(lo, hi) in ORDER {
        for c in lo..=hi {
            if contains(set, c) && !chars.iter().any(|&seen| seen as u32 == c) {
                chars.push(char::from_u32(c).unwrap_or('x'));
            }
        }
    }
    if chars.is_empty() {
        // Nothing printable in ASCII: the set's first scalar value.
        let first = set.ranges().first().and_then(|&(lo, _)| char::from_u32(lo));
        chars.extend(first);
    }
    if chars.is_empty() {
        return Vec::new();
    }
    chars.iter().copied().cycle().take(count).collect()
}

fn contains(set: &Set, c: u32) -> bool {
    set.ranges().iter().any(|&(lo, hi)| lo <= c && c <= hi)
}

#[cfg(test)]
mod tests {
    use super::sample;

    #[test]
    fn samples_match_their_pattern_within_the_length() {
        for (pattern, length, expected) in [
            ("^[0-9a-f]{8}$", None, "abcdef01"),
            ("^[a-z][a-z0-9_]*$", None, "a"),
            ("^file://", None, "file://"),
            ("^[A-G][b#]?$", None, "A"),
            ("^(?:cat|dog)s?$", None, "cat"),
            ("^sha256:[0-9a-f]{4}$", None, "sha256:abcd"),
            ("^[a-z]+$", Some((3, 5)), "aaa"),
            ("^\\d{3}-\\d{4}$", None, "012-0123"),
            // Not anchored at the end: filled up to the minimum.
            ("^https?://", Some((9, 20)), "http://aa"),
        ] {
            let got = sample(pattern, length);
            assert_eq!(got.as_deref(), Some(expected), "{pattern}");
        }
    }

    #[test]
    fn a_sample_the_length_cannot_hold_is_none() {
        assert_eq!(sample("^[a-z]{10}$", Some((1, 5))), None);
        assert_eq!(sample("^[a-z]$", Some((3, 5))), None);
        assert_eq!(sample("(", None), None);
    }
}
