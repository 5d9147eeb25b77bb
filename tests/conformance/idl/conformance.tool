/// The tools the official MCP conformance suite calls on a server under
/// test (`conformance server`), declared as any catalogue's tools are.
category conformance;

/// Answers with a short text.
tool test_simple_text {
    timing sync
    response Text
}

/// Always fails, with a typed error.
tool test_error_handling {
    timing sync
    errors ConformanceError
}

/// Reports progress three times before answering.
tool test_tool_with_progress {
    timing sync
    response Text
}

/// Sends three log messages, a little apart, before answering.
tool test_tool_with_logging {
    timing sync
    response Text
}

/// Asks the client's model to complete a prompt, and answers with what it
/// said.
tool test_sampling {
    timing sync
    request {
        /// What to ask the model.
        prompt: string,
    }
    response Text
}

/// Asks the client's user for a username and an email address.
tool test_elicitation {
    timing sync
    request {
        /// Why the input is asked for.
        message: string,
    }
    response Text
}

/// Asks the client's user for input whose every field has a default
/// (SEP-1034).
tool test_elicitation_sep1034_defaults {
    timing sync
    response Text
}

/// Asks the client's user to choose, in each way MCP elicitation can ask
/// for a choice (SEP-1330).
tool test_elicitation_sep1330_enums {
    timing sync
    response Text
}

/// Takes a request whose schema uses JSON Schema 2020-12: `$defs`, a
/// reference, no additional properties.
tool json_schema_2020_12_tool {
    timing sync
    request {
        /// A name.
        name: string?,
        /// An address.
        address: Address?,
    }
    response Text
}

/// A text answer.
struct Text {
    /// The text.
    text: string,
}

/// A postal address.
struct Address {
    /// The street.
    street: string?,
    /// The city.
    city: string?,
}

/// How a conformance tool fails.
error ConformanceError {
    /// The tool failed on purpose, to show how errors are reported.
    failed_on_purpose,
}
