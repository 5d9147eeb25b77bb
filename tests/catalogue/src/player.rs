//! A service bound to the `constraints` fixture, whose one tool is `sync`
//! and whose handler is a plain `fn`: `call_msgpack` answers it straight
//! from its bytes (`tests/direct.rs`).

use std::sync::atomic::{AtomicUsize, Ordering};

use toolwright::ToolError;

use crate::fixtures::constraints::PlayRequest;

/// Counts the calls that reached its handler. A label `fail` answers
/// `FAILED`, a label `boom` panics.
#[derive(Debug, Default)]
pub struct Player {
    played: AtomicUsize,
}

impl Player {
    /// How many calls reached the handler.
    pub fn played(&self) -> usize {
        self.played.load(Ordering::SeqCst)
    }
}

#[toolwright::tools(crate::fixtures::constraints)]
impl Player {
    #[tool]
    fn play(&self, request: PlayRequest) -> Result<(), ToolError> {
        self.played.fetch_add(1, Ordering::SeqCst);
        match request.label.map(|label| label.text) {
            Some(text) if text == "boom" => panic!("the label says boom"),
            Some(text) if text == "fail" => Err(ToolError::new("FAILED", "told to fail")),
            _ => Ok(()),
        }
    }
}
