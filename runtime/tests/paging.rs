//! `@paged` tools: the dispatcher seals the position a handler pages to
//! into an opaque cursor, opens it again on the next call, and refuses a
//! cursor it did not issue for the same call, on every path: typed calls,
//! MsgPack calls, calls that run as jobs, and the call port.

mod support;

use std::time::Duration;

use serde_json::json;
use support::*;
use toolwright::port::{CallOptions, CallPort};
use toolwright::{CursorKey, DispatcherConfig, ResponseEnvelope, ToolError, codec, codes};

fn all_jobs() -> toolwright::jobs::JobListRequest {
    toolwright::jobs::JobListRequest {
        state: None,
        tool_name: None,
        limit: 1000,
    }
}

fn count(to: u32, per_page: u32, cursor: Option<String>) -> ToolRequest {
    ToolRequest::Count(CountRequest {
        to,
        per_page,
        lie: false,
        cursor,
    })
}

fn page(envelope: Envelope) -> CountResponse {
    match envelope {
        ResponseEnvelope::Success(ToolResponse::Count(page)) => page,
        other => panic!("expected a page, got {other:?}"),
    }
}

fn refused(envelope: &Envelope) -> &ToolError {
    let error = envelope
        .error()
        .unwrap_or_else(|| panic!("refused: {envelope:?}"));
    assert_eq!(error.code, codes::INVALID_CURSOR, "{error:?}");
    error
}

#[tokio::test]
async fn pages_follow_each_other_to_the_last() {
    let d = dispatcher(DispatcherConfig::default());
    let mut seen = Vec::new();
    let mut cursor = None;
    let mut pages = 0;
    loop {
        let page = page(d.call(count(25, 10, cursor.take())).await);
        pages += 1;
        seen.extend(page.numbers);
        if !page.paging.more {
            assert_eq!(page.paging.cursor, None, "the last page has no cursor");
            break;
        }
        let next = page.paging.cursor.expect("a cursor to the next page");
        // Opaque: not the handler's position ("11") but a signed token
        // (a random one may hold the digits "11" by chance).
        assert_ne!(next, "11");
        assert!(next.len() > 16, "{next}");
        cursor = Some(next);
    }
    assert_eq!(pages, 3);
    assert_eq!(seen, (1..=25).collect::<Vec<_>>());
}

#[tokio::test]
async fn a_cursor_continues_only_the_call_it_was_issued_for() {
    let d = dispatcher(DispatcherConfig::default());
    let first = page(d.call(count(25, 10, None)).await);
    let cursor = first.paging.cursor.expect("a cursor");

    // The same arguments continue.
    let second = page(d.call(count(25, 10, Some(cursor.clone()))).await);
    assert_eq!(second.numbers.first(), Some(&11));

    // Other arguments, a changed cursor or a made-up one: refused before
    // the handler runs (it would fail `INTERNAL` on a position it did not
    // make).
    let e = refused(&d.call(count(30, 10, Some(cursor.clone()))).await).clone();
    assert!(e.message.contains("other arguments"), "{}", e.message);
    refused(&d.call(count(25, 5, Some(cursor.clone()))).await);
    let mut changed = cursor.clone().into_bytes();
    let last = changed.len() - 3;
    changed[last] = if changed[last] == b'A' { b'B' } else { b'A' };
    let changed = String::from_utf8(changed).expect("ASCII");
    refused(&d.call(count(25, 10, Some(changed))).await);
    refused(&d.call(count(25, 10, Some("11".to_owned()))).await);
    refused(&d.call(count(25, 10, Some(String::new()))).await);

    // An action's cursor does not continue a tool's.
    let list = |cursor| ToolRequest::Fs(FsRequest::List(FsListRequest { files: 5, cursor }));
    refused(&d.call(list(Some(cursor))).await);
}

#[tokio::test]
async fn a_cursor_holds_across_servers_that_share_a_key_only() {
    let key = CursorKey::from_bytes([7; 32]);
    let a = dispatcher(DispatcherConfig::default().cursor_key(key));
    let b = dispatcher(DispatcherConfig::default().cursor_key(key));
    let other = dispatcher(DispatcherConfig::default().cursor_key(CursorKey::from_bytes([8; 32])));
    let cursor = page(a.call(count(25, 10, None)).await).paging.cursor;
    let on_b = page(b.call(count(25, 10, cursor.clone())).await);
    assert_eq!(on_b.numbers.first(), Some(&11));
    refused(&other.call(count(25, 10, cursor)).await);
}

#[tokio::test]
async fn paging_that_contradicts_itself_is_an_internal_error() {
    let d = dispatcher(DispatcherConfig::default());
    let lie = ToolRequest::Count(CountRequest {
        to: 25,
        per_page: 10,
        lie: true,
        cursor: None,
    });
    let envelope = d.call(lie).await;
    let error = envelope.error().expect("an error");
    assert_eq!(error.code, codes::INTERNAL);
    assert!(error.message.contains("no cursor"), "{}", error.message);
}

#[tokio::test]
async fn msgpack_calls_page_too() {
    let d = dispatcher(DispatcherConfig::default());
    let call = |request: ToolRequest| {
        let d = d.clone();
        async move {
            let bytes = codec::to_msgpack(&request).expect("encodes");
            let answer = d.call_msgpack(&bytes).await;
            codec::from_msgpack::<ResponseEnvelope<serde_json::Value>>(
                &answer,
                codec::Limits::default(),
            )
            .expect("decodes")
        }
    };
    let first = call(count(3, 2, None)).await;
    let ResponseEnvelope::Success(first) = first else {
        panic!("{first:?}")
    };
    assert_eq!(first["numbers"], json!([1, 2]));
    let cursor = first["paging"]["cursor"].as_str().map(str::to_owned);
    let second = call(count(3, 2, cursor)).await;
    let ResponseEnvelope::Success(second) = second else {
        panic!("{second:?}")
    };
    assert_eq!(second["numbers"], json!([3]));
    assert_eq!(second["paging"], json!({"more": false}));
    let bad = call(count(3, 2, Some("AQ".to_owned()))).await;
    assert_eq!(bad.error().map(|e| &*e.code), Some(codes::INVALID_CURSOR));
}

#[tokio::test]
async fn a_paged_action_that_runs_as_a_job_pages() {
    let d = dispatcher(DispatcherConfig::default().short_wait(Duration::from_secs(30)));
    let list = |cursor| ToolRequest::Fs(FsRequest::List(FsListRequest { files: 5, cursor }));
    let mut names = Vec::new();
    let mut cursor = None;
    loop {
        let ResponseEnvelope::Success(ToolResponse::Fs(FsResponse::List(page))) =
            d.call(list(cursor.take())).await
        else {
            panic!("a page")
        };
        names.extend(page.names);
        match page.paging.cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    assert_eq!(names, ["file0", "file1", "file2", "file3", "file4"]);

    // Refused before a job is started for it.
    let before = d.jobs().list(all_jobs()).await.expect("lists").total;
    refused(&d.call(list(Some("AQ".to_owned()))).await);
    assert_eq!(
        d.jobs().list(all_jobs()).await.expect("lists").total,
        before
    );
}

#[tokio::test]
async fn the_call_port_pages() {
    let d = dispatcher(DispatcherConfig::default());
    let encode = |request: &ToolRequest| codec::to_msgpack(request).expect("encodes");
    let first = page(CallPort::call(&d, encode(&count(4, 3, None)), CallOptions::default()).await);
    let second = page(
        CallPort::call(
            &d,
            encode(&count(4, 3, first.paging.cursor)),
            CallOptions::default(),
        )
        .await,
    );
    assert_eq!(second.numbers, [4]);
}
