//! The client's side of talking back: a call made for a caller that can be
//! reached (`CallOptions::caller`, a gateway's MCP session) asks the backend
//! for its handler's logs, progress and questions, hands them to that
//! caller, and sends the caller's answers back as Answer messages.

use std::sync::Arc;

use tokio::task::JoinSet;

use crate::caller::{Caller, unsupported};
use crate::hoot::talk::{AnswerBody, Answered, Question, Talk};

/// Hands `talk` to `caller`: a log or progress at once, a question as a
/// task in `asks` whose output is the Answer to send. Without a caller
/// (the backend talked back unasked) a question is answered `UNSUPPORTED`.
pub(super) fn hear(talk: Talk, caller: Option<&Arc<dyn Caller>>, asks: &mut JoinSet<AnswerBody>) {
    match talk {
        Talk::Log {
            level,
            logger,
            data,
        } => {
            if let Some(caller) = caller {
                caller.log(level, logger.as_deref(), data);
            }
        }
        Talk::Progress { fraction } => {
            if let Some(caller) = caller {
                caller.progress(fraction);
            }
        }
        Talk::Ask { id, question } => {
            let Some(caller) = caller else {
                let answer = Answered::Error(unsupported("anything (it called without a caller)"));
                asks.spawn(async move { AnswerBody { id, answer } });
                return;
            };
            // Each question is a future of the caller's own; run as a
            // task, so that the call goes on hearing its handler (its
            // logs, a second question) while the client thinks.
            let answer = match question {
                Question::Sample { key, request } => {
                    let asked = caller.sample(key.as_deref(), request);
                    Box::pin(
                        async move { asked.await.map_or_else(Answered::Error, Answered::Sampled) },
                    )
                        as std::pin::Pin<Box<dyn Future<Output = Answered> + Send>>
                }
                Question::Elicit {
                    key,
                    message,
                    schema,
                } => {
                    let asked = caller.elicit(key.as_deref(), message, schema);
                    Box::pin(
                        async move { asked.await.map_or_else(Answered::Error, Answered::elicited) },
                    )
                }
                Question::Roots { key } => {
                    let asked = caller.roots(key.as_deref());
                    Box::pin(
                        async move { asked.await.map_or_else(Answered::Error, Answered::Roots) },
                    )
                }
            };
            asks.spawn(async move {
                AnswerBody {
                    id,
                    answer: answer.await,
                }
            });
        }
    }
}
