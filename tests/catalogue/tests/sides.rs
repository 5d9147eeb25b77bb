//! A client crate's catalogue (`Side::Client`) and a server crate's
//! (`Side::Server`) speak the same bytes as one that derives everything:
//! a request the client encodes, the server decodes, and the answer the
//! server encodes, the client decodes.

use toolwright::codec::{Limits, from_msgpack, to_msgpack};
use toolwright::{IntoToolError, ToolError};
use toolwright_catalogue_tests as both;
use toolwright_catalogue_tests::sides::{client, server};

#[test]
fn a_request_goes_from_client_to_server_as_bytes_both_sides_agree_on() {
    let sent = client::ToolRequest::Add(client::MathOperands { a: 2, b: 40 });
    let bytes = to_msgpack(&sent).unwrap();
    let reference =
        to_msgpack(&both::ToolRequest::Add(both::MathOperands { a: 2, b: 40 })).unwrap();
    assert_eq!(bytes, reference);
    let received: server::ToolRequest = from_msgpack(&bytes, Limits::default()).unwrap();
    assert_eq!(
        received,
        server::ToolRequest::Add(server::MathOperands { a: 2, b: 40 })
    );
}

#[test]
fn an_answer_goes_from_server_to_client_as_bytes_both_sides_agree_on() {
    let sent = server::ToolResponse::Add(server::MathResult { result: 42 });
    let bytes = to_msgpack(&sent).unwrap();
    let reference = to_msgpack(&both::ToolResponse::Add(both::MathResult { result: 42 })).unwrap();
    assert_eq!(bytes, reference);
    let received: client::ToolResponse = from_msgpack(&bytes, Limits::default()).unwrap();
    assert_eq!(
        received,
        client::ToolResponse::Add(client::MathResult { result: 42 })
    );
}

#[test]
fn typed_errors_become_the_same_tool_error_on_either_side() {
    let on_server: ToolError = server::MathError::Overflow {}.into_tool_error();
    let on_client: ToolError = client::MathError::Overflow {}.into_tool_error();
    assert_eq!(on_server, on_client);
    assert_eq!(on_server, both::MathError::Overflow {}.into_tool_error());
}
