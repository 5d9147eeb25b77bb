//! Any bytes as JSON, transcoded to MsgPack and decoded as a request of the
//! reference catalogue: a typed error or a request, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolwright::Validate;
use toolwright::codec::{Limits, from_json, json_to_msgpack};
use toolwright_catalogue_tests::ToolRequest;

fuzz_target!(|data: &[u8]| {
    let _ = json_to_msgpack(data, Limits::default());
    if let Ok(request) = from_json::<ToolRequest>(data, Limits::default()) {
        let _ = request.validate();
    }
});
