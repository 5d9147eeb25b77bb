//! How to generate: which door a generation comes through ([`Generator`]),
//! and what the Rust backend needs to know ([`Options`], [`RuntimeCrate`]).

use std::fmt;

/// Which door a generation comes through.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Generator {
    /// A build script ([`crate::Builder`]): the whole catalogue, for
    /// `include_tools!()`.
    #[default]
    Build,
    /// `toolwright generate rust`: the same file, telling readers to rerun
    /// the command rather than rebuild.
    Cli,
    /// The runtime's own copy of the built-in job tools' types and markers
    /// (`runtime/src/jobs/types.rs`): only items of built-in files, and no
    /// catalogue (no `ToolRequest`, `ToolCatalogue` or macro).
    Runtime,
}

/// How to generate. `#[non_exhaustive]`: start from `Options::default()`
/// and set fields.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Which door this is.
    pub generator: Generator,
    /// The path generated code reaches the runtime by.
    pub runtime_crate: RuntimeCrate,
    /// The output's file name without `.rs`: `tools` gives `tools.rs`.
    pub output_name: String,
    /// Whether `#[tools]` in other crates may bind handlers to this
    /// catalogue: its `__toolwright_catalogue!` is `#[macro_export]`ed.
    /// See [`crate::Builder::export_catalogue`].
    pub export_catalogue: bool,
    /// Which way the crate moves the catalogue's values, and so which
    /// serde derives each type gets. See [`crate::Builder::side`].
    pub side: Side,
    /// The clients the catalogue is handed to, for the checker's
    /// warnings about them; see [`crate::check_for_clients`].
    pub clients: Clients,
    /// When set, every generated type derives `schemars::JsonSchema` under
    /// `#[cfg_attr(feature = "<name>", ...)]`, its constrained fields with
    /// the matching `#[schemars(...)]`. See
    /// [`crate::Builder::schemars_feature`].
    pub schemars_feature: Option<String>,
}

/// The clients a catalogue is handed to, as far as the checker's warnings
/// go: what they put before a tool's name, and which LLM providers'
/// profiles the catalogue targets.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clients {
    /// What clients put before a tool's name when they pass it on to a
    /// provider (`mcp__studio__`), which counts toward the provider's name
    /// rules (`TW405`).
    pub prefix: String,
    /// The provider profiles the catalogue targets. Tool names are checked
    /// against these providers' rules (every provider's when empty), and
    /// each request field one of them cannot state faithfully draws
    /// `TW406` (none when empty).
    pub profiles: Vec<crate::Profile>,
}

impl Default for Options {
    fn default() -> Self {
        Options::new(Generator::Build)
    }
}

impl Options {
    /// The defaults for a door: output `tools.rs`, and the runtime at
    /// `::toolwright`, or at `crate` for [`Generator::Runtime`].
    pub fn new(generator: Generator) -> Self {
        Options {
            generator,
            runtime_crate: match generator {
                Generator::Runtime => RuntimeCrate("crate".to_owned()),
                Generator::Build | Generator::Cli => RuntimeCrate::default(),
            },
            output_name: "tools".to_owned(),
            export_catalogue: false,
            side: Side::Both,
            clients: Clients::default(),
            schemars_feature: None,
        }
    }
}

/// Which way a crate moves the catalogue's values: it decides which serde
/// derives each generated type gets, since a derive nothing uses still
/// costs compile time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Side {
    /// A crate that serves the tools: it decodes requests and encodes
    /// responses, errors and stream chunks. Types only a response, error
    /// or chunk can hold derive `Serialize` alone; request types derive
    /// both, since the web TOON route encodes the requests it decodes.
    Server,
    /// A crate that calls them: it encodes requests and decodes the rest.
    /// Request types derive only `Serialize`, the others only
    /// `Deserialize`, but for typed errors, which derive both (they become
    /// `ToolError` details by serializing, on either side).
    Client,
    /// Both ways (the default): a gateway, a test that plays both ends, a
    /// crate that is unsure. Every type derives both.
    #[default]
    Both,
}

impl Side {
    /// Whether a type that requests (`in_request`) or answers
    /// (`in_response`) can hold is encoded by this side. A type neither
    /// can hold derives both, for whatever the crate does with it.
    pub(crate) fn serializes(self, in_request: bool, in_response: bool) -> bool {
        match self {
            Side::Both | Side::Server => true,
            _ if !in_request && !in_response => true,
            Side::Client => in_request,
        }
    }

    /// Whether such a type is decoded by this side.
    pub(crate) fn deserializes(self, in_request: bool, in_response: bool) -> bool {
        match self {
            Side::Both => true,
            _ if !in_request && !in_response => true,
            Side::Server => in_request,
            Side::Client => in_response,
        }
    }
}

/// The path of the `toolwright` runtime crate in generated code:
/// `::toolwright` by default, `crate` inside the runtime itself, or the
/// path a user re-exports it under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeCrate(String);

impl RuntimeCrate {
    /// Parses a path such as `toolwright`, `::toolwright`, `crate` or
    /// `::my_facade::toolwright`. A path without a leading `::` or `crate`
    /// gets `::`, so a local module cannot shadow the crate.
    ///
    /// # Errors
    /// When `path` is not a Rust path of plain identifiers.
    pub fn new(path: &str) -> Result<RuntimeCrate, InvalidRuntimeCrate> {
        let trimmed = path.trim();
        let segments = trimmed.strip_prefix("::").unwrap_or(trimmed);
        let valid = !segments.is_empty()
            && segments.split("::").enumerate().all(|(i, s)| {
                let ident = s
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                    && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                    && s != "_";
                let keyword_ok = match s {
                    "crate" | "self" | "super" => i == 0 && !trimmed.starts_with("::"),
                    _ => !crate::lang::rust::ident::is_keyword(s),
                };
                ident && keyword_ok
            });
        if !valid {
            return Err(InvalidRuntimeCrate(path.to_owned()));
        }
        let first = segments.split("::").next().unwrap_or_default();
        Ok(RuntimeCrate(
            if trimmed.starts_with("::") || matches!(first, "crate" | "self" | "super") {
                trimmed.to_owned()
            } else {
                format!("::{trimmed}")
            },
        ))
    }

    /// The path as generated code writes it (`::toolwright`).
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for RuntimeCrate {
    fn default() -> Self {
        RuntimeCrate("::toolwright".to_owned())
    }
}

impl fmt::Display for RuntimeCrate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A runtime crate path that is not a Rust path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidRuntimeCrate(pub String);

impl fmt::Display for InvalidRuntimeCrate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a path to the runtime crate; write it as Rust does, e.g. `::toolwright` or `crate`",
            self.0
        )
    }
}

impl std::error::Error for InvalidRuntimeCrate {}

#[cfg(test)]
mod tests {
    use super::RuntimeCrate;

    #[test]
    fn runtime_crate_paths_are_absolute_or_crate() {
        let ok = |p: &str| RuntimeCrate::new(p).map(|r| r.as_str().to_owned());
        assert_eq!(ok("toolwright").unwrap(), "::toolwright");
        assert_eq!(ok("::toolwright").unwrap(), "::toolwright");
        assert_eq!(ok("crate").unwrap(), "crate");
        assert_eq!(ok("facade::toolwright").unwrap(), "::facade::toolwright");
        assert_eq!(ok("crate::rt").unwrap(), "crate::rt");
        for bad in [
            "",
            "::",
            "tool-wright",
            "a::::b",
            "::crate",
            "type",
            "a::crate",
            "1x",
            "_",
        ] {
            assert!(RuntimeCrate::new(bad).is_err(), "{bad}");
        }
    }
}
