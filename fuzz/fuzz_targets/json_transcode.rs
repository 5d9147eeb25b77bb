//! Any bytes as JSON, transcoded to MsgPack as the runtime's JSON edge does
//! and decoded as a request of the reference catalogue: a typed error or a
//! request, never a panic; a request that decodes validates, and its JSON
//! reads back to the same request.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolwright::Validate;
use toolwright::codec::{Limits, from_json, from_msgpack, json_to_msgpack, to_json, to_msgpack};
use toolwright_catalogue_tests::ToolRequest;

fuzz_target!(|data: &[u8]| {
    let limits = Limits::default();
    // What `from_json` does, in its two steps.
    let Ok(msgpack) = json_to_msgpack(data, limits) else {
        return;
    };
    let Ok(request) = from_msgpack::<ToolRequest>(&msgpack, limits.max_bytes(usize::MAX)) else {
        return;
    };
    let _ = request.validate();
    let _ = to_msgpack(&request);
    let json = to_json(&request).expect("a request read from JSON writes as JSON");
    let again = from_json::<ToolRequest>(&json, limits).expect("a request's JSON reads back");
    assert_eq!(again, request);
});
