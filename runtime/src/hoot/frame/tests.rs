use std::collections::HashSet;

use proptest::prelude::*;

use super::*;
use crate::codec::{Limits, from_msgpack};
use crate::{Json, ResponseEnvelope, codes};

mod ids;

const ID: [u8; 16] = [
    0x5f, 0x0c, 0x6d, 0x7e, 0x1a, 0x2b, 0x4c, 0x3d, 0x8e, 0x9f, 0xa0, 0xb1, 0xc2, 0xd3, 0xe4, 0xf5,
];
const TRACEPARENT: &str = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
/// `{"request": {"tool": "add", "a": 1, "b": 2}}`.
const CALL: &[u8] = &[
    0x81, 0xa7, 0x72, 0x65, 0x71, 0x75, 0x65, 0x73, 0x74, 0x83, 0xa4, 0x74, 0x6f, 0x6f, 0x6c, 0xa3,
    0x61, 0x64, 0x64, 0xa1, 0x61, 0x01, 0xa1, 0x62, 0x02,
];
const MAX: usize = 64 * 1024 * 1024;

fn id() -> RequestId {
    RequestId::from_bytes(&ID).expect("16 bytes")
}

fn traceparent() -> Traceparent {
    Traceparent::parse(TRACEPARENT.as_bytes()).expect("the W3C example")
}

/// The frames of a valid Request, to break one at a time.
fn request_frames() -> Vec<Vec<u8>> {
    Vec::from(encode(
        Message::request(id(), "calc", CALL.to_vec()).with_traceparent(traceparent()),
    ))
}

fn with(frame: usize, bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut frames = request_frames();
    frames[frame] = bytes.to_vec();
    frames
}

fn refused(frames: Vec<Vec<u8>>) -> Refused {
    decode(frames, MAX).expect_err("refused")
}

#[test]
fn an_encoded_request_is_pinned() {
    let frames = request_frames();
    assert_eq!(frames[0], b"HOOT01");
    assert_eq!(frames[0], [0x48, 0x4f, 0x4f, 0x54, 0x30, 0x31]);
    assert_eq!(frames[1], [0x01]);
    assert_eq!(frames[2], [0x01]);
    assert_eq!(frames[3], ID);
    assert_eq!(frames[4], [0x63, 0x61, 0x6c, 0x63]);
    assert_eq!(frames[5], TRACEPARENT.as_bytes());
    assert_eq!(frames[5].len(), 55);
    assert_eq!(frames[6], CALL);
    assert_eq!(frames.len(), 7);
}

#[test]
fn the_reply_and_heartbeat_examples_are_pinned() {
    // {"success": {"tool": "add", "result": 3}}
    let success = b"\x81\xa7success\x82\xa4tool\xa3add\xa6result\x03";
    let envelope: ResponseEnvelope<Json> =
        from_msgpack(success, Limits::default()).expect("decodes");
    assert_eq!(
        envelope,
        ResponseEnvelope::Success(serde_json::json!({"tool": "add", "result": 3}))
    );
    let reply = encode(Message::reply(id(), success.to_vec()));
    let expected: [&[u8]; 7] = [b"HOOT01", &[0x02], &[0x01], &ID, b"", b"", success];
    assert_eq!(reply, expected.map(<[u8]>::to_vec));
    let heartbeat: [&[u8]; 7] = [b"HOOT01", &[0x03], &[0x00], &ID, b"", b"", b""];
    assert_eq!(
        encode(Message::heartbeat(id())),
        heartbeat.map(<[u8]>::to_vec)
    );
    let ready: [&[u8]; 7] = [b"HOOT01", &[0x05], &[0x00], &ID, b"", b"", b""];
    assert_eq!(encode(Message::ready(id())), ready.map(<[u8]>::to_vec));
}

#[test]
fn every_command_round_trips() {
    let raw = Message {
        content_type: ContentType::RawBinary,
        ..Message::reply(id(), vec![0, 1, 2, 0xff])
    };
    let messages = [
        Message::request(id(), "calc", CALL.to_vec()),
        Message::request(RequestId::new(), "", CALL.to_vec()),
        Message::reply(id(), vec![0x81, 0xa5, b'e', b'r', b'r', b'o', b'r', 0x80]),
        raw,
        Message::heartbeat(id()),
        Message::cancel(id()),
        Message::ready(id()),
        Message::disconnect(),
        Message::answer(id(), vec![0x80]),
    ];
    for message in messages {
        for message in [message.clone(), message.with_traceparent(traceparent())] {
            let decoded = decode(Vec::from(encode(message.clone())), MAX);
            assert_eq!(decoded.as_ref(), Ok(&message));
        }
    }
    let seen: HashSet<Command> = [
        Message::request(id(), "", vec![0x80]),
        Message::reply(id(), vec![0x80]),
        Message::heartbeat(id()),
        Message::cancel(id()),
        Message::ready(id()),
        Message::disconnect(),
        Message::answer(id(), vec![0x80]),
    ]
    .map(|m| m.command)
    .into();
    assert_eq!(seen, Command::ALL.into());
    assert_eq!(Message::disconnect().request_id, RequestId::NIL);
}

#[test]
fn bytes_and_names_round_trip() {
    for (command, byte) in Command::ALL.into_iter().zip(1..) {
        assert_eq!(command.as_byte(), byte);
        assert_eq!(Command::from_byte(byte), Some(command));
    }
    for (content_type, byte) in ContentType::ALL.into_iter().zip(0..) {
        assert_eq!(content_type.as_byte(), byte);
        assert_eq!(ContentType::from_byte(byte), Some(content_type));
    }
    assert_eq!(Command::from_byte(0), None);
    assert_eq!(Command::from_byte(8), None);
    assert_eq!(ContentType::from_byte(3), None);
    assert_eq!(Command::Heartbeat.to_string(), "Heartbeat");
    assert_eq!(ContentType::RawBinary.to_string(), "RawBinary");
}

#[test]
fn every_frame_error_is_produced() {
    let reply_none = {
        let mut frames = with(1, &[0x02]);
        frames[2] = vec![0x00];
        frames
    };
    let heartbeat_with_body = {
        let mut frames = with(1, &[0x03]);
        frames[2] = vec![0x00];
        frames
    };
    let for_command = |command, content_type| FrameError::ContentTypeForCommand {
        command,
        content_type,
    };
    let unanswerable = [
        (
            request_frames()[..6].to_vec(),
            FrameError::FrameCount { got: 6 },
        ),
        (
            [request_frames(), vec![vec![]]].concat(),
            FrameError::FrameCount { got: 8 },
        ),
        (Vec::new(), FrameError::FrameCount { got: 0 }),
        (with(3, &ID[..15]), FrameError::RequestId { len: 15 }),
        (with(3, &[]), FrameError::RequestId { len: 0 }),
    ];
    let answerable = [
        (with(0, b"HOOT02"), FrameError::magic(b"HOOT02")),
        (
            with(0, b"HOOT"),
            FrameError::Magic {
                len: 4,
                head: *b"HOOT\0\0",
            },
        ),
        (
            with(0, b"HOOT01!"),
            FrameError::Magic {
                len: 7,
                head: *b"HOOT01",
            },
        ),
        (with(1, &[]), FrameError::CommandLength { len: 0 }),
        (with(1, &[1, 1]), FrameError::CommandLength { len: 2 }),
        (with(1, &[0x09]), FrameError::Command(0x09)),
        (with(1, &[0x00]), FrameError::Command(0x00)),
        (with(2, &[]), FrameError::ContentTypeLength { len: 0 }),
        (with(2, &[0x03]), FrameError::ContentType(0x03)),
        (
            with(4, &[b'a'; 256]),
            FrameError::ServiceTooLong { len: 256 },
        ),
        (
            with(4, b"ca\xffc"),
            FrameError::ServiceUtf8 { valid_up_to: 2 },
        ),
        (with(5, &[b'0'; 56]), FrameError::Traceparent { len: 56 }),
        (
            with(2, &[0x02]),
            for_command(Command::Request, ContentType::RawBinary),
        ),
        (
            with(2, &[0x00]),
            for_command(Command::Request, ContentType::None),
        ),
        (reply_none, for_command(Command::Reply, ContentType::None)),
        (
            heartbeat_with_body,
            FrameError::BodyNotEmpty { len: CALL.len() },
        ),
    ];
    let cases = (unanswerable.map(|(f, e)| (f, e, false)).into_iter())
        .chain(answerable.map(|(f, e)| (f, e, true)));
    for (frames, error, answerable) in cases {
        let refused = refused(frames);
        assert_eq!(refused.error(), &error);
        assert_eq!(error.answerable(), answerable, "{error}");
        assert_eq!(refused.request_id(), answerable.then(id), "{error}");
        assert_eq!(refused.reply().is_some(), answerable, "{error}");
        let tool_error = refused.to_tool_error();
        assert_eq!(tool_error.code, codes::INVALID_REQUEST);
        assert_eq!(tool_error.message, error.to_string());
    }
    let too_large = decode(request_frames(), CALL.len() - 1).expect_err("over the limit");
    let (len, max) = (CALL.len(), CALL.len() - 1);
    assert_eq!(
        too_large.into_error(),
        FrameError::BodyTooLarge { len, max }
    );
    assert!(decode(request_frames(), CALL.len()).is_ok());
}

#[test]
fn the_first_broken_rule_is_reported() {
    let mut frames = with(0, b"nope");
    frames[1] = vec![0x09];
    assert!(matches!(refused(frames).error(), FrameError::Magic { .. }));
    let mut frames = with(1, &[0x09]);
    frames[3] = vec![1, 2, 3];
    assert_eq!(refused(frames).error(), &FrameError::RequestId { len: 3 });
}

#[test]
fn messages_say_what_was_wrong() {
    let cases = [
        (
            FrameError::Command(0x09),
            "HOOT01 frame 1 (command) holds 0x09, which is no command",
        ),
        (
            FrameError::FrameCount { got: 3 },
            "a HOOT01 message has 7 frames, this one has 3",
        ),
        (
            FrameError::magic(b"HOOT02"),
            "HOOT01 frame 0 (magic) holds `HOOT02`, not `HOOT01`",
        ),
        (
            FrameError::magic(b""),
            "HOOT01 frame 0 (magic) is empty, not `HOOT01`",
        ),
        (
            FrameError::magic(b"\x00HOOT01"),
            "HOOT01 frame 0 (magic) holds 7 bytes starting `\\x00HOOT0`, not `HOOT01`",
        ),
        (
            FrameError::ContentTypeForCommand {
                command: Command::Cancel,
                content_type: ContentType::MsgPack,
            },
            "a HOOT01 Cancel cannot have content type MsgPack (frame 2)",
        ),
        (
            FrameError::BodyTooLarge { len: 10, max: 9 },
            "HOOT01 frame 6 (body) holds 10 bytes, more than the limit of 9",
        ),
    ];
    for (error, message) in cases {
        assert_eq!(error.to_string(), message);
    }
}

#[test]
fn a_refused_message_is_answered_with_an_error_envelope() {
    let refused = refused(with(1, &[0x09]));
    let reply = refused.reply().expect("answerable");
    assert_eq!(reply.command, Command::Reply);
    assert_eq!(reply.content_type, ContentType::MsgPack);
    assert_eq!(reply.request_id, id());
    let envelope: ResponseEnvelope<Json> =
        from_msgpack(&reply.body, Limits::default()).expect("an envelope");
    assert_eq!(envelope, ResponseEnvelope::Error(refused.to_tool_error()));
    let expected =
        crate::codec::to_msgpack(&ResponseEnvelope::<()>::Error(refused.to_tool_error()))
            .expect("encodes");
    assert_eq!(reply.body, expected);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_frames_never_panic(
        frames in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..64), 0..9),
    ) {
        let _ = decode(frames, 32);
    }

    #[test]
    fn a_changed_byte_never_panics(frame in 0usize..7, at in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let mut frames = request_frames();
        if !frames[frame].is_empty() {
            let i = at.index(frames[frame].len());
            frames[frame][i] = byte;
        }
        if let Err(refused) = decode(frames, MAX) {
            prop_assert_eq!(refused.request_id().is_some(), refused.error().answerable());
        }
    }
}
