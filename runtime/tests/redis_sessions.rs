//! MCP sessions in Redis (a server of the test's own): what rmcp keeps
//! (the `initialize` it replays on another replica), what the server keeps
//! beside it (the log level), and the key every replica seals 2026-07-28
//! request states with.

mod support;

use rmcp::model::{ClientCapabilities, Implementation, InitializeRequestParams};
use rmcp::transport::streamable_http_server::session::{SessionState, SessionStore};
use support::redis::RedisServer;
use toolwright::mcp::RedisSessions;

#[tokio::test]
async fn replicas_share_sessions_and_one_request_state_key() {
    let server = RedisServer::start();
    let one = RedisSessions::open(&server.url()).expect("opens");
    let other = RedisSessions::open(&server.url()).expect("opens");

    let params = InitializeRequestParams::new(
        ClientCapabilities::default(),
        Implementation::new("a client", "1.0"),
    );
    let state = SessionState::new(params);
    one.store("s-1", &state).await.expect("stores");
    let loaded = other.load("s-1").await.expect("loads").expect("kept");
    assert_eq!(
        serde_json::to_value(&loaded).expect("encodes"),
        serde_json::to_value(&state).expect("encodes")
    );
    assert!(other.load("s-2").await.expect("loads").is_none());
    other.delete("s-1").await.expect("deletes");
    assert!(one.load("s-1").await.expect("loads").is_none());

    let key = one.request_state_key().await.expect("a key");
    assert_eq!(key.len(), 32);
    assert_eq!(other.request_state_key().await.expect("a key"), key);
}

#[tokio::test]
async fn without_redis_a_session_is_an_error_not_a_hang() {
    let mut server = RedisServer::start();
    let sessions = RedisSessions::open(&server.url()).expect("opens");
    server.kill();
    let asked = std::time::Instant::now();
    assert!(sessions.load("s-1").await.is_err());
    assert!(sessions.request_state_key().await.is_err());
    assert!(asked.elapsed() < std::time::Duration::from_secs(10));
}
