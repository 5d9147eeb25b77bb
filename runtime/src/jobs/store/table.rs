//! The table of jobs behind the store's lock: records in creation order, an
//! index by id, and the finished jobs in the order they finished, which is
//! the order they expire and are evicted in.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use super::record::{Outcome, Record};
use crate::jobs::{JobCounts, JobState, Owner};

pub(super) struct Table<R> {
    /// Keyed by a creation sequence number, so iterating backwards is
    /// newest first.
    records: BTreeMap<u64, Record<R>>,
    index: HashMap<Arc<str>, u64>,
    /// Finished jobs, oldest finish first, with when they finished.
    finished: VecDeque<(u64, Instant)>,
    next_seq: u64,
    /// Set by shutdown: no new jobs.
    pub(super) closed: bool,
    /// Jobs pending or running, in all and per owner, for admission.
    active: usize,
    active_by_owner: HashMap<Owner, usize>,
}

impl<R> Table<R> {
    pub(super) fn new() -> Self {
        Table {
            records: BTreeMap::new(),
            index: HashMap::new(),
            finished: VecDeque::new(),
            next_seq: 0,
            closed: false,
            active: 0,
            active_by_owner: HashMap::new(),
        }
    }

    /// Jobs pending or running: all of them, and those of `owner`.
    pub(super) fn active(&self, owner: Option<&Owner>) -> (usize, usize) {
        let own = owner.map_or(0, |o| self.active_by_owner.get(o).copied().unwrap_or(0));
        (self.active, own)
    }

    pub(super) fn insert(&mut self, record: Record<R>) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.index.insert(record.id.clone(), seq);
        self.active += 1;
        if let Some(owner) = &record.owner {
            *self.active_by_owner.entry(owner.clone()).or_default() += 1;
        }
        self.records.insert(seq, record);
    }

    pub(super) fn get(&self, id: &str) -> Option<&Record<R>> {
        self.index.get(id).and_then(|seq| self.records.get(seq))
    }

    pub(super) fn get_mut(&mut self, id: &str) -> Option<&mut Record<R>> {
        self.index.get(id).and_then(|seq| self.records.get_mut(seq))
    }

    /// Every job, newest first.
    pub(super) fn newest_first(&self) -> impl Iterator<Item = &Record<R>> {
        self.records.values().rev()
    }

    /// Every job not yet finished.
    pub(super) fn unfinished_mut(&mut self) -> impl Iterator<Item = &mut Record<R>> {
        self.records.values_mut().filter(|r| !r.is_finished())
    }

    /// Settles the job `id` (unless it has settled already) and queues it
    /// for expiry. Returns the record when it settled now.
    pub(super) fn settle(
        &mut self,
        id: &str,
        outcome: Outcome<R>,
        now_ms: u64,
        now: Instant,
    ) -> Option<&Record<R>> {
        let seq = *self.index.get(id)?;
        let record = self.records.get_mut(&seq)?;
        if record.is_finished() {
            return None;
        }
        record.settle(outcome, now_ms);
        self.active = self.active.saturating_sub(1);
        if let Some(owner) = &record.owner
            && let Some(n) = self.active_by_owner.get_mut(owner)
        {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.active_by_owner.remove(owner);
            }
        }
        self.finished.push_back((seq, now));
        self.records.get(&seq)
    }

    /// Drops finished jobs older than `ttl`, then the oldest finished ones
    /// beyond `max_finished`, and names them. Jobs still pending or running
    /// are never dropped.
    pub(super) fn evict(
        &mut self,
        now: Instant,
        ttl: Duration,
        max_finished: usize,
    ) -> Vec<String> {
        let mut gone = Vec::new();
        while let Some(&(seq, at)) = self.finished.front() {
            let expired = now.saturating_duration_since(at) >= ttl;
            if !expired && self.finished.len() <= max_finished {
                break;
            }
            self.finished.pop_front();
            if let Some(record) = self.records.remove(&seq) {
                self.index.remove(&record.id);
                gone.push(record.id.to_string());
            }
        }
        gone
    }

    /// Puts back a job that finished before the process restarted, as if
    /// it had finished at `at`.
    pub(super) fn insert_finished(&mut self, record: Record<R>, at: Instant) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.index.insert(record.id.clone(), seq);
        self.records.insert(seq, record);
        // Restored in creation order, not finishing order: keep the queue
        // sorted by when each finished, which is the order they expire in.
        let position = self.finished.partition_point(|&(_, t)| t <= at);
        self.finished.insert(position, (seq, at));
    }

    /// How many jobs `caller` sees in each state.
    pub(super) fn counts(&self, caller: Option<&Owner>) -> JobCounts {
        let mut counts = JobCounts {
            pending: 0,
            running: 0,
            complete: 0,
            failed: 0,
            cancelled: 0,
        };
        for record in self.records.values().filter(|r| r.seen_by(caller)) {
            let n = match record.state {
                JobState::Pending => &mut counts.pending,
                JobState::Running => &mut counts.running,
                JobState::Complete => &mut counts.complete,
                JobState::Failed => &mut counts.failed,
                JobState::Cancelled => &mut counts.cancelled,
            };
            *n = n.saturating_add(1);
        }
        counts
    }
}
