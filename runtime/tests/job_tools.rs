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

#[tokio::test(start_paused = true)]
async fn jobs_belong_to_the_owner_that_started_them() {
    use toolwright::jobs::Owner;
    use toolwright::port::CallOptions;

    let d = dispatcher(config());
    let (alice, bob) = (Owner::new("alice"), Owner::new("bob"));
    let as_ = |owner: &Owner| CallOptions::default().owned_by(owner.clone());
    let id = started(
        &d.call_with(ToolRequest::Sleep(DelayRequest { ms: 60_000 }), as_(&alice))
            .await,
    );

    // Bob finds nothing: not by id, not in a list, not to wait on, not to
    // cancel.
    let status = d
        .call_with(ToolRequest::JobStatus(job_ref(&id)), as_(&bob))
        .await;
    assert_eq!(error(&status).code, "NOT_FOUND");
    let ResponseEnvelope::Success(ToolResponse::JobList(list)) = d
        .call_with(ToolRequest::JobList(all_jobs()), as_(&bob))
        .await
    else {
        panic!("expected a job_list answer");
    };
    assert_eq!((list.total, list.jobs.len()), (0, 0));
    assert_eq!(list.by_state.pending + list.by_state.running, 0);
    let poll = d
        .call_with(
            ToolRequest::JobPoll(JobPollRequest {
                job_ids: vec![id.clone()],
                timeout_ms: 0,
                mode: PollMode::Any,
            }),
            as_(&bob),
        )
        .await;
    assert_eq!(error(&poll).code, "NOT_FOUND");
    let ResponseEnvelope::Success(ToolResponse::JobPoll(all_of_bobs)) = d
        .call_with(
            ToolRequest::JobPoll(JobPollRequest {
                job_ids: Vec::new(),
                timeout_ms: 0,
                mode: PollMode::All,
            }),
            as_(&bob),
        )
        .await
    else {
        panic!("expected a job_poll answer");
    };
    assert!(all_of_bobs.pending.is_empty(), "{all_of_bobs:?}");
    let cancel = d
        .call_with(ToolRequest::JobCancel(job_ref(&id)), as_(&bob))
        .await;
    assert_eq!(error(&cancel).code, "NOT_FOUND");
    assert!(
        matches!(
            status_of(&d, &id).await,
            JobState::Pending | JobState::Running
        ),
        "bob's cancel must leave alice's job running"
    );

    // Alice sees and cancels her own; a caller without an owner sees all.
    let ResponseEnvelope::Success(ToolResponse::JobList(list)) = d
        .call_with(ToolRequest::JobList(all_jobs()), as_(&alice))
        .await
    else {
        panic!("expected a job_list answer");
    };
    assert_eq!(list.total, 1);
    let ResponseEnvelope::Success(ToolResponse::JobList(list)) =
        d.call(ToolRequest::JobList(all_jobs())).await
    else {
        panic!("expected a job_list answer");
    };
    assert_eq!(list.total, 1);
    let ResponseEnvelope::Success(ToolResponse::JobCancel(JobCancelResponse { cancelled, .. })) = d
        .call_with(ToolRequest::JobCancel(job_ref(&id)), as_(&alice))
        .await
    else {
        panic!("expected a job_cancel answer");
    };
    assert!(cancelled);
}

async fn status_of(d: &toolwright::Dispatcher<Studio>, id: &str) -> JobState {
    d.jobs().status(id).await.expect("the job exists").state
}

#[tokio::test(start_paused = true)]
async fn jobs_beyond_the_limits_are_refused_at_once_with_busy() {
    use toolwright::jobs::Owner;
    use toolwright::port::CallOptions;

    let d = dispatcher(config().max_jobs(2, 1));
    let long = || ToolRequest::Sleep(DelayRequest { ms: 60_000 });
    let as_ = |name: &str| CallOptions::default().owned_by(Owner::new(name));

    let first = started(&d.call_with(long(), as_("alice")).await);
    // Alice has her one job; Bob may still start his.
    let again = d.call_with(long(), as_("alice")).await;
    assert_eq!(error(&again).code, "BUSY");
    assert!(error(&again).message.contains("this caller"), "{again:?}");
    started(&d.call_with(long(), as_("bob")).await);
    // Two jobs in all: nobody gets a third, not even a caller without an owner.
    let carol = d.call_with(long(), as_("carol")).await;
    assert_eq!(error(&carol).code, "BUSY");
    assert!(error(&carol).message.contains("all callers"), "{carol:?}");
    assert_eq!(error(&d.call(long()).await).code, "BUSY");

    // A refused call started nothing; a finished job frees its slot.
    assert_eq!(d.jobs().list(all_jobs()).await.expect("lists").total, 2);
    d.jobs().cancel(&first).await.expect("cancels");
    started(&d.call_with(long(), as_("carol")).await);
}
