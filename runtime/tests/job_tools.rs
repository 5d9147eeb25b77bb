//! The job tools are answered by the dispatcher itself, typed through
//! `call` and as bytes through `call_msgpack`, with `JobError` codes.

mod support;

use std::time::Duration;

use support::*;
use toolwright::jobs::{
    JobCancelResponse, JobListRequest, JobPollRequest, JobRef, JobState, PollMode,
};
use toolwright::{DispatcherConfig, ResponseEnvelope};

fn config() -> DispatcherConfig {
    DispatcherConfig::default().short_wait(Duration::ZERO)
}

fn job_ref(id: &str) -> JobRef {
    JobRef {
        job_id: id.to_owned(),
    }
}

#[tokio::test(start_paused = true)]
async fn job_tools_through_call() {
    let d = dispatcher(config());
    let id = started(&d.call(ToolRequest::Sleep(DelayRequest { ms: 50 })).await);

    let ResponseEnvelope::Success(ToolResponse::JobStatus(info)) =
        d.call(ToolRequest::JobStatus(job_ref(&id))).await
    else {
        panic!("expected a job_status answer");
    };
    assert_eq!(info.job_id, id);
    // With no wait budget the caller may be answered before the task runs.
    assert!(
        matches!(info.state, JobState::Pending | JobState::Running),
        "{info:?}"
    );

    let ResponseEnvelope::Success(ToolResponse::JobPoll(polled)) = d
        .call(ToolRequest::JobPoll(JobPollRequest {
            job_ids: vec![id.clone()],
            timeout_ms: 10_000,
            mode: PollMode::Any,
        }))
        .await
    else {
        panic!("expected a job_poll answer");
    };
    assert_eq!(polled.completed, vec![id.clone()]);

    let ResponseEnvelope::Success(ToolResponse::JobList(list)) =
        d.call(ToolRequest::JobList(all_jobs())).await
    else {
        panic!("expected a job_list answer");
    };
    assert_eq!(list.total, 1);
    assert_eq!(
        list.jobs[0].result,
        Some(serde_json::json!({"slept_ms": 50}))
    );

    let ResponseEnvelope::Success(ToolResponse::JobCancel(cancel)) =
        d.call(ToolRequest::JobCancel(job_ref(&id))).await
    else {
        panic!("expected a job_cancel answer");
    };
    assert_eq!(
        cancel,
        JobCancelResponse {
            job_id: id,
            cancelled: false,
            state: JobState::Complete
        }
    );
}

#[tokio::test(start_paused = true)]
async fn job_errors_become_tool_errors_with_their_codes() {
    let d = dispatcher(config());
    let unknown = d.call(ToolRequest::JobStatus(job_ref("job_zzz"))).await;
    let e = error(&unknown);
    assert_eq!(e.code, "NOT_FOUND");
    assert_eq!(
        e.details,
        Some(serde_json::json!({"not_found": {"job_id": "job_zzz"}}))
    );
    let malformed = d
        .call(ToolRequest::JobCancel(job_ref("../etc/passwd")))
        .await;
    // The id breaks the `@pattern` of `JobRef.job_id`: refused before the
    // job store sees it, naming the field.
    assert_eq!(error(&malformed).code, "INVALID_REQUEST");
    assert!(
        error(&malformed).message.starts_with("field `job_id`: "),
        "{}",
        error(&malformed).message
    );
    let poll = d
        .call(ToolRequest::JobPoll(JobPollRequest {
            job_ids: vec!["nope".into()],
            timeout_ms: 0,
            mode: PollMode::All,
        }))
        .await;
    assert_eq!(error(&poll).code, "INVALID_JOB_ID");
}

#[tokio::test(start_paused = true)]
async fn job_tools_through_call_msgpack() {
    let d = dispatcher(config());
    let answer = decode(
        &d.call_msgpack(&encode(&ToolRequest::Sleep(DelayRequest { ms: 20 })))
            .await,
    );
    let id = started(&answer);

    let poll = encode(&ToolRequest::JobPoll(JobPollRequest {
        job_ids: vec![id.clone()],
        timeout_ms: 5_000,
        mode: PollMode::All,
    }));
    let ResponseEnvelope::Success(ToolResponse::JobPoll(polled)) =
        decode(&d.call_msgpack(&poll).await)
    else {
        panic!("expected a job_poll answer");
    };
    assert_eq!(polled.completed, vec![id.clone()]);

    let status = encode(&ToolRequest::JobStatus(job_ref(&id)));
    let ResponseEnvelope::Success(ToolResponse::JobStatus(info)) =
        decode(&d.call_msgpack(&status).await)
    else {
        panic!("expected a job_status answer");
    };
    assert_eq!(info.state, JobState::Complete);
    assert_eq!(info.result, Some(serde_json::json!({"slept_ms": 20})));

    // Defaults apply on the wire: `{"tool": "job_list"}` lists up to 100.
    let list = rmp_serde::to_vec_named(&serde_json::json!({"tool": "job_list"})).expect("encode");
    let ResponseEnvelope::Success(ToolResponse::JobList(listed)) =
        decode(&d.call_msgpack(&list).await)
    else {
        panic!("expected a job_list answer");
    };
    assert_eq!(listed.total, 1);

    let missing = encode(&ToolRequest::JobCancel(job_ref("job_missing")));
    assert_eq!(
        error(&decode(&d.call_msgpack(&missing).await)).code,
        "NOT_FOUND"
    );

    let state_filter = encode(&ToolRequest::JobList(JobListRequest {
        state: Some(JobState::Failed),
        tool_name: None,
        limit: 10,
    }));
    let ResponseEnvelope::Success(ToolResponse::JobList(failed)) =
        decode(&d.call_msgpack(&state_filter).await)
    else {
        panic!("expected a job_list answer");
    };
    assert_eq!(failed.total, 0);
}
