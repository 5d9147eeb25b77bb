//! The ids of stored SSE events.
//!
//! rmcp's session worker keeps the last events of each stream and, to
//! resume a stream on the replica that has it, reads their ids as its own
//! `<index>` (`<index>/<request stream>` in a `Last-Event-ID`), counting
//! `index` up by one per event. So an id here is one decimal number that
//! rmcp reads as that index: the stream's number (unique among every
//! replica, drawn from Redis) in the high bits, the event's place in the
//! stream in the low ones. The stream is found from the id alone, and a
//! stream's ids still count up by one.

/// Bits for an event's place in its stream: a stream that outgrows them
/// goes on under a new number.
const PLACE_BITS: u32 = 24;

/// The first place a stream cannot have.
pub(super) const PLACES: u64 = 1 << PLACE_BITS;

/// Numbers a replica draws itself when Redis cannot draw one: at and
/// above this bit, which Redis's counter never reaches (it wraps below).
pub(super) const LOCAL: u64 = 1 << 39;

/// Whether a stream is a session's standalone (`GET`) stream or a
/// request's: the low bit of its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Request = 1,
    Standalone = 0,
}

impl Kind {
    pub(crate) fn of(number: u64) -> Kind {
        if number & 1 == 1 {
            Kind::Request
        } else {
            Kind::Standalone
        }
    }
}

/// The id of the event at `place` in stream `number`.
pub(super) fn event_id(number: u64, place: u64) -> String {
    ((number << PLACE_BITS) | place).to_string()
}

/// The stream and place an id names; `None` for an id no stream here
/// gave (rmcp's own `0` for an empty standalone stream among them: stream
/// numbers start at 1).
pub(super) fn parse(id: &str) -> Option<(u64, u64)> {
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let index: u64 = id.parse().ok()?;
    let number = index >> PLACE_BITS;
    (number != 0).then_some((number, index & (PLACES - 1)))
}

#[cfg(test)]
mod tests {
    use super::{Kind, LOCAL, event_id, parse};

    #[test]
    fn an_id_names_its_stream_and_place() {
        for (number, place) in [(1, 0), (2, 7), (LOCAL | 3, (1 << 24) - 1)] {
            assert_eq!(parse(&event_id(number, place)), Some((number, place)));
        }
        // rmcp reads it as its own index, one more per event.
        let first: usize = event_id(5, 0).parse().expect("an index");
        let next: usize = event_id(5, 1).parse().expect("an index");
        assert_eq!(next, first + 1);
    }

    #[test]
    fn ids_no_stream_gave_are_not_parsed() {
        for id in [
            "",
            "0",
            "12",
            "3/7",
            "x",
            "-1",
            "+5",
            "99999999999999999999999",
        ] {
            assert_eq!(parse(id), None, "{id}");
        }
    }

    #[test]
    fn the_kind_is_the_low_bit() {
        assert_eq!(Kind::of(3), Kind::Request);
        assert_eq!(Kind::of(4), Kind::Standalone);
    }
}
