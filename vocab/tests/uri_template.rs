//! URI templates: parsing and its errors, expansion (RFC 6570's examples),
//! matching and its inverse relation to expansion, overlap, and matching
//! time on hostile URIs.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use toolwright_vocab::uri_template::{
    Operator, Part, TemplateError, TemplateErrorKind as Kind, UriTemplate,
};

fn template(text: &str) -> UriTemplate {
    UriTemplate::parse(text).unwrap_or_else(|e| panic!("{text:?}: {e} at {}", e.offset))
}

fn error(text: &str) -> TemplateError {
    match UriTemplate::parse(text) {
        Ok(t) => panic!("{text:?} parsed: {t:?}"),
        Err(e) => e,
    }
}

/// Asserts the error of `text`, its span given as the culprit's text and
/// its offset.
#[track_caller]
fn assert_error(text: &str, offset: usize, culprit: &str, kind: Kind) {
    let e = error(text);
    assert_eq!(
        (e.offset, &text[e.span()], &e.kind),
        (offset, culprit, &kind),
        "{text:?}: {e}"
    );
}

fn pairs(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
        .collect()
}

// Parsing.

#[test]
fn parts_variables_and_spans() {
    let t = template("cas://objects/{hash}{/part,rev}{?page,size}");
    assert!(t.is_template());
    assert_eq!(t.as_str(), "cas://objects/{hash}{/part,rev}{?page,size}");
    assert_eq!(t.to_string(), t.as_str());
    assert_eq!(
        t.parts(),
        &[
            Part::Literal("cas://objects/".into()),
            Part::Expression {
                operator: Operator::Simple,
                variables: vec!["hash".into()],
            },
            Part::Expression {
                operator: Operator::Path,
                variables: vec!["part".into(), "rev".into()],
            },
            Part::Expression {
                operator: Operator::Query,
                variables: vec!["page".into(), "size".into()],
            },
        ]
    );
    assert_eq!(
        t.variables().collect::<Vec<_>>(),
        [
            ("hash", Operator::Simple),
            ("part", Operator::Path),
            ("rev", Operator::Path),
            ("page", Operator::Query),
            ("size", Operator::Query),
        ]
    );
    assert_eq!(t.variable_span("hash"), Some(14..20));
    assert_eq!(t.variable_span("rev"), Some(20..31));
    assert_eq!(
        &t.as_str()[t.variable_span("size").unwrap()],
        "{?page,size}"
    );
    assert_eq!(t.variable_span("nope"), None);

    let every: Vec<_> = template("x:{a}/{+b}/{#c}")
        .variables()
        .map(|(_, op)| op)
        .chain(
            template("x:{.d}{/e}{;f}{?g}{&h}")
                .variables()
                .map(|(_, op)| op),
        )
        .collect();
    assert_eq!(every, Operator::ALL);
    assert_eq!(
        Operator::ALL.map(Operator::as_str),
        ["", "+", "#", ".", "/", ";", "?", "&"]
    );
    assert_eq!(
        Operator::ALL.map(Operator::is_query),
        [false, false, false, false, false, false, true, true]
    );
}

#[test]
fn fixed_uris() {
    for text in [
        "garden://regions",
        "x:",
        "urn:isbn:0451450523",
        "https://example.com/a%20b?x=1&y=%2F#frag",
        "a+b-c.d:[::1]@!$()*+,;=~_",
    ] {
        let t = template(text);
        assert!(!t.is_template(), "{text}");
        assert_eq!(t.parts(), [Part::Literal(text.into())]);
        assert_eq!(t.variables().count(), 0);
        assert_eq!(t.expand(|_| Some("unused".into())), text);
        assert_eq!(t.matches(text), Some(vec![]));
        assert_eq!(t.matches(&format!("{text}/")), None);
        assert_eq!(t.overlap(&t), Some(text.to_owned()));
    }
}

#[test]
fn equality_hash_debug_and_from_str() {
    let a: UriTemplate = "cas://objects/{hash}".parse().unwrap();
    let b = template("cas://objects/{hash}");
    assert_eq!(a, b);
    assert_ne!(a, template("cas://objects/{id}"));
    let set: std::collections::HashSet<_> = [a.clone(), b].into_iter().collect();
    assert_eq!(set.len(), 1);
    let debug = format!("{a:?}");
    assert!(
        debug.contains("cas://objects/{hash}") && debug.contains("Simple"),
        "{debug}"
    );
    assert!("objects/{hash}".parse::<UriTemplate>().is_err());
}

#[test]
fn error_empty() {
    assert_error("", 0, "", Kind::Empty);
    assert_error("cas://{}", 6, "{}", Kind::Empty);
    assert_error("cas://{+}", 6, "{+}", Kind::Empty);
    assert_error("cas://{?}/x", 6, "{?}", Kind::Empty);
    assert_error("cas://{a,}", 8, ",", Kind::Empty);
    assert_error("cas://{a,,b}", 8, ",", Kind::Empty);
    assert_error("cas://{+,a}", 8, ",", Kind::Empty);
    assert_error("cas://{*}", 7, "*", Kind::Empty);
    assert_error("cas://{a,:3}", 9, ":3", Kind::Empty);
}

#[test]
fn error_no_scheme() {
    assert_error("objects/{hash}", 0, "objects", Kind::NoScheme);
    assert_error("objects", 0, "objects", Kind::NoScheme);
    assert_error("1cas://x", 0, "1cas", Kind::NoScheme);
    assert_error("ca_s://x", 0, "ca_s", Kind::NoScheme);
    assert_error("{scheme}://x", 0, "{", Kind::NoScheme);
    assert_error("://x", 0, ":", Kind::NoScheme);
    assert_error("/abs/path", 0, "/", Kind::NoScheme);
    assert_error("éa:x", 0, "éa", Kind::NoScheme);
    assert_error("a b:x", 0, "a b", Kind::NoScheme);
    // A scheme is checked before anything else.
    assert_error("a}", 0, "a", Kind::NoScheme);
}

#[test]
fn error_invalid_character() {
    assert_error("cas://a b", 7, " ", Kind::InvalidCharacter(' '));
    assert_error("cas://<a>", 6, "<", Kind::InvalidCharacter('<'));
    assert_error("cas://a\"", 7, "\"", Kind::InvalidCharacter('"'));
    assert_error("cas://it's", 8, "'", Kind::InvalidCharacter('\''));
    assert_error("cas://a|b", 7, "|", Kind::InvalidCharacter('|'));
    assert_error("cas://a\\b", 7, "\\", Kind::InvalidCharacter('\\'));
    assert_error("cas://a^b", 7, "^", Kind::InvalidCharacter('^'));
    assert_error("cas://a`b", 7, "`", Kind::InvalidCharacter('`'));
    assert_error("cas://a\tb", 7, "\t", Kind::InvalidCharacter('\t'));
    assert_error("cas://café", 9, "é", Kind::InvalidCharacter('é'));
    assert_error("cas://{a}/é", 10, "é", Kind::InvalidCharacter('é'));
    // Bad escapes: the span covers what should have been the two digits.
    assert_error("cas://a%zz", 7, "%zz", Kind::InvalidCharacter('%'));
    assert_error("cas://a%2", 7, "%2", Kind::InvalidCharacter('%'));
    assert_error("cas://a%", 7, "%", Kind::InvalidCharacter('%'));
    assert_error("cas://a%2{b}", 7, "%2", Kind::InvalidCharacter('%'));
    // A second `#`, literal or operator.
    assert_error("cas://a#b#c", 9, "#", Kind::InvalidCharacter('#'));
    assert_error("cas://a#{#b}", 9, "#", Kind::InvalidCharacter('#'));
    assert_error("cas://{#a}/#", 11, "#", Kind::InvalidCharacter('#'));
    assert_error("cas://{#a}{#b}", 11, "#", Kind::InvalidCharacter('#'));
    // `%`, `#` and every URI character but `'` are fine where they belong.
    template("cas://a%20b%2f/[x]@!$&()*+,;=:~_-.#frag?x");
}

#[test]
fn error_unclosed_and_unopened() {
    assert_error("cas://{hash", 6, "{hash", Kind::Unclosed);
    assert_error("cas://{a{b}", 6, "{a", Kind::Unclosed);
    assert_error("cas://{", 6, "{", Kind::Unclosed);
    assert_error("cas://a}", 7, "}", Kind::Unopened);
    assert_error("cas://{a}}", 9, "}", Kind::Unopened);
}

#[test]
fn error_invalid_variable_name() {
    for (text, name) in [
        ("cas://{Hash}", "Hash"),
        ("cas://{a-b}", "a-b"),
        ("cas://{a__b}", "a__b"),
        ("cas://{a_}", "a_"),
        ("cas://{_a}", "_a"),
        ("cas://{1a}", "1a"),
        ("cas://{a.b}", "a.b"),
        ("cas://{a b}", "a b"),
        ("cas://{%41}", "%41"),
        ("cas://{$a}", "$a"),
        ("cas://{é}", "é"),
    ] {
        assert_error(text, 7, name, Kind::InvalidVariableName(name.into()));
    }
    assert_error(
        "cas://{;ok,notOk}",
        11,
        "notOk",
        Kind::InvalidVariableName("notOk".into()),
    );
    for name in ["a", "a1", "object_hash", "x2_y3_z", "v_1"] {
        template(&format!("cas://{{{name}}}"));
    }
}

#[test]
fn error_modifier() {
    assert_error("cas://{hash:8}", 11, ":8", Kind::Modifier(':'));
    assert_error("cas://{hash:}", 11, ":", Kind::Modifier(':'));
    assert_error("cas://{a,hash:10}", 13, ":10", Kind::Modifier(':'));
    assert_error("cas://{list*}", 11, "*", Kind::Modifier('*'));
    assert_error("cas://{/list*,b}", 12, "*", Kind::Modifier('*'));
}

#[test]
fn error_reserved_operator() {
    for op in ['=', ',', '!', '@', '|'] {
        assert_error(
            &format!("cas://{{{op}a}}"),
            7,
            &op.to_string(),
            Kind::ReservedOperator(op),
        );
    }
}

#[test]
fn error_repeated_variable() {
    assert_error("cas://{a}/{a}", 11, "a", Kind::RepeatedVariable("a".into()));
    assert_error("cas://x{?a,a}", 11, "a", Kind::RepeatedVariable("a".into()));
    assert_error(
        "cas://{/who,who}",
        12,
        "who",
        Kind::RepeatedVariable("who".into()),
    );
}

#[test]
fn error_adjacent_expressions() {
    assert_error("cas://{a}{b}", 6, "{a}{b}", Kind::AdjacentExpressions);
    assert_error("cas://{a}{+b}", 6, "{a}{+b}", Kind::AdjacentExpressions);
    assert_error("cas://{a}{.b}", 6, "{a}{.b}", Kind::AdjacentExpressions);
    assert_error("cas://{.a}{.b}", 6, "{.a}{.b}", Kind::AdjacentExpressions);
    assert_error("cas://{+a}{/b}", 6, "{+a}{/b}", Kind::AdjacentExpressions);
    assert_error("cas://{+a}{;b}", 6, "{+a}{;b}", Kind::AdjacentExpressions);
    assert_error("cas://{+a}{&b}", 6, "{+a}{&b}", Kind::AdjacentExpressions);
    assert_error("cas://{#a}{?b}", 6, "{#a}{?b}", Kind::AdjacentExpressions);
    assert_error("cas://{#a}{/b}", 6, "{#a}{/b}", Kind::AdjacentExpressions);
    assert_error("cas://{?a}{b}", 6, "{?a}{b}", Kind::AdjacentExpressions);
    // RFC 6570's own `up{+path}{var}/here`.
    assert_error(
        "x:up{+path}{var}/here",
        4,
        "{+path}{var}",
        Kind::AdjacentExpressions,
    );
    // Through a query expression that may expand to nothing.
    assert_error(
        "cas://{a}{?q}{.b}",
        9,
        "{?q}{.b}",
        Kind::AdjacentExpressions,
    );
    assert_error(
        "cas://{+a}{?q}{/b}",
        6,
        "{+a}{?q}{/b}",
        Kind::AdjacentExpressions,
    );
    assert_error(
        "cas://{+a}{?q}{&r}",
        6,
        "{+a}{?q}{&r}",
        Kind::AdjacentExpressions,
    );
    assert_error(
        "x:{+a}{?b}{?c}{&d}",
        2,
        "{+a}{?b}{?c}{&d}",
        Kind::AdjacentExpressions,
    );
    assert_error(
        "cas://{a}{?q}{&r}{b}",
        13,
        "{&r}{b}",
        Kind::AdjacentExpressions,
    );
    // Self-delimiting.
    for text in [
        "x:{a}{/b}",
        "x:{a}{;b}",
        "x:{a}{?b}",
        "x:{a}{&b}",
        "x:{a}{#b}",
        "x:{.a}{/b}",
        "x:{/a}{/b}",
        "x:{/a}{;b}",
        "x:{;a}{;b}",
        "x:{;a}{?b}",
        "x:{?a}{&b}",
        "x:{?a}{#b}",
        "x:{&a}{?b}",
        "x:{+a}{?b}",
        "x:{+a}{#b}",
        "x:{a}{?q}{&r}{#f}",
        "x:{/a}{?q}{/b}",
        "x:{+a}{?b}{?c}{#d}",
        "x:{+a}{?b}/{&c}",
        "x:{+a}/{?b}{?c}{&d}",
        "x:{a}{?b}{&c}{?d}{;e}",
        // A literal between is always enough (reading back is then greedy).
        "x:{a}.{b}",
        "x:{+a}/{+b}",
        "x:{a}-{?q}",
    ] {
        template(text);
    }
}

#[test]
fn error_messages() {
    let cases = [
        ("", "the URI is empty"),
        (
            "objects/{hash}",
            "a URI must start with a scheme such as `cas:` \
             (a letter, then letters, digits, `+`, `-` or `.`, then `:`)",
        ),
        (
            "cas://{hash:8}",
            "this expression uses a prefix modifier (`:n`), \
             which Toolwright templates do not support",
        ),
        (
            "cas://{list*}",
            "this expression uses an explode modifier (`*`), \
             which Toolwright templates do not support",
        ),
        ("cas://a b", "a space may not appear in a URI: write `%20`"),
        ("cas://café", "`é` may not appear in a URI: write `%C3%A9`"),
        (
            "cas://a\tb",
            "the control character U+0009 may not appear in a URI: write `%09`",
        ),
        (
            "cas://50%",
            "`%` must begin a percent-escape of two hexadecimal digits, \
             such as `%2F` (`%25` for `%` itself)",
        ),
        (
            "cas://{Hash}",
            "`Hash` is not a snake_case variable name (lower-case letters and digits, \
             starting with a letter, words joined by single underscores)",
        ),
        (
            "cas://{a}/{a}",
            "the variable `a` appears more than once in the template",
        ),
        (
            "cas://{!a}",
            "`!` is an operator RFC 6570 reserves for future extensions, \
             which Toolwright templates do not support",
        ),
        ("cas://{a", "`{` opens an expression that no `}` closes"),
        (
            "cas://a}",
            "`}` closes no expression (a literal `}` is written `%7D`)",
        ),
        (
            "cas://{a,}",
            "a variable name is missing in this expression",
        ),
    ];
    for (text, message) in cases {
        assert_eq!(error(text).to_string(), message, "{text:?}");
    }
    // Every message: one lower-case sentence, no trailing period.
    for text in [
        "cas://a#b#c",
        "cas://it's",
        "cas://{a}{b}",
        "cas://{=a}",
        "cas://<",
    ] {
        let message = error(text).to_string();
        let first = message.chars().next().unwrap();
        assert!(first.is_lowercase() || first == '`', "{message}");
        assert!(
            !message.ends_with('.') && !message.contains('\n'),
            "{message}"
        );
    }
    let boxed: Box<dyn std::error::Error> = Box::new(error("x"));
    assert!(boxed.to_string().contains("scheme"));
}

#[test]
fn any_text_parses_or_fails_cleanly() {
    // Never a panic; an error's span lies in the text, on character
    // boundaries (the checker slices it), and is empty only for an empty
    // text; a template keeps its text.
    const PIECES: &[&str] = &[
        "x:", "a", "_", "A", "1", "{", "}", ",", "+", "#", ".", "/", ";", "?", "&", "=", "!", "@",
        "|", ":", "*", "%", "%2", "%41", "'", " ", "é", "😀", "\t", "{a}", "{?b}", "{#c}",
    ];
    let mut rng = Rng(0x5EED_0004);
    let mut parsed = 0;
    for _ in 0..20_000 {
        let mut text = String::new();
        if rng.below(4) > 0 {
            text.push_str("x:");
        }
        for _ in 0..rng.below(8) {
            let piece = rng.pick(PIECES);
            text.push_str(piece);
        }
        match UriTemplate::parse(&text) {
            Ok(t) => {
                parsed += 1;
                assert_eq!(t.as_str(), text);
                let uri = t.expand(|n| Some(n.to_owned()));
                assert!(t.matches(&uri).is_some(), "{text}: {uri}");
                assert!(t.overlap(&t).is_some(), "{text}");
            }
            Err(e) => {
                assert!(e.offset + e.len <= text.len(), "{text:?}: {e:?}");
                assert!(
                    text.is_char_boundary(e.offset) && text.is_char_boundary(e.offset + e.len),
                    "{text:?}: {e:?}"
                );
                assert_eq!(e.len == 0, text.is_empty(), "{text:?}: {e:?}");
                assert!(!e.to_string().is_empty());
            }
        }
    }
    assert!(parsed > 2000, "only {parsed} parsed");
}

// Expansion: RFC 6570 §1.2 (levels 1 to 3) and §3.2, where no modifier is
// needed; every template gets a scheme, `x:`.

fn rfc_value(name: &str) -> Option<String> {
    let value = match name {
        "var" => "value",
        "hello" => "Hello World!",
        "half" => "50%",
        "who" => "fred",
        "base" => "http://example.com/home/",
        "path" => "/foo/bar",
        "v" => "6",
        "x" => "1024",
        "y" => "768",
        "empty" => "",
        "dub" => "me/too",
        _ => return None,
    };
    Some(value.to_owned())
}

const RFC_EXAMPLES: &[(&str, &str)] = &[
    // §1.2, level 1.
    ("{var}", "value"),
    ("{hello}", "Hello%20World%21"),
    // Level 2.
    ("{+var}", "value"),
    ("{+hello}", "Hello%20World!"),
    ("{+path}/here", "/foo/bar/here"),
    ("here?ref={+path}", "here?ref=/foo/bar"),
    ("X{#var}", "X#value"),
    ("X{#hello}", "X#Hello%20World!"),
    // Level 3.
    ("map?{x,y}", "map?1024,768"),
    ("{x,hello,y}", "1024,Hello%20World%21,768"),
    ("{+x,hello,y}", "1024,Hello%20World!,768"),
    ("{+path,x}/here", "/foo/bar,1024/here"),
    ("{#x,hello,y}", "#1024,Hello%20World!,768"),
    ("{#path,x}/here", "#/foo/bar,1024/here"),
    ("X{.var}", "X.value"),
    ("X{.x,y}", "X.1024.768"),
    ("{/var}", "/value"),
    ("{/var,x}/here", "/value/1024/here"),
    ("{;x,y}", ";x=1024;y=768"),
    ("{;x,y,empty}", ";x=1024;y=768;empty"),
    ("{?x,y}", "?x=1024&y=768"),
    ("{?x,y,empty}", "?x=1024&y=768&empty="),
    ("?fixed=yes{&x}", "?fixed=yes&x=1024"),
    ("{&x,y,empty}", "&x=1024&y=768&empty="),
    // §3.2.2, simple string expansion.
    ("{half}", "50%25"),
    ("O{empty}X", "OX"),
    ("O{undef}X", "OX"),
    ("{x,y}", "1024,768"),
    ("?{x,empty}", "?1024,"),
    ("?{x,undef}", "?1024"),
    ("?{undef,y}", "?768"),
    // §3.2.3, reserved expansion.
    ("{+half}", "50%25"),
    ("{base}index", "http%3A%2F%2Fexample.com%2Fhome%2Findex"),
    ("{+base}index", "http://example.com/home/index"),
    ("O{+empty}X", "OX"),
    ("O{+undef}X", "OX"),
    // §3.2.4, fragment expansion.
    ("{#var}", "#value"),
    ("{#hello}", "#Hello%20World!"),
    ("{#half}", "#50%25"),
    ("foo{#empty}", "foo#"),
    ("foo{#undef}", "foo"),
    // §3.2.5, label expansion.
    ("{.who}", ".fred"),
    ("{.half,who}", ".50%25.fred"),
    ("X{.empty}", "X."),
    ("X{.undef}", "X"),
    // §3.2.6, path segments.
    ("{/who}", "/fred"),
    ("{/half,who}", "/50%25/fred"),
    ("{/who,dub}", "/fred/me%2Ftoo"),
    ("{/var,empty}", "/value/"),
    ("{/var,undef}", "/value"),
    // §3.2.7, path-style parameters.
    ("{;who}", ";who=fred"),
    ("{;half}", ";half=50%25"),
    ("{;empty}", ";empty"),
    ("{;v,empty,who}", ";v=6;empty;who=fred"),
    ("{;v,bar,who}", ";v=6;who=fred"),
    ("{;x,y,undef}", ";x=1024;y=768"),
    // §3.2.8, form-style query.
    ("{?who}", "?who=fred"),
    ("{?half}", "?half=50%25"),
    ("{?x,y,undef}", "?x=1024&y=768"),
    // §3.2.9, query continuation.
    ("{&who}", "&who=fred"),
    ("{&half}", "&half=50%25"),
];

#[test]
fn expansion_rfc_examples() {
    for (text, expected) in RFC_EXAMPLES {
        let t = template(&format!("x:{text}"));
        assert_eq!(t.expand(rfc_value), format!("x:{expected}"), "{text}");
    }
}

#[test]
fn rfc_examples_read_back() {
    // Where every non-query variable is defined and non-empty (else the URI
    // does not read back, by design), matching gives the values back.
    for (text, expected) in RFC_EXAMPLES {
        let t = template(&format!("x:{text}"));
        let defined: Vec<(String, String)> = t
            .variables()
            .filter_map(|(n, _)| rfc_value(n).map(|v| (n.to_owned(), v)))
            .collect();
        let complete = t.variables().all(|(n, op)| {
            op.is_query()
                || rfc_value(n).is_some_and(|v| !v.is_empty() || op == Operator::PathParam)
        });
        let uri = format!("x:{expected}");
        let read = t.matches(&uri);
        if !complete {
            assert_eq!(read, None, "{text} on {uri}");
            continue;
        }
        let read = read.unwrap_or_else(|| panic!("{text} does not match {uri}"));
        if text.starts_with("{+path,x}") || text.starts_with("{#path,x}") {
            // `,` may be part of a reserved value: the first takes it all.
            assert_eq!(read.len(), 2);
            continue;
        }
        // `%` in `{+half}` and `{#half}` is `%25`, read back as `%`; a
        // `{.…}` value may hold `.`: values with neither read back exactly.
        assert_eq!(read, defined, "{text} on {uri}");
    }
}

#[test]
fn expansion_encoding() {
    let t = template("x:/{a}/{+b}/{#c}");
    let uri = t.expand(|n| {
        Some(match n {
            "a" => "é/ ?%41".into(),
            "b" => "é/ ?%41%zz[]'".into(),
            _ => "😀#".into(),
        })
    });
    assert_eq!(
        uri,
        "x:/%C3%A9%2F%20%3F%2541/%C3%A9/%20?%41%25zz[]'/#%F0%9F%98%80#"
    );
    // Undefined variables and their separators are left out.
    let t = template("x:{/a,b,c}{?d,e,f}");
    let uri = t.expand(|n| matches!(n, "b" | "e").then(|| n.to_owned()));
    assert_eq!(uri, "x:/b?e=e");
    assert_eq!(t.expand(|_| None), "x:");
}

// Matching.

#[test]
fn matches_simple() {
    let t = template("cas://objects/{hash}");
    assert_eq!(
        t.matches("cas://objects/abc123"),
        Some(pairs(&[("hash", "abc123")]))
    );
    for uri in [
        "cas://objects/",
        "cas://objects/a/b",
        "cas://objects/abc/meta",
        "cas://objects/a?b",
        "cas://objects/a#b",
        "cas://objects/a b",
        "cas://objects/é",
        "cas://object/abc",
        "CAS://objects/abc",
        "cas://objects/a%",
        "cas://objects/a%2",
        "cas://objects/a%zz",
        "",
    ] {
        assert_eq!(t.matches(uri), None, "{uri}");
    }
    // Decoded; either case of hex digits.
    assert_eq!(
        t.matches("cas://objects/caf%C3%A9%2f%20"),
        Some(pairs(&[("hash", "café/ ")]))
    );
    assert_eq!(
        t.matches("cas://objects/caf%c3%a9"),
        Some(pairs(&[("hash", "café")]))
    );
    // Not UTF-8.
    assert_eq!(t.matches("cas://objects/%FF"), None);
    assert_eq!(t.matches("cas://objects/%C3"), None);
    // Literals are compared exactly.
    let t = template("x:/a%2Fb/{c}");
    assert_eq!(t.matches("x:/a%2Fb/c"), Some(pairs(&[("c", "c")])));
    assert_eq!(t.matches("x:/a%2fb/c"), None);
    assert_eq!(t.matches("x:/a/b/c"), None);
}

#[test]
fn matches_multiple_variables() {
    let t = template("x:{a,b}");
    assert_eq!(t.matches("x:1,2"), Some(pairs(&[("a", "1"), ("b", "2")])));
    assert_eq!(
        t.matches("x:1%2C2,3"),
        Some(pairs(&[("a", "1,2"), ("b", "3")]))
    );
    assert_eq!(t.matches("x:1,2,3"), None);
    assert_eq!(t.matches("x:1"), None);
    assert_eq!(t.matches("x:1,"), None);

    let t = template("x:{/a,b}");
    assert_eq!(t.matches("x:/1/2"), Some(pairs(&[("a", "1"), ("b", "2")])));
    assert_eq!(t.matches("x:/1"), None);
    assert_eq!(t.matches("x:/1/2/3"), None);
    assert_eq!(t.matches("x:/1//"), None);
    // `{/a}{/b}` is `{/a,b}`.
    assert_eq!(
        template("x:{/a}{/b}").matches("x:/1/2"),
        Some(pairs(&[("a", "1"), ("b", "2")]))
    );
}

#[test]
fn matches_reserved_and_fragment() {
    let t = template("file:///{+path}");
    assert_eq!(
        t.matches("file:///docs/a%20b/c.md"),
        Some(pairs(&[("path", "docs/a b/c.md")]))
    );
    assert_eq!(
        t.matches("file:///a:b@c!$&'()*+,;=[]"),
        Some(pairs(&[("path", "a:b@c!$&'()*+,;=[]")]))
    );
    assert_eq!(t.matches("file:///a?b"), None);
    assert_eq!(t.matches("file:///a#b"), None);
    assert_eq!(t.matches("file:///"), None);

    let t = template("x:/p{#section}");
    assert_eq!(
        t.matches("x:/p#a/b?c=d"),
        Some(pairs(&[("section", "a/b?c=d")]))
    );
    assert_eq!(t.matches("x:/p#a#b"), None);
    assert_eq!(t.matches("x:/p#"), None);
    assert_eq!(t.matches("x:/p"), None);

    let t = template("x:{+path}{?q}{#f}");
    assert_eq!(
        t.matches("x:/a/b?q=1#c?d"),
        Some(pairs(&[("path", "/a/b"), ("q", "1"), ("f", "c?d")]))
    );
    assert_eq!(
        t.matches("x:/a/b#c"),
        Some(pairs(&[("path", "/a/b"), ("f", "c")]))
    );
}

#[test]
fn matches_label_and_path_params() {
    let t = template("x:/file{.ext}");
    assert_eq!(
        t.matches("x:/file.tar.gz"),
        Some(pairs(&[("ext", "tar.gz")]))
    );
    assert_eq!(t.matches("x:/file"), None);
    assert_eq!(t.matches("x:/file."), None);

    let t = template("x:/p{;a,b}");
    assert_eq!(
        t.matches("x:/p;a=1;b=2"),
        Some(pairs(&[("a", "1"), ("b", "2")]))
    );
    assert_eq!(
        t.matches("x:/p;a;b=2"),
        Some(pairs(&[("a", ""), ("b", "2")]))
    );
    assert_eq!(t.matches("x:/p;a;b"), Some(pairs(&[("a", ""), ("b", "")])));
    assert_eq!(t.matches("x:/p;a=;b=2"), None);
    assert_eq!(t.matches("x:/p;b=2;a=1"), None);
    assert_eq!(t.matches("x:/p;a=1"), None);
    assert_eq!(t.matches("x:/p;ab=1;b=2"), None);
    assert_eq!(t.matches("x:/p;a=1;b=2;c=3"), None);
}

#[test]
fn matches_query() {
    let t = template("x:/s{?q,page}");
    assert_eq!(t.matches("x:/s"), Some(vec![]));
    assert_eq!(t.matches("x:/s?q=a"), Some(pairs(&[("q", "a")])));
    assert_eq!(t.matches("x:/s?page=2"), Some(pairs(&[("page", "2")])));
    assert_eq!(
        t.matches("x:/s?q=a%26b%3Dc&page=2"),
        Some(pairs(&[("q", "a&b=c"), ("page", "2")]))
    );
    assert_eq!(t.matches("x:/s?q="), Some(pairs(&[("q", "")])));
    for uri in [
        "x:/s?page=2&q=a",
        "x:/s?q=a&other=1",
        "x:/s?other=1",
        "x:/s?q=a&q=b",
        "x:/s?",
        "x:/s?q",
        "x:/s?q=a&",
        "x:/s&q=a",
        "x:/s?q=a?page=2",
        "x:/s?q=a/b",
    ] {
        assert_eq!(t.matches(uri), None, "{uri}");
    }

    let t = template("x:/s?fixed=1{&a,b}");
    assert_eq!(t.matches("x:/s?fixed=1"), Some(vec![]));
    assert_eq!(t.matches("x:/s?fixed=1&b=2"), Some(pairs(&[("b", "2")])));
    assert_eq!(t.matches("x:/s?fixed=1?b=2"), None);

    // As expansion does it: `{&…}` after an empty `{?…}` begins with `&`.
    let t = template("x:/s{?a}{&b}");
    assert_eq!(
        t.matches("x:/s?a=1&b=2"),
        Some(pairs(&[("a", "1"), ("b", "2")]))
    );
    assert_eq!(t.matches("x:/s&b=2"), Some(pairs(&[("b", "2")])));
    assert_eq!(t.expand(|n| (n == "b").then(|| "2".into())), "x:/s&b=2");
}

#[test]
fn matches_prefer_earlier_variables() {
    assert_eq!(
        template("x:{a}-{b}").matches("x:1-2-3"),
        Some(pairs(&[("a", "1-2"), ("b", "3")]))
    );
    assert_eq!(
        template("x:/{name}.{ext}").matches("x:/a.b.c"),
        Some(pairs(&[("name", "a.b"), ("ext", "c")]))
    );
    assert_eq!(
        template("x:/{+path}/meta").matches("x:/a/meta/meta"),
        Some(pairs(&[("path", "a/meta")]))
    );
    assert_eq!(
        template("x:{+a,b}").matches("x:1,2,3"),
        Some(pairs(&[("a", "1,2"), ("b", "3")]))
    );
    assert_eq!(
        template("x:{.a,b}").matches("x:.1.2.3"),
        Some(pairs(&[("a", "1.2"), ("b", "3")]))
    );
    assert_eq!(
        template("x:{;a}=b").matches("x:;a=b=b"),
        Some(pairs(&[("a", "b")]))
    );
    assert_eq!(
        template("x:{;a}=b").matches("x:;a=b"),
        Some(pairs(&[("a", "")]))
    );
}

// Matching inverts expansion, over generated templates and values.

/// SplitMix64: small, deterministic, good enough to generate cases.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const OPERATORS: &[&str] = &["", "+", "#", ".", "/", ";", "?", "&"];

/// A template that parses, of up to `max_parts` parts from `literals` and
/// expressions of up to three variables.
fn random_template(rng: &mut Rng, literals: &[&str], max_parts: usize) -> UriTemplate {
    loop {
        let mut text = String::from("t:");
        let mut next_name = 0;
        for _ in 0..1 + rng.below(max_parts) {
            if rng.below(2) == 0 {
                let literal = rng.pick(literals);
                text.push_str(literal);
                continue;
            }
            text.push('{');
            let operator = rng.pick(OPERATORS);
            text.push_str(operator);
            for i in 0..1 + rng.below(3) {
                if i > 0 {
                    text.push(',');
                }
                text.push_str(&format!("v{next_name}"));
                next_name += 1;
            }
            text.push('}');
        }
        if let Ok(t) = UriTemplate::parse(&text) {
            return t;
        }
    }
}

const VALUE_CHARS: &[char] = &[
    'a', 'Z', '0', '9', 'k', 'v', 't', '-', '.', '_', '~', ' ', '/', '?', '#', '&', '=', ',', ';',
    ':', '@', '!', '$', '\'', '(', ')', '*', '+', '[', ']', '%', '"', 'é', '€', '😀', '\n',
];

/// Values for every variable of `t` that read back: present and non-empty
/// outside queries (`{;…}` may be empty), without `?` or `#` in `{+…}` and
/// `#` in `{#…}` (they would begin the query or fragment), without `%` in
/// either (an escape in such a value expands as it is, so reads back
/// decoded, and `%` could make one).
fn random_values(rng: &mut Rng, t: &UriTemplate) -> HashMap<String, String> {
    let mut values = HashMap::new();
    for (name, op) in t.variables() {
        if op.is_query() && rng.below(3) == 0 {
            continue;
        }
        let min = usize::from(!op.is_query() && op != Operator::PathParam);
        let mut value: String = (0..min + rng.below(5))
            .map(|_| *rng.pick(VALUE_CHARS))
            .collect();
        match op {
            Operator::Reserved => value.retain(|c| !matches!(c, '?' | '#' | '%')),
            Operator::Fragment => value.retain(|c| !matches!(c, '#' | '%')),
            _ => {}
        }
        if value.is_empty() && min == 1 {
            value.push('a');
        }
        values.insert(name.to_owned(), value);
    }
    values
}

/// Whether the values can be read only one way from the URI: no value's
/// expansion holds a character of the template's literals, or one that
/// begins or joins values.
fn unambiguous(t: &UriTemplate, values: &HashMap<String, String>) -> bool {
    let mut structural: Vec<char> = ",./;=&?#".chars().collect();
    for part in t.parts() {
        if let Part::Literal(text) = part {
            structural.extend(text.chars());
        }
    }
    t.variables().all(|(name, op)| {
        let Some(value) = values.get(name) else {
            return true;
        };
        let alone = template(if op == Operator::Reserved || op == Operator::Fragment {
            "t:{+v}"
        } else {
            "t:{v}"
        });
        let expanded = alone.expand(|_| Some(value.clone()));
        !expanded[2..].chars().any(|c| structural.contains(&c))
    })
}

const LITERALS: &[&str] = &[
    "/", "-", ".", "/items/", ".json", ",", ";", "=", "?k=v", "&", "~", "a", "x/y", "@", ":", "!",
    "*", "%20", "(", ")", "$", "+", "#", "_", "[", "]",
];

#[test]
fn matching_inverts_expansion() {
    let mut rng = Rng(0x5EED_0001);
    let mut exact = 0;
    for case in 0..3000 {
        let t = random_template(&mut rng, LITERALS, 6);
        let values = random_values(&mut rng, &t);
        let uri = t.expand(|n| values.get(n).cloned());
        let context = || format!("case {case}: {t} with {values:?} gives {uri:?}");
        let read = t
            .matches(&uri)
            .unwrap_or_else(|| panic!("{}: no match", context()));
        // Whatever the reading, it expands to the same URI…
        let again: HashMap<String, String> = read.iter().cloned().collect();
        assert_eq!(
            t.expand(|n| again.get(n).cloned()),
            uri,
            "{}: read {read:?}",
            context()
        );
        // …and it is the values themselves when there is only one reading.
        if unambiguous(&t, &values) {
            let expected: Vec<(String, String)> = t
                .variables()
                .filter_map(|(n, _)| values.get(n).map(|v| (n.to_owned(), v.clone())))
                .collect();
            assert_eq!(read, expected, "{}", context());
            exact += 1;
        }
    }
    assert!(exact > 500, "only {exact} cases read back exactly");
}

#[test]
fn random_uris_match_only_what_expands_to_them() {
    // Strings near a template's language: its expansion, mutated. Whatever
    // matches must expand back to the very string.
    let mut rng = Rng(0x5EED_0002);
    let mut matched = 0;
    for _ in 0..3000 {
        let t = random_template(&mut rng, LITERALS, 5);
        let values = random_values(&mut rng, &t);
        let mut uri: Vec<char> = t.expand(|n| values.get(n).cloned()).chars().collect();
        for _ in 0..rng.below(3) {
            let at = rng.below(uri.len() + 1);
            match rng.below(3) {
                0 if at < uri.len() => {
                    uri.remove(at);
                }
                1 if at < uri.len() => uri[at] = *rng.pick(VALUE_CHARS),
                _ => uri.insert(at, *rng.pick(VALUE_CHARS)),
            }
        }
        let uri: String = uri.into_iter().collect();
        if let Some(read) = t.matches(&uri) {
            matched += 1;
            let again: HashMap<String, String> = read.iter().cloned().collect();
            let expanded = t.expand(|n| again.get(n).cloned());
            // `{+…}` and `{#…}` write reserved characters as they are,
            // whether the URI had them escaped or not; escapes are read in
            // either case and written upper-case.
            assert_eq!(
                percent_decode(&expanded),
                percent_decode(&uri),
                "{t} read {uri:?} as {read:?}"
            );
            let reserved = t
                .variables()
                .any(|(_, op)| matches!(op, Operator::Reserved | Operator::Fragment));
            if !reserved {
                assert_eq!(
                    expanded.to_ascii_uppercase(),
                    uri.to_ascii_uppercase(),
                    "{t} read {uri:?} as {read:?}"
                );
            }
        }
    }
    assert!(matched > 500, "only {matched} matched");
}

/// `text` with its escapes decoded, as bytes.
fn percent_decode(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let escape = (bytes[i] == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok());
        match escape {
            Some(b) => {
                out.push(b);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    out
}

// Overlap.

#[track_caller]
fn assert_overlap(a: &str, b: &str, expected: Option<&str>) {
    let (a, b) = (template(a), template(b));
    for (x, y) in [(&a, &b), (&b, &a)] {
        let witness = x.overlap(y);
        assert_eq!(witness.as_deref(), expected, "{x} and {y}");
        if let Some(w) = witness {
            assert!(x.matches(&w).is_some() && y.matches(&w).is_some(), "{w}");
        }
    }
}

#[test]
fn overlap_pairs() {
    assert_overlap("cas://a", "cas://a", Some("cas://a"));
    assert_overlap("cas://a", "cas://b", None);
    assert_overlap("cas://objects/{hash}", "cas://objects/{hash}/meta", None);
    assert_overlap(
        "file:///{+path}",
        "file:///readme.md",
        Some("file:///readme.md"),
    );
    assert_overlap(
        "cas://objects/{hash}",
        "cas://objects/{id}",
        Some("cas://objects/a"),
    );
    assert_overlap("cas://objects/{hash}", "cas://blobs/{hash}", None);
    assert_overlap("cas://objects/{hash}", "cas://objects/a/b", None);
    assert_overlap("x:/s{?q}", "x:/s{?page}", Some("x:/s"));
    assert_overlap("x:/s{?q}", "x:/s?q=1", Some("x:/s?q=1"));
    assert_overlap("x:/s{?q}", "x:/s?page=1", None);
    assert_overlap("x:/s{?q,r}", "x:/s?r=1{&s}", Some("x:/s?r=1"));
    assert_overlap("x:/s?q={q}", "x:/s{?q}", Some("x:/s?q=a"));
    assert_overlap("x:/{a}.json", "x:/{b}.{ext}", Some("x:/a.json"));
    assert_overlap("x:{+a}/meta", "x:{b}", None);
    assert_overlap("x:{+a}/meta", "x:{+c}", Some("x:a/meta"));
    assert_overlap("x:{+a}", "x:{b}?c", None);
    assert_overlap("x:/p{#f}", "x:/p#{g}", Some("x:/p#a"));
    assert_overlap("x:{/a}", "x:/{b}", Some("x:/a"));
    assert_overlap("x:{/a}", "x:/{b}/{c}", None);
    assert_overlap("x:{/a}", "x:/{+b}", Some("x:/a"));
    assert_overlap("x:{;a}", "x:;a", Some("x:;a"));
    assert_overlap("x:{;a}", "x:;b", None);
    assert_overlap("x:{;a}", "x:;{b}", Some("x:;a"));
    assert_overlap("x:{.a}", "x:.b.c", Some("x:.b.c"));
    assert_overlap("x:/a/{b}", "x:/{c}/d", Some("x:/a/d"));
    assert_overlap("x:/%2F{a}", "x:/{b}", Some("x:/%2Fa"));
    assert_overlap("x:/{a}", "x:/{b}", Some("x:/a"));
    assert_overlap("x:{a}", "y:{a}", None);
    assert_overlap("x:/{a}-{b}", "x:/{c}", Some("x:/a-a"));
}

#[test]
fn overlap_percent_escape_approximation() {
    // The one approximation the docs own: between two templates an escape
    // counts as characters, even where a value would not decode to UTF-8.
    let (a, b) = (template("x:/%FF{a}"), template("x:/{b}"));
    assert_eq!(a.overlap(&b).as_deref(), Some("x:/%FFa"));
    assert_eq!(b.matches("x:/%FFa"), None);
    // Against a fixed URI it is exact.
    assert_eq!(b.overlap(&template("x:/%FFa")), None);
    assert_eq!(
        b.overlap(&template("x:/%C3%A9")).as_deref(),
        Some("x:/%C3%A9")
    );
}

#[test]
fn overlap_agrees_with_matching() {
    // Over small templates that often overlap: when a URI of one matches the
    // other, they overlap; a witness is matched by both; overlap is
    // symmetric; a template overlaps itself.
    const SMALL: &[&str] = &["/", "a", ".", "-", "/a", "?v0=a", "#"];
    let mut rng = Rng(0x5EED_0003);
    let (mut overlapping, mut found_by_uri) = (0, 0);
    for case in 0..4000 {
        let a = random_template(&mut rng, SMALL, 3);
        let b = random_template(&mut rng, SMALL, 3);
        let ab = a.overlap(&b);
        let ba = b.overlap(&a);
        assert_eq!(ab.is_some(), ba.is_some(), "case {case}: {a} and {b}");
        for w in ab.iter().chain(&ba) {
            assert!(
                a.matches(w).is_some() && b.matches(w).is_some(),
                "case {case}: {a} and {b}: {w}"
            );
        }
        overlapping += usize::from(ab.is_some());
        for (x, y) in [(&a, &b), (&b, &a)] {
            let values = random_values(&mut rng, x);
            let uri = x.expand(|n| values.get(n).cloned());
            if y.matches(&uri).is_some() {
                found_by_uri += 1;
                assert!(ab.is_some(), "case {case}: {a} and {b} both match {uri}");
            }
        }
        let itself = a.overlap(&a).expect("a template overlaps itself");
        assert!(a.matches(&itself).is_some(), "{a}: {itself}");
    }
    assert!(
        overlapping > 120 && found_by_uri > 120,
        "{overlapping} {found_by_uri}"
    );
}

// Hostile input.

#[track_caller]
fn assert_quick(text: &str, uri: &str, matches: bool) {
    let t = template(text);
    let start = Instant::now();
    let read = t.matches(uri);
    let took = start.elapsed();
    assert_eq!(read.is_some(), matches, "{text}");
    // Linear in the URI, even unoptimised; anything worse would take
    // minutes at this size.
    assert!(took < Duration::from_secs(5), "{text}: {took:?}");
}

#[test]
fn hostile_uris_are_quick() {
    const SIZE: usize = 64 * 1024;
    let dashes = format!("x:{}", "a-".repeat(SIZE / 2));
    assert_quick("x:{a}-{b}-{c}-{d}", &format!("{dashes}!"), false);
    assert_quick("x:{a}-{b}-{c}-{d}", &format!("{dashes}a"), true);
    let commas = format!("x:{}", ",".repeat(SIZE));
    assert_quick("x:{+a},{+b},{+c},{+d}", &commas, true);
    assert_quick("x:{+a},{+b},{+c},{+d}?", &commas, false);
    let metas = format!("x:/{}", "meta/".repeat(SIZE / 5));
    assert_quick("x:/{+p}/meta{?q,r}", &format!("{metas}meta?q=1"), true);
    assert_quick("x:/{+p}/meta{?q,r}", &format!("{metas}meta?r=1&q=1"), false);
    let escapes = format!("x:/s?a={}", "%41".repeat(SIZE / 3));
    assert_quick("x:/s{?a,b,c}", &escapes, true);
    assert_quick("x:/s{?a,b,c}", &format!("{escapes}%4"), false);
    let dots = format!("x:{}", ".a".repeat(SIZE / 2));
    assert_quick("x:{.a,b,c,d,e,f}.{g}", &dots, true);
    assert_quick("x:{.a,b,c,d,e,f}.{g}", &format!("{dots}!"), false);
    let params = format!("x:{}", ";a".repeat(SIZE / 2));
    assert_quick("x:{;a}", &params, false);
    let not_ascii = format!("x:{}", "é".repeat(SIZE / 2));
    assert_quick("x:{+a}", &not_ascii, false);
}
