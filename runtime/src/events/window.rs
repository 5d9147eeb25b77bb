//! `Window`: the calls a hub traces for a windowed follower, such as the
//! web feed, which shows a page at most so many events a window and
//! counts the rest. A call beyond the window's allowance is counted, not
//! traced: on a busy server nearly every call costs the hub two atomic
//! operations instead of its events, which the feed would have skipped.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::sync::Notify;

use super::Published;

/// The window a windowed follower takes its events from: open while one
/// follows, with the events traced since it last took them.
#[derive(Debug, Default)]
pub(super) struct Window {
    /// The follower's id while one follows; 0 when none does.
    follower: AtomicU64,
    /// Follower ids given out: a follower that left closes the window
    /// only if no later one opened it again.
    followers: AtomicU64,
    /// Events the window still takes before its follower next takes them.
    allowance: AtomicU32,
    /// How many events the follower takes each time.
    per_take: AtomicU32,
    /// Events not traced because the allowance was spent.
    skipped: AtomicU64,
    taken: Mutex<Vec<Arc<Published>>>,
    /// Told when an event arrives in an empty window.
    arrived: Notify,
}

impl Window {
    /// True when the window takes a call's `events` (one for a refused
    /// call, two for one that starts and completes), which spends them
    /// from its allowance. False when no follower follows, or when the
    /// allowance is spent: the events are then counted as skipped.
    pub(super) fn admits(&self, events: u32) -> bool {
        if self.follower.load(Ordering::Relaxed) == 0 {
            return false;
        }
        let admitted = self
            .allowance
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                left.checked_sub(events)
            })
            .is_ok();
        if !admitted {
            self.skipped.fetch_add(u64::from(events), Ordering::Relaxed);
        }
        admitted
    }

    /// True while a follower follows.
    pub(super) fn is_followed(&self) -> bool {
        self.follower.load(Ordering::Relaxed) != 0
    }

    /// Keeps `event` of an admitted call for the follower.
    pub(super) fn keep(&self, event: Arc<Published>) {
        let first = {
            let mut taken = self.taken();
            taken.push(event);
            taken.len() == 1
        };
        if first {
            self.arrived.notify_one();
        }
    }

    fn taken(&self) -> MutexGuard<'_, Vec<Arc<Published>>> {
        // A push or a swap cannot leave the list half-written.
        self.taken.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A hub's windowed follower, from [`ToolEvents::windowed`](super::ToolEvents::windowed):
/// while it lives, the hub traces calls into its window, at most
/// `per_take` events between two [`take`](Windowed::take)s, and counts the
/// calls beyond. Dropping it closes the window.
///
/// For a view that shows a sample of a busy server's calls (the web feed
/// shows at most 100 events every 50 ms): the calls it would not show are
/// never traced, so following costs a busy server next to nothing.
#[derive(Debug)]
pub struct Windowed {
    window: Arc<Window>,
    id: u64,
}

impl Windowed {
    /// Opens `window` for a new follower that takes `per_take` events at
    /// a time; it replaces any follower before it.
    pub(super) fn open(window: Arc<Window>, per_take: u32) -> Self {
        let id = window.followers.fetch_add(1, Ordering::Relaxed) + 1;
        window.per_take.store(per_take, Ordering::Relaxed);
        window.allowance.store(per_take, Ordering::Relaxed);
        window.skipped.store(0, Ordering::Relaxed);
        window.taken().clear();
        window.follower.store(id, Ordering::Release);
        Windowed { window, id }
    }

    /// Waits until the window holds an event.
    pub async fn arrived(&self) {
        if self.window.taken().is_empty() {
            self.window.arrived.notified().await;
        }
    }

    /// The events traced since the last take, in the order they were
    /// sent, and how many were skipped meanwhile; the window's allowance
    /// starts again.
    pub fn take(&self) -> Taken {
        let events = std::mem::take(&mut *self.window.taken());
        let skipped = self.window.skipped.swap(0, Ordering::Relaxed);
        let per_take = self.window.per_take.load(Ordering::Relaxed);
        self.window.allowance.store(per_take, Ordering::Relaxed);
        Taken { events, skipped }
    }
}

impl Drop for Windowed {
    fn drop(&mut self) {
        // Only this follower's window closes: a later one keeps its own.
        let _ =
            self.window
                .follower
                .compare_exchange(self.id, 0, Ordering::Release, Ordering::Relaxed);
    }
}

/// What a [`Windowed`] took from its window.
#[derive(Debug)]
#[non_exhaustive]
pub struct Taken {
    /// The events traced, in the order they were sent.
    pub events: Vec<Arc<Published>>,
    /// How many events were not traced because the allowance was spent.
    pub skipped: u64,
}

#[cfg(test)]
mod tests {
    use crate::events::{ToolEvents, ToolSource};

    /// `{"tool": "x"}` as MsgPack.
    const CALL: &[u8] = &[0x81, 0xa4, b't', b'o', b'o', b'l', 0xa1, b'x'];

    #[test]
    fn calls_beyond_the_allowance_are_counted_not_traced() {
        let hub = ToolEvents::new(ToolSource::Local);
        let follower = hub.windowed(5);
        let traces: Vec<_> = (0..4).map(|_| hub.start(CALL, None)).collect();
        // Two calls (two events each) fit in 5; the third and fourth do not.
        assert_eq!(traces.iter().filter(|t| t.is_some()).count(), 2);
        hub.refused_call("x", &crate::ToolError::invalid_request("no"), None);
        let taken = follower.take();
        let kinds: Vec<_> = taken.events.iter().map(|e| e.kind()).collect();
        assert_eq!(kinds, ["tool_start", "tool_start", "error"]);
        assert_eq!(taken.skipped, 4);
        // The allowance starts again; a call admitted earlier completes
        // into the new window without spending it.
        let mut traces = traces.into_iter().flatten();
        let first = traces.next().expect("an admitted call");
        first.job_ended("j".into(), Ok(crate::Json::Null));
        assert!(hub.start(CALL, None).is_some());
        assert!(hub.start(CALL, None).is_some());
        let taken = follower.take();
        assert_eq!(taken.events.len(), 3);
        assert_eq!(taken.events[0].kind(), "tool_complete");
        assert_eq!(taken.skipped, 0);
    }

    #[test]
    fn a_hub_nobody_follows_traces_nothing_and_a_subscriber_sees_every_call() {
        let hub = ToolEvents::new(ToolSource::Local);
        let follower = hub.windowed(2);
        drop(follower);
        assert!(!hub.is_observed());
        assert!(hub.start(CALL, None).is_none());
        let follower = hub.windowed(2);
        let mut everything = hub.subscribe();
        let traces: Vec<_> = (0..3).map(|_| hub.start(CALL, None)).collect();
        assert!(traces.iter().all(Option::is_some));
        assert_eq!(everything.len(), 3);
        let taken = follower.take();
        assert_eq!((taken.events.len(), taken.skipped), (1, 4));
        assert!(everything.try_recv().is_ok());
    }

    #[test]
    fn a_follower_that_leaves_does_not_close_its_successors_window() {
        let hub = ToolEvents::new(ToolSource::Local);
        let first = hub.windowed(10);
        let second = hub.windowed(10);
        drop(first);
        assert!(hub.is_observed());
        assert!(hub.start(CALL, None).is_some());
        assert_eq!(second.take().events.len(), 1);
        drop(second);
        assert!(!hub.is_observed());
    }

    #[tokio::test]
    async fn the_follower_wakes_when_an_event_arrives() {
        let hub = ToolEvents::new(ToolSource::Local);
        let follower = hub.windowed(10);
        let waiting =
            tokio::time::timeout(std::time::Duration::from_millis(50), follower.arrived());
        assert!(waiting.await.is_err(), "woke with nothing in the window");
        let caller = hub.clone();
        let call = tokio::spawn(async move {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            caller.start(CALL, None).is_some()
        });
        let arrived = tokio::time::timeout(std::time::Duration::from_secs(5), follower.arrived());
        assert!(arrived.await.is_ok(), "not woken by the call");
        assert!(call.await.unwrap_or_default());
    }
}
