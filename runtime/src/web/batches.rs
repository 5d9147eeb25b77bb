//! The event feed's batches. One task per server reads the hub and, every
//! [`FLUSH`], hands every subscriber of `GET /api/events` the same batch:
//! at most [`BATCH`] events, and how many it skipped. A subscriber without
//! a filter writes the batch's text, built once for all of them, so a
//! hundred open feeds cost a server little more than one; a subscriber
//! with a filter writes its share of the same events.
//!
//! The task runs while someone follows: it holds the hub's only receiver
//! on the feed's behalf, and lets go of it when the last feed has gone, so
//! a server nobody watches traces no call.

use std::fmt::Write as _;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use axum::body::Bytes;
use tokio::sync::broadcast;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};
use tokio_util::sync::CancellationToken;

use crate::events::{Published, ToolEvents};

/// How long a batch's first event waits for others to share it.
pub(crate) const FLUSH: Duration = Duration::from_millis(50);

/// Most events in one batch: with [`FLUSH`], at most 2,000 events a second
/// for each subscriber.
pub(crate) const BATCH: usize = 100;

/// Batches a subscriber may fall behind by before it loses the oldest
/// (and is told how many events those held): about a second of them.
const BATCHES: usize = 16;

/// The batches of one hub, and the task that makes them.
pub(crate) struct Batches {
    hub: ToolEvents,
    sender: broadcast::Sender<Arc<Batch>>,
    /// True while the task runs; changed only with this lock held, so a
    /// feed that arrives as the task stops starts another.
    running: Arc<Mutex<bool>>,
    shutdown: CancellationToken,
}

impl Batches {
    /// Batches of `hub`'s events, until `shutdown`.
    pub(crate) fn new(hub: ToolEvents, shutdown: CancellationToken) -> Self {
        let (sender, _) = broadcast::channel(BATCHES);
        Batches {
            hub,
            sender,
            running: Arc::new(Mutex::new(false)),
            shutdown,
        }
    }

    /// Receives every batch from now on. The hub is followed from this
    /// call: an event sent after it returns is in a batch.
    pub(crate) fn subscribe(&self) -> broadcast::Receiver<Arc<Batch>> {
        let receiver = self.sender.subscribe();
        let mut running = lock(&self.running);
        if !*running {
            *running = true;
            let batcher = Batcher {
                events: self.hub.subscribe(),
                sender: self.sender.clone(),
                running: self.running.clone(),
                next: 1,
            };
            tokio::spawn(batcher.run(self.shutdown.clone()));
        }
        receiver
    }
}

fn lock(running: &Mutex<bool>) -> std::sync::MutexGuard<'_, bool> {
    // A flag cannot be left half-written: a poisoned lock is still right.
    running
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The task that reads the hub.
struct Batcher {
    events: broadcast::Receiver<Arc<Published>>,
    sender: broadcast::Sender<Arc<Batch>>,
    running: Arc<Mutex<bool>>,
    /// The id the next event gets: ids count every event the hub sent
    /// since the task started, skipped ones too.
    next: u64,
}

impl Batcher {
    async fn run(mut self, shutdown: CancellationToken) {
        loop {
            let first = tokio::select! {
                received = self.events.recv() => received,
                () = shutdown.cancelled() => break,
            };
            let mut batch = Batch::new(self.next);
            match first {
                Ok(event) => self.push(&mut batch, event),
                Err(RecvError::Lagged(missed)) => self.skip(&mut batch, missed),
                Err(RecvError::Closed) => break,
            }
            // Let the rest of the window arrive, then take it.
            tokio::select! {
                () = tokio::time::sleep(FLUSH) => {}
                () = shutdown.cancelled() => {}
            }
            while batch.count < BATCH {
                match self.events.try_recv() {
                    Ok(event) => self.push(&mut batch, event),
                    Err(TryRecvError::Lagged(missed)) => self.skip(&mut batch, missed),
                    Err(TryRecvError::Empty | TryRecvError::Closed) => break,
                }
            }
            let behind = self.events.len() as u64;
            if behind > 0 {
                // Skip ahead: the feed is told, not fed.
                self.events = self.events.resubscribe();
                self.skip(&mut batch, behind);
            }
            {
                let mut running = lock(&self.running);
                if self.sender.receiver_count() == 0 {
                    // Nobody follows: let go of the hub, which then traces no call.
                    *running = false;
                    return;
                }
            }
            batch.end = self.next;
            let _ = self.sender.send(Arc::new(batch));
        }
        *lock(&self.running) = false;
    }

    fn push(&mut self, batch: &mut Batch, event: Arc<Published>) {
        batch.items.push(Item::Event(self.next, event));
        batch.count += 1;
        self.next += 1;
    }

    fn skip(&mut self, batch: &mut Batch, missed: u64) {
        batch.items.push(Item::Missed(missed));
        self.next += missed;
    }
}

/// What one window held, in order.
pub(crate) struct Batch {
    /// The id of its first item's first event.
    pub(crate) first: u64,
    /// The id of the first event after it.
    pub(crate) end: u64,
    items: Vec<Item>,
    /// How many of the items are events.
    count: usize,
    /// The text of every item, built when a subscriber without a filter
    /// first asks.
    text: OnceLock<Bytes>,
}

enum Item {
    /// An event, with its id.
    Event(u64, Arc<Published>),
    /// This many events were skipped here.
    Missed(u64),
}

impl Batch {
    fn new(first: u64) -> Self {
        Batch {
            first,
            end: first,
            items: Vec::with_capacity(BATCH + 2),
            count: 0,
            text: OnceLock::new(),
        }
    }

    /// Every item as Server-Sent Events, built once.
    pub(crate) fn text(&self) -> Bytes {
        self.text
            .get_or_init(|| Bytes::from(self.render(|_| true)))
            .clone()
    }

    /// The items `keep` keeps, and every skip, as Server-Sent Events.
    pub(crate) fn render(&self, keep: impl Fn(&Published) -> bool) -> String {
        let mut text = String::new();
        for item in &self.items {
            match item {
                Item::Event(id, event) if keep(event) => {
                    let _ = write!(
                        text,
                        "event: {}\nid: {id}\ndata: {}\n\n",
                        event.kind(),
                        event.json()
                    );
                }
                Item::Event(..) => {}
                Item::Missed(missed) => lagged(*missed, &mut text),
            }
        }
        text
    }
}

/// `event: lagged`: `missed` events were skipped.
pub(crate) fn lagged(missed: u64, text: &mut String) {
    let _ = write!(text, "event: lagged\ndata: {{\"missed\":{missed}}}\n\n");
}
