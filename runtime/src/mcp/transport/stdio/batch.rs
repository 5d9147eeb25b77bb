//! JSON-RPC batches, which rmcp does not read, on stdio as over HTTP
//! (`http/batch.rs`): answered per JSON-RPC 2.0 in a session on 2025-03-26
//! or earlier, refused with `-32600` before `initialize` and in later
//! revisions (2025-06-18 removed batches).
//!
//! The members are handed to rmcp one by one; the answers to the batch's
//! requests are gathered here as rmcp sends them, and the batch's reply is
//! written as one JSON array line once the last is in.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use rmcp::model::RequestId;
use serde_json::Value;

use crate::mcp::revision::Revision;

/// Most members read from one batch.
pub(super) const MAX_MEMBERS: usize = 1024;

/// Most batches whose answers are awaited at once.
pub(super) const MAX_OPEN: usize = 64;

/// Why a batch is refused whole, if it is: `revision` is the session's
/// negotiated one, `members` the batch's size, `open` the batches still
/// awaiting answers.
pub(super) fn refusal(revision: Option<&str>, members: usize, open: usize) -> Option<String> {
    match revision {
        None => Some(
            "JSON-RPC batches are not read before initialize; send one message per line".into(),
        ),
        Some(revision) if Revision::LAST_WITH_BATCHES.is_before(revision) => Some(format!(
            "JSON-RPC batches are not part of MCP {revision}; send one message per line"
        )),
        Some(_) if members == 0 => Some("an empty batch".into()),
        Some(_) if members > MAX_MEMBERS => Some(format!(
            "a batch of {members} messages; at most {MAX_MEMBERS} are read"
        )),
        Some(_) if open >= MAX_OPEN => Some(format!(
            "{open} batches are still being answered; send more once they are"
        )),
        Some(_) => None,
    }
}

/// Where the answer to a request of a batch goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Seat {
    batch: u64,
    slot: usize,
}

/// One batch's reply while answers are awaited.
struct Reply {
    /// The reply's members in the batch's order; `None` while awaited,
    /// and for a request cancelled before its answer.
    answers: Vec<Option<Vec<u8>>>,
    awaited: usize,
}

/// The batches whose answers are being gathered.
#[derive(Default)]
pub(super) struct Batches {
    next: u64,
    open: HashMap<u64, Reply>,
    seats: HashMap<RequestId, Seat>,
}

impl Batches {
    /// How many batches await answers.
    pub(super) fn open(&self) -> usize {
        self.open.len()
    }

    /// Starts gathering a new batch's reply.
    pub(super) fn start(&mut self) -> Gathering<'_> {
        let batch = self.next;
        self.next = self.next.wrapping_add(1);
        Gathering {
            batches: self,
            batch,
            answers: Vec::new(),
            awaited: 0,
        }
    }

    /// Where the answer to request `id` goes, if a batch awaits it. The
    /// seat is taken: a second answer with that id is not the batch's.
    pub(super) fn claim(&mut self, id: &RequestId) -> Option<Seat> {
        if self.seats.is_empty() {
            return None;
        }
        self.seats.remove(id)
    }

    /// Puts an answer (a serialized message, or `None` for a request
    /// cancelled) in its seat. Gives the batch's reply line once it is
    /// whole; none when it has no answers at all.
    pub(super) fn answer(&mut self, seat: Seat, answer: Option<Vec<u8>>) -> Option<Vec<u8>> {
        let reply = self.open.get_mut(&seat.batch)?;
        if let Some(slot) = reply.answers.get_mut(seat.slot) {
            *slot = answer;
        }
        reply.awaited = reply.awaited.saturating_sub(1);
        if reply.awaited > 0 {
            return None;
        }
        let reply = self.open.remove(&seat.batch)?;
        line(reply.answers)
    }

    /// A request cancelled by the client: rmcp sends no answer, so the
    /// batch stops waiting for one. Gives the reply line if that made it
    /// whole.
    pub(super) fn forget(&mut self, id: &RequestId) -> Option<Vec<u8>> {
        let seat = self.claim(id)?;
        self.answer(seat, None)
    }
}

/// A batch being read: its reply's members as they are known.
pub(super) struct Gathering<'a> {
    batches: &'a mut Batches,
    batch: u64,
    answers: Vec<Option<Vec<u8>>>,
    awaited: usize,
}

impl Gathering<'_> {
    /// A member answered at once with an error object.
    pub(super) fn error(&mut self, error: &Value) {
        self.answers.push(Some(error.to_string().into_bytes()));
    }

    /// A request handed to rmcp, whose answer the reply awaits. False when
    /// an answer with that id is awaited already: rmcp would answer only
    /// one of the two, and the batch would never be whole.
    pub(super) fn awaits(&mut self, id: RequestId) -> bool {
        match self.batches.seats.entry(id) {
            Entry::Occupied(_) => false,
            Entry::Vacant(seat) => {
                seat.insert(Seat {
                    batch: self.batch,
                    slot: self.answers.len(),
                });
                self.answers.push(None);
                self.awaited += 1;
                true
            }
        }
    }

    /// Ends the reading. Gives the reply line at once when no answer is
    /// awaited (none when there is nothing to answer: notifications and
    /// responses only); otherwise the batch stays open.
    pub(super) fn finish(self) -> Option<Vec<u8>> {
        if self.awaited == 0 {
            return line(self.answers);
        }
        self.batches.open.insert(
            self.batch,
            Reply {
                answers: self.answers,
                awaited: self.awaited,
            },
        );
        None
    }
}

/// The reply line of a batch: its answers as one JSON array, none when
/// there are none.
fn line(answers: Vec<Option<Vec<u8>>>) -> Option<Vec<u8>> {
    let answers: Vec<Vec<u8>> = answers.into_iter().flatten().collect();
    if answers.is_empty() {
        return None;
    }
    let size = answers.iter().map(|a| a.len() + 1).sum::<usize>() + 2;
    let mut line = Vec::with_capacity(size);
    line.push(b'[');
    for (i, answer) in answers.iter().enumerate() {
        if i > 0 {
            line.push(b',');
        }
        line.extend_from_slice(answer);
    }
    line.extend_from_slice(b"]\n");
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn id(n: i64) -> RequestId {
        RequestId::Number(n)
    }

    fn parse(line: &[u8]) -> Value {
        serde_json::from_slice(line).expect("the reply is JSON")
    }

    #[test]
    fn batches_are_read_up_to_2025_03_26_after_initialize() {
        assert!(refusal(None, 1, 0).is_some_and(|m| m.contains("before initialize")));
        assert!(refusal(Some("2025-06-18"), 1, 0).is_some_and(|m| m.contains("2025-06-18")));
        assert!(refusal(Some("2025-11-25"), 1, 0).is_some());
        assert_eq!(refusal(Some("2025-03-26"), 1, 0), None);
        assert_eq!(refusal(Some("2024-11-05"), 1, 0), None);
        assert!(refusal(Some("2025-03-26"), 0, 0).is_some());
        assert!(refusal(Some("2025-03-26"), MAX_MEMBERS + 1, 0).is_some());
        assert!(refusal(Some("2025-03-26"), 1, MAX_OPEN).is_some());
    }

    #[test]
    fn the_reply_is_written_once_the_last_answer_is_in() {
        let mut batches = Batches::default();
        let mut gathering = batches.start();
        assert!(gathering.awaits(id(1)));
        gathering.error(&json!({"id": null}));
        assert!(gathering.awaits(id(2)));
        assert!(!gathering.awaits(id(2)), "a duplicate id is refused");
        assert_eq!(gathering.finish(), None);
        assert_eq!(batches.open(), 1);

        let second = batches.claim(&id(2)).expect("awaited");
        assert_eq!(batches.answer(second, Some(b"{\"id\":2}".to_vec())), None);
        assert_eq!(batches.claim(&id(2)), None, "the seat is taken");
        let first = batches.claim(&id(1)).expect("awaited");
        let line = batches.answer(first, Some(b"{\"id\":1}".to_vec()));
        let line = line.expect("the batch is whole");
        assert_eq!(line.last(), Some(&b'\n'));
        assert_eq!(parse(&line), json!([{"id": 1}, {"id": null}, {"id": 2}]));
        assert_eq!(batches.open(), 0);
    }

    #[test]
    fn notifications_only_get_no_reply_and_errors_only_get_theirs_at_once() {
        let mut batches = Batches::default();
        assert_eq!(batches.start().finish(), None);
        let mut gathering = batches.start();
        gathering.error(&json!({"id": 1}));
        let line = gathering.finish().expect("the errors at once");
        assert_eq!(parse(&line), json!([{"id": 1}]));
        assert_eq!(batches.open(), 0);
    }

    #[test]
    fn a_cancelled_request_is_not_waited_for() {
        let mut batches = Batches::default();
        let mut gathering = batches.start();
        assert!(gathering.awaits(id(1)));
        assert!(gathering.awaits(id(2)));
        assert_eq!(gathering.finish(), None);
        assert_eq!(batches.forget(&id(1)), None);
        let seat = batches.claim(&id(2)).expect("awaited");
        let line = batches.answer(seat, Some(b"{\"id\":2}".to_vec()));
        assert_eq!(parse(&line.expect("whole")), json!([{"id": 2}]));

        let mut gathering = batches.start();
        assert!(gathering.awaits(id(3)));
        assert_eq!(gathering.finish(), None);
        assert_eq!(batches.forget(&id(3)), None, "nothing to write");
        assert_eq!(batches.open(), 0);
    }
}
