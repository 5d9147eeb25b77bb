/// The tools, resources and prompts the official MCP conformance suite
/// uses on a server under test (`conformance server`), declared as any
/// catalogue's are.
category conformance;

/// Answers with a short text.
tool test_simple_text {
    timing sync
    response Text
}

/// Answers with the region it was called for, which MCP clients on
/// Streamable HTTP mirror into the `Mcp-Param-Region` header (SEP-2243).
tool test_custom_header {
    timing sync
    request {
        /// The region; its header must agree with it.
        @header("Region")
        region: string,
    }
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

/// Asks the client's model, and fails if it cannot: on MCP 2026-07-28 a
/// request that did not declare `sampling` is answered -32021.
tool test_missing_capability {
    timing sync
    response Text
}

/// Closes the stream its answer would go on, so that the client resumes
/// it, then answers there (SSE polling).
tool test_reconnection {
    timing sync
    response Text
}

/// Asks the client's user for a name, under the key `user_name`, and
/// greets them (MCP 2026-07-28: in an `input_required` result).
tool test_input_required_result_elicitation {
    timing sync
    response Text
}

/// Asks the client's model a question, under the key `capital_question`,
/// and answers with what it said.
tool test_input_required_result_sampling {
    timing sync
    response Text
}

/// Asks the client for its roots, under the key `client_roots`, and
/// lists them.
tool test_input_required_result_list_roots {
    timing sync
    response Text
}

/// Asks the client's user to confirm, under the key `confirm`; its answer
/// comes with the sealed `requestState` of the first round.
tool test_input_required_result_request_state {
    timing sync
    response Text
}

/// Asks the client's user, its model and the client itself at once: one
/// round with three questions.
tool test_input_required_result_multiple_inputs {
    timing sync
    response Text
}

/// Asks the client's user two questions, the second once the first is
/// answered: two rounds, the first answer carried by `requestState`.
tool test_input_required_result_multi_round {
    timing sync
    response Text
}

/// Asks the client's user to confirm; a `requestState` changed on its way
/// back is refused before the handler runs again.
tool test_input_required_result_tampered_state {
    timing sync
    response Text
}

/// Asks the client's model and its user: only what the client declares it
/// can answer goes to it.
tool test_input_required_result_capabilities {
    timing sync
    response Text
}

/// Greets someone at once: never a task.
tool greet {
    timing sync
    request {
        /// Who to greet.
        name: string,
    }
    response {
        /// The greeting.
        @content("text") text: string,
    }
}

/// Works for a while: a task for a client that declares the tasks
/// extension (MCP 2026-07-28), a job handle for any other.
tool slow_compute {
    timing async_long
    request {
        /// How long to work.
        @range(0, 600) seconds: u32,
        /// What to call the result.
        label: string?,
    }
    response Text
    errors ConformanceError
}

/// Runs as a job and fails with a typed error: a completed task whose
/// result says `isError`. MCP clients must call it as a task.
@task_required
tool failing_job {
    timing async_long
    response Text
    errors ConformanceError
}

/// Runs as a job and fails inside the server (its handler panics): a
/// failed task, whose error is JSON-RPC's internal error.
tool protocol_error_job {
    timing async_long
    response Text
    errors ConformanceError
}

/// Asks the client's user to confirm a deletion.
tool confirm_delete {
    timing async_medium
    request {
        /// What to delete.
        filename: string,
    }
    response Text
}

/// Asks the client's user two things at once.
tool multi_input {
    timing async_medium
    response Text
}

/// Asks the client's user for a name.
tool test_tool_with_task {
    timing async_medium
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

/// A static text resource.
resource static_text {
    uri "test://static-text"
    title "Static Text Resource"
    contents text
}

/// A static binary resource: a one-pixel PNG.
resource static_binary {
    uri "test://static-binary"
    title "Static Binary Resource"
    mime "image/png"
    contents bytes
}

/// A resource template: JSON data about the ID in its URI.
resource template_data {
    uri "test://template/{id}/data"
    title "Resource Template"
    mime "application/json"
    contents text
    arguments {
        /// The ID the data is about.
        id: string,
    }
}

/// A resource clients may subscribe to.
@subscribable
resource watched_resource {
    uri "test://watched-resource"
    title "Watched Resource"
    contents text
}

/// A simple prompt without arguments.
prompt test_simple_prompt {
    title "Simple Prompt"
}

/// A prompt with two arguments, each repeated in its message.
prompt test_prompt_with_arguments {
    title "Prompt With Arguments"
    arguments {
        /// The first argument.
        @complete
        arg1: string,
        /// The second argument.
        arg2: string,
    }
}

// The suite names the argument `resourceUri`, which is not snake_case and
// cannot be spelled here: its `prompts/get` is refused (expected-failures.yml).
/// A prompt that embeds a resource, by URI.
prompt test_prompt_with_embedded_resource {
    title "Prompt With Embedded Resource"
    arguments {
        /// The URI of the resource to embed.
        resource_uri: string,
    }
}

/// A prompt with an image.
prompt test_prompt_with_image {
    title "Prompt With Image"
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
