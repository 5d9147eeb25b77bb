//! Bad bytes through `call_msgpack` get a decodable `Error` envelope with
//! the right code, never a panic and never an allocation the input does not
//! pay for.

mod support;

use proptest::prelude::*;
use rmp::encode as w;
use support::*;
use toolwright::codec::Limits;
use toolwright::{Dispatcher, DispatcherConfig, ResponseEnvelope, ToolError, codes};

/// A MsgPack writer for hand-made (and deliberately broken) messages.
#[derive(Default)]
struct Msg(Vec<u8>);

impl Msg {
    fn map(mut self, len: u32) -> Self {
        w::write_map_len(&mut self.0, len).expect("write");
        self
    }
    fn array(mut self, len: u32) -> Self {
        w::write_array_len(&mut self.0, len).expect("write");
        self
    }
    fn str(mut self, s: &str) -> Self {
        w::write_str(&mut self.0, s).expect("write");
        self
    }
    fn int(mut self, n: i64) -> Self {
        w::write_sint(&mut self.0, n).expect("write");
        self
    }
    fn bin(mut self, b: &[u8]) -> Self {
        w::write_bin(&mut self.0, b).expect("write");
        self
    }
    fn raw(mut self, bytes: &[u8]) -> Self {
        self.0.extend_from_slice(bytes);
        self
    }
    fn done(self) -> Vec<u8> {
        self.0
    }
}

/// `{"tool": "echo", "text": .., "data": .., "items": .., "tags": {}, "value": <value>}`.
fn echo_with_value(value: Msg) -> Vec<u8> {
    Msg::default()
        .map(6)
        .str("tool")
        .str("echo")
        .str("text")
        .str("hi")
        .str("data")
        .bin(&[1, 2, 3])
        .str("items")
        .array(2)
        .int(1)
        .int(2)
        .str("tags")
        .map(0)
        .str("value")
        .raw(&value.done())
        .done()
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .expect("a runtime")
}

/// Sends `bytes` and decodes the answer.
fn answer(d: &Dispatcher<Studio>, bytes: &[u8]) -> Envelope {
    runtime().block_on(async { decode(&d.call_msgpack(bytes).await) })
}

fn rejected(d: &Dispatcher<Studio>, bytes: &[u8]) -> ToolError {
    let envelope = answer(d, bytes);
    error(&envelope).clone()
}

fn d() -> Dispatcher<Studio> {
    dispatcher(DispatcherConfig::default())
}

/// The valid requests whose every prefix is tried.
fn valid_requests() -> Vec<Vec<u8>> {
    vec![
        encode(&ToolRequest::Add(MathOperands { a: 1, b: -2 })),
        echo_with_value(Msg::default().map(1).str("k").array(2).int(1).str("v")),
        encode(&ToolRequest::Fs(FsRequest::Write(FsWriteRequest {
            uri: "file:///tmp/x".into(),
            content: "hello".into(),
            ms: 0,
        }))),
        encode(&ToolRequest::JobList(all_jobs())),
        encode(&ToolRequest::Crash),
        encode(&ToolRequest::CrashNow),
    ]
}

#[test]
fn the_valid_requests_are_valid() {
    let d = d();
    for bytes in valid_requests() {
        let envelope = answer(&d, &bytes);
        // `crash` panics by design: its INTERNAL error is an answer too.
        if let Some(e) = envelope.error() {
            assert_eq!(e.code, codes::INTERNAL, "{e}");
        }
    }
}

#[test]
fn empty_input_is_invalid() {
    let e = rejected(&d(), &[]);
    assert_eq!(e.code, codes::INVALID_REQUEST);
}

#[test]
fn every_truncation_of_a_valid_request_is_invalid() {
    let d = d();
    let rt = runtime();
    for bytes in valid_requests() {
        for len in 0..bytes.len() {
            let envelope = rt.block_on(async { decode(&d.call_msgpack(&bytes[..len]).await) });
            let e = error(&envelope);
            assert_eq!(
                e.code,
                codes::INVALID_REQUEST,
                "prefix {len} of {bytes:02x?}: {e}"
            );
        }
    }
}

#[test]
fn trailing_bytes_are_invalid() {
    let d = d();
    // A whole value, a lone map or array header (whose first element is
    // missing too), a truncated length.
    for tail in [&[0xc0][..], &[0x81], &[0x91], &[0xdc, 0x00]] {
        let mut bytes = encode(&ToolRequest::Add(MathOperands { a: 1, b: 2 }));
        bytes.extend_from_slice(tail);
        let e = rejected(&d, &bytes);
        assert_eq!(e.code, codes::INVALID_REQUEST, "{tail:02x?}");
        assert!(e.message.contains("trailing bytes"), "{tail:02x?}: {e}");
    }
}

#[test]
fn an_unknown_tool_gets_a_suggestion() {
    let d = d();
    let ad = Msg::default().map(1).str("tool").str("ad").done();
    let e = rejected(&d, &ad);
    assert_eq!(e.code, codes::UNKNOWN_TOOL);
    assert_eq!(e.message, "no tool is named `ad`; did you mean `add`?");

    let typo = Msg::default()
        .map(2)
        .str("tool")
        .str("job_stauts")
        .str("job_id")
        .str("job_1")
        .done();
    assert!(
        rejected(&d, &typo)
            .message
            .ends_with("did you mean `job_status`?")
    );

    let far = Msg::default().map(1).str("tool").str("banana").done();
    assert_eq!(rejected(&d, &far).message, "no tool is named `banana`");

    // A huge name is neither compared at length nor echoed whole.
    let huge = Msg::default()
        .map(1)
        .str("tool")
        .str(&"x".repeat(1 << 20))
        .done();
    let e = rejected(&d, &huge);
    assert_eq!(e.code, codes::UNKNOWN_TOOL);
    assert!(e.message.len() < 200, "{} bytes", e.message.len());
}

#[test]
fn an_unknown_action_gets_a_suggestion() {
    let bytes = Msg::default()
        .map(3)
        .str("tool")
        .str("fs")
        .str("action")
        .str("raed")
        .str("uri")
        .str("x")
        .done();
    let e = rejected(&d(), &bytes);
    assert_eq!(e.code, codes::UNKNOWN_ACTION);
    // One wording on every door: the edge's, which lists the choices.
    assert_eq!(
        e.message,
        "tool `fs` has no action `raed`; did you mean `read`? Available actions: read, list, write."
    );
}

#[test]
fn a_missing_action_is_invalid() {
    let bytes = Msg::default()
        .map(2)
        .str("tool")
        .str("fs")
        .str("uri")
        .str("x")
        .done();
    let e = rejected(&d(), &bytes);
    assert_eq!(e.code, codes::INVALID_REQUEST);
    assert!(e.message.contains("action"), "{e}");
}

#[test]
fn wrong_field_types_name_the_field() {
    let d = d();
    let cases = [
        (
            Msg::default()
                .map(3)
                .str("tool")
                .str("add")
                .str("a")
                .str("x")
                .str("b")
                .int(1)
                .done(),
            "field `a`: wrong type: found a string",
        ),
        (
            Msg::default()
                .map(3)
                .str("tool")
                .str("fs")
                .str("action")
                .str("read")
                .str("uri")
                .int(5)
                .done(),
            "field `uri`: invalid type: integer `5`, expected a string",
        ),
        (
            Msg::default()
                .map(6)
                .str("tool")
                .str("echo")
                .str("text")
                .str("hi")
                .str("data")
                .bin(&[])
                .str("items")
                .array(2)
                .int(1)
                .str("two")
                .str("tags")
                .map(0)
                .str("value")
                .int(1)
                .done(),
            "field `items[1]`: wrong type: found a string",
        ),
    ];
    for (bytes, message) in cases {
        let e = rejected(&d, &bytes);
        assert_eq!(e.code, codes::INVALID_REQUEST);
        assert_eq!(e.message, message);
    }
}

#[test]
fn missing_and_unknown_fields_are_named() {
    let d = d();
    let missing = Msg::default()
        .map(2)
        .str("tool")
        .str("add")
        .str("a")
        .int(1)
        .done();
    let e = rejected(&d, &missing);
    assert_eq!(
        (e.code.as_ref(), e.message.as_str()),
        (codes::INVALID_REQUEST, "missing field `b`")
    );

    let unknown = Msg::default()
        .map(4)
        .str("tool")
        .str("add")
        .str("a")
        .int(1)
        .str("b")
        .int(1)
        .str("c")
        .int(1)
        .done();
    let e = rejected(&d, &unknown);
    assert_eq!(e.code, codes::INVALID_REQUEST);
    assert_eq!(e.message, "unknown field `c`, expected `a` or `b`");

    let not_a_map = Msg::default().array(1).str("tool").done();
    assert_eq!(rejected(&d, &not_a_map).code, codes::INVALID_REQUEST);
    let tool_not_first = Msg::default()
        .map(2)
        .str("a")
        .int(1)
        .str("tool")
        .str("add")
        .done();
    assert_eq!(rejected(&d, &tool_not_first).code, codes::INVALID_REQUEST);
}

#[test]
fn values_beyond_their_constraints_are_refused_naming_field_and_bound() {
    let d = d();
    // `job_list.limit` is `@range(1, 1000)`.
    let list = |limit: i64| {
        Msg::default()
            .map(2)
            .str("tool")
            .str("job_list")
            .str("limit")
            .int(limit)
            .done()
    };
    let e = rejected(&d, &list(1001));
    assert_eq!(e.code, codes::INVALID_REQUEST);
    assert_eq!(e.message, "field `limit`: 1001 is above the maximum 1000");
    assert_eq!(
        e.details,
        Some(serde_json::json!({
            "field": "limit", "constraint": "range", "minimum": 1, "maximum": 1000,
        }))
    );
    assert_eq!(
        rejected(&d, &list(0)).message,
        "field `limit`: 0 is below the minimum 1"
    );
    assert!(matches!(
        answer(&d, &list(1000)),
        ResponseEnvelope::Success(_)
    ));
    // `job_status.job_id` is `@pattern("^job_[A-Za-z0-9]+$")`.
    let status = Msg::default()
        .map(2)
        .str("tool")
        .str("job_status")
        .str("job_id")
        .str("../etc/passwd")
        .done();
    let e = rejected(&d, &status);
    assert_eq!(
        e.message,
        "field `job_id`: \"../etc/passwd\" does not match the pattern `^job_[A-Za-z0-9]+$`"
    );
}

/// Peak virtual memory of this process, in KiB, where Linux says.
fn vm_peak_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmPeak:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn length_headers_claiming_4_gib_are_refused_without_allocating() {
    const U32_MAX: [u8; 4] = [0xff; 4];
    let header = |marker: u8| {
        let mut h = vec![marker];
        h.extend_from_slice(&U32_MAX);
        h
    };
    let field = |name: &str, marker: u8| {
        echo_with_value(Msg::default().int(0))
            .windows(name.len() + 1)
            .position(|w| &w[1..] == name.as_bytes())
            .map(|at| {
                // Replace everything from the field's value on with a
                // header that claims 4 GiB and a few real bytes.
                let bytes = echo_with_value(Msg::default().int(0));
                let mut out = bytes[..at + 1 + name.len()].to_vec();
                out.extend(header(marker));
                out.extend_from_slice(b"abc");
                out
            })
            .expect("the field is in the message")
    };
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("bin32 in a bytes field", field("data", 0xc6)),
        ("str32 in a string field", field("text", 0xdb)),
        ("array32 in a list field", field("items", 0xdd)),
        ("map32 in a map field", field("tags", 0xdf)),
        (
            "bin32 in a json field",
            echo_with_value(Msg::default().raw(&header(0xc6))),
        ),
        (
            "str32 in a json field",
            echo_with_value(Msg::default().raw(&header(0xdb))),
        ),
        (
            "array32 in a json field",
            echo_with_value(Msg::default().raw(&header(0xdd))),
        ),
        (
            "map32 in a json field",
            echo_with_value(Msg::default().raw(&header(0xdf))),
        ),
        (
            "map32 at the top",
            Msg::default()
                .raw(&header(0xdf))
                .str("tool")
                .str("add")
                .done(),
        ),
        (
            "str32 as the tool name",
            Msg::default().map(1).str("tool").raw(&header(0xdb)).done(),
        ),
        (
            "array32 at the top",
            Msg::default().raw(&header(0xdd)).done(),
        ),
    ];
    let d = d();
    let before = vm_peak_kib();
    for (what, bytes) in &cases {
        let e = rejected(&d, bytes);
        assert_eq!(e.code, codes::INVALID_REQUEST, "{what}: {e}");
    }
    if let (Some(before), Some(after)) = (before, vm_peak_kib()) {
        // A 4 GiB buffer would show in the peak even if never touched.
        assert!(
            after.saturating_sub(before) < 1024 * 1024,
            "peak virtual memory grew from {before} KiB to {after} KiB"
        );
    }
}

#[test]
fn nesting_10000_deep_is_refused() {
    const DEEP: usize = 10_000;
    let arrays = Msg::default().raw(&vec![0x91; DEEP]).int(0);
    let mut maps = Msg::default();
    for _ in 0..DEEP {
        maps = maps.map(1).str("k");
    }
    let maps = maps.int(0);
    let d = d();
    for (what, value) in [("arrays", arrays), ("maps", maps)] {
        let nested_top = value.0.clone();
        let e = rejected(&d, &echo_with_value(value));
        assert_eq!(e.code, codes::INVALID_REQUEST, "{what} in json: {e}");
        assert!(e.message.contains("deeper than the limit"), "{what}: {e}");
        let e = rejected(&d, &nested_top);
        assert_eq!(e.code, codes::INVALID_REQUEST, "{what} at the top: {e}");
    }
    // A top-level map that opens with `tool` and then nests deep.
    let mut deep_arg = Msg::default().map(2).str("tool").str("add").str("a");
    for _ in 0..DEEP {
        deep_arg = deep_arg.map(1).str("k");
    }
    let e = rejected(&d, &deep_arg.int(0).done());
    assert_eq!(e.code, codes::INVALID_REQUEST);
}

#[test]
fn nesting_within_the_limit_round_trips() {
    let value = Msg::default().raw(&[0x91; 100]).int(7);
    let envelope = answer(&d(), &echo_with_value(value));
    let ResponseEnvelope::Success(ToolResponse::Echo(echo)) = envelope else {
        panic!("expected an echo, got {envelope:?}");
    };
    let mut value = echo.value.expect("the value");
    for _ in 0..100 {
        value = value
            .as_array()
            .and_then(|a| a.first())
            .cloned()
            .expect("an array");
    }
    assert_eq!(value, serde_json::json!(7));
}

/// `echo` and `add` are answered straight from their bytes (their handlers
/// are plain functions); the depth limit must count the same there as on
/// the general path, which decodes a `ToolRequest` first.
#[test]
fn the_depth_limit_is_the_same_on_every_path() {
    let rt = runtime();
    for max_depth in 0..6 {
        let limits = Limits::default().max_depth(max_depth);
        let d = dispatcher(DispatcherConfig::default().limits(limits));
        for nesting in 0..6 {
            let bytes = echo_with_value(Msg::default().raw(&vec![0x91; nesting]).int(7));
            let direct = rt.block_on(d.call_msgpack(&bytes));
            let general = match toolwright::codec::from_msgpack::<ToolRequest>(&bytes, limits) {
                Ok(request) => rt.block_on(d.call(request)),
                Err(e) => ResponseEnvelope::Error(e),
            };
            let direct = decode(&direct);
            assert_eq!(
                direct.error().map(|e| &e.code),
                general.error().map(|e| &e.code),
                "max_depth {max_depth}, nesting {nesting}: {direct:?} against {general:?}"
            );
            // The request map, then `items` or the value's arrays.
            let deepest = 1 + nesting.max(1);
            assert_eq!(direct.error().is_none(), deepest <= max_depth, "{direct:?}");
        }
        // A flat request nests one level: the map itself.
        let add =
            rt.block_on(d.call_msgpack(&encode(&ToolRequest::Add(MathOperands { a: 1, b: 2 }))));
        assert_eq!(
            decode(&add).error().is_none(),
            max_depth >= 1,
            "max_depth {max_depth}"
        );
    }
}

#[test]
fn a_message_over_the_size_limit_is_refused_before_decoding() {
    let d = dispatcher(DispatcherConfig::default().limits(Limits::default().max_bytes(16)));
    let bytes = encode(&ToolRequest::Fs(FsRequest::Read(FsReadRequest {
        uri: "a long uri that does not fit".into(),
    })));
    let e = rejected(&d, &bytes);
    assert_eq!(e.code, codes::INVALID_REQUEST);
    assert!(e.message.contains("larger than the limit"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn garbage_gets_a_decodable_answer(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        let d = d();
        // Decoding the answer is the assertion: `answer` fails if it does not.
        let _ = answer(&d, &bytes);
    }

    #[test]
    fn a_valid_request_with_a_byte_changed_gets_a_decodable_answer(
        which in 0usize..6,
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
    ) {
        let mut bytes = valid_requests().swap_remove(which);
        let i = at.index(bytes.len());
        bytes[i] = byte;
        let _ = answer(&d(), &bytes);
    }

    #[test]
    fn a_valid_request_with_garbage_appended_is_invalid(
        which in 0usize..6,
        tail in proptest::collection::vec(any::<u8>(), 1..32),
    ) {
        let mut bytes = valid_requests().swap_remove(which);
        bytes.extend(tail);
        let e = rejected(&d(), &bytes);
        prop_assert_eq!(e.code.as_ref(), codes::INVALID_REQUEST);
    }
}
