use super::{parse, python, rust};

fn refused(source: &str) -> String {
    match parse(source) {
        Ok(node) => panic!("{source:?} parsed as {node:?}"),
        Err(e) => e.message,
    }
}

#[test]
fn plain_patterns_keep_their_shape() {
    assert_eq!(
        rust("^[a-z][a-z0-9_]*$"),
        "^[0-9_a-z]*$".replace("[0-9_a-z]*", "[a-z][0-9_a-z]*")
    );
    assert_eq!(rust("^[0-9a-f]{64}$"), "^[0-9a-f]{64}$");
    assert_eq!(rust("^job_[A-Za-z0-9]+$"), "^job_[0-9A-Za-z]+$");
    assert_eq!(
        rust("^[a-z]+/[A-Za-z0-9.+-]+$"),
        r"^[a-z]+/[+\-.0-9A-Za-z]+$"
    );
    assert_eq!(rust("a|b(c|d)?"), "a|b(?:c|d)?");
    assert_eq!(rust("x{2,}?y{1,3}"), "x{2,}?y{1,3}");
}

#[test]
fn shorthands_are_spelt_out_as_ecma_262_defines_them() {
    assert_eq!(rust(r"\d"), "[0-9]");
    assert_eq!(rust(r"\w"), "[0-9A-Z_a-z]");
    assert_eq!(
        rust(r"\s"),
        r"[\x{9}-\x{D} \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]"
    );
    assert_eq!(
        rust("."),
        r"[\x{0}-\x{9}\x{B}\x{C}\x{E}-\x{2027}\x{202A}-\x{D7FF}\x{E000}-\x{10FFFF}]"
    );
    assert_eq!(rust(r"[^\d]"), rust(r"\D"));
    assert_eq!(rust(r"\b"), r"\b");
    assert_eq!(python(r"\bx\B"), r"(?-u:\b)x(?-u:\B)");
}

#[test]
fn escapes_mean_one_code_point() {
    assert_eq!(
        rust(r"\u00e9\u{1F3B5}\uD83C\uDFB5\x41\n\/\."),
        r"\x{E9}\x{1F3B5}\x{1F3B5}A\x{A}/\."
    );
    assert_eq!(rust(r"[\b\-]"), r"[\x{8}\-]");
    assert_eq!(rust("é"), r"\x{E9}");
}

#[test]
fn every_translation_compiles_in_both_engines() {
    for source in [
        r"^\s*\S+\s*$",
        r"[\w.-]+@[\w-]+",
        r"^(?:[A-G][#b]?)+$",
        r".*",
        r"[^\s\S]x|y",
        r"\b\w+\b",
    ] {
        let translated = rust(source);
        assert!(
            regex_lite::Regex::new(&translated).is_ok(),
            "{source} → {translated}"
        );
    }
}

#[test]
fn what_ecma_262_or_the_rust_engines_lack_is_refused_with_a_reason() {
    assert!(refused("(?i)abc").contains("inline flags"));
    assert!(refused(r"a\z").contains("`\\z` is not ECMA-262"));
    assert!(refused(r"\Aa").contains("`\\A` is not ECMA-262"));
    assert!(refused("[[:alpha:]]").contains("POSIX"));
    assert!(refused("[:alpha:]").contains("POSIX"));
    assert!(refused(r"\p{L}").contains("Unicode property"));
    assert!(refused("a(?=b)").contains("lookahead"));
    assert!(refused("(?<=a)b").contains("lookbehind"));
    assert!(refused("(?<n>a)").contains("named groups"));
    assert!(refused("(?P<n>a)").contains("named groups"));
    assert!(refused(r"(a)\1").contains("backreferences"));
    assert!(refused("a**").contains("quantifier cannot follow"));
    assert!(refused("a*+").contains("quantifier cannot follow"));
    assert!(refused("*a").contains("nothing to repeat"));
    assert!(refused("^*").contains("cannot be repeated"));
    assert!(refused("a{,3}").contains("`{,n}`"));
    assert!(refused("a{3,1}").contains("out of order"));
    assert!(refused("a{2000}").contains("above 1000"));
    assert!(refused("a{").contains("lone `{`"));
    assert!(refused("a}").contains("lone `}`"));
    assert!(refused("a]").contains("lone `]`"));
    assert!(refused(r"\-").contains("not an escape"));
    assert!(refused(r"\e").contains("not an escape"));
    assert!(refused("[z-a]").contains("out of order"));
    assert!(refused(r"[\d-z]").contains("cannot bound a range"));
    assert!(refused("[]").contains("matches nothing"));
    assert!(refused("(ab").contains("unclosed group"));
    assert!(refused("ab)").contains("unmatched"));
    assert!(refused("[ab").contains("unclosed character class"));
    assert!(refused("[a[b]").contains("nested class"));
    assert!(refused(r"\uD800").contains("lone surrogate"));
    assert!(refused("a\\").contains("cannot end"));
}

#[test]
fn errors_point_at_the_offending_bytes() {
    let e = parse(r"^ab(?i)c$").unwrap_err();
    assert_eq!((e.start, e.end), (3, 6));
    let e = parse(r"abc\z").unwrap_err();
    assert_eq!((e.start, e.end), (3, 5));
}

/// `tests/vectors/patterns.json`: patterns where the engines' own readings
/// of `\d`, `\w`, `\s`, `.`, `\b` and `$` differ, with strings on both sides
/// of each difference. `matches` is what the Rust translation says; the
/// TypeScript suite checks it against the ECMA-262 engine itself and the
/// Python suite against pydantic running the Python translation, so the
/// three agree string by string. `TOOLWRIGHT_BLESS=1` rewrites the file.
#[test]
fn pattern_vectors_are_fresh() {
    let cases: &[(&str, &[&str])] = &[
        (r"^\d+$", &["123", "\u{661}\u{662}", "12\n", "\u{FF11}"]),
        (r"^\D$", &["a", "5", "\u{663}"]),
        (r"^\w+$", &["abc_1", "héllo", "\u{1C5}", "a-b"]),
        (r"^\W$", &["é", "_", "-"]),
        (
            r"^\s$",
            &[
                " ", "\t", "\u{A0}", "\u{85}", "\u{FEFF}", "\u{2028}", "\u{180E}", "x",
            ],
        ),
        (r"^\S+$", &["abc", "a\u{A0}b", "\u{85}"]),
        (
            r"^.$",
            &["a", "\n", "\r", "\u{2028}", "\u{85}", "🎵", "\u{FFFF}"],
        ),
        (r"\bcat\b", &["a cat!", "concat", "écat", "cat_", "caté"]),
        (r"\Bat", &["cat", "at", "éat"]),
        (r"x$", &["x", "x\n", "xy"]),
        (r"^x", &["x", "\nx", "yx"]),
        (r"^[^a-z]+$", &["ABC", "🎵🎵", "abc", "É"]),
        (r"colou?r", &["my color", "colour", "colr"]),
        (r"^a{2,3}$", &["a", "aa", "aaa", "aaaa"]),
        (r"^(ab|cd)*$", &["", "abcd", "abc"]),
        (r"^[\u00e9\u{1F3B5}]$", &["é", "🎵", "e", "\u{1F3B6}"]),
        (
            r"^[\w.-]+@[\w-]+\.[a-z]{2,}$",
            &["ada@example.org", "ada@ex ample.org", "ädä@example.org"],
        ),
        (r"^[\s\S]*$", &["", "anything\n at all 🎵"]),
        (r"^\x41\u0042\/$", &["AB/", "ab/"]),
        (r"^[a-z]+?x", &["abcx", "x"]),
    ];
    let mut out = Vec::new();
    for (source, strings) in cases {
        let translated = super::rust(source);
        let regex = regex_lite::Regex::new(&translated).expect("translations compile");
        let strings: Vec<serde_json::Value> = strings
            .iter()
            .map(|s| serde_json::json!({"text": s, "matches": regex.is_match(s)}))
            .collect();
        out.push(serde_json::json!({
            "pattern": source,
            "rust": translated,
            "python": super::python(source),
            "strings": strings,
        }));
    }
    let text = serde_json::to_string_pretty(&serde_json::json!({"format": 1, "patterns": out}))
        .expect("JSON values serialize")
        + "\n";
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors/patterns.json");
    if std::fs::read_to_string(&path).ok().as_deref() == Some(text.as_str()) {
        return;
    }
    if std::env::var_os("TOOLWRIGHT_BLESS").is_some() {
        std::fs::write(&path, text).expect("tests/vectors is writable");
        return;
    }
    panic!(
        "tests/vectors/patterns.json is stale; rerun with TOOLWRIGHT_BLESS=1 and review the diff"
    );
}

#[test]
fn translations_match_what_ecma_262_matches() {
    // Spot checks of the differences the translation exists for.
    let is_match =
        |source: &str, s: &str| regex_lite::Regex::new(&rust(source)).unwrap().is_match(s);
    assert!(!is_match(r"^\d$", "\u{661}"));
    assert!(is_match(r"^\s$", "\u{A0}"));
    assert!(is_match(r"^\s$", "\u{FEFF}"));
    assert!(!is_match(r"^\s$", "\u{85}"));
    assert!(!is_match(r"^.$", "\r"));
    assert!(!is_match(r"^.$", "\u{2028}"));
    assert!(is_match(r"^.$", "🎵"));
    assert!(is_match(r"\bcat", "écat"));
    assert!(!is_match(r"x$", "x\n"));
}
