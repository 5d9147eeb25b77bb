//! TOON: the binary framing frontends and subagents speak (used by the
//! TypeScript and Python bindings, and by anything that talks to them).
//!
//! A frame is an 18-byte [`Header`] followed by a payload: JSON text in
//! version 1, a coding byte and MsgPack in version 2, RLE-compressed
//! ([`rle`]) when the payload is over [`COMPRESSION_THRESHOLD`] bytes and
//! compression makes it shorter. `docs/wire.md` specifies every byte.
//!
//! ```
//! use toolwright::toon::{Decoder, Encoder, Instruction, MessageType, Stamp, Version};
//!
//! let stamp = Stamp { timestamp: 1_700_000_000_000, sequence_id: 1 };
//! let instruction = Instruction { instruction: "Write the tests".to_owned() };
//! let frame = Encoder::new(Version::V1).encode(MessageType::Instruction, stamp, &instruction)?;
//! let message = Decoder::new().decode::<Instruction>(&frame)?;
//! assert_eq!(message.value, instruction);
//! assert_eq!(message.size, frame.len());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod decoder;
mod encoder;
mod error;
mod header;
mod message_type;
mod payload;
mod retag;
pub mod rle;
mod splice;

pub use decoder::{Decoder, Frame, Message};
pub use encoder::{Encoder, Stamp};
pub use error::{DecodeError, EncodeError, ErrorKind};
pub use header::{HEADER_SIZE, Header, Version};
pub use message_type::MessageType;
pub use payload::{ErrorMessage, Heartbeat, Instruction, Status, ToolResult};

/// Payloads longer than this many bytes (before compression) are
/// compressed when that makes them shorter; shorter ones never are.
pub const COMPRESSION_THRESHOLD: usize = 1024;

/// First payload byte of a compressed payload: in version 1 instead of the
/// JSON text (which never starts with `Z`), in version 2 as the coding byte.
pub const COMPRESSED: u8 = 0x5A;

/// The version 2 coding byte of a payload that is not compressed.
pub const PLAIN: u8 = 0x00;
