use proptest::prelude::*;

use super::*;
use crate::codes;

mod skip;

/// `{"tool": "add", "a": 1, "b": 2}`.
const REQUEST: &[u8] = &[
    0x83, 0xa4, 0x74, 0x6f, 0x6f, 0x6c, 0xa3, 0x61, 0x64, 0x64, 0xa1, 0x61, 0x01, 0xa1, 0x62, 0x02,
];
/// `{"request": {"tool": "add", "a": 1, "b": 2}}`, as docs/wire.md prints it.
const CALL: &[u8] = &[
    0x81, 0xa7, 0x72, 0x65, 0x71, 0x75, 0x65, 0x73, 0x74, 0x83, 0xa4, 0x74, 0x6f, 0x6f, 0x6c, 0xa3,
    0x61, 0x64, 0x64, 0xa1, 0x61, 0x01, 0xa1, 0x62, 0x02,
];
const KEY_REQUEST: &[u8] = b"\xa7request";
const KEY_WAIT: &[u8] = b"\xa7wait_ms";
const KEY_STREAM: &[u8] = b"\xa6stream";

fn decode(body: &[u8]) -> Result<CallBody<'_>, ToolError> {
    CallBody::decode(body, Limits::default())
}

fn refusal(body: &[u8]) -> String {
    let error = decode(body).expect_err("refused");
    assert_eq!(error.code, codes::INVALID_REQUEST);
    error.message
}

#[test]
fn the_example_is_pinned() {
    assert_eq!(encode_call(REQUEST, None, false), CALL);
    let call = decode(CALL).expect("decodes");
    assert_eq!(call.request, REQUEST);
    assert_eq!(call.wait, None);
    assert!(!call.stream);
}

#[test]
fn options_are_written_and_read() {
    let body = encode_call(REQUEST, Some(Duration::ZERO), true);
    let expected = [
        &[0x83][..],
        KEY_REQUEST,
        REQUEST,
        &[0xa7, 0x77, 0x61, 0x69, 0x74, 0x5f, 0x6d, 0x73, 0x00],
        &[0xa6, 0x73, 0x74, 0x72, 0x65, 0x61, 0x6d, 0xc3],
    ]
    .concat();
    assert_eq!(body, expected);
    let call = decode(&body).expect("decodes");
    assert_eq!(
        (call.request, call.wait, call.stream),
        (REQUEST, Some(Duration::ZERO), true)
    );

    let wait_encodings: [(u64, &[u8]); 5] = [
        (127, &[0x7f]),
        (200, &[0xcc, 0xc8]),
        (1500, &[0xcd, 0x05, 0xdc]),
        (70_000, &[0xce, 0x00, 0x01, 0x11, 0x70]),
        (
            u64::MAX,
            &[0xcf, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
        ),
    ];
    for (ms, bytes) in wait_encodings {
        let body = encode_call(REQUEST, Some(Duration::from_millis(ms)), false);
        assert_eq!(
            body,
            [&[0x82][..], KEY_REQUEST, REQUEST, KEY_WAIT, bytes].concat()
        );
        assert_eq!(
            decode(&body).expect("decodes").wait,
            Some(Duration::from_millis(ms))
        );
    }
    let sub_ms = encode_call(REQUEST, Some(Duration::from_micros(2900)), false);
    assert_eq!(
        decode(&sub_ms).expect("decodes").wait,
        Some(Duration::from_millis(2))
    );
    let huge = encode_call(REQUEST, Some(Duration::MAX), false);
    assert_eq!(
        decode(&huge).expect("decodes").wait,
        Some(Duration::from_millis(u64::MAX))
    );
}

#[test]
fn keys_come_in_any_order_and_values_in_any_integer_encoding() {
    let request = [KEY_REQUEST, REQUEST].concat();
    let wait = [KEY_WAIT, &[0xd1, 0x01, 0x00]].concat();
    let stream = [KEY_STREAM, &[0xc3]].concat();
    let orders = [
        [&request, &wait, &stream],
        [&request, &stream, &wait],
        [&wait, &request, &stream],
        [&wait, &stream, &request],
        [&stream, &request, &wait],
        [&stream, &wait, &request],
    ];
    for order in orders {
        for header in [
            &[0x83][..],
            &[0xde, 0x00, 0x03],
            &[0xdf, 0x00, 0x00, 0x00, 0x03],
        ] {
            let body = [header, order[0], order[1], order[2]].concat();
            let call = decode(&body).expect("decodes");
            assert_eq!(call.request, REQUEST);
            assert_eq!(call.wait, Some(Duration::from_millis(256)));
            assert!(call.stream);
        }
    }
    for wait in [
        &[0xd0, 0x05][..],
        &[0xd2, 0, 0, 0, 5],
        &[0xd3, 0, 0, 0, 0, 0, 0, 0, 5],
    ] {
        let body = [&[0x82][..], KEY_WAIT, wait, KEY_REQUEST, REQUEST].concat();
        assert_eq!(
            decode(&body).expect("decodes").wait,
            Some(Duration::from_millis(5))
        );
    }
    let nil_wait = [
        &[0x83][..],
        KEY_WAIT,
        &[0xc0],
        KEY_STREAM,
        &[0xc2],
        KEY_REQUEST,
        REQUEST,
    ]
    .concat();
    let call = decode(&nil_wait).expect("decodes");
    assert_eq!((call.wait, call.stream), (None, false));
    let long_key = [&[0x81, 0xd9, 0x07][..], b"request", REQUEST].concat();
    assert_eq!(decode(&long_key).expect("decodes").request, REQUEST);
}

#[test]
fn bad_call_bodies_are_refused() {
    // Keys and values alternate in `parts`; a trailing key has no value.
    let map = |parts: &[&[u8]]| {
        let header = 0x80 | u8::try_from(parts.len().div_ceil(2)).expect("a fixmap");
        [&[header][..], &parts.concat()].concat()
    };
    // `request`, then `parts`.
    let after = |parts: &[&[u8]]| map(&[&[KEY_REQUEST, REQUEST][..], parts].concat());
    let not_unsigned = "`wait_ms` in the call body is not an unsigned integer";
    let not_bool = "`stream` in the call body is not a bool";
    let not_string = "a key of the call body is not a string";
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (vec![], "the call body is empty"),
        (vec![0x91, 0x01], "the call body is not a MsgPack map"),
        (REQUEST[1..].to_vec(), "the call body is not a MsgPack map"),
        (vec![0xde, 0x00], "the call body is truncated"),
        (vec![0x80], "the call body has no `request`"),
        (
            map(&[KEY_STREAM, &[0xc3]]),
            "the call body has no `request`",
        ),
        (
            after(&[b"\xa5extra", &[0xc0]]),
            "the call body has an unknown key `extra`; \
             its keys are `request`, `wait_ms`, `stream`, `owner`, `talk_back` and `principal`",
        ),
        (map(&[b"\xa4tool", b"\xa3add"]), "unknown key `tool`"),
        (
            after(&[KEY_REQUEST, REQUEST]),
            "the call body has `request` twice",
        ),
        (
            after(&[KEY_WAIT, &[0xc0], KEY_WAIT, &[1]]),
            "`wait_ms` twice",
        ),
        (
            after(&[KEY_STREAM, &[0xc2], KEY_STREAM, &[0xc2]]),
            "`stream` twice",
        ),
        (map(&[&[0x01], &[0x02], KEY_REQUEST, REQUEST]), not_string),
        (map(&[b"\xc4\x07request", REQUEST]), not_string),
        (
            map(&[KEY_REQUEST, &[0x91, 0x01]]),
            "`request` in the call body is not a map",
        ),
        (
            map(&[KEY_REQUEST, b"\xa3add"]),
            "`request` in the call body is not a map",
        ),
        (map(&[KEY_REQUEST]), "`request` in the call body is missing"),
        (
            map(&[KEY_REQUEST, &REQUEST[..10]]),
            "`request` in the call body: truncated MsgPack",
        ),
        (
            map(&[KEY_REQUEST, &[0x81, 0xc1, 0xc0]]),
            "the byte 0xc1 is not a MsgPack value",
        ),
        (after(&[KEY_WAIT, &[0xff]]), not_unsigned),
        (after(&[KEY_WAIT, &[0xd0, 0xff]]), not_unsigned),
        (
            after(&[KEY_WAIT, &[0xd3, 0x80, 0, 0, 0, 0, 0, 0, 0]]),
            not_unsigned,
        ),
        (after(&[KEY_WAIT, &[0xc3]]), not_unsigned),
        (after(&[KEY_WAIT, b"\xa15"]), not_unsigned),
        (
            after(&[KEY_WAIT, &[0xcb, 0, 0, 0, 0, 0, 0, 0, 0]]),
            not_unsigned,
        ),
        (
            after(&[KEY_WAIT, &[0xcd, 0x01]]),
            "the call body is truncated in `wait_ms`",
        ),
        (
            after(&[KEY_WAIT]),
            "the call body is truncated in `wait_ms`",
        ),
        (after(&[KEY_STREAM, &[0x01]]), not_bool),
        (after(&[KEY_STREAM, &[0xc0]]), not_bool),
        (
            after(&[KEY_STREAM]),
            "the call body is truncated in `stream`",
        ),
        (after(&[&[0xa7, b'w']]), "the call body is truncated"),
        (
            [&[0x82][..], KEY_REQUEST, REQUEST].concat(),
            "the call body is truncated",
        ),
        (
            [CALL, &[0xc0]].concat(),
            "trailing bytes after the call body",
        ),
        ([CALL, CALL].concat(), "trailing bytes after the call body"),
    ];
    for (body, expected) in cases {
        let message = refusal(&body);
        assert!(message.contains(expected), "{body:02x?}: {message}");
    }
    let long_key = [&[0x81, 0xd9, 200][..], &[b'k'; 200]].concat();
    let message = refusal(&long_key);
    assert!(
        message.contains(&format!("`{}`", "k".repeat(64))),
        "{message}"
    );
    assert!(!message.contains(&"k".repeat(65)), "{message}");

    let small = Limits::default().max_bytes(CALL.len() - 1);
    let error = CallBody::decode(CALL, small).expect_err("over the limit");
    assert_eq!(error.code, codes::INVALID_REQUEST);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..128)) {
        let _ = decode(&bytes);
        let _ = skip_value(&bytes, 8);
        let after_key = [&[0x81][..], KEY_REQUEST, &bytes].concat();
        let _ = decode(&after_key);
    }
}

#[test]
fn an_owner_travels_as_a_short_string() {
    let body = CallBody {
        request: REQUEST,
        wait: None,
        stream: false,
        owner: Some("mcp-session-7"),
        talk_back: false,
        principal: None,
    }
    .encode();
    let expected = [
        &[0x82][..],
        KEY_REQUEST,
        REQUEST,
        b"\xa5owner\xadmcp-session-7",
    ]
    .concat();
    assert_eq!(body, expected);
    assert_eq!(decode(&body).expect("decodes").owner, Some("mcp-session-7"));
    assert_eq!(decode(CALL).expect("decodes").owner, None);

    let not_a_string = [&[0x82][..], KEY_REQUEST, REQUEST, b"\xa5owner\x07"].concat();
    assert_eq!(
        refusal(&not_a_string),
        "`owner` in the call body is not a string"
    );
    let long = "x".repeat(MAX_OWNER_BYTES + 1);
    let too_long = CallBody {
        request: REQUEST,
        wait: None,
        stream: false,
        owner: Some(&long),
        talk_back: false,
        principal: None,
    }
    .encode();
    assert_eq!(
        refusal(&too_long),
        "`owner` in the call body is 257 bytes, more than 256"
    );
    let not_utf8 = [&[0x82][..], KEY_REQUEST, REQUEST, b"\xa5owner\xa2\xff\xfe"].concat();
    assert_eq!(refusal(&not_utf8), "`owner` in the call body is not UTF-8");
    let twice = [
        &[0x83][..],
        KEY_REQUEST,
        REQUEST,
        b"\xa5owner\xa1a",
        b"\xa5owner\xa1b",
    ]
    .concat();
    assert_eq!(refusal(&twice), "the call body has `owner` twice");
}

#[test]
fn talk_back_is_a_bool_written_only_when_true() {
    let body = CallBody {
        request: REQUEST,
        wait: None,
        stream: false,
        owner: None,
        talk_back: true,
        principal: None,
    }
    .encode();
    let expected = [&[0x82][..], KEY_REQUEST, REQUEST, b"\xa9talk_back\xc3"].concat();
    assert_eq!(body, expected);
    assert!(decode(&body).expect("decodes").talk_back);
    assert!(!decode(CALL).expect("decodes").talk_back);
    let not_a_bool = [&[0x82][..], KEY_REQUEST, REQUEST, b"\xa9talk_back\x01"].concat();
    assert_eq!(
        refusal(&not_a_bool),
        "`talk_back` in the call body is not a bool"
    );
}

fn with_principal(principal: Principal) -> Vec<u8> {
    CallBody {
        request: REQUEST,
        wait: None,
        stream: false,
        owner: None,
        talk_back: false,
        principal: Some(Arc::new(principal)),
    }
    .encode()
}

/// `{"request": …, "principal": <principal>}`, the principal as given.
fn principal_body(principal: &[u8]) -> Vec<u8> {
    [
        &[0x82][..],
        KEY_REQUEST,
        REQUEST,
        b"\xa9principal",
        principal,
    ]
    .concat()
}

#[test]
fn a_principal_travels_with_its_scopes() {
    let alice = Principal::new("alice")
        .with_issuer("https://id.example")
        .with_client_id("agent-7")
        .with_scopes(["cas:read", "cas:write"]);
    let body = with_principal(alice.clone());
    let expected = principal_body(
        &[
            &b"\x84\xa7subject\xa5alice"[..],
            b"\xa6issuer\xb2https://id.example",
            b"\xa9client_id\xa7agent-7",
            b"\xa6scopes\x92\xa8cas:read\xa9cas:write",
        ]
        .concat(),
    );
    assert_eq!(body, expected);
    let decoded = decode(&body)
        .expect("decodes")
        .principal
        .expect("a principal");
    assert_eq!(*decoded, alice);
    assert!(decode(CALL).expect("decodes").principal.is_none());

    // Every scope is a flag, not a list; no scopes at all is neither.
    let service = Principal::new("bearer-token").with_every_scope();
    let body = with_principal(service.clone());
    assert_eq!(
        body,
        principal_body(b"\x82\xa7subject\xacbearer-token\xabevery_scope\xc3")
    );
    assert_eq!(
        *decode(&body).expect("decodes").principal.expect("one"),
        service
    );
    let nobody = Principal::new("bob");
    let body = with_principal(nobody.clone());
    assert_eq!(body, principal_body(b"\x81\xa7subject\xa3bob"));
    let decoded = decode(&body).expect("decodes").principal.expect("one");
    assert_eq!(*decoded, nobody);
    assert!(!decoded.has_scope("cas:read"));
}

#[test]
fn a_principal_that_is_not_one_is_refused() {
    let refused = |principal: &[u8]| refusal(&principal_body(principal));
    assert_eq!(
        refused(b"\x91\xa5alice"),
        "`principal` in the call body is not a map"
    );
    assert!(
        refused(b"\x80").contains("missing field `subject`"),
        "{}",
        refused(b"\x80")
    );
    assert!(refused(b"\x81\xa7subject\x07").starts_with("`principal` in the call body: "));
    assert_eq!(
        refused(b"\x81\xa7subject\xa0"),
        "`principal` in the call body: `subject` is empty"
    );
    let unknown = refused(b"\x82\xa7subject\xa1a\xa4role\xa5admin");
    assert!(unknown.contains("unknown field `role`"), "{unknown}");
    assert_eq!(
        refused(b"\x83\xa7subject\xa1a\xa6scopes\x91\xa1x\xabevery_scope\xc3"),
        "`principal` in the call body: `every_scope` is true and `scopes` is given too"
    );
    // Lists and strings are bounded.
    let many: Vec<Principal> = vec![
        Principal::new("a").with_scopes((0..257).map(|n| format!("s{n}"))),
        Principal::new("a").with_scopes(["x".repeat(257)]),
        Principal::new("a".repeat(1025)),
        Principal::new("a").with_issuer("i".repeat(1025)),
    ];
    let messages: Vec<String> = many
        .into_iter()
        .map(|p| refusal(&with_principal(p)))
        .collect();
    assert_eq!(
        messages,
        [
            "`principal` in the call body: 257 scopes, more than 256",
            "`principal` in the call body: a scope of 257 bytes, more than 256",
            "`principal` in the call body: `subject` is longer than 1024 bytes",
            "`principal` in the call body: `issuer` is longer than 1024 bytes",
        ]
    );
    // Nesting is bounded before anything is decoded.
    let deep = refused(b"\x81\xa7subject\x91\x91\x91\xa1a");
    assert!(deep.contains("nesting deeper"), "{deep}");
    let twice = [
        &[0x83][..],
        KEY_REQUEST,
        REQUEST,
        b"\xa9principal\x81\xa7subject\xa1a",
        b"\xa9principal\x81\xa7subject\xa1b",
    ]
    .concat();
    assert_eq!(refusal(&twice), "the call body has `principal` twice");
}
