//! The reference catalogue (`idl/`) as generated Rust, compiled under
//! `#![deny(missing_docs)]` and the workspace's `clippy -D warnings`: proof
//! that the generator's output is documented and warning-free. The modules
//! of [`fixtures`] hold one catalogue per file of
//! `codegen/tests/fixtures/rust/`, so every shape the generator emits is
//! compiled too.

#![deny(missing_docs)]

toolwright::include_tools!();

/// Each tool's request schema as schemars gives it (written by build.rs),
/// for tests/schemars.rs.
#[cfg(feature = "schemars")]
#[allow(deprecated, reason = "every tool is listed, deprecated ones too")]
pub mod schemas {
    use super::*;

    include!(concat!(env!("OUT_DIR"), "/request_schemas.rs"));
}

pub mod bench;
pub mod player;

/// The reference catalogue as a server crate (`Side::Server`) and a client
/// crate (`Side::Client`) generate it.
pub mod sides {
    /// Requests decode, the rest only encodes.
    pub mod server {
        toolwright::include_tools!("server_side");
    }

    /// Requests only encode, the rest only decodes.
    pub mod client {
        toolwright::include_tools!("client_side");
    }
}

/// Generated from `codegen/tests/fixtures/rust/*.tool`, one module each.
pub mod fixtures {
    /// `actions.tool`.
    pub mod actions {
        toolwright::include_tools!("actions");
    }

    /// `content.tool`.
    pub mod content {
        toolwright::include_tools!("content");
    }

    /// `forms.tool`.
    pub mod forms {
        toolwright::include_tools!("forms");
    }

    /// `constraints.tool`.
    pub mod constraints {
        toolwright::include_tools!("constraints");
    }

    /// `deprecated.tool`.
    // schemars' derive names the deprecated types with their own spans and
    // no `#[allow(deprecated)]` of its own (serde's does): a crate that
    // turns on `JsonSchema` for a catalogue with deprecated types allows
    // the lint on the module that includes it (docs/rust.md).
    #[cfg_attr(feature = "schemars", allow(deprecated))]
    pub mod deprecated {
        toolwright::include_tools!("deprecated");
    }

    /// `enums.tool`.
    pub mod enums {
        toolwright::include_tools!("enums");
    }

    /// `errors.tool`.
    pub mod errors {
        toolwright::include_tools!("errors");
    }

    /// `no_payload.tool`.
    pub mod no_payload {
        toolwright::include_tools!("no_payload");
    }

    /// `no_tools.tool`.
    pub mod no_tools {
        toolwright::include_tools!("no_tools");
    }

    /// `recursive.tool`.
    pub mod recursive {
        toolwright::include_tools!("recursive");
    }

    /// `stream.tool`.
    pub mod stream {
        toolwright::include_tools!("stream");
    }

    /// `structs.tool`.
    pub mod structs {
        toolwright::include_tools!("structs");
    }

    /// `hygiene.tool`.
    pub mod hygiene {
        toolwright::include_tools!("hygiene");
    }

    /// `unions.tool`.
    pub mod unions {
        toolwright::include_tools!("unions");
    }
}
