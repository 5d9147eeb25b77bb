//! How tokio tasks hand work to a socket thread: a queue, and a bell that
//! wakes the thread from `zmq::poll`. ZeroMQ sockets belong to one thread,
//! so everything else talks to them through here.
//!
//! The bell is an inproc PAIR socket rung only when the queue goes from
//! idle to busy: a burst of replies costs one wake-up, not one each.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, TryIter};
use std::sync::{Arc, Mutex};

/// Makes each bell's inproc endpoint unique within the process.
static BELLS: AtomicU64 = AtomicU64::new(0);

/// The sending side, shared by every task.
pub(super) struct Outbox<T> {
    queue: Sender<T>,
    rung: Arc<AtomicBool>,
    bell: Mutex<zmq::Socket>,
}

/// The socket thread's side: poll [`Inbox::bell`], then [`Inbox::drain`].
pub(super) struct Inbox<T> {
    queue: Receiver<T>,
    rung: Arc<AtomicBool>,
    bell: zmq::Socket,
}

/// A connected outbox and inbox on `context`.
pub(super) fn mailbox<T>(context: &zmq::Context) -> zmq::Result<(Outbox<T>, Inbox<T>)> {
    let endpoint = format!(
        "inproc://toolwright-hoot-bell-{}",
        BELLS.fetch_add(1, Ordering::Relaxed)
    );
    let receiver = context.socket(zmq::PAIR)?;
    receiver.set_linger(0)?;
    receiver.bind(&endpoint)?;
    let sender = context.socket(zmq::PAIR)?;
    sender.set_linger(0)?;
    sender.connect(&endpoint)?;
    let (tx, rx) = mpsc::channel();
    let rung = Arc::new(AtomicBool::new(false));
    Ok((
        Outbox {
            queue: tx,
            rung: rung.clone(),
            bell: Mutex::new(sender),
        },
        Inbox {
            queue: rx,
            rung,
            bell: receiver,
        },
    ))
}

impl<T> Outbox<T> {
    /// Queues `item` and wakes the thread if it may be asleep. False when
    /// the thread has gone.
    pub(super) fn push(&self, item: T) -> bool {
        if self.queue.send(item).is_err() {
            return false;
        }
        if !self.rung.swap(true, Ordering::AcqRel) {
            // A poisoned lock only means another pusher panicked mid-send;
            // the socket itself is fine.
            let bell = self.bell.lock().unwrap_or_else(|p| p.into_inner());
            let _ = bell.send(&b""[..], zmq::DONTWAIT);
        }
        true
    }
}

impl<T> Inbox<T> {
    /// The socket to poll for readiness.
    pub(super) fn bell(&self) -> &zmq::Socket {
        &self.bell
    }

    /// Everything queued so far. The bell is silenced first, so an item
    /// pushed while draining rings it again rather than being missed.
    pub(super) fn drain(&self) -> TryIter<'_, T> {
        while self.bell.recv_bytes(zmq::DONTWAIT).is_ok() {}
        self.rung.store(false, Ordering::Release);
        self.queue.try_iter()
    }
}
