//! The server's side of talking back: a [`Caller`] for a call whose body
//! says `talk_back`, which sends what its handler says as non-final Replies
//! and waits for the Answers to its questions.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use super::{Out, Shared, count};
use crate::caller::{Caller, CallerFuture, Elicited, LogLevel, Root, Sampled, SamplingRequest};
use crate::hoot::RequestId;
use crate::hoot::talk::{self, AnswerBody, Answered, ElicitAction, Question, Talk};
use crate::{Json, ToolError, codec, codes};

/// Which question of which call of which peer.
type Key = (Vec<u8>, RequestId, u32);

/// A question waiting for its Answer.
#[derive(Debug)]
struct Waiting {
    answer: oneshot::Sender<Answered>,
    /// When it was asked: a peer is given its whole liveness from then.
    asked: Instant,
    /// What it asks for, as its error messages say it.
    what: &'static str,
}

/// Questions asked and not yet answered. Each is removed when answered,
/// when its asker stops waiting, or when its peer is gone, so the map
/// holds only live questions.
#[derive(Debug, Default)]
pub(super) struct Questions(Mutex<HashMap<Key, Waiting>>);

impl Questions {
    fn lock(&self) -> MutexGuard<'_, HashMap<Key, Waiting>> {
        // Each critical section is one insert, remove or sweep: nothing
        // half-done.
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// True when some question waits for its Answer.
    pub(super) fn any(&self) -> bool {
        !self.lock().is_empty()
    }

    /// Answers `UNAVAILABLE` every question of `peer`: it is gone (a send
    /// to it found no connection).
    pub(super) fn fail_peer(&self, peer: &[u8]) {
        self.fail(|(of, _, _), _| of.as_slice() == peer, |_| None);
    }

    /// Answers `UNAVAILABLE` every question whose peer has been silent for
    /// longer than `liveness`, counting from the later of when it was
    /// asked and when its peer was last heard from (`heard`).
    pub(super) fn fail_silent(
        &self,
        now: Instant,
        liveness: Duration,
        heard: impl Fn(&[u8]) -> Option<Instant>,
    ) {
        self.fail(
            |(peer, _, _), waiting| {
                let since = heard(peer).map_or(waiting.asked, |h| h.max(waiting.asked));
                now.saturating_duration_since(since) > liveness
            },
            |_| Some(liveness),
        );
    }

    /// Removes the questions `gone` picks and answers each `UNAVAILABLE`;
    /// `silent` says for how long its peer had been silent, when that is
    /// why.
    fn fail(
        &self,
        gone: impl Fn(&Key, &Waiting) -> bool,
        silent: impl Fn(&Key) -> Option<Duration>,
    ) {
        let failed: Vec<(Key, Waiting)> = {
            let mut questions = self.lock();
            let keys: Vec<Key> = questions
                .iter()
                .filter(|(key, waiting)| gone(key, waiting))
                .map(|(key, _)| key.clone())
                .collect();
            keys.into_iter()
                .filter_map(|key| questions.remove(&key).map(|w| (key, w)))
                .collect()
        };
        for (key, waiting) in failed {
            let why = match silent(&key) {
                Some(liveness) => format!(
                    "has not been heard from for over {:.1} s",
                    liveness.as_secs_f64()
                ),
                None => "has disconnected".to_owned(),
            };
            let e = ToolError::new(
                codes::UNAVAILABLE,
                format!(
                    "the caller {why}, so nothing can answer the question for {}",
                    waiting.what
                ),
            );
            // Its asker may have stopped waiting meanwhile: nobody to tell.
            let _ = waiting.answer.send(Answered::Error(e));
        }
    }

    /// Hands an Answer from `peer` for its call `request_id` to the
    /// question it answers; false when it answers none that is waiting
    /// (unknown, already answered, given up on) or does not decode.
    pub(super) fn answer(&self, peer: &[u8], request_id: RequestId, body: &[u8]) -> bool {
        let Ok(AnswerBody { id, answer }) =
            talk::decode::<AnswerBody>(body, codec::Limits::default())
        else {
            return false;
        };
        let waiting = self.lock().remove(&(peer.to_vec(), request_id, id));
        waiting.is_some_and(|w| w.answer.send(answer).is_ok())
    }
}

/// A question's place in [`Questions`], freed when its asker stops waiting.
struct Asked {
    shared: Arc<Shared>,
    key: Key,
}

impl Drop for Asked {
    fn drop(&mut self) {
        self.shared.questions.lock().remove(&self.key);
    }
}

/// The caller of one call made with `talk_back`.
#[derive(Debug)]
pub(super) struct HootCaller {
    shared: Arc<Shared>,
    peer: Vec<u8>,
    request_id: RequestId,
    next: AtomicU32,
    /// Set once the call's final Reply is queued: its caller no longer
    /// listens for it, so what its handler says (a job's, running on) is
    /// dropped and what it asks is `UNSUPPORTED`.
    answered: AtomicBool,
}

impl HootCaller {
    pub(super) fn new(shared: Arc<Shared>, peer: Vec<u8>, request_id: RequestId) -> Self {
        HootCaller {
            shared,
            peer,
            request_id,
            next: AtomicU32::new(1),
            answered: AtomicBool::new(false),
        }
    }

    /// The call has had its final Reply.
    pub(super) fn answered(&self) {
        self.answered.store(true, Ordering::Release);
    }

    fn listening(&self) -> bool {
        !self.answered.load(Ordering::Acquire)
    }

    /// Queues `talk` as a non-final Reply; false when the call has been
    /// answered or `talk` does not encode.
    fn say(&self, talk: &Talk) -> bool {
        if !self.listening() {
            return false;
        }
        let Some(body) = talk::encode(talk) else {
            count(&self.shared.counts.undeliverable);
            return false;
        };
        self.shared.outbox.push(Out::Reply {
            peer: self.peer.clone(),
            request_id: self.request_id,
            body,
            last: false,
        });
        true
    }

    /// Asks `question` and waits for its Answer.
    fn ask(&self, question: Question, what: &'static str) -> CallerFuture<Answered> {
        if !self.listening() {
            return Box::pin(async move { Err(crate::caller::unsupported(what)) });
        }
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let key = (self.peer.clone(), self.request_id, id);
        let (tx, rx) = oneshot::channel();
        let waiting = Waiting {
            answer: tx,
            asked: Instant::now(),
            what,
        };
        self.shared.questions.lock().insert(key.clone(), waiting);
        let asked = Asked {
            shared: self.shared.clone(),
            key,
        };
        let sent = self.say(&Talk::Ask { id, question });
        Box::pin(async move {
            let _asked = asked;
            if !sent {
                return Err(crate::caller::unsupported(what));
            }
            rx.await.map_err(|_| {
                ToolError::new(
                    codes::UNAVAILABLE,
                    format!("the caller went away before answering the question for {what}"),
                )
            })
        })
    }
}

/// `INTERNAL`: the caller answered a question with the answer to another.
fn mismatched(what: &str) -> ToolError {
    ToolError::internal(format!(
        "the caller answered the question for {what} with another kind of answer"
    ))
}

impl Caller for HootCaller {
    fn log(&self, level: LogLevel, logger: Option<&str>, data: Json) {
        self.say(&Talk::Log {
            level,
            logger: logger.map(str::to_owned),
            data,
        });
    }

    fn progress(&self, fraction: f32) {
        self.say(&Talk::Progress { fraction });
    }

    fn sample(&self, key: Option<&str>, request: SamplingRequest) -> CallerFuture<Sampled> {
        const WHAT: &str = "a completion (sampling)";
        let question = Question::Sample {
            key: key.map(str::to_owned),
            request,
        };
        let answer = self.ask(question, WHAT);
        Box::pin(async move {
            match answer.await? {
                Answered::Sampled(sampled) => Ok(sampled),
                Answered::Error(e) => Err(e),
                _ => Err(mismatched(WHAT)),
            }
        })
    }

    fn elicit(
        &self,
        key: Option<&str>,
        message: String,
        schema: Json,
    ) -> CallerFuture<Elicited<Json>> {
        const WHAT: &str = "input (elicitation)";
        let question = Question::Elicit {
            key: key.map(str::to_owned),
            message,
            schema,
        };
        let answer = self.ask(question, WHAT);
        Box::pin(async move {
            match answer.await? {
                Answered::Elicited {
                    action: ElicitAction::Accept,
                    content,
                } => Ok(Elicited::Accepted(content.unwrap_or(Json::Null))),
                Answered::Elicited {
                    action: ElicitAction::Decline,
                    ..
                } => Ok(Elicited::Declined),
                Answered::Elicited {
                    action: ElicitAction::Cancel,
                    ..
                } => Ok(Elicited::Cancelled),
                Answered::Error(e) => Err(e),
                _ => Err(mismatched(WHAT)),
            }
        })
    }

    fn roots(&self, key: Option<&str>) -> CallerFuture<Vec<Root>> {
        const WHAT: &str = "its roots";
        let question = Question::Roots {
            key: key.map(str::to_owned),
        };
        let answer = self.ask(question, WHAT);
        Box::pin(async move {
            match answer.await? {
                Answered::Roots(roots) => Ok(roots),
                Answered::Error(e) => Err(e),
                _ => Err(mismatched(WHAT)),
            }
        })
    }
}
