//! The generator's feature fixtures (`codegen/tests/fixtures/rust/`),
//! compiled as catalogues of their own, behave as docs/rust.md says.

use toolwright::codec::{Limits, from_json, from_msgpack, to_json, to_msgpack};
use toolwright::{Catalogue, Tool, ToolTiming};
use toolwright_catalogue_tests::fixtures::*;

fn json<T: serde::Serialize>(value: &T) -> String {
    String::from_utf8(to_json(value).expect("encodes")).expect("UTF-8")
}

fn round_trip<T>(value: &T) -> T
where
    T: serde::Serialize + serde::de::DeserializeOwned,
{
    from_msgpack(&to_msgpack(value).expect("encodes"), Limits::default()).expect("decodes")
}

#[test]
fn keyword_fields_keep_their_wire_names_and_defaults_apply() {
    let knobs = structs::Knobs::default();
    assert_eq!(knobs.r#type, "plain");
    assert!(knobs.self_);
    assert_eq!(knobs.r#await, i64::MIN);
    assert_eq!(knobs.mode, structs::Mode::Fast2);
    assert_eq!(knobs.json_float, serde_json::json!(2.5));
    assert_eq!(knobs.ceiling, u64::MAX);
    let text = json(&knobs);
    for key in [
        r#""type":"plain""#,
        r#""self":true"#,
        r#""mode":"fast_2""#,
        r#""try":3.14159"#,
    ] {
        assert!(text.contains(key), "{key} in {text}");
    }
    assert!(
        !text.contains("super"),
        "absent optionals are left out: {text}"
    );
    let empty: structs::Knobs = from_json(b"{}", Limits::default()).unwrap();
    assert_eq!(empty, knobs);
    assert_eq!(round_trip(&knobs), knobs);
    assert_eq!(structs::Summary::default().total, None);
}

#[test]
fn enum_values_are_renamed_where_serde_would_misspell_them() {
    use enums::Shade;
    let names = [
        (Shade::Light, "light"),
        (Shade::DarkGrey, "dark_grey"),
        (Shade::Grey2, "grey_2"),
        (Shade::Self_, "self"),
        (Shade::Type, "type"),
    ];
    for (shade, wire) in names {
        assert_eq!(json(&shade), format!("\"{wire}\""));
        assert_eq!(round_trip(&shade), shade);
    }
}

#[test]
fn union_variants_without_fields_are_empty_maps_and_defaults_apply() {
    use unions::Shape;
    assert_eq!(json(&Shape::Empty {}), r#"{"empty":{}}"#);
    let square: Shape = from_json(br#"{"square":{}}"#, Limits::default()).unwrap();
    assert_eq!(square, Shape::Square { side: 1.0 });
    let a: Shape = from_json(br#"{"a":{}}"#, Limits::default()).unwrap();
    let a_b: Shape = from_json(br#"{"a_b":{}}"#, Limits::default()).unwrap();
    assert_eq!((a, a_b), (Shape::A { b_c: 1 }, Shape::AB { c: 2 }));
    // In a request, so unknown fields are rejected.
    let e = from_json::<Shape>(
        br#"{"circle":{"radius":1,"colour":"red"}}"#,
        Limits::default(),
    )
    .unwrap_err();
    assert!(e.message.contains("unknown field `colour`"), "{e}");
}

#[test]
fn errors_say_the_first_paragraph_of_their_docs_or_their_code() {
    use errors::RenderError;
    let e = RenderError::ParseFailed {
        line: 3,
        message: "x".to_owned(),
    };
    assert_eq!(e.code(), "PARSE_FAILED");
    assert_eq!(e.to_string(), "The input does not parse.");
    assert_eq!(RenderError::Timeout2 {}.code(), "TIMEOUT_2");
    assert_eq!(
        RenderError::Timeout2 {}.to_string(),
        "The render took too long."
    );
    assert_eq!(json(&RenderError::Timeout2 {}), r#"{"timeout_2":{}}"#);
    assert_eq!(RenderError::OutOfMemory {}.to_string(), "OUT_OF_MEMORY");
}

#[test]
fn recursive_types_are_boxed_and_round_trip() {
    use recursive::{Expr, Tree};
    let leaf = Tree {
        label: "leaf".to_owned(),
        child: None,
        children: Vec::new(),
        named: Default::default(),
    };
    let tree = Tree {
        label: "root".to_owned(),
        child: Some(Box::new(leaf.clone())),
        children: vec![leaf.clone()],
        named: [("x".to_owned(), leaf)].into_iter().collect(),
    };
    assert_eq!(round_trip(&tree), tree);
    let expr = Expr::Add {
        left: Box::new(Expr::Lit { value: 1 }),
        right: Box::new(Expr::Lit { value: 2 }),
    };
    assert_eq!(round_trip(&expr), expr);
}

#[test]
fn actions_without_shapes_are_unit_variants() {
    use actions::{
        FilesRequest, FilesResponse, FilesTool, ToolCatalogue, ToolRequest, ToolResponse,
    };
    assert_eq!(FilesTool::TIMING, ToolTiming::AsyncMedium);
    let sync = ToolRequest::Files(FilesRequest::Sync);
    assert_eq!(json(&sync), r#"{"tool":"files","action":"sync"}"#);
    assert_eq!(round_trip(&sync), sync);
    let info = ToolCatalogue::call_info(&sync);
    assert_eq!(info.timing, ToolTiming::AsyncShort);
    assert_eq!(info.action.map(|a| a.title), Some(None));
    let written = ToolResponse::Files(FilesResponse::Write);
    assert_eq!(json(&written), r#"{"tool":"files","action":"write"}"#);
    assert_eq!(round_trip(&written), written);
    let e = from_json::<ToolRequest>(
        br#"{"tool":"files","action":"sync","x":1}"#,
        Limits::default(),
    )
    .unwrap_err();
    assert!(e.message.contains("unexpected field `x`"), "{e}");
}

#[test]
fn tools_without_request_or_response_use_unit() {
    use no_payload::{LogTool, PokeTool, ToolRequest, ToolResponse};
    fn unit<T: Tool<Request = (), Response = ()>>() {}
    unit::<PokeTool>();
    let _: <LogTool as Tool>::Response = ();
    assert_eq!(round_trip(&ToolRequest::Poke), ToolRequest::Poke);
    assert_eq!(json(&ToolResponse::Log), r#"{"tool":"log"}"#);
}

#[test]
fn stream_tools_name_their_chunk_type() {
    use stream::{GenerateTool, GenerationChunk};
    let chunk: <GenerateTool as Tool>::Chunk = GenerationChunk::Progress { percent: 50.0 };
    assert_eq!(json(&chunk), r#"{"progress":{"percent":50.0}}"#);
    assert!(stream::ToolCatalogue::tool("generate").unwrap().streams);
}

#[test]
#[allow(deprecated)]
fn deprecated_items_still_work() {
    use deprecated::{LookupTool, Mode, OldQuery, StoreRequest, ToolRequest};
    assert_eq!(LookupTool::NAME, "lookup");
    let call = ToolRequest::Store(StoreRequest::Set(OldQuery {
        key: "k".to_owned(),
    }));
    assert_eq!(round_trip(&call), call);
    assert_eq!(json(&Mode::Old), r#""old""#);
}

#[test]
fn types_named_like_std_items_do_not_confuse_the_generated_code() {
    use hygiene::{Option, SelfRequest, ToolRequest, Vec};
    let call = ToolRequest::Self_(SelfRequest {
        option: Option { value: Some(1) },
        map: Default::default(),
        raw: None,
        any: None,
        list: vec![hygiene::Box { inner: Vec::Box }],
    });
    assert_eq!(round_trip(&call), call);
    assert!(json(&call).starts_with(r#"{"tool":"self","option":{"value":1}"#));
    assert_eq!(json(&hygiene::ToolRequest::Tool), r#"{"tool":"tool"}"#);
}

#[test]
fn constraints_are_checked_wherever_a_request_holds_them() {
    use constraints::ToolRequest;
    use toolwright::Validate;

    let refused = |json: &str| -> String {
        let request: ToolRequest = from_json(json.as_bytes(), Limits::default()).unwrap();
        request.validate().unwrap_err().to_string()
    };
    let step = r#"{"note":60}"#;
    let ok = format!(r#"{{"tool":"play","source":{{"steps":{{"steps":[{step}]}}}}}}"#);
    let request: ToolRequest = from_json(ok.as_bytes(), Limits::default()).unwrap();
    assert_eq!(request.validate(), Ok(()));

    assert_eq!(
        refused(r#"{"tool":"play","source":{"steps":{"steps":[{"note":60},{"note":128}]}}}"#),
        "field `source.steps[1].note`: 128 is above the maximum 127"
    );
    assert_eq!(
        refused(r#"{"tool":"play","source":{"steps":{"steps":[]}}}"#),
        "field `source.steps`: 0 entries are fewer than the minimum 1"
    );
    assert_eq!(
        refused(r#"{"tool":"play","source":{"stored":{"hash":"00","offset":1}}}"#),
        "field `source.hash`: \"00\" does not match the pattern `^[0-9a-f]{64}$`"
    );
    assert_eq!(
        refused(&format!(
            r#"{{"tool":"play","source":{{"silence":{{}}}},"variations":{{"a":{step},"b":{{"note":1,"type":"no spaces"}}}}}}"#
        )),
        "field `variations.b.type`: \"no spaces\" does not match the pattern `^\\w+$`"
    );
    assert_eq!(
        refused(
            r#"{"tool":"play","source":{"silence":{}},"label":{"text":"a","parent":{"text":""}}}"#
        ),
        "field `label.parent.text`: 0 characters are fewer than the minimum 1"
    );
    assert_eq!(
        refused(r#"{"tool":"play","source":{"silence":{}},"header":"AAAA"}"#),
        "field `header`: 3 bytes are fewer than the minimum 4"
    );
    // An `f32` bound is compared as the `f32` the field holds: 0.1 itself
    // is accepted, though `0.1f32` is a little above it.
    let at_bound =
        r#"{"tool":"play","source":{"steps":{"steps":[{"note":1,"rate":0.1,"level":1.0}]}}}"#;
    let request: ToolRequest = from_json(at_bound.as_bytes(), Limits::default()).unwrap();
    assert_eq!(request.validate(), Ok(()));
    assert_eq!(
        refused(r#"{"tool":"play","source":{"steps":{"steps":[{"note":1,"gain":2}]}}}"#),
        "field `source.steps[0].gain`: 2 is above the maximum 1"
    );
}
