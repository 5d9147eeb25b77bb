//! Any bytes as the frames of a HOOT01 message and as a call body: a typed
//! refusal or a message, never a panic or an allocation the input does not
//! pay for.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolwright::codec::Limits;
use toolwright::hoot::{CallBody, decode};

fuzz_target!(|data: &[u8]| {
    // The first byte says how many frames, the rest is cut evenly.
    if let Some((&n, rest)) = data.split_first() {
        let n = usize::from(n % 8) + 1;
        let size = rest.len().div_ceil(n).max(1);
        let frames: Vec<Vec<u8>> = rest.chunks(size).map(<[u8]>::to_vec).collect();
        let _ = decode(frames, 1 << 20);
    }
    let _ = CallBody::decode(data, Limits::default());
});
