/// The tools the official MCP conformance suite calls on a server under
/// test (`conformance server`), declared as any catalogue's tools are.
category conformance;

/// Answers with a short text.
tool test_simple_text {
    timing sync
    response Text
}

/// Answers with an image.
tool test_image_content {
    timing sync
    response {
        /// A one-pixel PNG.
        @content("image") image: Media,
    }
}

/// Answers with audio.
tool test_audio_content {
    timing sync
    response {
        /// A short WAV.
        @content("audio") audio: Media,
    }
}

/// Answers with an embedded resource.
tool test_embedded_resource {
    timing sync
    response {
        /// A text resource.
        @content("resource") resource: Embedded,
    }
}

/// Answers with text, an image and a resource.
tool test_multiple_content_types {
    timing sync
    response {
        /// A line of text.
        @content("text") text: string,
        /// A one-pixel PNG.
        @content("image") image: Media,
        /// A text resource.
        @content("resource") resource: Embedded,
    }
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

/// Logs at every level without asking whether the client listens: on MCP
/// 2026-07-28 nothing may reach a client that did not opt in.
tool test_logging_tool {
    timing sync
    response Text
}

/// Asks the client's user for a name: on MCP 2026-07-28, where a server
/// sends no requests of its own, the handler is refused rather than a
/// request sent on the call's stream.
tool test_streaming_elicitation {
    timing sync
    response Text
}

/// Closes the stream its answer would go on, so that the client resumes
/// it, then answers there (SSE polling).
tool test_reconnection {
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

/// An encoded image or sound.
struct Media {
    /// The encoded bytes.
    data: bytes,
    /// Their media type.
    mime_type: string,
}

/// A resource's contents.
struct Embedded {
    /// Where it lives.
    uri: string,
    /// Its media type.
    mime_type: string?,
    /// Its text.
    text: string?,
    /// Its bytes.
    blob: bytes?,
}

/// Details confirmed by the user, each with a default (SEP-1034).
@form
struct Details {
    /// Your name.
    name: string = "John Doe",
    /// Your age.
    age: i64 = 30,
    /// Your score.
    score: f64 = 95.5,
    /// Your status.
    status: Status = active,
    /// Whether you are verified.
    verified: bool = true,
}

/// An account's status.
enum Status {
    /// In use.
    active,
    /// Not in use.
    inactive,
    /// Waiting to be checked.
    pending,
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
