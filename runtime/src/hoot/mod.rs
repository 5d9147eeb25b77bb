//! HOOT01 over ZeroMQ: frames and call bodies, for the runtime's servers and clients.
//!
//! A HOOT01 message is seven ZeroMQ frames: the magic `HOOT01`, a
//! [`Command`], a [`ContentType`], a [`RequestId`], a service name, an
//! optional [`Traceparent`] and a body. [`encode`] and [`decode`] turn a
//! [`Message`] into frames and back without copying the body; a Request's
//! body is a call body, written by [`encode_call`] and read by
//! [`CallBody::decode`]. `docs/wire.md` specifies every byte. Servers and
//! clients may secure their connections with CURVE, given a [`KeyPair`]
//! each and the other side's [`PublicKey`] (docs/hoot.md, "Security:
//! CURVE").
//!
//! ```
//! use toolwright::codec::Limits;
//! use toolwright::hoot::{self, CallBody, Message, RequestId};
//!
//! // {"tool": "add", "a": 1, "b": 2}
//! let request = [
//!     0x83, 0xa4, b't', b'o', b'o', b'l', 0xa3, b'a', b'd', b'd', 0xa1, b'a', 0x01, 0xa1, b'b',
//!     0x02,
//! ];
//! let id = RequestId::new();
//! let body = hoot::encode_call(&request, None, false);
//! let frames = hoot::encode(Message::request(id, "calc", body));
//!
//! let limits = Limits::default();
//! let message = hoot::decode(Vec::from(frames), limits.max_bytes)?;
//! assert_eq!(message.request_id, id);
//! let call = CallBody::decode(&message.body, limits)?;
//! assert_eq!(call.request, request);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod body;
pub(crate) mod client;
mod context;
mod curve;
mod error;
mod frame;
pub mod iopub;
mod mailbox;
mod server;
mod talk;
#[cfg(feature = "otel")]
mod traced;

pub use body::{CallBody, encode_call};
pub use client::{BackendState, BackendStatus, Client, ClientConfig};
pub use curve::{KeyError, KeyFileError, KeyPair, PublicKey};
pub use error::HootError;
pub use frame::{
    Command, ContentType, FRAMES, FrameError, MAGIC, MAX_SERVICE_LEN, Message, Refused, RequestId,
    TRACEPARENT_LEN, Traceparent, decode, encode,
};
pub use server::{Server, ServerConfig, ServerHandle, ServerMeter, ServerStats};
