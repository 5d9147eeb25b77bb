//! `call_msgpack`: bytes in, bytes out. Every failure to understand the
//! request becomes an `Error` envelope with a code; nothing panics and
//! nothing is allocated beyond what the input holds.

use super::{Dispatcher, RequestOf, ResponseOf};
use super::{decode, inline};
use crate::port::CallOptions;
use crate::{Catalogue, ResponseEnvelope, Service, ToolError, codec};

impl<S: Service> Dispatcher<S> {
    /// Answers one MsgPack-encoded request with a MsgPack-encoded
    /// [`ResponseEnvelope`].
    ///
    /// The request must be a map whose first key is `tool` (and, for an
    /// action tool, whose second is `action`). An unknown tool is
    /// `UNKNOWN_TOOL` and an unknown action `UNKNOWN_ACTION`, each with a
    /// suggestion when a name is close; bytes that do not decode (truncated,
    /// mistyped or missing fields, over the size or depth limits, trailing
    /// bytes) are `INVALID_REQUEST` with the decoder's message. A response
    /// that cannot be encoded is answered with an `INTERNAL` error.
    pub async fn call_msgpack(&self, bytes: &[u8]) -> Vec<u8> {
        if let Some(answer) = self.answer_msgpack_inline(bytes) {
            return answer;
        }
        let request = match self.decode(bytes) {
            Ok(request) => request,
            Err(e) => return encode(&ResponseEnvelope::<ResponseOf<S>>::Error(e)),
        };
        // Answered without a future when it can be; the rest is boxed, so
        // this future stays small: callers build and move it on every call.
        let encoded = self.answer_inline(request, |outcome| {
            encode(&crate::envelope::Answered::from(&outcome))
        });
        match encoded {
            Ok(bytes) => bytes,
            Err(request) => encode(&self.call_valid(request, CallOptions::default()).await),
        }
    }

    /// Answers a call that [`Service::call_inline_msgpack`] answers straight
    /// from its bytes; `None` for every other call, and for a request that
    /// does not decode, which the general path reports.
    fn answer_msgpack_inline(&self, bytes: &[u8]) -> Option<Vec<u8>> {
        let mut de = None;
        let call = inline::head(bytes, self.config().limits, &mut de)?;
        S::call_inline_msgpack(&self.inner.service, call).ok()?.0
    }

    /// Decodes a request. When that fails, the head of the request is read
    /// again to tell a wrong tool or action name (its own code, with a
    /// suggestion) from malformed fields; a request that decodes pays for
    /// one pass only.
    pub(super) fn decode(&self, bytes: &[u8]) -> Result<RequestOf<S>, ToolError> {
        let limits = self.config().limits;
        // Before anything reads the head: an oversized message is refused as
        // that, whatever tool it names.
        limits.check_size(bytes.len())?;
        decode::request(bytes, limits).map_err(|e| match Self::misnamed(bytes) {
            Err(named) => named,
            Ok(()) => e,
        })
    }

    /// The error for a request whose head is malformed or names no tool or
    /// action of the catalogue; `Ok` when the names are fine.
    fn misnamed(bytes: &[u8]) -> Result<(), ToolError> {
        let peek = codec::peek_call(bytes)?;
        let Some(tool) = S::Catalogue::tool(peek.tool) else {
            return Err(crate::error::unknown_tool_in::<S::Catalogue>(peek.tool));
        };
        if let Some(action) = peek.action
            && !tool.actions.is_empty()
            && tool.action(action).is_none()
        {
            let names: Vec<&str> = tool.actions.iter().map(|a| a.name).collect();
            return Err(ToolError::unknown_action(tool.name, action, &names));
        }
        Ok(())
    }
}

/// Encodes an envelope (or an [`Answered`](crate::envelope::Answered)
/// outcome, which encodes as one). One that does not encode (a response
/// holding a map with non-string keys, say) is replaced by its `INTERNAL`
/// error, and if even that failed, by a fixed encoding of a fixed error.
pub(super) fn encode<E: serde::Serialize>(envelope: &E) -> Vec<u8> {
    to_msgpack(envelope).unwrap_or_else(|e| {
        // The error variant does not depend on the response type.
        to_msgpack(&ResponseEnvelope::<()>::Error(e)).unwrap_or_else(|_| fallback())
    })
}

/// As [`codec::to_msgpack`], into a buffer sized for a typical answer: a
/// buffer grown from empty is reallocated several times on every call.
fn to_msgpack<T: serde::Serialize>(value: &T) -> Result<Vec<u8>, ToolError> {
    const TYPICAL: usize = 128;
    let mut out = Vec::with_capacity(TYPICAL);
    let mut serializer = rmp_serde::Serializer::new(&mut out).with_struct_map();
    value
        .serialize(&mut serializer)
        .map_err(|e| ToolError::internal(format!("cannot encode MsgPack: {e}")))?;
    Ok(out)
}

/// `{"error": {"code": "INTERNAL", "message": "cannot encode the response"}}`.
fn fallback() -> Vec<u8> {
    use rmp::encode::{ValueWriteError, write_map_len, write_str};
    fn write(out: &mut Vec<u8>) -> Result<(), ValueWriteError> {
        let error = ToolError::internal("cannot encode the response");
        write_map_len(out, 1)?;
        write_str(out, "error")?;
        write_map_len(out, 2)?;
        write_str(out, "code")?;
        write_str(out, &error.code)?;
        write_str(out, "message")?;
        write_str(out, &error.message)
    }
    let mut out = Vec::with_capacity(64);
    // Writing to a Vec cannot fail; if rmp ever said otherwise, the output
    // would be cut short and the caller would see a decode error, not a
    // panic.
    let _ = write(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fallback_is_an_internal_error_envelope() {
        let decoded: ResponseEnvelope<()> =
            codec::from_msgpack(&fallback(), codec::Limits::default()).expect("decodes");
        let error = decoded.error().expect("an error");
        assert_eq!(error.code, crate::codes::INTERNAL);
        assert_eq!(error.message, "cannot encode the response");
    }
}
