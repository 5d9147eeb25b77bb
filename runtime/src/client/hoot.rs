//! `HootTransport`: the batch client over HOOT01, straight to backends
//! (no gateway, no JSON-RPC). Each call takes the same JSON edge as a call
//! at an MCP or web door — strict-mode nulls dropped, an action tool's
//! `help`, `schema` and `status` answered, a bad argument explained — and
//! its answer comes back as the JSON an MCP client would see in
//! `structuredContent`.

use std::time::Duration;

use serde::de::DeserializeOwned;

use super::ToolTransport;
use super::codes::TRANSPORT;
use crate::edge::{Edge, Outcome};
use crate::hoot::{Client, ClientConfig, HootError};
use crate::port::CallOptions;
use crate::{Json, ResponseEnvelope, ServerCatalogue, ToolError};

/// A HOOT01 client to one or more backends serving catalogue `C`, for
/// [`call_tools`](super::Client::call_tools).
///
/// The catalogue is the one the backends serve: its generated schema is
/// what the edge reads arguments against.
pub struct HootTransport<C> {
    edge: Edge<Client<C>>,
}

impl<C> HootTransport<C>
where
    C: ServerCatalogue,
    C::Response: DeserializeOwned,
{
    /// Connects to `backends` and waits up to `ready` for one to answer.
    ///
    /// # Errors
    /// As [`Client::connect`], and [`HootError::Schema`] when `C`'s
    /// generated schema does not parse (only a hand-written catalogue's
    /// can fail).
    pub async fn connect<E: AsRef<str>>(
        backends: &[E],
        config: ClientConfig,
        ready: Duration,
    ) -> Result<Self, HootError> {
        let client = Client::<C>::connect(backends, config)?;
        let edge = Edge::for_port(client).map_err(|e| HootError::Schema(e.to_string()))?;
        edge.port().ready(ready).await;
        Ok(HootTransport { edge })
    }
}

impl<C> Clone for HootTransport<C> {
    fn clone(&self) -> Self {
        HootTransport {
            edge: self.edge.clone(),
        }
    }
}

impl<C> std::fmt::Debug for HootTransport<C>
where
    C: ServerCatalogue,
    C::Response: DeserializeOwned,
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HootTransport")
            .field("client", self.edge.port())
            .finish()
    }
}

impl<C> ToolTransport for HootTransport<C>
where
    C: ServerCatalogue,
    C::Response: DeserializeOwned,
{
    async fn call_tool(&self, name: &str, arguments: Json) -> Result<Json, ToolError> {
        let Json::Object(arguments) = arguments else {
            return Err(ToolError::invalid_request(format!(
                "the arguments of `{name}` must be a JSON object"
            )));
        };
        let tool = Edge::<Client<C>>::tool(name)?;
        match self
            .edge
            .call(tool, arguments, CallOptions::default())
            .await
        {
            Outcome::Edge(answer) => answer.map(|answer| answer.value),
            Outcome::Port(envelope) => outcome(envelope),
        }
    }

    async fn ping(&self) -> Result<(), ToolError> {
        if self.edge.port().backends_alive() > 0 {
            Ok(())
        } else {
            Err(ToolError::new(TRANSPORT, "no HOOT01 backend is answering"))
        }
    }
}

/// A final envelope as the batch client reports it: a response's fields
/// without its `tool` tag, a job handle's fields, an error as the error.
fn outcome<R: serde::Serialize>(envelope: ResponseEnvelope<R>) -> Result<Json, ToolError> {
    match envelope {
        ResponseEnvelope::Success(response) => {
            let mut fields = serde_json::to_value(&response)
                .map_err(|e| ToolError::internal(format!("the answer has no JSON form: {e}")))?;
            crate::wire::untag(&mut fields);
            Ok(fields)
        }
        ResponseEnvelope::JobStarted {
            job_id,
            tool,
            expected_timing,
        } => Ok(crate::edge::job_handle(&job_id, &tool, expected_timing)),
        ResponseEnvelope::Error(e) => Err(e),
        _ => Err(ToolError::internal(
            "the backend answered a batch call with a stream",
        )),
    }
}
