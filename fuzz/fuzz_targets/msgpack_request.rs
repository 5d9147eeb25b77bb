//! Any bytes as a MsgPack request of the reference catalogue: an
//! `INVALID_REQUEST` or a request, never a panic; a request that decodes
//! validates, encodes again, and its encoding decodes to the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolwright::Validate;
use toolwright::codec::{Limits, from_msgpack, peek_call, to_msgpack};
use toolwright_catalogue_tests::ToolRequest;

fuzz_target!(|data: &[u8]| {
    let _ = peek_call(data);
    if let Ok(request) = from_msgpack::<ToolRequest>(data, Limits::default()) {
        let _ = request.validate();
        let bytes = to_msgpack(&request).expect("a decoded request encodes again");
        // Compared as bytes, not values: a NaN field is not equal to itself.
        let again = from_msgpack::<ToolRequest>(&bytes, Limits::default())
            .expect("a re-encoded request decodes");
        assert_eq!(to_msgpack(&again).ok(), Some(bytes));
    }
});
