//! Line-delimited JSON-RPC on a byte stream pair (stdio, a pipe), as an
//! rmcp [`Transport`]. Malformed input gets its JSON-RPC error (`-32700`,
//! `-32600`, `-32602`) as it does over HTTP, a line longer than
//! [`MAX_LINE_BYTES`] is skipped without being held, the 2025-11-25 tasks
//! methods are rerouted, and batches are answered as the negotiated
//! revision says.
//!
//! The common line is parsed once, straight into rmcp's type; only what
//! may need an error or a reroute is parsed to a JSON tree first
//! ([`read`]). The transport writes its own error lines and batch replies
//! on the writer it shares with rmcp's messages.

mod batch;
mod lines;
mod read;
mod serve;
mod write;

use std::collections::VecDeque;
use std::io;
use std::sync::{Arc, MutexGuard, PoisonError};

use rmcp::RoleServer;
use rmcp::model::{ClientJsonRpcMessage, ClientNotification, JsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::Value;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::{Mutex, OwnedMutexGuard};

use super::jsonrpc;
use batch::{Batches, Seat};
use lines::MAX_LINE_BYTES;
use lines::{Lines, Read};
use read::Parsed;

/// What the reading and the writing side of a session share.
#[derive(Default)]
struct Session {
    /// The revision `initialize` negotiated.
    revision: Option<String>,
    batches: Batches,
    /// The first error writing to the client.
    failure: Option<io::Error>,
}

/// The session state, locked only for short, `await`-free steps.
type Shared = Arc<std::sync::Mutex<Session>>;

fn lock(session: &std::sync::Mutex<Session>) -> MutexGuard<'_, Session> {
    // Nothing here panics while holding the lock; if something did, the
    // state is still usable.
    session.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Keeps the first write error, for [`Outcome::failure`].
fn record(session: &std::sync::Mutex<Session>, error: &io::Error) {
    lock(session)
        .failure
        .get_or_insert_with(|| io::Error::new(error.kind(), error.to_string()));
}

/// rmcp's transport over a reader and a writer of lines.
pub(super) struct LineTransport<R, W> {
    lines: Lines<R>,
    writer: Arc<Mutex<Option<W>>>,
    session: Shared,
    /// Messages read and not yet handed to rmcp: the rest of a batch.
    queued: VecDeque<ClientJsonRpcMessage>,
    /// Lines of the transport's own not yet written.
    unsent: Vec<u8>,
    /// The writer, held from the start of writing `unsent` to its end, so
    /// that no other line lands inside one when `receive` is cancelled.
    held: Option<OwnedMutexGuard<Option<W>>>,
}

/// How a session's writing went, read once it has ended.
pub(super) struct Outcome(Shared);

impl Outcome {
    /// The first error writing to the client, if there was one.
    pub(super) fn failure(&self) -> Option<io::Error> {
        lock(&self.0).failure.take()
    }
}

impl<R, W> LineTransport<R, W>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    /// A transport reading lines from `reader` and writing to `writer`.
    pub(super) fn new(reader: R, writer: W) -> Self {
        LineTransport {
            lines: Lines::new(reader),
            writer: Arc::new(Mutex::new(Some(writer))),
            session: Shared::default(),
            queued: VecDeque::new(),
            unsent: Vec::new(),
            held: None,
        }
    }

    /// A handle on how the session's writing went.
    pub(super) fn outcome(&self) -> Outcome {
        Outcome(self.session.clone())
    }

    /// Reads the line just found: queues its messages for rmcp and its
    /// errors for the client. No `await`, so `receive` stays cancel-safe.
    fn take_line(&mut self) {
        let line = self.lines.take();
        let text = line.trim_ascii();
        if !text.is_empty() {
            match read::line(text) {
                Parsed::Message(message) => self.queued.push_back(message),
                Parsed::Batch(members) => self.batch(members),
                Parsed::Error(error) => self.answer(&error),
                Parsed::Nothing => {}
            }
        }
        self.lines.give_back(line);
    }

    /// Queues a line of the transport's own for the client.
    fn answer(&mut self, message: &Value) {
        self.unsent
            .extend_from_slice(message.to_string().as_bytes());
        self.unsent.push(b'\n');
    }

    /// Reads a batch: refused whole, or its members checked, the valid
    /// ones queued and the others' errors kept for the reply.
    fn batch(&mut self, members: Vec<Value>) {
        let mut session = lock(&self.session);
        let refused = batch::refusal(
            session.revision.as_deref(),
            members.len(),
            session.batches.open(),
        );
        if let Some(why) = refused {
            drop(session);
            self.answer(&jsonrpc::error(Value::Null, jsonrpc::INVALID_REQUEST, &why));
            return;
        }
        let mut gathering = session.batches.start();
        for member in members {
            match read::checked(member) {
                Parsed::Message(message) => {
                    if let JsonRpcMessage::Request(request) = &message
                        && !gathering.awaits(request.id.clone())
                    {
                        let id = serde_json::to_value(&request.id).unwrap_or(Value::Null);
                        let why = "a request with this id is awaiting its answer already";
                        gathering.error(&jsonrpc::error(id, jsonrpc::INVALID_REQUEST, why));
                    } else {
                        self.queued.push_back(message);
                    }
                }
                Parsed::Error(error) => gathering.error(&error),
                Parsed::Batch(_) | Parsed::Nothing => {}
            }
        }
        if let Some(reply) = gathering.finish() {
            self.unsent.extend_from_slice(&reply);
        }
    }

    /// Hands a message to rmcp. A cancelled request gets no answer from
    /// rmcp, so a batch awaiting it stops waiting.
    fn hand_out(&mut self, message: ClientJsonRpcMessage) -> ClientJsonRpcMessage {
        if let JsonRpcMessage::Notification(notification) = &message
            && let ClientNotification::CancelledNotification(cancelled) = &notification.notification
            && let Some(id) = &cancelled.params.request_id
            && let Some(reply) = lock(&self.session).batches.forget(id)
        {
            self.unsent.extend_from_slice(&reply);
        }
        message
    }

    /// Writes the transport's own lines, holding the writer until all are
    /// written and flushed.
    async fn write_unsent(&mut self) -> io::Result<()> {
        if self.unsent.is_empty() && self.held.is_none() {
            return Ok(());
        }
        let writer = match &mut self.held {
            Some(writer) => writer,
            held @ None => held.insert(self.writer.clone().lock_owned().await),
        };
        let written = write::drain(writer, &mut self.unsent).await;
        self.held = None;
        if let Err(e) = &written {
            // Nothing more reaches the client.
            self.unsent.clear();
            record(&self.session, e);
        }
        written
    }

    /// Notes what rmcp sends before it is written, in the order rmcp sends
    /// it: the revision `initialize` negotiates, and where an answer to a
    /// batch's request goes.
    fn note_sent(&self, message: &ServerJsonRpcMessage) -> Option<Seat> {
        let id = match message {
            JsonRpcMessage::Response(response) => Some(&response.id),
            JsonRpcMessage::Error(error) => error.id.as_ref(),
            JsonRpcMessage::Request(_) | JsonRpcMessage::Notification(_) => None,
        };
        let revision = write::negotiated(message);
        if id.is_none() && revision.is_none() {
            return None;
        }
        let mut session = lock(&self.session);
        if let Some(revision) = revision {
            session.revision = Some(revision.to_owned());
        }
        session.batches.claim(id?)
    }
}

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    type Error = io::Error;

    /// Writes one message as one line, or holds back an answer to a
    /// batch's request until the batch's reply is whole.
    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = io::Result<()>> + Send + 'static {
        let seat = self.note_sent(&item);
        let writer = self.writer.clone();
        let session = self.session.clone();
        async move {
            let mut line = write::encode(&item)?;
            if let Some(seat) = seat {
                match lock(&session).batches.answer(seat, Some(line)) {
                    Some(reply) => line = reply,
                    None => return Ok(()),
                }
            } else {
                line.push(b'\n');
            }
            let written = write::line(&writer, &line).await;
            if let Err(e) = &written {
                record(&session, e);
            }
            written
        }
    }

    /// The next message for rmcp; `None` at the client's end of input (or
    /// when the client can no longer be read or written).
    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            self.write_unsent().await.ok()?;
            if let Some(message) = self.queued.pop_front() {
                return Some(self.hand_out(message));
            }
            match self.lines.next().await {
                Ok(Read::Line) => self.take_line(),
                Ok(Read::TooLong) => {
                    let why = format!("a message longer than {MAX_LINE_BYTES} bytes");
                    self.answer(&jsonrpc::error(Value::Null, jsonrpc::INVALID_REQUEST, &why));
                }
                Ok(Read::End) | Err(_) => return None,
            }
        }
    }

    /// Writes what is left, then flushes and shuts the writer down.
    async fn close(&mut self) -> io::Result<()> {
        let unsent = self.write_unsent().await;
        let writer = self.writer.lock().await.take();
        if let Some(mut writer) = writer {
            writer.flush().await?;
            writer.shutdown().await?;
        }
        unsent
    }
}
