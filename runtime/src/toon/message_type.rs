//! The eight TOON message types.

use std::fmt;

/// What a frame carries, from the header's second byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MessageType {
    /// A task for a subagent: `{"instruction": str}`.
    Instruction = 0x01,
    /// A request to run a tool: `{"toolName": str, "args": {...}}`.
    ToolCall = 0x02,
    /// The outcome of a tool call: `{"success": bool, "toolName": str, ...}`.
    ToolResult = 0x03,
    /// Progress: `{"status": str, "progress"?: f64}`.
    Status = 0x04,
    /// An error notification: `{"code": str, "message": str}`.
    Error = 0x05,
    /// A keep-alive: `{}`.
    Heartbeat = 0x06,
    /// A request for more context: any object.
    ContextRequest = 0x07,
    /// The context asked for: any object.
    ContextResponse = 0x08,
}

impl MessageType {
    /// Every type, in the order of their values.
    pub const ALL: [MessageType; 8] = [
        MessageType::Instruction,
        MessageType::ToolCall,
        MessageType::ToolResult,
        MessageType::Status,
        MessageType::Error,
        MessageType::Heartbeat,
        MessageType::ContextRequest,
        MessageType::ContextResponse,
    ];

    /// The type with this header byte, if one is defined.
    pub const fn from_u8(value: u8) -> Option<MessageType> {
        Some(match value {
            0x01 => MessageType::Instruction,
            0x02 => MessageType::ToolCall,
            0x03 => MessageType::ToolResult,
            0x04 => MessageType::Status,
            0x05 => MessageType::Error,
            0x06 => MessageType::Heartbeat,
            0x07 => MessageType::ContextRequest,
            0x08 => MessageType::ContextResponse,
            _ => return None,
        })
    }

    /// The header byte.
    pub const fn as_u8(self) -> u8 {
        self as u8
    }

    /// The name the specification gives it: `TOOL_CALL`, …
    pub const fn name(self) -> &'static str {
        match self {
            MessageType::Instruction => "INSTRUCTION",
            MessageType::ToolCall => "TOOL_CALL",
            MessageType::ToolResult => "TOOL_RESULT",
            MessageType::Status => "STATUS",
            MessageType::Error => "ERROR",
            MessageType::Heartbeat => "HEARTBEAT",
            MessageType::ContextRequest => "CONTEXT_REQUEST",
            MessageType::ContextResponse => "CONTEXT_RESPONSE",
        }
    }
}

impl fmt::Display for MessageType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_maps_to_its_type_or_none() {
        for byte in 0..=u8::MAX {
            match MessageType::from_u8(byte) {
                Some(t) => assert_eq!(t.as_u8(), byte),
                None => assert!(byte == 0 || byte > 8, "{byte:#04x} is defined"),
            }
        }
        let values: Vec<u8> = MessageType::ALL.iter().map(|t| t.as_u8()).collect();
        assert_eq!(values, (1..=8).collect::<Vec<u8>>());
        assert_eq!(MessageType::ContextResponse.to_string(), "CONTEXT_RESPONSE");
    }
}
