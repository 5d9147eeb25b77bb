//! Request ids and traceparents.

use std::collections::HashSet;

use super::*;

#[test]
fn traceparents_are_validated() {
    let valid = traceparent();
    assert_eq!(valid.as_str(), TRACEPARENT);
    assert_eq!(valid.to_string(), TRACEPARENT);
    assert!(
        Traceparent::parse(b"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00").is_some()
    );

    let decoded = |value: &[u8]| {
        let message = decode(with(5, value), MAX).expect("decodes");
        message.traceparent
    };
    assert_eq!(decoded(TRACEPARENT.as_bytes()), Some(valid));
    assert_eq!(decoded(b""), None);
    let invalid = [
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0A",
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7_01",
        "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
        "x",
    ];
    for value in invalid {
        assert!(value.len() <= 55, "{value}");
        assert_eq!(Traceparent::parse(value.as_bytes()), None, "{value}");
        assert_eq!(decoded(value.as_bytes()), None, "{value}");
    }
    let long = format!("{TRACEPARENT}-");
    assert_eq!(
        refused(with(5, long.as_bytes())).error(),
        &FrameError::Traceparent { len: 56 }
    );
    let longer = format!("{TRACEPARENT}-00ff00");
    assert_eq!(
        refused(with(5, longer.as_bytes())).error(),
        &FrameError::Traceparent { len: 62 }
    );
}

#[test]
fn new_traceparents_are_valid() {
    let root = Traceparent::new_root();
    assert_eq!(Traceparent::parse(root.as_bytes()), Some(root));
    assert!(root.as_str().ends_with("-01"));
    let child = root.child();
    assert_eq!(Traceparent::parse(child.as_bytes()), Some(child));
    assert_eq!(child.as_str()[..36], root.as_str()[..36]);
    assert_eq!(child.as_str()[52..], root.as_str()[52..]);
    assert_ne!(child.as_str()[36..52], root.as_str()[36..52]);
    assert_ne!(
        Traceparent::new_root().as_str()[3..35],
        root.as_str()[3..35]
    );
    assert_eq!(
        format!("{root:?}"),
        format!("Traceparent({:?})", root.as_str())
    );
}

#[test]
fn new_request_ids_are_version_4_and_distinct() {
    let mut seen = HashSet::new();
    for _ in 0..10_000 {
        let id = RequestId::new();
        let bytes = id.as_bytes();
        assert_eq!(bytes[6] >> 4, 4, "{id}");
        assert_eq!(bytes[8] >> 6, 0b10, "{id}");
        let text = id.to_string();
        assert_eq!(text.as_bytes()[14], b'4');
        assert!(
            matches!(text.as_bytes()[19], b'8' | b'9' | b'a' | b'b'),
            "{text}"
        );
        assert!(seen.insert(id));
    }
}

#[test]
fn request_ids_display_as_uuids() {
    assert_eq!(id().to_string(), "5f0c6d7e-1a2b-4c3d-8e9f-a0b1c2d3e4f5");
    assert_eq!(
        format!("{:?}", id()),
        "5f0c6d7e-1a2b-4c3d-8e9f-a0b1c2d3e4f5"
    );
    assert_eq!(
        RequestId::NIL.to_string(),
        "00000000-0000-0000-0000-000000000000"
    );
    assert_eq!(
        RequestId::from_bytes(&ID).map(|id| *id.as_bytes()),
        Some(ID)
    );
    assert_eq!(RequestId::from_bytes(&ID[1..]), None);
    assert_eq!(RequestId::from_bytes(&[0; 17]), None);
}

#[test]
fn traceparents_are_made_from_ids_and_read_back_into_them() {
    let text = b"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    let parsed = Traceparent::parse(text).expect("valid");
    assert_eq!(
        parsed.trace_id(),
        [
            0x4b, 0xf9, 0x2f, 0x35, 0x77, 0xb3, 0x4d, 0xa6, 0xa3, 0xce, 0x92, 0x9d, 0x0e, 0x0e,
            0x47, 0x36
        ]
    );
    assert_eq!(
        parsed.parent_id(),
        [0x00, 0xf0, 0x67, 0xaa, 0x0b, 0xa9, 0x02, 0xb7]
    );
    assert_eq!(parsed.flags(), 0x01);
    let made = Traceparent::from_ids(parsed.trace_id(), parsed.parent_id(), parsed.flags());
    assert_eq!(made, Some(parsed));
    for _ in 0..1_000 {
        let root = Traceparent::new_root().child();
        let again = Traceparent::from_ids(root.trace_id(), root.parent_id(), root.flags());
        assert_eq!(again, Some(root));
        assert_eq!(Traceparent::parse(root.as_bytes()), Some(root));
    }
    assert_eq!(Traceparent::from_ids([0; 16], [1; 8], 1), None);
    assert_eq!(Traceparent::from_ids([1; 16], [0; 8], 1), None);
    let unsampled = Traceparent::from_ids([0xab; 16], [0xcd; 8], 0).expect("valid ids");
    assert_eq!(
        unsampled.as_str(),
        "00-abababababababababababababababab-cdcdcdcdcdcdcdcd-00"
    );
}
