//! The shared test vectors: their files' layout, and how they are built
//! from the reference catalogue (for `vectors.rs`).

use std::fmt::Write as _;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use toolwright::codec::{Limits, from_json, to_json, to_msgpack};
use toolwright::toon::{
    COMPRESSED, Encoder, ErrorKind, ErrorMessage, HEADER_SIZE, Heartbeat, Instruction, MessageType,
    Stamp, Status, ToolResult, Version,
};
use toolwright::{Catalogue, ToolError};
use toolwright_catalogue_tests::{ToolCatalogue, ToolRequest, ToolResponse};

use super::sample::{Fill, Sampler};
use super::{assert_same_tools, endpoints, load, manifest_path};

/// Version of the vector files' layout.
pub const FORMAT: u32 = 1;
/// Seed of the sample values.
pub const SEED: u64 = 0x7001_5eed;
/// Timestamp of the first frame; each next one is a second later.
pub const EPOCH_MS: u64 = 1_700_000_000_000;
/// How many endpoints get a large request and response as well.
pub const LARGE: usize = 4;

// ---------------------------------------------------------------------------
// The files.
// ---------------------------------------------------------------------------

/// `values.json`.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct Values {
    pub format: u32,
    pub cases: Vec<ValueCase>,
}

/// One value: its canonical JSON text and the hex of its canonical MsgPack.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct ValueCase {
    pub name: String,
    pub tool: String,
    pub action: Option<String>,
    pub kind: String,
    pub json: String,
    pub msgpack: String,
}

/// `toon.json`.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct Toon {
    pub format: u32,
    pub frames: Vec<FrameCase>,
    pub invalid: Vec<InvalidCase>,
}

/// One frame, with what a reader must find in it.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct FrameCase {
    pub name: String,
    pub version: u8,
    pub message_type: u8,
    pub timestamp: u64,
    pub sequence_id: u32,
    pub compressed: bool,
    pub payload_json: String,
    pub frame: String,
}

/// The layout of `from-*.json` files: `toon.json`'s `frames`.
#[derive(Debug, Deserialize)]
pub struct Foreign {
    pub frames: Vec<FrameCase>,
}

/// A frame a reader must refuse, with the limit to read it under and the
/// error kind it must give.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct InvalidCase {
    pub name: String,
    pub frame: String,
    pub max_payload: Option<u32>,
    pub error: String,
}

pub fn vectors_dir() -> PathBuf {
    manifest_path("../vectors")
}

pub fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        write!(out, "{b:02x}").expect("writing to a string");
    }
    out
}

pub fn unhex(text: &str) -> Vec<u8> {
    assert!(text.len().is_multiple_of(2), "odd hex length");
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex digits"))
        .collect()
}

pub fn pretty<T: Serialize>(value: &T) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("vectors encode");
    text.push('\n');
    text
}

// ---------------------------------------------------------------------------
// Building them.
// ---------------------------------------------------------------------------

/// One typed sample, with its case in `values.json`.
pub enum Sample {
    Request(ToolRequest),
    Response(ToolResponse),
}

pub fn build_values() -> (Values, Vec<(String, Sample)>) {
    let model = load(&[manifest_path("../../idl")], true);
    assert_same_tools::<ToolCatalogue>(&model);
    let mut sampler = Sampler::new(&model, SEED);
    let mut cases = Vec::new();
    let mut samples = Vec::new();
    let mut large = [0, 0];
    for endpoint in endpoints(&model) {
        for (side, payload) in [
            ("request", endpoint.request),
            ("response", endpoint.response),
        ] {
            let mut seen = Vec::new();
            for (fill, label) in [
                (Fill::Minimal, "minimal"),
                (Fill::Full, "full"),
                (Fill::Large, "large"),
            ] {
                let json = sampler.message(&endpoint, payload, fill);
                let name = format!("{}/{side}/{label}", endpoint.label());
                let limits = Limits::default();
                let (canonical, msgpack, sample) = if side == "request" {
                    let value: ToolRequest = from_json(json.as_bytes(), limits)
                        .unwrap_or_else(|e| panic!("{name} does not decode: {e}\n{json}"));
                    let info = ToolCatalogue::call_info(&value);
                    assert_eq!(
                        (info.tool.name, info.action.map(|a| a.name)),
                        (endpoint.tool.as_str(), endpoint.action.as_deref()),
                        "{name} decodes as another call"
                    );
                    (to_json(&value), to_msgpack(&value), Sample::Request(value))
                } else {
                    let value: ToolResponse = from_json(json.as_bytes(), limits)
                        .unwrap_or_else(|e| panic!("{name} does not decode: {e}\n{json}"));
                    (to_json(&value), to_msgpack(&value), Sample::Response(value))
                };
                let canonical = String::from_utf8(canonical.expect("encodes as JSON")).unwrap();
                // Only samples that differ: a tool without fields has one.
                if seen.contains(&canonical) {
                    continue;
                }
                if fill == Fill::Large {
                    let slot = &mut large[usize::from(side == "response")];
                    if canonical.len() <= 1024 || *slot >= LARGE {
                        continue;
                    }
                    *slot += 1;
                }
                seen.push(canonical.clone());
                cases.push(ValueCase {
                    name: name.clone(),
                    tool: endpoint.tool.clone(),
                    action: endpoint.action.clone(),
                    kind: side.to_owned(),
                    json: canonical,
                    msgpack: hex(&msgpack.expect("encodes as MsgPack")),
                });
                samples.push((name, sample));
            }
        }
    }
    (
        Values {
            format: FORMAT,
            cases,
        },
        samples,
    )
}

/// Frames one message in both versions, appending them to `frames`.
pub struct Frames {
    pub frames: Vec<FrameCase>,
}

impl Frames {
    pub fn push(&mut self, name: &str, encode: impl Fn(Encoder, Stamp) -> Vec<u8>) {
        let logical = encode(
            Encoder::new(Version::V1).compression(false),
            Stamp::default(),
        );
        let payload_json = String::from_utf8(logical[HEADER_SIZE..].to_vec()).unwrap();
        for version in Version::ALL {
            let index = self.frames.len() as u64;
            let stamp = Stamp {
                timestamp: EPOCH_MS + 1000 * index,
                sequence_id: index as u32 + 1,
            };
            let frame = encode(Encoder::new(version), stamp);
            self.frames.push(FrameCase {
                name: format!("{name}/{version}"),
                version: version.as_u8(),
                message_type: frame[1],
                timestamp: stamp.timestamp,
                sequence_id: stamp.sequence_id,
                // JSON text never starts with the marker, so in both
                // versions the first payload byte says it.
                compressed: frame[HEADER_SIZE] == COMPRESSED,
                payload_json: payload_json.clone(),
                frame: hex(&frame),
            });
        }
    }

    pub fn message<T: Serialize>(&mut self, name: &str, message_type: MessageType, value: &T) {
        self.push(name, |encoder, stamp| {
            encoder.encode(message_type, stamp, value).expect("encodes")
        });
    }
}

pub fn build_toon(samples: &[(String, Sample)]) -> Toon {
    let mut frames = Frames { frames: Vec::new() };
    // A spread of tools: every seventh sample, and every large one.
    for (i, (name, sample)) in samples.iter().enumerate() {
        if i % 7 != 0 && !name.ends_with("/large") {
            continue;
        }
        match sample {
            Sample::Request(request) => frames.push(&format!("tool_call/{name}"), |e, s| {
                e.encode_tool_call(s, request).expect("encodes")
            }),
            Sample::Response(response) => {
                let tool = response_tool(response);
                let result = ToolResult {
                    tool,
                    outcome: Ok(response.clone()),
                    duration_ms: 1500 + i as u64,
                };
                frames.push(&format!("tool_result/{name}"), |e, s| {
                    e.encode_tool_result(s, &result).expect("encodes")
                });
            }
        }
    }
    let failures: [ToolResult<ToolResponse>; 2] = [
        ToolResult {
            tool: "cas_get".to_owned(),
            outcome: Err(ToolError::new("NOT_FOUND", "No blob has this hash.")
                .with_details(serde_json::json!({"not_found": {"hash": "sha256:00ff"}}))),
            duration_ms: 3,
        },
        ToolResult {
            tool: "add".to_owned(),
            outcome: Err(ToolError::invalid_request("missing field `b`")),
            duration_ms: 0,
        },
    ];
    for (i, failure) in failures.iter().enumerate() {
        frames.push(&format!("tool_result/failure/{i}"), |e, s| {
            e.encode_tool_result(s, failure).expect("encodes")
        });
    }

    frames.message(
        "instruction",
        MessageType::Instruction,
        &Instruction {
            instruction: "Write unit tests for the UserService class — «vite» ✓".to_owned(),
        },
    );
    // JSON of exactly 1024 and 1025 bytes, full of runs: the threshold.
    for len in [1024, 1025] {
        let overhead = r#"{"instruction":""}"#.len();
        frames.message(
            &format!("instruction/{len}_bytes"),
            MessageType::Instruction,
            &Instruction {
                instruction: " ".repeat(len - overhead),
            },
        );
    }
    frames.message(
        "status",
        MessageType::Status,
        &Status {
            status: "analyzing".to_owned(),
            progress: Some(0.45),
        },
    );
    frames.message(
        "status/without_progress",
        MessageType::Status,
        &Status {
            status: "waiting".to_owned(),
            progress: None,
        },
    );
    frames.message(
        "error",
        MessageType::Error,
        &ErrorMessage {
            code: "TOOL_FAILED".to_owned(),
            message: "File not found: src/missing.ts".to_owned(),
        },
    );
    frames.message("heartbeat", MessageType::Heartbeat, &Heartbeat {});
    frames.message(
        "context_request",
        MessageType::ContextRequest,
        &serde_json::json!({"type": "file", "path": "src/config.ts"}),
    );
    frames.message(
        "context_response/large",
        MessageType::ContextResponse,
        &serde_json::json!({
            "type": "file",
            "path": "src/config.ts",
            "content": format!("export const config = {{\n{}}};\n",
                (0..40).map(|i| format!("        key{i:02}: {:>24},\n", i * 1000)).collect::<String>()),
            "lines": vec![0; 64],
        }),
    );

    Toon {
        format: FORMAT,
        frames: frames.frames,
        invalid: build_invalid(),
    }
}

/// The tool a response is of, from its tag (the same place as a request's).
pub fn response_tool(response: &ToolResponse) -> String {
    let bytes = to_msgpack(response).expect("encodes");
    let peek = toolwright::codec::peek_call(&bytes).expect("a response starts with its tag");
    peek.tool.to_owned()
}

pub fn header(version: u8, message_type: u8, payload_len: u32) -> Vec<u8> {
    let mut out = vec![version, message_type];
    out.extend_from_slice(&payload_len.to_le_bytes());
    out.extend_from_slice(&EPOCH_MS.to_le_bytes());
    out.extend_from_slice(&9u32.to_le_bytes());
    out
}

pub fn with_payload(version: u8, message_type: u8, payload: &[u8]) -> Vec<u8> {
    let mut out = header(version, message_type, payload.len() as u32);
    out.extend_from_slice(payload);
    out
}

pub fn build_invalid() -> Vec<InvalidCase> {
    use ErrorKind as K;
    let heartbeat = with_payload(1, 6, b"{}");
    let mut bomb = vec![COMPRESSED];
    bomb.extend_from_slice(&[0xFF, b' ', 0xFF].repeat(8));
    let cases: Vec<(&str, Vec<u8>, Option<u32>, ErrorKind)> = vec![
        ("empty", Vec::new(), None, K::TruncatedHeader),
        (
            "header_of_17_bytes",
            heartbeat[..17].to_vec(),
            None,
            K::TruncatedHeader,
        ),
        (
            "version_0",
            with_payload(0, 6, b"{}"),
            None,
            K::UnsupportedVersion,
        ),
        (
            "version_3",
            with_payload(3, 6, b"{}"),
            None,
            K::UnsupportedVersion,
        ),
        (
            "version_and_type_both_wrong",
            with_payload(9, 0, b"{}"),
            None,
            K::UnsupportedVersion,
        ),
        ("type_0", with_payload(1, 0, b"{}"), None, K::UnknownType),
        (
            "type_9",
            with_payload(2, 9, &[0x00, 0x80]),
            None,
            K::UnknownType,
        ),
        (
            "payload_cut_short",
            heartbeat[..19].to_vec(),
            None,
            K::TruncatedPayload,
        ),
        (
            "length_4GiB_minus_1",
            [header(1, 1, u32::MAX), b"{}".to_vec()].concat(),
            None,
            K::PayloadTooLarge,
        ),
        (
            "length_over_max_payload",
            with_payload(1, 1, &[b' '; 17]),
            Some(16),
            K::PayloadTooLarge,
        ),
        (
            "v1_rle_count_0",
            with_payload(1, 4, &[COMPRESSED, b'{', 0xFF, b' ', 0, b'}']),
            None,
            K::BadCompression,
        ),
        (
            "v1_rle_dangling_escape",
            with_payload(1, 4, &[COMPRESSED, b'{', b'}', 0xFF]),
            None,
            K::BadCompression,
        ),
        (
            "v2_rle_escape_without_count",
            with_payload(2, 4, &[COMPRESSED, 0x80, 0xFF, 0x80]),
            None,
            K::BadCompression,
        ),
        (
            "v1_rle_bomb",
            with_payload(1, 4, &bomb),
            Some(1024),
            K::DecompressedTooLarge,
        ),
        (
            "v2_rle_bomb",
            with_payload(2, 4, &bomb),
            Some(1024),
            K::DecompressedTooLarge,
        ),
        (
            "v1_empty_payload",
            with_payload(1, 6, b""),
            None,
            K::InvalidPayload,
        ),
        (
            "v1_not_json",
            with_payload(1, 1, br#"{"instruction":"#),
            None,
            K::InvalidPayload,
        ),
        (
            "v1_not_utf8",
            with_payload(1, 1, b"{\"instruction\":\"\xC3\x28\"}"),
            None,
            K::InvalidPayload,
        ),
        (
            "v1_trailing_text",
            with_payload(1, 6, b"{}x"),
            None,
            K::InvalidPayload,
        ),
        (
            "v2_without_coding_byte",
            with_payload(2, 6, b""),
            None,
            K::InvalidPayload,
        ),
        (
            "v2_unknown_coding_byte",
            with_payload(2, 6, &[0x01, 0x80]),
            None,
            K::InvalidPayload,
        ),
        (
            "v2_truncated_msgpack",
            with_payload(2, 1, &[0x00, 0x81, 0xab, 0x69]),
            None,
            K::InvalidPayload,
        ),
        (
            "v2_trailing_bytes",
            with_payload(2, 6, &[0x00, 0x80, 0x80]),
            None,
            K::InvalidPayload,
        ),
    ];
    cases
        .into_iter()
        .map(|(name, frame, max_payload, kind)| InvalidCase {
            name: name.to_owned(),
            frame: hex(&frame),
            max_payload,
            error: kind.as_str().to_owned(),
        })
        .collect()
}
