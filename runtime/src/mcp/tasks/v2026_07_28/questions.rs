//! Questions asked inside a task of MCP 2026-07-28's tasks extension. A
//! call answered with a task has no result for an `input_required` round:
//! its handler, running on as a job, waits instead. The task shows the
//! questions as `input_required` with its `inputRequests` (`tasks/get`),
//! and the client answers with `tasks/update`, each answer under its
//! question's key; the handler then goes on from where it asked.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use rmcp::model::{InputRequest, InputRequests};
use tokio::sync::{Notify, oneshot};

use crate::Json;

/// One question waiting for its answer.
#[derive(Debug)]
struct Pending {
    /// The request it would be on its own: `{"method", "params"}`.
    request: Json,
    answer: oneshot::Sender<Json>,
}

/// The questions of every job that runs as a task, by job id and key.
#[derive(Debug, Default)]
pub(in crate::mcp) struct TaskQuestions(Mutex<HashMap<String, BTreeMap<String, Pending>>>);

impl TaskQuestions {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, BTreeMap<String, Pending>>> {
        // Each critical section is one insert, remove or read.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The questions job `job_id` waits on, as a task's `inputRequests`;
    /// `None` when it waits on none.
    pub(in crate::mcp) fn pending(&self, job_id: &str) -> Option<InputRequests> {
        let questions = self.lock();
        let requests: InputRequests = questions
            .get(job_id)?
            .iter()
            .filter_map(|(key, pending)| {
                let request =
                    serde_json::from_value::<InputRequest>(pending.request.clone()).ok()?;
                Some((key.clone(), request))
            })
            .collect();
        (!requests.is_empty()).then_some(requests)
    }

    /// True when job `job_id` waits on a question.
    pub(in crate::mcp) fn waits(&self, job_id: &str) -> bool {
        self.lock().contains_key(job_id)
    }

    /// Hands each of `responses` to the question of job `job_id` under its
    /// key; a key no question waits under is ignored, as the extension
    /// has it.
    pub(in crate::mcp) fn answer(&self, job_id: &str, responses: BTreeMap<String, Json>) {
        let mut questions = self.lock();
        let Some(waiting) = questions.get_mut(job_id) else {
            return;
        };
        for (key, answer) in responses {
            if let Some(pending) = waiting.remove(&key) {
                let _ = pending.answer.send(answer);
            }
        }
        if waiting.is_empty() {
            questions.remove(job_id);
        }
    }
}

/// What a call that may become a task shares with its handler's caller:
/// the job it runs as, once it does, and a signal that the handler asked.
#[derive(Debug, Default)]
pub(crate) struct InTask {
    pub(in crate::mcp) questions: Arc<TaskQuestions>,
    job: OnceLock<String>,
    /// Notified (one permit kept) when the handler asks a question: a
    /// call still being waited on answers with its task at once, so that
    /// the client sees the question.
    pub(in crate::mcp) asked: Notify,
}

impl InTask {
    pub(in crate::mcp) fn new(questions: Arc<TaskQuestions>) -> Self {
        InTask {
            questions,
            job: OnceLock::new(),
            asked: Notify::new(),
        }
    }

    /// The call runs as `job_id`.
    pub(in crate::mcp) fn started(&self, job_id: &str) {
        let _ = self.job.set(job_id.to_owned());
    }

    /// The job the call runs as, once it does.
    pub(in crate::mcp) fn job(&self) -> Option<&str> {
        self.job.get().map(String::as_str)
    }

    /// Asks `request` under `key` of the client, for the job the call runs
    /// as; `None` when it runs as none (the question then goes in the
    /// call's `input_required` result). The answer comes from
    /// `tasks/update`; the question is withdrawn when the receiver is
    /// dropped (the handler stopped waiting).
    pub(in crate::mcp) fn ask(self: &Arc<Self>, key: String, request: Json) -> Option<Asked> {
        let job = self.job()?.to_owned();
        let (tx, rx) = oneshot::channel();
        let pending = Pending {
            request,
            answer: tx,
        };
        self.questions
            .lock()
            .entry(job.clone())
            .or_default()
            .insert(key.clone(), pending);
        self.asked.notify_one();
        Some(Asked {
            rx,
            withdraw: Withdraw {
                questions: self.questions.clone(),
                job,
                key,
            },
        })
    }
}

/// A question asked inside a task: its answer, when it comes.
#[derive(Debug)]
pub(in crate::mcp) struct Asked {
    pub(in crate::mcp) rx: oneshot::Receiver<Json>,
    pub(in crate::mcp) withdraw: Withdraw,
}

/// Withdraws a question whose asker stopped waiting.
#[derive(Debug)]
pub(in crate::mcp) struct Withdraw {
    questions: Arc<TaskQuestions>,
    job: String,
    key: String,
}

impl Drop for Withdraw {
    fn drop(&mut self) {
        let mut questions = self.questions.lock();
        if let Some(waiting) = questions.get_mut(&self.job) {
            waiting.remove(&self.key);
            if waiting.is_empty() {
                questions.remove(&self.job);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn elicitation() -> Json {
        json!({"method": "elicitation/create", "params": {"mode": "form", "message": "ok?",
               "requestedSchema": {"type": "object", "properties": {}}}})
    }

    #[tokio::test]
    async fn a_question_waits_for_its_answer_and_only_its_own() {
        let in_task = Arc::new(InTask::new(Arc::default()));
        assert!(
            in_task.ask("a".into(), elicitation()).is_none(),
            "no job yet"
        );
        in_task.started("job_1");
        let first = in_task.ask("a".into(), elicitation()).expect("asked");
        let second = in_task.ask("b".into(), elicitation()).expect("asked");
        let pending = in_task.questions.pending("job_1").expect("pending");
        assert_eq!(pending.keys().collect::<Vec<_>>(), ["a", "b"]);
        assert!(in_task.questions.pending("job_2").is_none());

        // One answer, and one for no question: the other stays.
        let responses = BTreeMap::from([
            ("a".to_owned(), json!({"action": "accept", "content": {}})),
            ("zz".to_owned(), json!({})),
        ]);
        in_task.questions.answer("job_1", responses);
        assert_eq!(first.rx.await.expect("answered")["action"], "accept");
        let pending = in_task.questions.pending("job_1").expect("still pending");
        assert_eq!(pending.keys().collect::<Vec<_>>(), ["b"]);

        // A question whose asker gave up is withdrawn.
        drop(second);
        assert!(in_task.questions.pending("job_1").is_none());
    }
}
