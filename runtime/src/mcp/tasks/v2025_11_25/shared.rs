//! A session's tasks on every replica: with sessions in Redis
//! ([`RedisSessions`](crate::mcp::RedisSessions)), each task's record is
//! kept there too, and a replica a session moves to puts the session's
//! tasks back in its own table when it restores the session.
//!
//! A record holds what the job store does not: the task's tool, timing
//! and time-to-live, and the answer of a task that was over at once or
//! its cancellation. A task that is a job takes its state from the job
//! store, which every replica shares; one still working is followed to its
//! end from the replica it was restored on, which then tells the session
//! its status as the first would have.

use std::time::Duration;

use rmcp::RoleServer;
use rmcp::service::{Peer, RequestContext};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::store::{Restored, State, View};
use crate::jobs::{JobPollRequest, JobState, PollMode};
use crate::mcp::server::McpServer;
use crate::mcp::tools::result;
use crate::port::CallPort;
use crate::{Catalogue, ToolError, ToolTiming};

/// How long one wait on a restored task's job lasts before it is asked
/// again; bounds how long a follower outlives a job that vanished.
const FOLLOW_WAIT: Duration = Duration::from_secs(30);

/// How long a follower waits before asking again after the job store did
/// not answer.
const RETRY: Duration = Duration::from_secs(1);

/// The job tools' code for a job that is not there (or expired).
const NOT_FOUND: &str = "NOT_FOUND";

/// A task as it is kept in Redis, as JSON.
#[derive(Serialize, Deserialize)]
struct Record {
    tool: String,
    job: bool,
    timing: ToolTiming,
    created_at: u64,
    ttl_ms: u64,
    /// The answer of a task that was over when it was made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    result: Option<Value>,
    #[serde(default)]
    cancelled: bool,
}

impl Record {
    fn of(view: &View) -> Record {
        let (result, cancelled) = match &view.state {
            // A job's answer is the job store's.
            State::Finished { result, .. } if !view.job => {
                (serde_json::to_value(&**result).ok(), false)
            }
            State::Cancelled => (None, true),
            _ => (None, false),
        };
        Record {
            tool: view.tool.to_owned(),
            job: view.job,
            timing: view.timing,
            created_at: view.created_at,
            ttl_ms: u64::try_from(view.ttl.as_millis()).unwrap_or(u64::MAX),
            result,
            cancelled,
        }
    }
}

impl<P: CallPort> McpServer<P> {
    /// Keeps a task's record where the session's other replicas find it.
    /// A store that cannot be written leaves the task to this replica
    /// alone: it still runs and answers here, so the call is not failed
    /// for it.
    pub(in crate::mcp) async fn share_task(
        &self,
        context: &RequestContext<RoleServer>,
        view: &View,
    ) {
        let (Some(sessions), Some(session)) = (
            &self.shared.sessions,
            crate::mcp::server::session_id(&context.extensions),
        ) else {
            return;
        };
        let Ok(record) = serde_json::to_string(&Record::of(view)) else {
            return;
        };
        let _ = sessions
            .keep_task(&session, &view.task_id, view.created_at, &record)
            .await;
    }

    /// On a session restored from the store: puts its tasks back, and
    /// follows those whose jobs still run.
    pub(in crate::mcp) async fn restore_tasks(&self, session: &str, peer: &Peer<RoleServer>) {
        let Some(sessions) = &self.shared.sessions else {
            return;
        };
        // A store that cannot be read leaves the table empty, as a new
        // session's is: `tasks/get` says the task is not found.
        let Ok(records) = sessions.tasks(session).await else {
            return;
        };
        for (id, record) in records {
            let Ok(record) = serde_json::from_str::<Record>(&record) else {
                continue;
            };
            if let Some(restored) = self.restored(&id, record).await {
                let working = matches!(restored.state, State::Working).then_some(restored.tool);
                self.session.tasks.restore(&id, restored);
                if let Some(tool) = working {
                    self.follow_restored(id, tool, peer.clone());
                }
            }
        }
    }

    /// What a record stands for now; `None` for a tool no longer served,
    /// or a task that has expired.
    async fn restored(&self, id: &str, record: Record) -> Option<Restored> {
        let tool = P::Catalogue::tool(&record.tool)?.name;
        let ttl = Duration::from_millis(record.ttl_ms);
        let state = if record.cancelled {
            State::Cancelled
        } else if record.job {
            self.job_state(id).await?
        } else {
            let result = serde_json::from_value(record.result?).ok()?;
            // Over when it was made: kept for its time-to-live from then.
            let age = crate::time::now_ms().saturating_sub(record.created_at);
            if Duration::from_millis(age) >= ttl {
                return None;
            }
            super::store::finished(result)
        };
        Some(Restored {
            tool,
            job: record.job,
            timing: record.timing,
            created_at: record.created_at,
            ttl,
            state,
        })
    }

    /// A job task's state from the job store; `None` when the job is gone
    /// (expired). A store that does not answer leaves the task working, to
    /// be followed until it does.
    async fn job_state(&self, id: &str) -> Option<State> {
        match self.shared.edge.port().job_status(id, None).await {
            Ok(info) => Some(match info.state {
                JobState::Pending | JobState::Running => State::Working,
                JobState::Cancelled => State::Cancelled,
                JobState::Complete | JobState::Failed => {
                    super::store::finished(result::from_job(&info, P::Catalogue::CONTENT))
                }
            }),
            Err(e) if e.code == NOT_FOUND => None,
            Err(_) => Some(State::Working),
        }
    }

    /// Follows a restored task's job to its end, as the replica that made
    /// it would have: the task takes the job's answer, and the session is
    /// told its new status.
    fn follow_restored(&self, task_id: String, tool: &'static str, peer: Peer<RoleServer>) {
        let server = self.clone();
        tokio::spawn(async move {
            let port = server.shared.edge.port();
            loop {
                // Stop once the task has ended here (cancelled) or gone.
                match server.session.tasks.get(&task_id) {
                    Ok(view) if matches!(view.state, State::Working) => {}
                    _ => return,
                }
                let request = JobPollRequest {
                    job_ids: vec![task_id.clone()],
                    timeout_ms: u64::try_from(FOLLOW_WAIT.as_millis()).unwrap_or(u64::MAX),
                    mode: PollMode::All,
                };
                if port.job_poll(request, None).await.is_err() {
                    tokio::time::sleep(RETRY).await;
                    continue;
                }
                match server.job_state(&task_id).await {
                    Some(State::Working) => {}
                    Some(State::Cancelled) => {
                        let _ = server.session.tasks.cancel(&task_id);
                        break;
                    }
                    Some(State::Finished { result, .. }) => {
                        server.session.tasks.finish(&task_id, (*result).clone());
                        break;
                    }
                    None => {
                        let gone = ToolError::new(
                            NOT_FOUND,
                            format!("the job of `{tool}` expired before it was read"),
                        );
                        server.session.tasks.finish(&task_id, result::error(&gone));
                        break;
                    }
                }
            }
            server.tell_status(&task_id, &peer).await;
        });
    }
}
