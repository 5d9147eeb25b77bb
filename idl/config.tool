/// Server configuration, read-only: where files live, which models are
/// loaded, which services are reachable. Values come from the config file
/// and environment at startup.
category config;

/// Read the whole configuration, one section, or one key.
@read_only @idempotent
tool config_get {
    timing sync
    title "Get config"
    request {
        /// Section to read, e.g. `paths` or `models`; the whole config when omitted.
        @pattern("^[a-z][a-z0-9_]*$")
        section: string?,
        /// Key within `section` to read; the whole section when omitted.
        @pattern("^[a-z][a-z0-9_]*$")
        key: string?,
    }
    response {
        /// The section that was read, when one was asked for.
        section: string?,
        /// The key that was read, when one was asked for.
        key: string?,
        /// The value: a scalar for a key, an object for a section or the whole config.
        value: json,
        /// The built-in default for the key, when it has one.
        default: json?,
    }
    errors ConfigError
}

/// List the configuration's sections and the keys in each.
@read_only @idempotent
tool config_list {
    timing sync
    title "List config keys"
    response {
        /// Key names keyed by section name.
        sections: map<list<string>>,
    }
}

/// Errors from configuration tools.
error ConfigError {
    /// The configuration has no such section.
    unknown_section {
        /// The section that was asked for.
        section: string,
    },
    /// The section has no such key.
    unknown_key {
        /// The section that was read.
        section: string,
        /// The key that was asked for.
        key: string,
    },
    /// A key was given without a section.
    key_without_section,
}
