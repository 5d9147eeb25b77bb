//! The generated types of the reference catalogue on the wire: requests are
//! decoded tag first, defaults fill in, unknown fields and tools are
//! errors, and everything round-trips through MsgPack.

use toolwright::codec::{Limits, from_json, from_msgpack, to_json, to_msgpack};
use toolwright::{Catalogue, IntoToolError, Tool, ToolTiming};
use toolwright_catalogue_tests::*;

fn round_trip<T>(value: &T) -> T
where
    T: serde::Serialize + serde::de::DeserializeOwned,
{
    let bytes = to_msgpack(value).expect("encodes");
    from_msgpack(&bytes, Limits::default()).expect("decodes")
}

fn request(json: &str) -> Result<ToolRequest, toolwright::ToolError> {
    from_json(json.as_bytes(), Limits::default())
}

#[test]
fn an_action_request_round_trips_with_tool_then_action_first() {
    let call = ToolRequest::Fs(FsRequest::Read(FsReadRequest {
        uri: "file:///etc/hosts".to_owned(),
        range: None,
        encoding: TextEncoding::Utf8,
    }));
    assert_eq!(round_trip(&call), call);
    let json = String::from_utf8(to_json(&call).unwrap()).unwrap();
    assert_eq!(
        json,
        r#"{"tool":"fs","action":"read","uri":"file:///etc/hosts","encoding":"utf8"}"#
    );
    assert_eq!(request(&json).unwrap(), call);
}

#[test]
fn a_tool_without_arguments_is_just_its_tag() {
    let call = ToolRequest::Ping;
    assert_eq!(round_trip(&call), call);
    assert_eq!(to_json(&call).unwrap(), br#"{"tool":"ping"}"#);
    assert_eq!(
        request(r#"{"tool":"garden_play"}"#).unwrap(),
        ToolRequest::GardenPlay
    );
    let e = request(r#"{"tool":"ping","verbose":true}"#).unwrap_err();
    assert!(e.message.contains("unexpected field `verbose`"), "{e}");
}

#[test]
fn defaults_fill_in_fields_left_out() {
    let call = request(r#"{"tool":"abc_transpose","abc":"X:1"}"#).unwrap();
    let ToolRequest::AbcTranspose(req) = &call else {
        panic!("{call:?}")
    };
    assert_eq!(req.semitones, 0);
    assert_eq!(req.target_key, None);
    assert_eq!(round_trip(&call), call);

    let call = request(r#"{"tool":"job_list"}"#).unwrap();
    assert_eq!(call, ToolRequest::JobList(JobListRequest::default()));
    let ToolRequest::JobList(req) = call else {
        unreachable!()
    };
    assert_eq!(req.limit, 100);
    assert_eq!(JobPollRequest::default().mode, PollMode::Any);
}

#[test]
fn requests_reject_unknown_fields_and_responses_ignore_them() {
    let e = request(r#"{"tool":"add","a":1,"b":2,"c":3}"#).unwrap_err();
    assert_eq!(e.code, toolwright::codes::INVALID_REQUEST);
    assert!(e.message.contains("unknown field `c`"), "{e}");

    let response: ToolResponse = from_json(
        br#"{"tool":"add","result":3,"added_later":true}"#,
        Limits::default(),
    )
    .unwrap();
    assert_eq!(response, ToolResponse::Add(MathResult { result: 3 }));
}

#[test]
fn unknown_tools_and_actions_are_errors_naming_them() {
    let e = request(r#"{"tool":"ad","a":1,"b":2}"#).unwrap_err();
    assert!(e.message.contains("unknown variant `ad`"), "{e}");
    assert!(
        e.message.contains("`add`"),
        "the message lists the tools: {e}"
    );
    let e = request(r#"{"tool":"fs","action":"raed","uri":"file:///x"}"#).unwrap_err();
    assert!(e.message.contains("unknown variant `raed`"), "{e}");
}

#[test]
fn the_tag_must_come_first() {
    let e = request(r#"{"a":1,"b":2,"tool":"add"}"#).unwrap_err();
    assert!(
        e.message.contains("expected `tool` as the first key"),
        "{e}"
    );
    let e = request(r#"{"tool":"fs","uri":"file:///x","action":"read"}"#).unwrap_err();
    assert!(
        e.message.contains("expected `action` as the first key"),
        "{e}"
    );
}

#[test]
fn unions_are_externally_tagged_and_fieldless_variants_are_empty_maps() {
    let error = GardenError::NothingToPlay {};
    let json = String::from_utf8(to_json(&error).unwrap()).unwrap();
    assert_eq!(json, r#"{"nothing_to_play":{}}"#);
    assert_eq!(round_trip(&error), error);
}

#[test]
fn errors_carry_code_message_and_details() {
    let error = JobError::NotFound {
        job_id: "job_1".to_owned(),
    };
    assert_eq!(error.code(), "NOT_FOUND");
    assert_eq!(
        error.to_string(),
        "No job has this ID, or it expired after its time-to-live."
    );
    let wire = error.into_tool_error();
    assert_eq!(wire.code, "NOT_FOUND");
    assert_eq!(
        wire.details,
        Some(serde_json::json!({"not_found": {"job_id": "job_1"}}))
    );
    assert_eq!(MathError::Overflow {}.code(), "OVERFLOW");
}

#[test]
fn the_catalogue_describes_every_tool() {
    let tools = ToolCatalogue::TOOLS;
    assert_eq!(tools.len(), 70);
    assert_eq!(ToolCatalogue::tool("add").map(|t| t.name), Some("add"));
    assert_eq!(ToolCatalogue::tool("nope"), None);
    assert!(ToolCatalogue::tool("job_status").unwrap().builtin);
    assert!(!ToolCatalogue::tool("add").unwrap().builtin);
    for (i, tool) in tools.iter().enumerate() {
        assert_eq!(ToolCatalogue::tool(tool.name), Some(&tools[i]));
    }

    let info = ToolCatalogue::call_info(&ToolRequest::Ping);
    assert_eq!((info.tool.name, info.action), ("ping", None));
    let write = ToolRequest::Fs(FsRequest::Write(FsWriteRequest {
        uri: "file:///x".to_owned(),
        content: String::new(),
        create_parents: false,
    }));
    let info = ToolCatalogue::call_info(&write);
    assert_eq!(info.tool.name, "fs");
    assert_eq!(info.action.map(|a| a.name), Some("write"));
    assert_eq!(info.timing, info.action.unwrap().timing);
}

#[test]
fn markers_describe_their_tool() {
    assert_eq!(AddTool::NAME, "add");
    assert_eq!(AddTool::TIMING, ToolTiming::Sync);
    assert_eq!(AddTool::DESCRIPTION, "Add two integers.");
    // An action tool's timing is the longest of its actions'.
    let longest = ToolCatalogue::tool("fs")
        .unwrap()
        .actions
        .iter()
        .map(|a| a.timing)
        .max();
    assert_eq!(Some(FsTool::TIMING), longest);
}

#[test]
fn job_tools_go_to_the_dispatcher_and_back() {
    let call = ToolRequest::JobStatus(JobRef {
        job_id: "job_1".to_owned(),
    });
    let job = ToolCatalogue::into_job_call(call).expect("a job tool");
    assert!(matches!(job, toolwright::jobs::JobCall::Status(_)));
    assert_eq!(
        ToolCatalogue::into_job_call(ToolRequest::Ping),
        Err(ToolRequest::Ping)
    );
    let reply = toolwright::jobs::JobReply::Cancel(JobCancelResponse {
        job_id: "job_1".to_owned(),
        cancelled: true,
        state: JobState::Cancelled,
    });
    assert!(matches!(
        ToolCatalogue::from_job_reply(reply),
        ToolResponse::JobCancel(_)
    ));
}

/// The byte examples in docs/wire.md are what the runtime writes.
#[test]
fn the_examples_in_the_wire_spec_are_exact() {
    let spec = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/wire.md"))
        .expect("docs/wire.md");
    let hex = |bytes: &[u8]| {
        bytes
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<Vec<_>>()
            .join(" ")
    };

    let add = ToolRequest::Add(MathOperands { a: 1, b: 2 });
    let encoded = to_msgpack(&add).unwrap();
    assert!(
        spec.contains(&hex(&encoded)),
        "wire.md lacks the add request: {}",
        hex(&encoded)
    );

    let success: toolwright::ResponseEnvelope<ToolResponse> =
        toolwright::ResponseEnvelope::Success(ToolResponse::Add(MathResult { result: 3 }));
    let encoded = to_msgpack(&success).unwrap();
    assert!(
        spec.contains(&hex(&encoded)),
        "wire.md lacks the success envelope: {}",
        hex(&encoded)
    );
}

/// A number too large for an `f32` field is refused, from JSON and from a
/// MsgPack `float 64` alike, where serde alone reads it as infinity (the
/// `json_transcode` fuzz target's finding: the request's JSON then wrote
/// `null` and did not read back). Every door's decode also names the field
/// (runtime/tests/doors.rs).
#[test]
fn an_f32_overflow_is_refused() {
    let json = r#"{"tool":"orpheus_generate","temperature":1.44e98}"#;
    let refused = request(json).expect_err("too large for an f32");
    assert_eq!(refused.code, "INVALID_REQUEST");
    assert!(refused.message.contains("1.44e98"), "{}", refused.message);
    let msgpack =
        toolwright::codec::json_to_msgpack(json.as_bytes(), Limits::default()).expect("valid JSON");
    let refused =
        from_msgpack::<ToolRequest>(&msgpack, Limits::default()).expect_err("too large for an f32");
    assert!(
        refused.message.contains("f32's range"),
        "{}",
        refused.message
    );
    // A value that fits is read as serde reads it.
    let fits = request(r#"{"tool":"orpheus_generate","temperature":0.5}"#).expect("fits");
    let json = String::from_utf8(to_json(&fits).unwrap()).unwrap();
    assert!(json.contains(r#""temperature":0.5"#), "{json}");
}
