//! Any bytes as a MsgPack request of the reference catalogue: an
//! `INVALID_REQUEST` or a request, which validates and encodes again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolwright::Validate;
use toolwright::codec::{Limits, from_msgpack, to_msgpack};
use toolwright_catalogue_tests::ToolRequest;

fuzz_target!(|data: &[u8]| {
    if let Ok(request) = from_msgpack::<ToolRequest>(data, Limits::default()) {
        let _ = request.validate();
        let _ = to_msgpack(&request);
    }
});
