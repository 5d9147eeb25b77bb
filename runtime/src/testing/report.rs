//! What [`check_examples`](super::check_examples) found.

use std::fmt;

use crate::Example;

/// The examples that held, those that did not (each with why), and those
/// whose tool this service does not serve.
#[derive(Clone, Debug, Default)]
pub struct ExampleReport {
    /// Examples whose call answered as declared.
    pub passed: Vec<Example>,
    /// Examples whose call did not.
    pub failed: Vec<ExampleFailure>,
    /// Examples of tools the service answers `NOT_IMPLEMENTED` for.
    pub not_served: Vec<Example>,
}

/// An example that did not hold, and why.
#[derive(Clone, Debug)]
pub struct ExampleFailure {
    /// The example.
    pub example: Example,
    /// What went wrong, a diff for a response that differs.
    pub why: String,
}

impl ExampleReport {
    /// Panics with the report when an example failed; examples of tools
    /// the service does not serve are listed, not failed.
    ///
    /// # Panics
    /// When any example failed.
    #[track_caller]
    pub fn assert_passed(&self) {
        assert!(self.failed.is_empty(), "{self}");
    }

    /// Panics with the report when an example failed or its tool is not
    /// served: for a service that must serve its whole catalogue.
    ///
    /// # Panics
    /// When any example failed or was not served.
    #[track_caller]
    pub fn assert_all_served(&self) {
        assert!(
            self.failed.is_empty() && self.not_served.is_empty(),
            "{self}"
        );
    }
}

impl fmt::Display for ExampleReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "examples: {} passed, {} failed, {} not served",
            self.passed.len(),
            self.failed.len(),
            self.not_served.len()
        )?;
        for failure in &self.failed {
            let e = &failure.example;
            writeln!(f, "\nFAILED {} \"{}\"", e.call_name(), e.title)?;
            writeln!(f, "  request: {}", e.request)?;
            for line in failure.why.lines() {
                writeln!(f, "  {line}")?;
            }
        }
        if !self.not_served.is_empty() {
            let names: Vec<String> = self
                .not_served
                .iter()
                .map(|e| format!("{} \"{}\"", e.call_name(), e.title))
                .collect();
            writeln!(f, "\nnot served here: {}", names.join(", "))?;
        }
        Ok(())
    }
}
