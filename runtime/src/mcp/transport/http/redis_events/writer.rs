//! Keeping events behind their send: one task per store writes them to
//! Redis in the order they were sent, every event queued meanwhile in one
//! pipeline, so that sending an event waits for no round trip. Stream
//! numbers are drawn from Redis's counter a block at a time for the same
//! reason.
//!
//! An event is sent before it is kept, so a client that resumes on another
//! replica within the moment between may miss it there; its own replica
//! still has it. The queue is bounded: past it (Redis slow or away) an
//! event is not kept, and resumes on its own replica only, as when Redis
//! is down.

use std::sync::{Mutex, OnceLock, PoisonError};

use redis::aio::ConnectionManager;
use tokio::sync::mpsc;

use super::keys::{KEPT, NUMBERS, entry, idle_ms, key};

/// Events waiting to be kept, at most.
const QUEUED: usize = 4096;

/// Events kept in one pipeline, at most.
const BATCH: usize = 256;

/// Stream numbers drawn from the counter at once.
pub(super) const BLOCK: u64 = 1024;

/// Numbers wrap below this, past which a replica's own numbers lie
/// (`ids::LOCAL`, halved for the kind bit); a key of a number drawn again
/// has long expired.
const WRAP: u64 = 1 << 38;

/// One event to keep: its stream, its place, and its fields.
pub(super) struct Write {
    pub(super) number: u64,
    pub(super) place: u64,
    pub(super) fields: Vec<(&'static str, String)>,
}

/// The queue of events to keep, and the block of stream numbers drawn.
pub(super) struct Writer {
    connection: ConnectionManager,
    queue: OnceLock<mpsc::Sender<Write>>,
    /// The next number of the block and the end of the block.
    block: Mutex<(u64, u64)>,
}

impl Writer {
    pub(super) fn new(connection: ConnectionManager) -> Self {
        Writer {
            connection,
            queue: OnceLock::new(),
            block: Mutex::new((0, 0)),
        }
    }

    /// Queues `write`; false when the queue is full, and the event is not
    /// kept. Called within a tokio runtime: the first call starts the task
    /// that writes.
    pub(super) fn push(&self, write: Write) -> bool {
        let queue = self.queue.get_or_init(|| {
            let (tx, rx) = mpsc::channel(QUEUED);
            tokio::spawn(keep(self.connection.clone(), rx));
            tx
        });
        queue.try_send(write).is_ok()
    }

    /// A new stream's number, of kind `kind` (its low bit): from the block
    /// drawn, or from a new block, one round trip every [`BLOCK`] streams.
    ///
    /// # Errors
    /// When Redis cannot draw a block.
    pub(super) async fn number(&self, kind: u64) -> Result<u64, redis::RedisError> {
        if let Some(drawn) = self.take() {
            return Ok(numbered(drawn, kind));
        }
        let top: u64 = redis::cmd("INCRBY")
            .arg(NUMBERS)
            .arg(BLOCK)
            .query_async(&mut self.connection.clone())
            .await?;
        let first = top.saturating_sub(BLOCK - 1);
        // Two streams that found the block empty at once each drew one:
        // the later block wins, the other's numbers go unused.
        *self.block.lock().unwrap_or_else(PoisonError::into_inner) = (first + 1, top + 1);
        Ok(numbered(first, kind))
    }

    fn take(&self) -> Option<u64> {
        let mut block = self.block.lock().unwrap_or_else(PoisonError::into_inner);
        let (next, end) = *block;
        (next < end).then(|| {
            block.0 += 1;
            next
        })
    }
}

/// The stream number of counter value `drawn`: never 0, which no id may
/// name.
fn numbered(drawn: u64, kind: u64) -> u64 {
    let wrapped = drawn.saturating_sub(1) % (WRAP - 1) + 1;
    2 * wrapped + kind
}

/// Keeps what is queued, in order, a pipeline at a time, until the store
/// is dropped.
async fn keep(mut connection: ConnectionManager, mut queue: mpsc::Receiver<Write>) {
    let mut batch = Vec::with_capacity(BATCH);
    let expiry = i64::try_from(idle_ms()).unwrap_or(i64::MAX);
    while queue.recv_many(&mut batch, BATCH).await > 0 {
        let mut pipe = redis::pipe();
        for write in batch.drain(..) {
            let key = key(write.number);
            let mut add = redis::cmd("XADD");
            add.arg(&key)
                .arg("MAXLEN")
                .arg("~")
                .arg(KEPT)
                .arg(entry(write.place));
            for (name, value) in write.fields {
                add.arg(name).arg(value);
            }
            pipe.add_command(add).ignore();
            pipe.pexpire(&key, expiry).ignore();
        }
        // Not kept is still sent: such events resume on their replica.
        let _: Result<(), _> = pipe.query_async(&mut connection).await;
    }
}

#[cfg(test)]
mod tests {
    use super::{WRAP, numbered};

    #[test]
    fn numbers_are_never_zero_and_keep_their_kind() {
        for drawn in [0, 1, 2, WRAP - 1, WRAP, WRAP + 1, u64::MAX / 4] {
            for kind in [0, 1] {
                let number = numbered(drawn, kind);
                assert_ne!(number, 0);
                assert_eq!(number & 1, kind);
                assert!(number < 2 * WRAP);
            }
        }
        assert_ne!(numbered(1, 0), numbered(2, 0));
    }
}
