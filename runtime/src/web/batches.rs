//! The event feed's batches. One task per server takes the hub's events
//! and, every [`FLUSH`], hands every subscriber of `GET /api/events` the
//! same batch: at most [`BATCH`] events, and how many it skipped. A
//! subscriber without a filter writes the batch's text, built once for
//! all of them, so a hundred open feeds cost a server little more than
//! one; a subscriber with a filter writes its share of the same events.
//!
//! The task follows the hub as its windowed follower: the hub traces the
//! first calls of each window, as many as a batch shows, and counts the
//! rest, so a busy server spends nothing on the events no feed would
//! show. The task runs while someone follows, and lets go of the hub when
//! the last feed has gone, so a server nobody watches traces no call.

use std::fmt::Write as _;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use axum::body::Bytes;
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;

use crate::events::{Published, ToolEvents, Windowed};

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
    /// call: a call made after it returns is in a batch, or counted as
    /// skipped in one.
    pub(crate) fn subscribe(&self) -> broadcast::Receiver<Arc<Batch>> {
        let receiver = self.sender.subscribe();
        let mut running = lock(&self.running);
        if !*running {
            *running = true;
            let batcher = Batcher {
                follower: Some(self.hub.windowed(BATCH as u32)),
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

/// The task that takes the hub's events.
struct Batcher {
    /// Dropped, which stops the tracing, with the running flag's lock
    /// held: a feed that arrives next starts a follower of its own.
    follower: Option<Windowed>,
    sender: broadcast::Sender<Arc<Batch>>,
    running: Arc<Mutex<bool>>,
    /// The id the next event gets: ids count every event the hub sent
    /// since the task started, skipped ones too.
    next: u64,
}

impl Batcher {
    async fn run(mut self, shutdown: CancellationToken) {
        while let Some(follower) = &self.follower {
            tokio::select! {
                () = follower.arrived() => {}
                () = shutdown.cancelled() => break,
            }
            // Let the rest of the window arrive, then take it.
            tokio::select! {
                () = tokio::time::sleep(FLUSH) => {}
                () = shutdown.cancelled() => {}
            }
            let taken = follower.take();
            {
                let mut running = lock(&self.running);
                if self.sender.receiver_count() == 0 {
                    // Nobody follows: let go of the hub, which then traces no call.
                    self.follower = None;
                    *running = false;
                    return;
                }
            }
            let batch = self.batch(taken);
            if batch.first != batch.end {
                let _ = self.sender.send(Arc::new(batch));
            }
        }
        self.follower = None;
        *lock(&self.running) = false;
    }

    /// The batch of what was taken: its events, at most [`BATCH`] (a
    /// call that started in an earlier window may complete in this one),
    /// then the count of those skipped.
    fn batch(&mut self, taken: crate::events::Taken) -> Batch {
        let mut batch = Batch::new(self.next);
        let shown = taken.events.len().min(BATCH);
        let over = (taken.events.len() - shown) as u64;
        for event in taken.events.into_iter().take(shown) {
            batch.items.push(Item::Event(self.next, event));
            self.next += 1;
        }
        let skipped = taken.skipped + over;
        if skipped > 0 {
            batch.items.push(Item::Missed(skipped));
            self.next += skipped;
        }
        batch.end = self.next;
        batch
    }
}

/// What one window held, in order.
pub(crate) struct Batch {
    /// The id of its first item's first event.
    pub(crate) first: u64,
    /// The id of the first event after it.
    pub(crate) end: u64,
    items: Vec<Item>,
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
            items: Vec::with_capacity(BATCH + 1),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::ToolSource;

    /// `{"tool": "x"}` as MsgPack.
    const CALL: &[u8] = &[0x81, 0xa4, b't', b'o', b'o', b'l', 0xa1, b'x'];

    #[tokio::test]
    async fn a_burst_shows_its_first_calls_and_counts_the_rest() {
        let hub = ToolEvents::new(ToolSource::Local);
        let shutdown = CancellationToken::new();
        let batches = Batches::new(hub.clone(), shutdown.clone());
        let mut feed = batches.subscribe();
        // Each call holds room for its start and its end: 50 fit in a
        // batch, the other 150 calls' 300 events are skipped.
        let traces: Vec<_> = (0..200).map(|_| hub.start(CALL, None)).collect();
        assert_eq!(traces.iter().flatten().count(), BATCH / 2);
        let batch = feed.recv().await.expect("a batch");
        assert_eq!((batch.first, batch.end), (1, 351));
        let text = batch.text();
        let text = String::from_utf8_lossy(&text);
        assert_eq!(text.matches("event: tool_start").count(), 50, "{text}");
        assert!(
            text.contains("id: 50\n") && !text.contains("id: 51\n"),
            "{text}"
        );
        assert!(
            text.ends_with("event: lagged\ndata: {\"missed\":300}\n\n"),
            "{text}"
        );
        // The next window takes calls again.
        assert!(hub.start(CALL, None).is_some());
        let batch = feed.recv().await.expect("a batch");
        assert_eq!((batch.first, batch.end), (351, 352));
        shutdown.cancel();
    }
}
