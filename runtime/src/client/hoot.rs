//! `HootTransport`: the batch client over HOOT01, straight to backends
//! (or through nothing at all: no gateway, no JSON-RPC). Arguments become
//! the MsgPack request as at the MCP edge; answers come back as the JSON
//! an MCP client would see in `structuredContent`.

use std::time::Duration;

use super::ToolTransport;
use super::codes::TRANSPORT;
use crate::hoot::client::route::envelope_key;
use crate::hoot::{Client, ClientConfig, HootError};
use crate::port::CallOptions;
use crate::{Json, ToolError, codec, edge};

/// A HOOT01 client to one or more backends, for
/// [`call_tools`](super::Client::call_tools). Needs no catalogue types.
#[derive(Clone, Debug)]
pub struct HootTransport {
    client: Client<()>,
    limits: codec::Limits,
}

impl HootTransport {
    /// Connects to `backends` and waits up to `ready` for one to answer.
    ///
    /// # Errors
    /// As [`Client::connect`].
    pub async fn connect<E: AsRef<str>>(
        backends: &[E],
        config: ClientConfig,
        ready: Duration,
    ) -> Result<Self, HootError> {
        let limits = config.current_limits();
        let client = Client::<()>::connect(backends, config)?;
        client.ready(ready).await;
        Ok(HootTransport { client, limits })
    }
}

impl ToolTransport for HootTransport {
    async fn call_tool(&self, name: &str, arguments: Json) -> Result<Json, ToolError> {
        let Json::Object(arguments) = arguments else {
            return Err(ToolError::invalid_request(format!(
                "the arguments of `{name}` must be a JSON object"
            )));
        };
        let request = edge::request_msgpack(name, &arguments, self.limits)?;
        let body = self
            .client
            .call_bytes(request, CallOptions::default())
            .await?;
        outcome(&body)
    }

    async fn ping(&self) -> Result<(), ToolError> {
        if self.client.backends_alive() > 0 {
            Ok(())
        } else {
            Err(ToolError::new(TRANSPORT, "no HOOT01 backend is answering"))
        }
    }
}

/// A final envelope as the batch client reports it: a response's fields
/// without its `tool` tag, a job handle as it is, an error as the error.
fn outcome(body: &[u8]) -> Result<Json, ToolError> {
    let bad = || ToolError::internal("the backend's answer is not a response envelope");
    let (key, value) = envelope_key(body).ok_or_else(bad)?;
    match key {
        "success" => {
            let mut json = edge::msgpack_to_json(value)?;
            crate::wire::untag(&mut json);
            Ok(json)
        }
        "job_started" => edge::msgpack_to_json(value),
        "error" => Err(
            codec::from_msgpack::<ToolError>(value, codec::Limits::default()).unwrap_or_else(|e| e),
        ),
        _ => Err(bad()),
    }
}
