//! Any bytes as a TOON frame: a typed error or a frame, and a frame that
//! decodes encodes again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolwright::toon::{Decoder, Encoder, Stamp};

fuzz_target!(|data: &[u8]| {
    let decoder = Decoder::new().max_payload(1 << 20);
    let _ = decoder.decode_frame(data);
    if let Ok(message) = decoder.decode::<serde_json::Value>(data) {
        let header = message.header;
        let stamp = Stamp {
            timestamp: header.timestamp,
            sequence_id: header.sequence_id,
        };
        let _ = Encoder::new(header.version).encode(header.message_type, stamp, &message.value);
    }
});
