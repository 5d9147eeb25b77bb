//! The tasks of one MCP session (2025-11-25 tasks utility): a task-augmented
//! `tools/call` answers at once with a task, and `tasks/get`,
//! `tasks/result`, `tasks/list` and `tasks/cancel` follow it.
//!
//! A task of a call that runs as a job has the job's id, so the job tools
//! see it too; a call that ends at once (a `sync` action, arguments that do
//! not decode) is a task that is already over. Tasks belong to the session
//! that made them: another session asking for one is told it does not
//! exist. Finished tasks are kept for their time-to-live, working ones
//! until they finish.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use rmcp::model::CallToolResult;
use serde_json::{Value, json};
use tokio::sync::watch;
use tokio::time::Instant;

use crate::ToolTiming;
use crate::mcp::tasks::clock::poll_interval;
use crate::time::{iso, now_ms};

/// Most tasks one session holds; past it, finished ones are dropped
/// oldest first, and a new task is refused while all are working.
const MAX_TASKS: usize = 4096;

/// Tasks per `tasks/list` page.
const PAGE: usize = 100;

/// Shortest time-to-live granted, whatever the request asks.
const MIN_TTL: Duration = Duration::from_secs(1);

/// The `_meta` key that ties a result to its task.
pub(in crate::mcp) const RELATED_TASK: &str = "io.modelcontextprotocol/related-task";

/// Where a task stands.
#[derive(Clone, Debug)]
pub(in crate::mcp) enum State {
    /// Running.
    Working,
    /// Over: the call's result, `failed` when it is an error result.
    Finished {
        result: Arc<CallToolResult>,
        failed: bool,
    },
    /// Stopped by `tasks/cancel`.
    Cancelled,
}

impl State {
    fn is_terminal(&self) -> bool {
        !matches!(self, State::Working)
    }

    fn status(&self) -> &'static str {
        match self {
            State::Working => "working",
            State::Finished { failed: false, .. } => "completed",
            State::Finished { failed: true, .. } => "failed",
            State::Cancelled => "cancelled",
        }
    }
}

struct Entry {
    tool: &'static str,
    /// Whether the task is a job of the dispatcher's (its id is the job's).
    job: bool,
    timing: ToolTiming,
    created_at: u64,
    updated_at: u64,
    ttl: Duration,
    /// When it ended: it is kept for its time-to-live from then, so a
    /// result is never dropped before the caller could fetch it.
    ended_at: Option<Instant>,
    state: State,
    /// Flips to true when the task ends; `tasks/result` waits on it.
    ended: watch::Sender<bool>,
}

/// A task's public view, the 2025-11-25 `Task` object.
#[derive(Clone, Debug)]
pub(in crate::mcp) struct View {
    pub(in crate::mcp) task_id: Arc<str>,
    pub(in crate::mcp) tool: &'static str,
    pub(in crate::mcp) job: bool,
    pub(in crate::mcp) state: State,
    pub(in crate::mcp) created_at: u64,
    updated_at: u64,
    pub(in crate::mcp) ttl: Duration,
    pub(in crate::mcp) timing: ToolTiming,
}

impl View {
    /// The `Task` JSON; `status_message` overrides the default message.
    pub(in crate::mcp) fn to_json(&self, status_message: Option<String>) -> Value {
        let message = status_message.or_else(|| self.default_message());
        let mut task = json!({
            "taskId": self.task_id.as_ref(),
            "status": self.state.status(),
            "createdAt": iso(self.created_at),
            "lastUpdatedAt": iso(self.updated_at),
            "ttl": u64::try_from(self.ttl.as_millis()).unwrap_or(u64::MAX),
            "pollInterval": poll_interval(self.timing),
        });
        if let Some(message) = message {
            task["statusMessage"] = Value::String(message);
        }
        task
    }

    fn default_message(&self) -> Option<String> {
        match &self.state {
            State::Working => None,
            State::Finished { result, failed } => {
                let code = result
                    .structured_content
                    .as_ref()
                    .and_then(|s| s.get("code"))
                    .and_then(Value::as_str);
                Some(match (failed, code) {
                    (true, Some(code)) => format!("`{}` failed with {code}", self.tool),
                    (true, None) => format!("`{}` failed", self.tool),
                    (false, _) => format!("`{}` completed", self.tool),
                })
            }
            State::Cancelled => Some(format!("`{}` was cancelled", self.tool)),
        }
    }
}

/// Why a task could not be made or found.
#[derive(Debug, PartialEq, Eq)]
pub(in crate::mcp) enum TaskError {
    /// No task of this session has the id (or it expired).
    NotFound,
    /// The task has already ended.
    Terminal(&'static str),
    /// The session holds as many working tasks as it may.
    Full,
    /// The `tasks/list` cursor is not one this server gave.
    BadCursor,
}

/// The tasks of one session. Cheap to share (behind an `Arc`).
#[derive(Default)]
pub(in crate::mcp) struct Tasks {
    table: Mutex<Table>,
    /// Counter for the ids of tasks that are not jobs.
    next: std::sync::atomic::AtomicU64,
    keys: std::hash::RandomState,
}

#[derive(Default)]
struct Table {
    entries: HashMap<Arc<str>, Entry>,
    /// Ids oldest first: the `tasks/list` order and the eviction order.
    order: VecDeque<Arc<str>>,
}

/// What a new task is.
pub(in crate::mcp) struct NewTask {
    /// The job's id, or `None` for a task that is not a job.
    pub(in crate::mcp) job_id: Option<String>,
    pub(in crate::mcp) tool: &'static str,
    pub(in crate::mcp) timing: ToolTiming,
    pub(in crate::mcp) ttl: Duration,
    /// The result, for a task over at once.
    pub(in crate::mcp) finished: Option<CallToolResult>,
}

/// A task made on another server, as [`Tasks::restore`] puts it back.
#[cfg(feature = "redis")]
pub(in crate::mcp) struct Restored {
    pub(in crate::mcp) tool: &'static str,
    pub(in crate::mcp) job: bool,
    pub(in crate::mcp) timing: ToolTiming,
    pub(in crate::mcp) created_at: u64,
    pub(in crate::mcp) ttl: Duration,
    pub(in crate::mcp) state: State,
}

impl Tasks {
    /// Records a new task.
    ///
    /// # Errors
    /// [`TaskError::Full`] when the session holds [`MAX_TASKS`] working
    /// tasks.
    pub(in crate::mcp) fn create(&self, new: NewTask) -> Result<View, TaskError> {
        let job = new.job_id.is_some();
        let id: Arc<str> = match new.job_id {
            Some(id) => Arc::from(id),
            None => self.fresh_id(),
        };
        let now = now_ms();
        let state = match new.finished {
            Some(result) => finished(result),
            None => State::Working,
        };
        let (ended, _) = watch::channel(state.is_terminal());
        let entry = Entry {
            tool: new.tool,
            job,
            timing: new.timing,
            created_at: now,
            updated_at: now,
            ttl: new.ttl.max(MIN_TTL),
            ended_at: state.is_terminal().then(Instant::now),
            state,
            ended,
        };
        let mut table = self.lock();
        if table.entries.len() >= MAX_TASKS {
            table.evict(true);
            if table.entries.len() >= MAX_TASKS {
                return Err(TaskError::Full);
            }
        }
        let view = entry.view(&id);
        table.order.push_back(id.clone());
        table.entries.insert(id, entry);
        Ok(view)
    }

    /// Puts back a task this session made on another server (see
    /// `shared`), as it stands now; a task the table already holds is
    /// left as it is. A task that has ended is kept for its time-to-live
    /// from now.
    #[cfg(feature = "redis")]
    pub(in crate::mcp) fn restore(&self, id: &str, restored: Restored) {
        let mut table = self.lock();
        if table.entries.contains_key(id) || table.entries.len() >= MAX_TASKS {
            return;
        }
        let terminal = restored.state.is_terminal();
        let (ended, _) = watch::channel(terminal);
        let entry = Entry {
            tool: restored.tool,
            job: restored.job,
            timing: restored.timing,
            created_at: restored.created_at,
            updated_at: now_ms(),
            ttl: restored.ttl.max(MIN_TTL),
            ended_at: terminal.then(Instant::now),
            state: restored.state,
            ended,
        };
        let id: Arc<str> = Arc::from(id);
        table.order.push_back(id.clone());
        table.entries.insert(id, entry);
    }

    /// Settles a working task with its call's result; a task already
    /// over (cancelled meanwhile) keeps its end.
    pub(in crate::mcp) fn finish(&self, task_id: &str, result: CallToolResult) {
        let mut table = self.lock();
        if let Some(entry) = table.entries.get_mut(task_id)
            && !entry.state.is_terminal()
        {
            entry.state = finished(result);
            entry.updated_at = now_ms();
            entry.ended_at = Some(Instant::now());
            entry.ended.send_replace(true);
        }
    }

    /// Marks a working task cancelled, returning its view and whether it is
    /// a job to stop.
    ///
    /// # Errors
    /// [`TaskError::NotFound`], or [`TaskError::Terminal`] when it has
    /// already ended.
    pub(in crate::mcp) fn cancel(&self, task_id: &str) -> Result<View, TaskError> {
        let mut table = self.lock();
        let entry = table.entries.get_mut(task_id).ok_or(TaskError::NotFound)?;
        if entry.state.is_terminal() {
            return Err(TaskError::Terminal(entry.state.status()));
        }
        entry.state = State::Cancelled;
        entry.updated_at = now_ms();
        entry.ended_at = Some(Instant::now());
        entry.ended.send_replace(true);
        Ok(entry.view(&Arc::from(task_id)))
    }

    /// One task's view.
    ///
    /// # Errors
    /// [`TaskError::NotFound`].
    pub(in crate::mcp) fn get(&self, task_id: &str) -> Result<View, TaskError> {
        let table = self.lock();
        let (id, entry) = table
            .entries
            .get_key_value(task_id)
            .ok_or(TaskError::NotFound)?;
        Ok(entry.view(id))
    }

    /// A receiver that turns true when the task ends.
    ///
    /// # Errors
    /// [`TaskError::NotFound`].
    pub(in crate::mcp) fn ended(&self, task_id: &str) -> Result<watch::Receiver<bool>, TaskError> {
        let table = self.lock();
        let entry = table.entries.get(task_id).ok_or(TaskError::NotFound)?;
        Ok(entry.ended.subscribe())
    }

    /// One page of tasks, oldest first, after the task named by `cursor`;
    /// with the cursor of the next page when there is one.
    ///
    /// # Errors
    /// [`TaskError::BadCursor`] when no task has the cursor's id.
    pub(in crate::mcp) fn list(
        &self,
        cursor: Option<&str>,
    ) -> Result<(Vec<View>, Option<String>), TaskError> {
        let table = self.lock();
        let start = match cursor {
            None => 0,
            Some(cursor) => {
                table
                    .order
                    .iter()
                    .position(|id| id.as_ref() == cursor)
                    .ok_or(TaskError::BadCursor)?
                    + 1
            }
        };
        let page: Vec<View> = table
            .order
            .iter()
            .skip(start)
            .take(PAGE)
            .filter_map(|id| table.entries.get(id).map(|e| e.view(id)))
            .collect();
        let next = (start + page.len() < table.order.len())
            .then(|| page.last().map(|v| v.task_id.to_string()))
            .flatten();
        Ok((page, next))
    }

    fn fresh_id(&self) -> Arc<str> {
        use std::hash::BuildHasher as _;
        let n = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        // Keyed by per-process random keys, as job ids are: hard to guess.
        Arc::from(format!("task_{:016x}{n:x}", self.keys.hash_one(n)))
    }

    /// The table, with expired tasks dropped.
    fn lock(&self) -> MutexGuard<'_, Table> {
        // Nothing panics while the lock is held; a poisoned table is still
        // consistent.
        let mut table = self.table.lock().unwrap_or_else(PoisonError::into_inner);
        table.evict(false);
        table
    }
}

impl Table {
    /// Drops finished tasks past their time-to-live, and with `make_room`
    /// the oldest finished one as well.
    fn evict(&mut self, make_room: bool) {
        let now = Instant::now();
        let mut room = make_room;
        let entries = &mut self.entries;
        self.order.retain(|id| {
            let Some(entry) = entries.get(id) else {
                return false;
            };
            let expired = entry
                .ended_at
                .is_some_and(|ended| now.duration_since(ended) >= entry.ttl);
            let dropped = expired || (room && entry.state.is_terminal());
            if dropped {
                room &= expired;
                entries.remove(id);
            }
            !dropped
        });
    }
}

impl Entry {
    fn view(&self, id: &Arc<str>) -> View {
        View {
            task_id: id.clone(),
            tool: self.tool,
            job: self.job,
            state: self.state.clone(),
            created_at: self.created_at,
            updated_at: self.updated_at,
            ttl: self.ttl,
            timing: self.timing,
        }
    }
}

/// The state of a task over with `result`: `failed` for an error result.
pub(super) fn finished(result: CallToolResult) -> State {
    let failed = result.is_error == Some(true);
    State::Finished {
        result: Arc::new(result),
        failed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::ContentBlock;

    fn new(finished: Option<CallToolResult>) -> NewTask {
        NewTask {
            job_id: None,
            tool: "add",
            timing: ToolTiming::AsyncShort,
            ttl: Duration::from_secs(60),
            finished,
        }
    }

    #[test]
    fn a_task_works_then_completes_and_cannot_be_cancelled() {
        let tasks = Tasks::default();
        let view = tasks.create(new(None)).unwrap_or_else(|e| panic!("{e:?}"));
        assert!(view.task_id.starts_with("task_"));
        assert_eq!(view.to_json(None)["status"], "working");
        let ended = tasks
            .ended(&view.task_id)
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert!(!*ended.borrow());
        tasks.finish(
            &view.task_id,
            CallToolResult::success(vec![ContentBlock::text("3")]),
        );
        assert!(*ended.borrow());
        let got = tasks.get(&view.task_id).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(got.to_json(None)["status"], "completed");
        assert_eq!(
            tasks.cancel(&view.task_id).map(|_| ()),
            Err(TaskError::Terminal("completed"))
        );
    }

    #[test]
    fn an_error_result_is_a_failed_task_and_cancel_wins_over_a_late_result() {
        let tasks = Tasks::default();
        let failed = tasks
            .create(new(Some(CallToolResult::error(vec![]))))
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(failed.to_json(None)["status"], "failed");
        let working = tasks.create(new(None)).unwrap_or_else(|e| panic!("{e:?}"));
        let cancelled = tasks
            .cancel(&working.task_id)
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(cancelled.to_json(None)["status"], "cancelled");
        tasks.finish(&working.task_id, CallToolResult::success(vec![]));
        let got = tasks
            .get(&working.task_id)
            .unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(got.to_json(None)["status"], "cancelled");
        assert_eq!(tasks.get("task_nope").map(|_| ()), Err(TaskError::NotFound));
    }

    #[test]
    fn lists_page_in_creation_order() {
        let tasks = Tasks::default();
        let ids: Vec<Arc<str>> = (0..PAGE + 5)
            .map(|_| tasks.create(new(None)).map(|v| v.task_id))
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| panic!("{e:?}"));
        let (first, next) = tasks.list(None).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(first.len(), PAGE);
        assert_eq!(first[0].task_id, ids[0]);
        let next = next.unwrap_or_else(|| panic!("no next page"));
        let (second, after) = tasks.list(Some(&next)).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(second.len(), 5);
        assert_eq!(second[4].task_id, ids[PAGE + 4]);
        assert_eq!(after, None);
        assert_eq!(
            tasks.list(Some("task_x")).map(|_| ()),
            Err(TaskError::BadCursor)
        );
    }

    #[test]
    fn a_full_session_drops_finished_tasks_and_refuses_when_all_work() {
        let tasks = Tasks::default();
        for _ in 0..MAX_TASKS {
            let _ = tasks.create(new(Some(CallToolResult::success(vec![]))));
        }
        assert!(tasks.create(new(None)).is_ok());
        let tasks = Tasks::default();
        for _ in 0..MAX_TASKS {
            let _ = tasks.create(new(None));
        }
        assert_eq!(tasks.create(new(None)).map(|_| ()), Err(TaskError::Full));
    }
}
