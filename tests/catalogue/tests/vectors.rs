//! The test vectors shared with the TypeScript and Python bindings,
//! `tests/vectors/values.json` and `tests/vectors/toon.json`, written from
//! the reference catalogue and checked in. Every value is a sample message
//! (see `support/sample.rs`) decoded into the generated `ToolRequest` or
//! `ToolResponse` and written again from the typed value, so the files hold
//! the canonical JSON and MsgPack of the Rust side.
//!
//! `vectors_are_fresh` fails when a fresh build differs from the checked-in
//! files; run with `TOOLWRIGHT_BLESS=1` to rewrite them, then review the
//! diff. The other tests read the checked-in files (and any
//! `tests/vectors/from-*.json` other languages wrote) back.

use std::path::PathBuf;

use serde::Serialize;
use toolwright::codec::{Limits, from_json, from_msgpack, to_json, to_msgpack};
use toolwright::toon::{
    Decoder, Encoder, ErrorKind, ErrorMessage, HEADER_SIZE, Heartbeat, Instruction, MessageType,
    Stamp, Status, Version,
};
use toolwright_catalogue_tests::{ToolRequest, ToolResponse};

mod support;

use support::constraints::{ConstraintVectors, build_constraints};
use support::vectors::{
    FORMAT, Foreign, FrameCase, Toon, ValueCase, Values, build_toon, build_values, hex, pretty,
    unhex, vectors_dir,
};
use support::{endpoints, load, manifest_path};

// ---------------------------------------------------------------------------
// The tests.
// ---------------------------------------------------------------------------

#[test]
fn vectors_are_fresh() {
    let (values, samples) = build_values();
    let toon = build_toon(&samples);
    let constraints = build_constraints();
    let dir = vectors_dir();
    let mut stale = Vec::new();
    for (file, fresh) in [
        ("values.json", pretty(&values)),
        ("toon.json", pretty(&toon)),
        ("constraints.json", pretty(&constraints)),
    ] {
        let path = dir.join(file);
        if std::fs::read_to_string(&path).ok().as_deref() == Some(fresh.as_str()) {
            continue;
        }
        if std::env::var_os("TOOLWRIGHT_BLESS").is_some() {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, fresh).unwrap();
        } else {
            stale.push(file);
        }
    }
    assert!(
        stale.is_empty(),
        "tests/vectors/{{{}}} are stale; rerun with TOOLWRIGHT_BLESS=1 and review the diff",
        stale.join(",")
    );
}

fn read<T: serde::de::DeserializeOwned>(file: &str) -> T {
    let path = vectors_dir().join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run `vectors_are_fresh` with TOOLWRIGHT_BLESS=1",
            path.display()
        )
    });
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn constrained_values_are_accepted_at_their_bounds_and_refused_beyond() {
    use toolwright::Validate;
    let vectors: ConstraintVectors = read("constraints.json");
    assert_eq!(vectors.format, support::constraints::FORMAT);
    let limits = Limits::default();
    let mut refused = 0;
    for case in &vectors.cases {
        let json = case.json();
        let request: ToolRequest = from_json(json.as_bytes(), limits)
            .unwrap_or_else(|e| panic!("{}: does not decode: {e}", case.name));
        // Both the MsgPack and the JSON path decode into this type, and the
        // dispatcher validates it before any handler.
        match (request.validate(), case.valid) {
            (Ok(()), true) => {}
            (Err(violation), false) => {
                refused += 1;
                let field = violation.field();
                assert!(
                    field == case.field || field.ends_with(&format!(".{}", case.field)),
                    "{}: the error names `{field}`, not `{}`: {violation}",
                    case.name,
                    case.field
                );
            }
            (Ok(()), false) => panic!("{}: accepted, should be refused", case.name),
            (Err(violation), true) => panic!("{}: refused: {violation}", case.name),
        }
    }
    assert!(
        refused > 50,
        "only {refused} refusals: the vectors lost their cases"
    );
}

#[test]
fn every_value_decodes_from_its_json_and_its_msgpack_alike() {
    let values: Values = read("values.json");
    assert_eq!(values.format, FORMAT);
    fn check<T>(case: &ValueCase)
    where
        T: Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        let limits = Limits::default();
        let from_text: T = from_json(case.json.as_bytes(), limits).unwrap();
        let msgpack = unhex(&case.msgpack);
        let from_binary: T = from_msgpack(&msgpack, limits).unwrap();
        assert_eq!(from_text, from_binary, "{}", case.name);
        assert_eq!(
            to_json(&from_text).unwrap(),
            case.json.as_bytes(),
            "{}",
            case.name
        );
        assert_eq!(to_msgpack(&from_text).unwrap(), msgpack, "{}", case.name);
    }
    for case in &values.cases {
        match case.kind.as_str() {
            "request" => check::<ToolRequest>(case),
            "response" => check::<ToolResponse>(case),
            other => panic!("{}: unknown kind `{other}`", case.name),
        }
    }
}

/// Decodes the frame's payload as a `T` and frames it again.
fn again<T: Serialize + serde::de::DeserializeOwned>(
    frame: &[u8],
    encoder: Encoder,
    stamp: Stamp,
) -> Result<Vec<u8>, String> {
    let message = Decoder::new()
        .decode::<T>(frame)
        .map_err(|e| e.to_string())?;
    encoder
        .encode(message.header.message_type, stamp, &message.value)
        .map_err(|e| e.to_string())
}

/// Decodes the frame's payload by type (a catalogue's request or response
/// for tool frames) and frames it again with `encoder`.
fn reencode(frame: &[u8], encoder: Encoder, stamp: Stamp) -> Result<Vec<u8>, String> {
    let decoder = Decoder::new();
    let header = *decoder
        .decode_frame(frame)
        .map_err(|e| e.to_string())?
        .header();
    match header.message_type {
        MessageType::ToolCall => {
            let call = decoder
                .decode_tool_call::<ToolRequest>(frame)
                .map_err(|e| e.to_string())?;
            encoder
                .encode_tool_call(stamp, &call.value)
                .map_err(|e| e.to_string())
        }
        MessageType::ToolResult => {
            let result = decoder
                .decode_tool_result::<ToolResponse>(frame)
                .map_err(|e| e.to_string())?;
            encoder
                .encode_tool_result(stamp, &result.value)
                .map_err(|e| e.to_string())
        }
        MessageType::Instruction => again::<Instruction>(frame, encoder, stamp),
        MessageType::Status => again::<Status>(frame, encoder, stamp),
        MessageType::Error => again::<ErrorMessage>(frame, encoder, stamp),
        MessageType::Heartbeat => again::<Heartbeat>(frame, encoder, stamp),
        MessageType::ContextRequest | MessageType::ContextResponse => {
            again::<serde_json::Value>(frame, encoder, stamp)
        }
    }
}

/// The frame's payload as version 1 JSON text without compression: the
/// `payload_json` of the vectors.
fn logical_json(frame: &[u8]) -> Result<String, String> {
    let encoder = Encoder::new(Version::V1).compression(false);
    let again = reencode(frame, encoder, Stamp::default())?;
    Ok(String::from_utf8(again[HEADER_SIZE..].to_vec()).expect("JSON is UTF-8"))
}

/// Checks the header fields and the payload of each frame; with `exact`,
/// also that the payload is `payload_json` byte for byte and that the Rust
/// encoder writes the same frame from the decoded value.
fn check_frames(source: &str, frames: &[FrameCase], exact: bool) -> Vec<String> {
    let mut failures = Vec::new();
    for case in frames {
        let bytes = unhex(&case.frame);
        let what = format!("{source}: {}", case.name);
        let frame = match Decoder::new().decode_frame(&bytes) {
            Ok(frame) => frame,
            Err(e) => {
                failures.push(format!("{what}: {e}"));
                continue;
            }
        };
        let header = frame.header();
        let read = (
            header.version.as_u8(),
            header.message_type.as_u8(),
            header.timestamp,
            header.sequence_id,
            frame.compressed(),
            frame.size(),
        );
        let expected = (
            case.version,
            case.message_type,
            case.timestamp,
            case.sequence_id,
            case.compressed,
            bytes.len(),
        );
        if read != expected {
            failures.push(format!(
                "{what}: (version, type, timestamp, sequence, compressed, size) read {read:?}, expected {expected:?}"
            ));
        }
        match logical_json(&bytes) {
            Err(e) => failures.push(format!("{what}: {e}")),
            Ok(text) if exact && text != case.payload_json => {
                failures.push(format!(
                    "{what}: payload\n  read {text}\n  expected {}",
                    case.payload_json
                ));
            }
            Ok(text) => {
                let read: serde_json::Value = serde_json::from_str(&text).unwrap();
                let expected: serde_json::Value = match serde_json::from_str(&case.payload_json) {
                    Ok(v) => v,
                    Err(e) => {
                        failures.push(format!("{what}: payload_json is not JSON: {e}"));
                        continue;
                    }
                };
                if !same_json(&read, &expected) {
                    failures.push(format!(
                        "{what}: payload\n  read {text}\n  expected {}",
                        case.payload_json
                    ));
                }
            }
        }
        if exact {
            // The decoded value, written again in the frame's version, gives
            // the same bytes: the same payload, compression and RLE.
            let stamp = Stamp {
                timestamp: header.timestamp,
                sequence_id: header.sequence_id,
            };
            match reencode(&bytes, Encoder::new(header.version), stamp) {
                Ok(again) if again == bytes => {}
                Ok(again) => failures.push(format!("{what}: written again as {}", hex(&again))),
                Err(e) => failures.push(format!("{what}: {e}")),
            }
        }
    }
    failures
}

/// JSON values equal as a reader sees them: numbers by value (`2` and
/// `2.0` alike), objects whatever their key order.
fn same_json(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value as V;
    match (a, b) {
        (V::Number(x), V::Number(y)) => x == y || x.as_f64() == y.as_f64(),
        (V::Array(x), V::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_json(a, b))
        }
        (V::Object(x), V::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}

#[test]
fn every_frame_of_the_vectors_decodes_as_described() {
    let toon: Toon = read("toon.json");
    assert_eq!(toon.format, FORMAT);
    let mut failures = check_frames("toon.json", &toon.frames, true);
    for case in &toon.invalid {
        let mut decoder = Decoder::new();
        if let Some(max) = case.max_payload {
            decoder = decoder.max_payload(max);
        }
        let bytes = unhex(&case.frame);
        let got = match decoder.decode_frame(&bytes) {
            Err(e) => Some(e.kind()),
            Ok(_) => decoder
                .decode::<serde_json::Value>(&bytes)
                .err()
                .map(|e| e.kind()),
        };
        if got.map(ErrorKind::as_str) != Some(case.error.as_str()) {
            failures.push(format!(
                "invalid {}: expected {}, got {got:?}",
                case.name, case.error
            ));
        }
    }
    // What the other languages' suites wrote, when they have run.
    let mut foreign: Vec<PathBuf> = std::fs::read_dir(vectors_dir())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("from-") && n.ends_with(".json"))
        })
        .collect();
    foreign.sort();
    for path in foreign {
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        match serde_json::from_str::<Foreign>(&text) {
            Ok(file) => failures.extend(check_frames(&name, &file.frames, false)),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    assert!(failures.is_empty(), "\n{}\n", failures.join("\n"));
}

#[test]
fn the_vectors_cover_what_they_promise() {
    let values: Values = read("values.json");
    let toon: Toon = read("toon.json");
    let model = load(&[manifest_path("../../idl")], true);
    for endpoint in endpoints(&model) {
        for side in ["request", "response"] {
            let prefix = format!("{}/{side}/", endpoint.label());
            assert!(
                values.cases.iter().any(|c| c.name.starts_with(&prefix)),
                "no {prefix} case"
            );
        }
    }
    let json = |needle: &str| values.cases.iter().any(|c| c.json.contains(needle));
    assert!(json("日本語"), "no unicode string");
    assert!(json("[]"), "no empty list");
    assert!(
        values.cases.iter().any(|c| c.msgpack.contains("c4")),
        "no bytes"
    );
    for message_type in MessageType::ALL {
        for version in Version::ALL {
            assert!(
                toon.frames
                    .iter()
                    .any(|f| f.message_type == message_type.as_u8() && f.version == version.as_u8()),
                "no {message_type} {version} frame"
            );
            if matches!(
                message_type,
                MessageType::ToolCall | MessageType::ToolResult
            ) {
                assert!(
                    toon.frames
                        .iter()
                        .any(|f| f.message_type == message_type.as_u8()
                            && f.version == version.as_u8()
                            && f.compressed),
                    "no compressed {message_type} {version} frame"
                );
            }
        }
    }
    for kind in ErrorKind::ALL {
        assert!(
            toon.invalid.iter().any(|c| c.error == kind.as_str()),
            "no invalid frame of kind {kind}"
        );
    }
    let size: u64 = ["values.json", "toon.json"]
        .iter()
        .map(|f| std::fs::metadata(vectors_dir().join(f)).unwrap().len())
        .sum();
    assert!(size < 2_000_000, "the vectors take {size} bytes");
}
