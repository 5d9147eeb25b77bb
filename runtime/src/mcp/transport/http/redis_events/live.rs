//! The streams this replica is writing: the next place of each, and what
//! a resumption needs to find it in rmcp's session worker (its session,
//! and for a request's stream rmcp's id for it).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, PoisonError};

use super::ids::PLACES;

/// How many streams are remembered. Past that the oldest is forgotten: a
/// resumption of it is replayed from Redis rather than followed live, and
/// if it goes on it does under a new number.
const REMEMBERED: usize = 10_000;

/// A stream being written here.
#[derive(Clone, Debug, Default)]
pub(super) struct Stream {
    /// rmcp's name for it.
    name: String,
    /// The place of its next event.
    next: u64,
    /// The session it belongs to, once known.
    pub(super) session: Option<String>,
    /// rmcp's id for a request's stream, once known.
    pub(super) channel: Option<u64>,
}

/// Where the next event of a stream goes.
pub(super) enum Next {
    /// Stream `number`, at `place`, of `session` if known.
    Known {
        number: u64,
        place: u64,
        session: Option<String>,
    },
    /// A stream with no number yet (new, forgotten or full), of `session`
    /// if known, rmcp's `channel` if known.
    New {
        session: Option<String>,
        channel: Option<u64>,
    },
}

#[derive(Debug, Default)]
pub(super) struct Live(Mutex<Streams>);

#[derive(Debug, Default)]
struct Streams {
    numbers: HashMap<String, u64>,
    streams: BTreeMap<u64, Stream>,
}

impl Live {
    fn lock(&self) -> std::sync::MutexGuard<'_, Streams> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes the place of the next event of the stream rmcp calls `name`.
    pub(super) fn next(&self, name: &str) -> Next {
        let mut streams = self.lock();
        let Some(&number) = streams.numbers.get(name) else {
            return Next::New {
                session: None,
                channel: None,
            };
        };
        let Some(stream) = streams.streams.get_mut(&number) else {
            return Next::New {
                session: None,
                channel: None,
            };
        };
        if stream.next >= PLACES {
            let Stream {
                session, channel, ..
            } = stream.clone();
            streams.streams.remove(&number);
            streams.numbers.remove(name);
            return Next::New { session, channel };
        }
        let place = stream.next;
        stream.next += 1;
        Next::Known {
            number,
            place,
            session: stream.session.clone(),
        }
    }

    /// Remembers stream `number`, rmcp's `name`, whose first event was
    /// just written.
    pub(super) fn begin(
        &self,
        name: &str,
        number: u64,
        session: Option<String>,
        channel: Option<u64>,
    ) {
        let mut streams = self.lock();
        while streams.streams.len() >= REMEMBERED {
            let Some((_, oldest)) = streams.streams.pop_first() else {
                break;
            };
            streams.numbers.remove(&oldest.name);
        }
        streams.numbers.insert(name.to_owned(), number);
        streams.streams.insert(
            number,
            Stream {
                name: name.to_owned(),
                next: 1,
                session,
                channel,
            },
        );
    }

    /// Names the session and rmcp's id of request stream `number`.
    pub(super) fn bind(&self, number: u64, session: &str, channel: u64) {
        if let Some(stream) = self.lock().streams.get_mut(&number) {
            stream.session = Some(session.to_owned());
            stream.channel = Some(channel);
        }
    }

    /// Stream `number`, if it is being written here.
    pub(super) fn find(&self, number: u64) -> Option<Stream> {
        self.lock().streams.get(&number).cloned()
    }

    /// Forgets the stream rmcp calls `name`: it has ended.
    pub(super) fn end(&self, name: &str) {
        let mut streams = self.lock();
        if let Some(number) = streams.numbers.remove(name) {
            streams.streams.remove(&number);
        }
    }

    /// Forgets every stream of `session`: it has ended.
    pub(super) fn end_session(&self, session: &str) {
        let mut streams = self.lock();
        let Streams { numbers, streams } = &mut *streams;
        streams.retain(|_, stream| {
            let keep = stream.session.as_deref() != Some(session);
            if !keep {
                numbers.remove(&stream.name);
            }
            keep
        });
    }
}

#[cfg(test)]
mod tests {
    use super::{Live, Next, REMEMBERED};

    fn place(next: Next) -> Option<(u64, u64)> {
        match next {
            Next::Known { number, place, .. } => Some((number, place)),
            Next::New { .. } => None,
        }
    }

    #[test]
    fn a_stream_counts_its_places() {
        let live = Live::default();
        assert!(place(live.next("a")).is_none());
        live.begin("a", 3, None, None);
        assert_eq!(place(live.next("a")), Some((3, 1)));
        assert_eq!(place(live.next("a")), Some((3, 2)));
        live.bind(3, "s", 9);
        let found = live.find(3).expect("remembered");
        assert_eq!(
            (found.session.as_deref(), found.channel),
            (Some("s"), Some(9))
        );
        live.end("a");
        assert!(live.find(3).is_none());
        assert!(place(live.next("a")).is_none());
    }

    #[test]
    fn a_sessions_streams_end_with_it() {
        let live = Live::default();
        live.begin("a", 2, Some("s".to_owned()), None);
        live.begin("b", 3, Some("t".to_owned()), None);
        live.end_session("s");
        assert!(live.find(2).is_none());
        assert!(live.find(3).is_some());
    }

    #[test]
    fn the_oldest_stream_is_forgotten_past_the_bound() {
        let live = Live::default();
        for number in 1..=u64::try_from(REMEMBERED).expect("fits") + 1 {
            live.begin(&number.to_string(), number, None, None);
        }
        assert!(live.find(1).is_none());
        assert!(live.find(2).is_some());
        assert!(place(live.next("1")).is_none());
    }
}
