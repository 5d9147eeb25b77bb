//! Any bytes as a TOON frame: a typed error or a frame, never a panic; a
//! frame that decodes (as any value, a tool call or a tool result) encodes
//! again, and the new frame decodes to the same thing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolwright::toon::{Decoder, Encoder, Message, Stamp};
use toolwright_catalogue_tests::{ToolRequest, ToolResponse};

fn stamp<T>(message: &Message<T>) -> Stamp {
    Stamp {
        timestamp: message.header.timestamp,
        sequence_id: message.header.sequence_id,
    }
}

fuzz_target!(|data: &[u8]| {
    let decoder = Decoder::new().max_payload(1 << 20);
    let _ = decoder.decode_frame(data);

    if let Ok(message) = decoder.decode::<serde_json::Value>(data) {
        let header = message.header;
        let encoder = Encoder::new(header.version);
        let frame = encoder
            .encode(header.message_type, stamp(&message), &message.value)
            .expect("a decoded value encodes again");
        let again = decoder
            .decode::<serde_json::Value>(&frame)
            .expect("a re-encoded frame decodes");
        assert_eq!(again.value, message.value);
        assert_eq!(again.header.message_type, header.message_type);
    }

    // Compared as bytes, not values: a NaN field is not equal to itself.
    if let Ok(call) = decoder.decode_tool_call::<ToolRequest>(data) {
        let encoder = Encoder::new(call.header.version);
        let frame = encoder
            .encode_tool_call(stamp(&call), &call.value)
            .expect("a decoded tool call encodes again");
        let again = decoder
            .decode_tool_call::<ToolRequest>(&frame)
            .expect("a re-encoded tool call decodes");
        let twice = encoder.encode_tool_call(stamp(&again), &again.value);
        assert_eq!(twice.ok(), Some(frame));
    }

    if let Ok(result) = decoder.decode_tool_result::<ToolResponse>(data) {
        let encoder = Encoder::new(result.header.version);
        // A success whose response names another tool is refused here.
        if let Ok(frame) = encoder.encode_tool_result(stamp(&result), &result.value) {
            let again = decoder
                .decode_tool_result::<ToolResponse>(&frame)
                .expect("a re-encoded tool result decodes");
            let twice = encoder.encode_tool_result(stamp(&again), &again.value);
            assert_eq!(twice.ok(), Some(frame));
        }
    }
});
