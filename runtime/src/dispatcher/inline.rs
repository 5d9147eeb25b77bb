//! Answering a MsgPack call straight from its bytes: the request struct is
//! decoded from the rest of the map and handed to the handler, and the
//! handler's outcome is encoded where it is made.
//!
//! The general path decodes a `ToolRequest`, whose size is that of the
//! catalogue's largest request, and moves it through the decoder, the
//! dispatcher and the service before the handler sees its own small struct;
//! on a small request those copies are most of what the call costs. This
//! path builds no enum on the way in. `#[tools]` implements
//! [`Service::call_inline_msgpack`](crate::Service::call_inline_msgpack)
//! for `sync` tools whose handler is a plain `fn` without a context; every
//! other call, and every request this path cannot decode, takes the general
//! path, which also says what is wrong with a request that does not decode.

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde::de::value::MapAccessDeserializer;
use serde::de::{DeserializeSeed, MapAccess};
use serde::{Deserialize, Serialize};

use super::msgpack::encode;
use super::panic;
use crate::codec::{self, Limits};
use crate::envelope::Answered;
use crate::{ToolError, Validate};

/// One MsgPack call whose head (`tool`) has been read, its fields not yet.
///
/// Given to [`Service::call_inline_msgpack`](crate::Service::call_inline_msgpack),
/// which either answers it with [`answer`](Self::answer) (or
/// [`answer_unit`](Self::answer_unit)) or hands it back.
#[doc(hidden)]
#[derive(Debug)]
pub struct MsgpackCall<'a, 'de> {
    tool: &'de str,
    rest: Rest<'a, 'de>,
}

/// What [`MsgpackCall::answer`] made of a call: the encoded envelope, or
/// nothing when the request did not decode (the general path then decodes
/// it again and says why).
#[doc(hidden)]
#[derive(Debug)]
#[must_use]
pub struct InlineAnswer(pub(super) Option<Vec<u8>>);

impl<'a, 'de> MsgpackCall<'a, 'de> {
    /// The tool the call names.
    pub fn tool(&self) -> &'de str {
        self.tool
    }

    /// Decodes the request from the rest of the map, checks its
    /// constraints, runs `call` on it and encodes the outcome as a
    /// response envelope. A panic in `call` is an `INTERNAL` error naming
    /// the tool, as on every other path.
    pub fn answer<Req, R>(mut self, call: impl FnOnce(Req) -> Result<R, ToolError>) -> InlineAnswer
    where
        Req: Deserialize<'de> + Validate,
        R: Serialize,
    {
        let Ok(request) = Req::deserialize(MapAccessDeserializer::new(&mut self.rest)) else {
            return InlineAnswer(None);
        };
        if !self.rest.finished() {
            return InlineAnswer(None);
        }
        if let Err(violation) = request.validate() {
            return InlineAnswer(Some(encode(&Answered::<R>::Error(&violation.into()))));
        }
        self.run(|| call(request))
    }

    /// As [`answer`](Self::answer), for a tool that takes no arguments.
    pub fn answer_unit<R: Serialize>(
        mut self,
        call: impl FnOnce() -> Result<R, ToolError>,
    ) -> InlineAnswer {
        if crate::tagged::unit(&mut self.rest).is_err() || !self.rest.finished() {
            return InlineAnswer(None);
        }
        self.run(call)
    }

    fn run<R: Serialize>(self, call: impl FnOnce() -> Result<R, ToolError>) -> InlineAnswer {
        // A handler that panicked is not called again, so unwind safety can
        // be asserted. The outcome is encoded inside the guard, where it
        // was made, rather than moved out of it first.
        let encoded = catch_unwind(AssertUnwindSafe(|| encode(&Answered::from(&call()))));
        InlineAnswer(Some(encoded.unwrap_or_else(|payload| {
            encode(&Answered::<R>::Error(&panic::panicked(
                self.tool,
                payload.as_ref(),
            )))
        })))
    }
}

/// Reads the head of a MsgPack request (a map whose first key is `tool`)
/// for [`MsgpackCall`]; `None` when it is not one, or is over the limits,
/// which the general path reports.
pub(super) fn head<'a, 'de>(
    bytes: &'de [u8],
    limits: Limits,
    de: &'a mut Option<codec::SliceDeserializer<'de>>,
) -> Option<MsgpackCall<'a, 'de>> {
    if bytes.len() > limits.max_bytes || limits.max_depth == 0 {
        return None;
    }
    let mut rd = bytes;
    let len = rmp::decode::read_map_len(&mut rd).ok()?;
    let (crate::wire::TOOL_TAG, rd) = rmp::decode::read_str_from_slice(rd).ok()? else {
        return None;
    };
    let (tool, rd) = rmp::decode::read_str_from_slice(rd).ok()?;
    // The head's map is one level of the nesting limit.
    let de = de.insert(codec::deserializer(
        rd,
        limits.max_depth(limits.max_depth - 1),
    ));
    Some(MsgpackCall {
        tool,
        rest: Rest::new(de, len.checked_sub(1)?),
    })
}

/// The entries of a request's map after its head (`tool`, or an entry's
/// kind), read from the deserializer positioned just after it.
#[derive(Debug)]
pub(crate) struct Rest<'a, 'de> {
    de: &'a mut codec::SliceDeserializer<'de>,
    left: u32,
}

impl<'a, 'de> Rest<'a, 'de> {
    /// The `left` entries `de` is positioned at.
    pub(crate) fn new(de: &'a mut codec::SliceDeserializer<'de>, left: u32) -> Self {
        Rest { de, left }
    }

    /// Every entry read, and nothing after the map.
    pub(crate) fn finished(&mut self) -> bool {
        self.left == 0 && codec::at_end(self.de)
    }
}

impl<'de> MapAccess<'de> for Rest<'_, 'de> {
    type Error = rmp_serde::decode::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.de).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Self::Error> {
        seed.deserialize(&mut *self.de)
    }
}
