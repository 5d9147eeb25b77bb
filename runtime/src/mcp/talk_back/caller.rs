//! The MCP client of a call as its handler's [`Caller`]: log messages as
//! `notifications/message` (at or above the session's `logging/setLevel`),
//! progress as `notifications/progress`, sampling as
//! `sampling/createMessage`, elicitation as `elicitation/create`.
//!
//! Logs and progress are queued for the call's own loop (`told.rs`).
//! Sampling and elicitation go to the client at once, on the session the
//! call came from, after checking that the client declared the capability.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rmcp::RoleServer;
use rmcp::model::{
    ClientCapabilities, CreateMessageRequestParams, ElicitRequestParams, ElicitationAction,
};
use rmcp::service::{Peer, RequestContext};
use serde_json::json;
use tokio::sync::{Notify, mpsc};
use tokio_util::sync::CancellationToken;

use super::questions::{
    ELICITATION, Question, ROOTS, SAMPLING, elicited, listed_roots, not_declared, refused, sampled,
    sampling_params, text_of,
};
use super::rounds::Rounds;
use super::told::{Heard, QUEUE, SessionLevel, Told, log_level};
use crate::caller::{
    self, Caller, CallerFuture, Elicited, LogLevel, Root, Sampled, SamplingRequest,
};
use crate::mcp::tasks::v2026_07_28::questions::InTask;
use crate::mcp::transport::http::sessions::RequestStream;
use crate::{Json, ToolError, codes};

/// The MCP client of one call.
#[derive(Debug)]
pub(in crate::mcp) struct McpCaller {
    peer: Peer<RoleServer>,
    heard: Heard,
    /// How the handler's questions reach the client.
    asks: Asks,
    told: mpsc::Sender<Told>,
    /// The stream the answer goes on, when the call came over stateful
    /// Streamable HTTP.
    stream: Option<RequestStream>,
    /// Set once the handler has closed that stream.
    resumed: Resumption,
}

/// How a call's questions reach its client.
#[derive(Debug)]
enum Asks {
    /// Up to 2025-11-25: as requests of their own, on the session.
    Peer,
    /// On 2026-07-28, which has no server-to-client requests: in the
    /// call's `input_required` result, for the capabilities the request
    /// declares.
    /// A call that runs on as a task of the tasks extension asks inside
    /// the task instead (`tasks/v2026_07_28/questions.rs`): the handler waits for the answer.
    InResult {
        rounds: Arc<Rounds>,
        declared: Option<ClientCapabilities>,
        in_task: Option<Arc<InTask>>,
    },
    /// On 2026-07-28 outside a `tools/call` that can answer with
    /// questions: not at all.
    Never,
}

/// Whether a call's handler closed its stream, and the signal that the
/// client has resumed it.
#[derive(Clone, Debug, Default)]
pub(in crate::mcp) struct Resumption(Arc<Mutex<Option<Arc<Notify>>>>);

impl Resumption {
    /// Waits until the client has resumed a stream the handler closed
    /// (at once when none was closed), the call is cancelled, or `grace`
    /// has passed: a client that never comes back cannot be answered.
    pub(in crate::mcp) async fn wait(&self, cancelled: &CancellationToken, grace: Duration) {
        let closed = self.0.lock().unwrap_or_else(PoisonError::into_inner).take();
        if let Some(resumed) = closed {
            tokio::select! {
                () = resumed.notified() => {}
                () = cancelled.cancelled() => {}
                () = tokio::time::sleep(grace) => {}
            }
        }
    }
}

impl McpCaller {
    /// The caller of one `tools/call`, and the queue of what its handler
    /// tells it.
    pub(in crate::mcp) fn for_request(
        context: &RequestContext<RoleServer>,
        session: &SessionLevel,
    ) -> (Self, mpsc::Receiver<Told>) {
        let modern = context.meta.protocol_version().is_some();
        let heard = if modern {
            Heard::Request(context.meta.log_level().map(log_level))
        } else {
            Heard::Session(session.clone())
        };
        let asks = match context.extensions.get::<Arc<Rounds>>() {
            _ if !modern => Asks::Peer,
            Some(rounds) => Asks::InResult {
                rounds: rounds.clone(),
                declared: context.client_capabilities(),
                in_task: context.extensions.get::<Arc<InTask>>().cloned(),
            },
            None => Asks::Never,
        };
        let (told, rx) = mpsc::channel(QUEUE);
        let caller = McpCaller {
            peer: context.peer.clone(),
            heard,
            asks,
            told,
            stream: context.extensions.get::<RequestStream>().cloned(),
            resumed: Resumption::default(),
        };
        (caller, rx)
    }

    /// What the call waits on before answering, once the handler has
    /// closed its stream.
    pub(in crate::mcp) fn resumption(&self) -> Resumption {
        self.resumed.clone()
    }

    fn takes(&self, level: LogLevel) -> bool {
        match &self.heard {
            Heard::Session(session) => {
                let least = *session.lock().unwrap_or_else(PoisonError::into_inner);
                least.is_none_or(|least| level >= least)
            }
            Heard::Request(least) => least.is_some_and(|least| level >= least),
        }
    }

    /// Why the client cannot be asked `question` by a request of its own,
    /// if it cannot: it did not declare the capability.
    fn cannot_ask(&self, question: &Question) -> Option<ToolError> {
        let declared = self
            .peer
            .peer_info()
            .is_some_and(|info| (question.declared)(&info.capabilities));
        (!declared).then(|| not_declared(question))
    }

    /// A question on 2026-07-28: the client's answer when this run has it;
    /// in a call that runs as a task, the answer `tasks/update` brings;
    /// else the question recorded for the call's `input_required` result
    /// and `INPUT_REQUIRED` for the handler. `None` up to 2025-11-25, whose
    /// questions are requests of their own.
    fn in_result(
        &self,
        key: Option<&str>,
        question: &Question,
        params: &Json,
    ) -> Option<CallerFuture<(String, Json)>> {
        let ready = |answer| -> Option<CallerFuture<(String, Json)>> {
            Some(Box::pin(std::future::ready(answer)))
        };
        let (rounds, declared, in_task) = match &self.asks {
            Asks::Peer => return None,
            Asks::Never => {
                return ready(Err(caller::unsupported(&format!(
                    "{} on MCP 2026-07-28 outside a `tools/call`",
                    question.what
                ))));
            }
            Asks::InResult {
                rounds,
                declared,
                in_task,
            } => (rounds, declared, in_task),
        };
        let key = rounds.key(key, question.kind);
        if let Some(answer) = rounds.answer(&key) {
            return ready(Ok((key, answer.clone())));
        }
        if !declared.as_ref().is_some_and(question.declared) {
            rounds.refuse(question.capability);
            return ready(Err(not_declared(question)));
        }
        let request = json!({"method": question.method, "params": params});
        if let Some(asked) = in_task
            .as_ref()
            .and_then(|in_task| in_task.ask(key.clone(), request.clone()))
        {
            let what = question.what;
            return Some(Box::pin(async move {
                let answer = asked.rx.await.map_err(|_| {
                    ToolError::new(
                        codes::UNAVAILABLE,
                        format!("{what} was withdrawn from the task before an answer came"),
                    )
                })?;
                drop(asked.withdraw);
                Ok((key, answer))
            }));
        }
        let message = format!(
            "{} has gone to the client in the call's answer, under `{key}`; the call runs \
             again with the client's answer",
            question.what
        );
        rounds.ask(key, request);
        ready(Err(ToolError::new(codes::INPUT_REQUIRED, message)))
    }
}

impl Caller for McpCaller {
    fn log(&self, level: LogLevel, logger: Option<&str>, data: Json) {
        if self.takes(level) {
            let logger = logger.map(str::to_owned);
            // A full queue drops the message: see the module's doc.
            let _ = self.told.try_send(Told::Log {
                level,
                logger,
                data,
            });
        }
    }

    fn progress(&self, fraction: f32) {
        let _ = self.told.try_send(Told::Progress(fraction));
    }

    fn sample(&self, key: Option<&str>, request: SamplingRequest) -> CallerFuture<Sampled> {
        let params = sampling_params(&request);
        if let Some(answered) = self.in_result(key, &SAMPLING, &params) {
            return Box::pin(async move {
                let (key, answer) = answered.await?;
                sampled(&key, &answer)
            });
        }
        if let Some(e) = self.cannot_ask(&SAMPLING) {
            return Box::pin(async { Err(e) });
        }
        let peer = self.peer.clone();
        Box::pin(async move {
            let params: CreateMessageRequestParams = serde_json::from_value(params)
                .map_err(|e| ToolError::internal(format!("sampling request: {e}")))?;
            let result = peer
                .create_message(params)
                .await
                .map_err(|e| refused("sampling", e))?;
            let content = serde_json::to_value(&result.message.content).unwrap_or(Json::Null);
            let mut sampled = Sampled::new(text_of(&content), result.model);
            sampled.stop_reason = result.stop_reason;
            Ok(sampled)
        })
    }

    fn roots(&self, key: Option<&str>) -> CallerFuture<Vec<Root>> {
        if let Some(answered) = self.in_result(key, &ROOTS, &json!({})) {
            return Box::pin(async move {
                let (key, answer) = answered.await?;
                listed_roots(&key, &answer)
            });
        }
        if let Some(e) = self.cannot_ask(&ROOTS) {
            return Box::pin(async { Err(e) });
        }
        let peer = self.peer.clone();
        Box::pin(async move {
            let result = peer.list_roots().await.map_err(|e| refused("roots", e))?;
            let answer = serde_json::to_value(&result).unwrap_or(Json::Null);
            listed_roots("roots", &answer)
        })
    }

    fn started(&self, job_id: &str) {
        if let Asks::InResult {
            in_task: Some(in_task),
            ..
        } = &self.asks
        {
            in_task.started(job_id);
        }
    }

    fn close_stream(&self, retry: Duration) -> CallerFuture<bool> {
        let (Some(stream), resumed) = (self.stream.clone(), self.resumed.clone()) else {
            return Box::pin(async { Ok(false) });
        };
        Box::pin(async move {
            let Some(notify) = stream.close(retry).await else {
                return Ok(false);
            };
            *resumed.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(notify);
            Ok(true)
        })
    }

    fn elicit(
        &self,
        key: Option<&str>,
        message: String,
        schema: Json,
    ) -> CallerFuture<Elicited<Json>> {
        let params = json!({"mode": "form", "message": message, "requestedSchema": schema});
        if let Some(answered) = self.in_result(key, &ELICITATION, &params) {
            return Box::pin(async move {
                let (key, answer) = answered.await?;
                elicited(&key, &answer)
            });
        }
        if let Some(e) = self.cannot_ask(&ELICITATION) {
            return Box::pin(async { Err(e) });
        }
        let peer = self.peer.clone();
        Box::pin(async move {
            let params: ElicitRequestParams = serde_json::from_value(params).map_err(|e| {
                ToolError::invalid_request(format!(
                    "not a schema MCP elicitation takes (a flat object of strings, numbers, \
                     booleans and enums): {e}"
                ))
            })?;
            let result = peer
                .create_elicitation(params)
                .await
                .map_err(|e| refused("elicitation", e))?;
            Ok(match result.action {
                ElicitationAction::Accept => {
                    Elicited::Accepted(result.content.unwrap_or_else(|| json!({})))
                }
                ElicitationAction::Decline => Elicited::Declined,
                _ => Elicited::Cancelled,
            })
        })
    }
}
