//! TOON framing: the corner cases of the specification, the typed payloads,
//! and round-trip properties of RLE and of whole frames.

use proptest::collection::vec;
use proptest::prelude::*;
use serde::{Deserialize, Serialize};
use toolwright::ToolError;
use toolwright::toon::{
    COMPRESSED, DecodeError, Decoder, Encoder, ErrorKind, HEADER_SIZE, Header, Instruction,
    MessageType, PLAIN, Stamp, Status, ToolResult, Version, rle,
};

const STAMP: Stamp = Stamp {
    timestamp: 1_700_000_000_000,
    sequence_id: 42,
};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn kind<T>(result: Result<T, DecodeError>) -> Option<ErrorKind> {
    result.err().map(|e| e.kind())
}

/// A JSON string literal of exactly `len` bytes: `"` spaces `"`.
fn json_of_len(len: usize) -> Vec<u8> {
    let mut out = vec![b' '; len];
    out[0] = b'"';
    out[len - 1] = b'"';
    out
}

/// A header followed by `payload`, written by hand.
fn raw_frame(version: u8, message_type: u8, payload_len: u32, payload: &[u8]) -> Vec<u8> {
    let mut out = vec![version, message_type];
    out.extend_from_slice(&payload_len.to_le_bytes());
    out.extend_from_slice(&STAMP.timestamp.to_le_bytes());
    out.extend_from_slice(&STAMP.sequence_id.to_le_bytes());
    out.extend_from_slice(payload);
    out
}

// ---------------------------------------------------------------------------
// The worked example of docs/wire.md.
// ---------------------------------------------------------------------------

#[test]
fn the_worked_example_of_the_wire_document() {
    let status = Status {
        status: "indexing".to_owned(),
        progress: Some(0.5),
    };
    let stamp = Stamp {
        timestamp: 1_700_000_000_000,
        sequence_id: 7,
    };
    let v1 = Encoder::new(Version::V1)
        .encode(MessageType::Status, stamp, &status)
        .unwrap();
    assert_eq!(
        hex(&v1),
        "0104\
         24000000\
         0068e5cf8b010000\
         07000000\
         7b22737461747573223a22696e646578696e67222c2270726f6772657373223a302e357d"
    );
    assert_eq!(
        &v1[HEADER_SIZE..],
        br#"{"status":"indexing","progress":0.5}"#
    );
    let v2 = Encoder::new(Version::V2)
        .encode(MessageType::Status, stamp, &status)
        .unwrap();
    assert_eq!(
        hex(&v2),
        "0204\
         24000000\
         0068e5cf8b010000\
         07000000\
         00\
         82a6737461747573a8696e646578696e67a870726f6772657373cb3fe0000000000000"
    );
    for frame in [&v1, &v2] {
        let message = Decoder::new().decode::<Status>(frame).unwrap();
        assert_eq!(message.value, status);
        assert_eq!(message.header.timestamp, stamp.timestamp);
        assert_eq!(message.header.sequence_id, 7);
    }
}

// ---------------------------------------------------------------------------
// Compression: the threshold, and only when it pays.
// ---------------------------------------------------------------------------

#[test]
fn payloads_of_1024_bytes_are_never_compressed_and_of_1025_are() {
    for version in Version::ALL {
        let encoder = Encoder::new(version);
        let coding = usize::from(version == Version::V2);
        let at_threshold = json_of_len(1024);
        let frame = encoder
            .frame(MessageType::ContextResponse, STAMP, &at_threshold)
            .unwrap();
        assert_eq!(frame.len(), HEADER_SIZE + coding + 1024, "{version}");
        let decoded = Decoder::new().decode_frame(&frame).unwrap();
        assert!(!decoded.compressed());
        assert_eq!(decoded.payload(), &at_threshold[..]);

        let over = json_of_len(1025);
        let frame = encoder
            .frame(MessageType::ContextResponse, STAMP, &over)
            .unwrap();
        // `"`, 1023 spaces as four runs (255 × 4 = 1020) and three spaces, `"`.
        let mut expected = vec![COMPRESSED, b'"'];
        expected.extend_from_slice(&[0xFF, b' ', 255].repeat(4));
        expected.extend_from_slice(b"   \"");
        assert_eq!(&frame[HEADER_SIZE..], &expected[..], "{version}");
        assert_eq!(
            Header::parse(&frame).unwrap().payload_len as usize,
            expected.len()
        );
        let decoded = Decoder::new().decode_frame(&frame).unwrap();
        assert!(decoded.compressed());
        assert_eq!(decoded.payload(), &over[..]);
    }
}

#[test]
fn compression_is_used_only_when_it_makes_the_payload_shorter() {
    // 1100 bytes with no run of four: RLE would copy them all.
    let text: Vec<u8> = (0..1100u32).map(|i| b"abc"[(i % 3) as usize]).collect();
    let frame = Encoder::new(Version::V1)
        .frame(MessageType::Instruction, STAMP, &text)
        .unwrap();
    assert_eq!(&frame[HEADER_SIZE..], &text[..]);

    // One run of four saves nothing: 3 bytes for 4, plus the marker.
    let mut text = text.clone();
    text[500..504].fill(b'z');
    let frame = Encoder::new(Version::V1)
        .frame(MessageType::Instruction, STAMP, &text)
        .unwrap();
    assert_eq!(&frame[HEADER_SIZE..], &text[..]);

    // A run of five saves two bytes, one more than the marker costs.
    text[504] = b'z';
    let frame = Encoder::new(Version::V1)
        .frame(MessageType::Instruction, STAMP, &text)
        .unwrap();
    assert_eq!(frame.len(), HEADER_SIZE + text.len() - 1);
    assert_eq!(frame[HEADER_SIZE], COMPRESSED);

    // Turned off, nothing is compressed.
    let frame = Encoder::new(Version::V2)
        .compression(false)
        .frame(MessageType::Instruction, STAMP, &[0xFF; 5000])
        .unwrap();
    assert_eq!(frame[HEADER_SIZE], PLAIN);
    assert_eq!(frame.len(), HEADER_SIZE + 5001);
}

#[test]
fn runs_of_every_interesting_length_encode_as_specified() {
    let cases: [(usize, Vec<u8>); 5] = [
        (3, b"ppp".to_vec()),
        (4, vec![0xFF, b'p', 4]),
        (255, vec![0xFF, b'p', 255]),
        (256, vec![0xFF, b'p', 255, b'p']),
        (1000, {
            let mut out = [0xFF, b'p', 255].repeat(3);
            out.extend_from_slice(&[0xFF, b'p', 235]);
            out
        }),
    ];
    for (len, expected) in cases {
        let input = vec![b'p'; len];
        assert_eq!(rle::encode(&input), expected, "a run of {len}");
        assert_eq!(rle::decode(&expected, usize::MAX).unwrap(), input);
    }
}

#[test]
fn literal_escape_bytes_survive_in_both_versions() {
    assert_eq!(rle::encode(&[0xFF, 0xFF, 1]), [0xFF, 0xFF, 2, 1]);
    assert_eq!(rle::encode(&[0xFF; 300]), [0xFF, 0xFF, 255, 0xFF, 0xFF, 45]);
    // MsgPack of bin data full of 0xFF, compressed in a v2 frame.
    let mut payload = vec![0xc5, 0x07, 0xd0];
    payload.extend((0..2000u32).map(|i| if i % 3 == 0 { 0xFF } else { 0x41 }));
    payload.extend_from_slice(&[0xFF; 2000]);
    let frame = Encoder::new(Version::V2)
        .frame(MessageType::ContextResponse, STAMP, &payload)
        .unwrap();
    let decoded = Decoder::new().decode_frame(&frame).unwrap();
    assert!(decoded.compressed());
    assert_eq!(decoded.payload(), &payload[..]);
}

#[test]
fn a_v1_payload_cannot_start_with_the_compression_marker() {
    let error = Encoder::new(Version::V1)
        .frame(MessageType::Instruction, STAMP, b"Zebra")
        .unwrap_err();
    assert!(error.to_string().contains("0x5A"), "{error}");
    // In v2 the coding byte keeps a leading 0x5A (a MsgPack fixint) apart.
    let frame = Encoder::new(Version::V2)
        .frame(MessageType::Instruction, STAMP, &[0x5A])
        .unwrap();
    assert_eq!(&frame[HEADER_SIZE..], &[PLAIN, 0x5A]);
    assert_eq!(Decoder::new().decode::<u8>(&frame).unwrap().value, 0x5A);
}

// ---------------------------------------------------------------------------
// Validation: every error kind, and what is not an error.
// ---------------------------------------------------------------------------

#[test]
fn every_header_shorter_than_18_bytes_is_truncated() {
    let frame = Encoder::new(Version::V1)
        .encode(MessageType::Heartbeat, STAMP, &serde_json::json!({}))
        .unwrap();
    for len in 0..HEADER_SIZE {
        assert_eq!(
            kind(Decoder::new().decode_frame(&frame[..len])),
            Some(ErrorKind::TruncatedHeader),
            "{len} bytes"
        );
    }
    assert!(Decoder::new().decode_frame(&frame).is_ok());
}

#[test]
fn a_payload_shorter_than_announced_is_truncated() {
    let frame = Encoder::new(Version::V1)
        .encode(MessageType::Instruction, STAMP, &"the whole text")
        .unwrap();
    for len in HEADER_SIZE..frame.len() {
        let error = Decoder::new().decode_frame(&frame[..len]).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::TruncatedPayload, "{len} bytes");
        assert!(error.reason().contains("16 bytes"), "{error}");
    }
}

#[test]
fn versions_and_types_outside_the_specification_are_refused() {
    let v2 = Encoder::new(Version::V2)
        .encode(MessageType::Heartbeat, STAMP, &serde_json::json!({}))
        .unwrap();
    let v1_only = Decoder::new().versions(&[Version::V1]);
    let error = v1_only.decode_frame(&v2).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::UnsupportedVersion);
    assert!(error.reason().contains("accepted: 1"), "{error}");
    assert!(Decoder::new().decode_frame(&v2).is_ok());
    assert_eq!(
        kind(
            Decoder::new()
                .versions(&[Version::V2])
                .decode_frame(&raw_frame(1, 6, 2, b"{}"))
        ),
        Some(ErrorKind::UnsupportedVersion)
    );
    for version in [0, 3, 0xFF] {
        assert_eq!(
            kind(Decoder::new().decode_frame(&raw_frame(version, 6, 2, b"{}"))),
            Some(ErrorKind::UnsupportedVersion)
        );
    }
    for message_type in [0, 9, 0x5A, 0xFF] {
        assert_eq!(
            kind(Decoder::new().decode_frame(&raw_frame(1, message_type, 2, b"{}"))),
            Some(ErrorKind::UnknownType)
        );
    }
}

#[test]
fn a_huge_announced_length_is_refused_from_the_header_alone() {
    let frame = raw_frame(1, 1, u32::MAX, b"{}");
    let error = Decoder::new().decode_frame(&frame).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::PayloadTooLarge);
    assert!(error.reason().contains("4294967295"), "{error}");
    // With the limit lifted, the same header is a truncated payload: the
    // decoder compares lengths and allocates nothing.
    assert_eq!(
        kind(Decoder::new().max_payload(u32::MAX).decode_frame(&frame)),
        Some(ErrorKind::TruncatedPayload)
    );
    let small = Decoder::new().max_payload(16);
    assert_eq!(
        kind(small.decode_frame(&raw_frame(1, 1, 17, &[b' '; 17]))),
        Some(ErrorKind::PayloadTooLarge)
    );
    assert!(
        small
            .decode_frame(&raw_frame(1, 1, 16, &[b' '; 16]))
            .is_ok()
    );
}

#[test]
fn rle_bombs_stop_at_the_decompressed_limit() {
    // 3 bytes → 255 bytes, 3,000 times: 765,000 bytes from 9,001.
    let mut payload = vec![COMPRESSED];
    payload.extend_from_slice(&[0xFF, b' ', 0xFF].repeat(3000));
    let frame = raw_frame(1, 1, payload.len() as u32, &payload);
    let capped = Decoder::new().max_payload(10_000);
    let error = capped.decode_frame(&frame).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::DecompressedTooLarge);
    assert!(error.reason().contains("10000"), "{error}");
    let error = Decoder::new()
        .max_decompressed(765_000 - 1)
        .decode_frame(&frame)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::DecompressedTooLarge);
    let frame = Decoder::new()
        .max_decompressed(765_000)
        .decode_frame(&frame)
        .unwrap();
    assert_eq!(frame.payload().len(), 765_000);
}

#[test]
fn malformed_rle_is_bad_compression() {
    for (name, rle) in [
        ("count 0", &[b'"', 0xFF, b' ', 0, b'"'][..]),
        ("dangling escape", &[b'"', b'"', 0xFF][..]),
        (
            "escape and byte without count",
            &[b'"', b'"', 0xFF, b' '][..],
        ),
    ] {
        for version in [1, 2] {
            let payload = [&[COMPRESSED][..], rle].concat();
            let frame = raw_frame(version, 4, payload.len() as u32, &payload);
            let error = Decoder::new().decode_frame(&frame).unwrap_err();
            assert_eq!(
                error.kind(),
                ErrorKind::BadCompression,
                "{name} in v{version}"
            );
        }
    }
}

#[test]
fn payloads_that_do_not_decode_are_invalid() {
    let cases: [(&str, u8, u8, &[u8]); 6] = [
        ("empty v1 payload", 1, 6, b""),
        ("not JSON", 1, 1, b"{\"instruction\":"),
        ("not UTF-8", 1, 1, b"{\"instruction\":\"\xC3\x28\"}"),
        ("no coding byte", 2, 6, b""),
        ("unknown coding byte", 2, 6, &[0x01, 0x80]),
        ("truncated MsgPack", 2, 1, &[0x00, 0x81, 0xab]),
    ];
    for (name, version, message_type, payload) in cases {
        let frame = raw_frame(version, message_type, payload.len() as u32, payload);
        let error = Decoder::new()
            .decode::<serde_json::Value>(&frame)
            .unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidPayload, "{name}: {error}");
    }
    // A valid payload of the wrong shape.
    let frame = Encoder::new(Version::V1)
        .encode(
            MessageType::Instruction,
            STAMP,
            &serde_json::json!({"task": "x"}),
        )
        .unwrap();
    let error = Decoder::new().decode::<Instruction>(&frame).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidPayload);
    assert!(error.reason().contains("instruction"), "{error}");
}

#[test]
fn bytes_after_the_frame_are_left_for_the_next_one() {
    let encoder = Encoder::new(Version::V1);
    let mut stream = encoder
        .encode(
            MessageType::Instruction,
            STAMP,
            &Instruction {
                instruction: "first".to_owned(),
            },
        )
        .unwrap();
    let first_len = stream.len();
    stream.extend(
        Encoder::new(Version::V2)
            .encode(
                MessageType::Status,
                STAMP,
                &Status {
                    status: "second".to_owned(),
                    progress: None,
                },
            )
            .unwrap(),
    );
    let first = Decoder::new().decode::<Instruction>(&stream).unwrap();
    assert_eq!(first.size, first_len);
    assert_eq!(first.value.instruction, "first");
    let second = Decoder::new()
        .decode::<Status>(&stream[first.size..])
        .unwrap();
    assert_eq!(second.value.status, "second");
    assert_eq!(first.size + second.size, stream.len());
}

// ---------------------------------------------------------------------------
// Typed payloads.
// ---------------------------------------------------------------------------

/// A request as generated catalogues write it: the `tool` tag first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "tool", rename_all = "snake_case")]
enum Request {
    Add { a: i64, b: i64 },
    Store { data: toolwright::Bytes },
    Ping,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "tool", rename_all = "snake_case")]
enum Response {
    Add { result: i64 },
    Ping,
}

#[test]
fn a_tool_call_moves_the_tag_to_tool_name_and_the_fields_to_args() {
    let add = Request::Add { a: 2, b: 3 };
    let v1 = Encoder::new(Version::V1)
        .encode_tool_call(STAMP, &add)
        .unwrap();
    assert_eq!(v1[1], MessageType::ToolCall.as_u8());
    assert_eq!(
        &v1[HEADER_SIZE..],
        br#"{"toolName":"add","args":{"a":2,"b":3}}"#
    );
    let ping = Encoder::new(Version::V1)
        .encode_tool_call(STAMP, &Request::Ping)
        .unwrap();
    assert_eq!(&ping[HEADER_SIZE..], br#"{"toolName":"ping","args":{}}"#);

    let v2 = Encoder::new(Version::V2)
        .encode_tool_call(STAMP, &add)
        .unwrap();
    // {"toolName": "add", "args": {"a": 2, "b": 3}} after the coding byte.
    assert_eq!(
        hex(&v2[HEADER_SIZE..]),
        "0082a8746f6f6c4e616d65a3616464a46172677382a16102a16203"
    );

    for frame in [&v1, &v2, &ping] {
        let decoded = Decoder::new().decode_tool_call::<Request>(frame).unwrap();
        assert_eq!(decoded.size, frame.len());
        assert!(matches!(decoded.value, Request::Add { .. } | Request::Ping));
    }
    for version in Version::ALL {
        let store = Request::Store {
            data: vec![0, 0xFF, 7].into(),
        };
        let frame = Encoder::new(version)
            .encode_tool_call(STAMP, &store)
            .unwrap();
        let decoded = Decoder::new().decode_tool_call::<Request>(&frame).unwrap();
        assert_eq!(decoded.value, store, "{version}");
    }
}

#[test]
fn a_tool_call_from_the_seed_encoder_decodes() {
    // What `TOONEncoder.encodeToolCall("add", {a: 2, b: 3}, 2)` writes.
    let payload = br#"{"toolName":"add","args":{"a":2,"b":3}}"#;
    let frame = raw_frame(1, 2, payload.len() as u32, payload);
    let decoded = Decoder::new().decode_tool_call::<Request>(&frame).unwrap();
    assert_eq!(decoded.value, Request::Add { a: 2, b: 3 });
}

#[test]
fn malformed_tool_calls_are_invalid_payloads_that_say_why() {
    let cases: [(&[u8], &str); 5] = [
        (
            br#"{"args":{"a":2,"b":3},"toolName":"add"}"#,
            "must come before",
        ),
        (br#"{"toolName":"add"}"#, "args"),
        (br#"{"toolName":"add","args":[2,3]}"#, "a map"),
        (br#"{"toolName":"nope","args":{}}"#, "nope"),
        (
            br#"{"toolName":"add","toolName":"add","args":{}}"#,
            "duplicate",
        ),
    ];
    for (payload, why) in cases {
        let frame = raw_frame(1, 2, payload.len() as u32, payload);
        let error = Decoder::new()
            .decode_tool_call::<Request>(&frame)
            .unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidPayload);
        assert!(error.reason().contains(why), "{why}: {error}");
    }
    let status = Encoder::new(Version::V1)
        .encode(
            MessageType::Status,
            STAMP,
            &Status {
                status: "x".to_owned(),
                progress: None,
            },
        )
        .unwrap();
    let error = Decoder::new()
        .decode_tool_call::<Request>(&status)
        .unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidPayload);
    assert!(error.reason().contains("TOOL_CALL"), "{error}");
    // A value that is not written with the tag first cannot be a call.
    let error = Encoder::new(Version::V1)
        .encode_tool_call(STAMP, &serde_json::json!({"a": 1, "tool": "add"}))
        .unwrap_err();
    assert!(error.to_string().contains("first key is `tool`"), "{error}");
}

#[test]
fn tool_results_carry_data_or_an_error() {
    let success = ToolResult {
        tool: "add".to_owned(),
        outcome: Ok(Response::Add { result: 5 }),
        duration_ms: 12,
    };
    let ack = ToolResult {
        tool: "ping".to_owned(),
        outcome: Ok(Response::Ping),
        duration_ms: 300,
    };
    let failure: ToolResult<Response> = ToolResult {
        tool: "add".to_owned(),
        outcome: Err(ToolError::new("OVERFLOW", "The sum overflows.")
            .with_details(serde_json::json!({"overflow": {}}))),
        duration_ms: 1,
    };
    let v1 = |r: &ToolResult<Response>| {
        let frame = Encoder::new(Version::V1)
            .encode_tool_result(STAMP, r)
            .unwrap();
        String::from_utf8(frame[HEADER_SIZE..].to_vec()).unwrap()
    };
    assert_eq!(
        v1(&success),
        r#"{"success":true,"toolName":"add","data":{"result":5},"duration":12}"#
    );
    assert_eq!(
        v1(&ack),
        r#"{"success":true,"toolName":"ping","data":{},"duration":300}"#
    );
    assert_eq!(
        v1(&failure),
        r#"{"success":false,"toolName":"add","error":{"code":"OVERFLOW","message":"The sum overflows.","details":{"overflow":{}}},"duration":1}"#
    );
    let v2 = Encoder::new(Version::V2)
        .encode_tool_result(STAMP, &ack)
        .unwrap();
    assert_eq!(
        hex(&v2[HEADER_SIZE..]),
        "0084a773756363657373c3a8746f6f6c4e616d65a470696e67a46461746180a86475726174696f6ecd012c"
    );
    for version in Version::ALL {
        for result in [&success, &ack, &failure] {
            let frame = Encoder::new(version)
                .encode_tool_result(STAMP, result)
                .unwrap();
            let decoded = Decoder::new()
                .decode_tool_result::<Response>(&frame)
                .unwrap();
            assert_eq!(&decoded.value, result, "{version}");
        }
    }
    let mismatched = ToolResult {
        tool: "ping".to_owned(),
        outcome: Ok(Response::Add { result: 5 }),
        duration_ms: 0,
    };
    let error = Encoder::new(Version::V2)
        .encode_tool_result(STAMP, &mismatched)
        .unwrap_err();
    assert!(error.to_string().contains("`add`"), "{error}");
}

#[test]
fn malformed_tool_results_are_invalid_payloads() {
    let cases: [&[u8]; 6] = [
        br#"{"success":true,"toolName":"add","duration":1}"#,
        br#"{"success":false,"toolName":"add","duration":1}"#,
        br#"{"success":true,"toolName":"add","data":{"result":1}}"#,
        br#"{"success":false,"toolName":"add","data":{"result":1},"error":{"code":"X","message":""},"duration":1}"#,
        br#"{"toolName":"add","data":{"result":1},"duration":1}"#,
        br#"{"success":true,"data":{"result":1},"toolName":"add","duration":1}"#,
    ];
    for payload in cases {
        let frame = raw_frame(1, 3, payload.len() as u32, payload);
        assert_eq!(
            kind(Decoder::new().decode_tool_result::<Response>(&frame)),
            Some(ErrorKind::InvalidPayload),
            "{}",
            String::from_utf8_lossy(payload)
        );
    }
}

// ---------------------------------------------------------------------------
// Properties.
// ---------------------------------------------------------------------------

/// Runs of bytes from a small alphabet (0xFF included), of lengths that
/// cross the 4 and 255 boundaries.
fn runs() -> impl Strategy<Value = Vec<u8>> {
    vec(
        (
            prop::sample::select(vec![0x00, b' ', b'a', 0x7F, 0x80, 0xFE, 0xFF]),
            1..600usize,
        ),
        0..12,
    )
    .prop_map(|runs| {
        runs.into_iter()
            .flat_map(|(byte, len)| std::iter::repeat_n(byte, len))
            .collect()
    })
}

fn payloads() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![vec(any::<u8>(), 0..3000), runs()]
}

proptest! {
    #[test]
    fn rle_round_trips(input in payloads()) {
        let encoded = rle::encode(&input);
        prop_assert_eq!(rle::decode(&encoded, input.len()).unwrap(), input);
    }

    #[test]
    fn rle_stops_short_exactly_when_it_would_not_be_shorter(
        input in payloads(),
        slack in 0..64usize,
    ) {
        let full = rle::encode(&input);
        // Limits from 32 bytes under the encoding to 31 over it.
        let limit = (full.len() + slack).saturating_sub(32);
        let bounded = rle::encode_shorter_than(&input, limit);
        prop_assert_eq!(bounded.is_some(), full.len() < limit && full != input);
        if let Some(bounded) = bounded {
            prop_assert_eq!(bounded, full);
        }
    }

    #[test]
    fn frames_round_trip_and_never_grow_beyond_the_raw_payload(
        input in payloads(),
        v2 in any::<bool>(),
        timestamp in any::<u64>(),
        sequence_id in any::<u32>(),
    ) {
        let version = if v2 { Version::V2 } else { Version::V1 };
        // A v1 payload is JSON text, which never starts with the marker.
        prop_assume!(v2 || input.first() != Some(&COMPRESSED));
        let stamp = Stamp { timestamp, sequence_id };
        let frame = Encoder::new(version)
            .frame(MessageType::ContextRequest, stamp, &input)
            .unwrap();
        let coding = usize::from(v2);
        prop_assert!(frame.len() <= HEADER_SIZE + coding + input.len());
        let decoded = Decoder::new().decode_frame(&frame).unwrap();
        prop_assert_eq!(decoded.payload(), &input[..]);
        prop_assert_eq!(decoded.size(), frame.len());
        let header = decoded.header();
        prop_assert_eq!((header.timestamp, header.sequence_id), (timestamp, sequence_id));
        let rle_len = rle::encode(&input).len();
        prop_assert_eq!(
            decoded.compressed(),
            input.len() > 1024 && 1 + rle_len < input.len()
        );
    }

    #[test]
    fn no_input_makes_the_decoder_panic(input in vec(any::<u8>(), 0..64), limit in 0..64u32) {
        let decoder = Decoder::new().max_payload(limit);
        let _ = decoder.decode::<serde_json::Value>(&input);
        let _ = decoder.decode_tool_call::<Request>(&input);
        let _ = decoder.decode_tool_result::<Response>(&input);
    }
}
