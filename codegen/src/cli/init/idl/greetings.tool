/// Greetings: the first tool of this server. Each `.tool` file in `idl/`
/// is one category of tools; doc comments become the descriptions a model
/// reads.
category greetings;

/// Greet someone by name.
@read_only @idempotent
tool greet {
    timing sync
    title "Greet"
    request {
        /// Who to greet.
        @length(1, 100)
        name: string,
        /// Say it loudly.
        shout: bool = false,
    }
    response {
        /// The greeting.
        message: string,
    }
    errors GreetError
}

/// Why a greeting failed.
error GreetError {
    /// The name is only spaces.
    blank_name,
}
