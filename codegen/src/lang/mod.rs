//! Backends: one folder per target, each turning the checked model into
//! files through the same signature ([`Backend`]). [`Target`] is the one
//! list of them: adding a target is its folder and a line there.
//! [`crate::generate::run`] is the pipeline every door calls.

pub(crate) mod app;
pub(crate) mod docs;
pub(crate) mod docs_text;
pub(crate) mod header;
pub(crate) mod metadata;
pub(crate) mod python;
pub(crate) mod rust;
pub(crate) mod schema;
pub(crate) mod templates;
pub(crate) mod typescript;

use std::sync::OnceLock;

use serde_json::Value;

use crate::model::Model;
use crate::options::Options;
use crate::output::OutputFile;
use crate::{Diagnostics, Sources};

/// What every backend reads: the checked model, the files it came from
/// (for diagnostics), and the options of this generation; and the
/// documents several backends share, each built once per generation.
pub(crate) struct Input<'a> {
    pub(crate) model: &'a Model,
    pub(crate) sources: &'a Sources,
    pub(crate) options: &'a Options,
    mcp_schema: OnceLock<Value>,
    metadata: OnceLock<Value>,
    /// Each of [`crate::Profile::ALL`]'s tools, in that order.
    profiles: [OnceLock<Value>; 3],
}

impl<'a> Input<'a> {
    pub(crate) fn new(model: &'a Model, sources: &'a Sources, options: &'a Options) -> Self {
        Input {
            model,
            sources,
            options,
            mcp_schema: OnceLock::new(),
            metadata: OnceLock::new(),
            profiles: Default::default(),
        }
    }

    /// [`schema::mcp_schema`]: what the schema files, the Rust catalogue
    /// and the tool metadata all carry.
    pub(crate) fn mcp_schema(&self) -> &Value {
        self.mcp_schema
            .get_or_init(|| schema::mcp_schema(self.model))
    }

    /// The catalogue's tools as `profile`'s provider takes them: what the
    /// schema files, the Rust catalogue and the bindings all carry.
    pub(crate) fn profile(&self, profile: crate::Profile) -> &Value {
        let index = crate::Profile::ALL
            .iter()
            .position(|p| *p == profile)
            .unwrap_or_default();
        self.profiles[index].get_or_init(|| profile.tools(self.mcp_schema()))
    }

    /// [`metadata::document`]: what the Rust catalogue serves at
    /// `/api/tools` and the documentation site shows.
    pub(crate) fn metadata(&self) -> &Value {
        self.metadata
            .get_or_init(|| metadata::document(self.model, self.mcp_schema()))
    }
}

/// A scoped thread's result; its panic, if it panicked, goes on in the
/// caller's thread, as if the work had run there.
pub(crate) fn joined<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    handle
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// A backend: the model in, its files out (paths relative to the target's
/// directory), or the diagnostics of what it cannot express.
pub(crate) type Backend = fn(&Input<'_>) -> Result<Vec<OutputFile>, Diagnostics>;

/// Every target toolwright generates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// `tools.rs`, for `include_tools!()`.
    Rust,
    /// `schemas/`: the MCP `tools` array and a JSON Schema per type.
    Schemas,
    /// `typescript/`: the npm package.
    TypeScript,
    /// `python/`: the pip package.
    Python,
    /// `index.html` and `catalogue.md`.
    Docs,
}

impl Target {
    /// How the target is made.
    pub(crate) fn backend(self) -> Backend {
        match self {
            Target::Rust => rust::generate,
            Target::Schemas => schema::generate,
            Target::TypeScript => typescript::generate,
            Target::Python => python::generate,
            Target::Docs => docs::generate,
        }
    }

    /// The directory a binding owns under the output directory, and the
    /// command that regenerates it (for its `@generated` lines); `None`
    /// for the targets that write their own header.
    pub(crate) fn binding_dir(self) -> Option<&'static str> {
        match self {
            Target::Schemas => Some("schemas"),
            Target::TypeScript => Some("typescript"),
            Target::Python => Some("python"),
            Target::Rust | Target::Docs => None,
        }
    }
}
