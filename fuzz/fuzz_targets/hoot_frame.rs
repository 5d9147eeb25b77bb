//! Any bytes as the frames of a HOOT01 message and as a call body: a typed
//! refusal or a message, never a panic or an allocation the input does not
//! pay for; what decodes encodes again to the same message.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolwright::codec::Limits;
use toolwright::hoot::{CallBody, Command, decode, encode};

/// At most this many frames are cut from the input (a message has seven).
const MAX_FRAMES: usize = 10;

/// Frames as the input spells them: each a big-endian `u16` length, then
/// that many bytes (or what is left).
fn frames(mut data: &[u8]) -> Vec<Vec<u8>> {
    let mut frames = Vec::new();
    while let [hi, lo, rest @ ..] = data {
        if frames.len() == MAX_FRAMES {
            break;
        }
        let len = usize::from(u16::from_be_bytes([*hi, *lo])).min(rest.len());
        let (frame, tail) = rest.split_at(len);
        frames.push(frame.to_vec());
        data = tail;
    }
    frames
}

fn call_body(bytes: &[u8]) {
    if let Ok(call) = CallBody::decode(bytes, Limits::default()) {
        let encoded = call.encode();
        let again =
            CallBody::decode(&encoded, Limits::default()).expect("an encoded call body decodes");
        assert_eq!(again, call);
    }
}

fuzz_target!(|data: &[u8]| {
    if let Ok(message) = decode(frames(data), 1 << 20) {
        if message.command == Command::Request {
            call_body(&message.body);
        }
        let again = decode(Vec::from(encode(message.clone())), 1 << 20)
            .expect("an encoded message decodes");
        assert_eq!(again, message);
    }
    call_body(data);
});
