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
    // Examples are shown in the docs and to models, and `cargo test` runs
    // them against the handler (server/src/main.rs).
    example "A name" {
        request { name: "Ada" }
        response { message: "Hello, Ada!" }
    }
    example "Shouted" {
        request { name: "Ada", shout: true }
        response { message: "HELLO, ADA!" }
    }
    example "Only spaces" {
        request { name: "   " }
        error blank_name
    }
}

/// Why a greeting failed.
error GreetError {
    /// The name is only spaces.
    blank_name,
}
