//! The diagnostics context threaded through parser and checker.

use super::{Diagnostic, Diagnostics};

/// Collects diagnostics so a phase can keep going after a bad item and report
/// everything at once. A phase boundary calls [`Ctxt::gate`]; dropping a
/// context that still holds diagnostics is a bug (they would be lost), caught
/// by a panic in debug builds.
#[derive(Default)]
pub(crate) struct Ctxt {
    errors: Vec<Diagnostic>,
}

impl Ctxt {
    pub(crate) fn new() -> Self {
        Ctxt::default()
    }

    pub(crate) fn push(&mut self, diagnostic: Diagnostic) {
        self.errors.push(diagnostic);
    }

    /// Ends a phase: hands back every error gathered so far, if any.
    pub(crate) fn gate(&mut self) -> Result<(), Diagnostics> {
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(Diagnostics::new(std::mem::take(&mut self.errors)))
        }
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if cfg!(debug_assertions) && !self.errors.is_empty() && !std::thread::panicking() {
            panic!(
                "diagnostics context dropped with {} unreported diagnostics",
                self.errors.len()
            );
        }
    }
}
