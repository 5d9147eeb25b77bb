//! A server of the official MCP conformance suite's fixture tools,
//! resources and prompts (`idl/conformance.tool`), bound and served as any
//! Toolwright catalogue: handlers that log, report progress, ask the
//! client's model and ask its user, through their `Context`; resources
//! read by URI, prompts got by name, a prompt argument completed.
//!
//! Usage: `toolwright-conformance [ADDR]` serves Streamable HTTP at `ADDR`
//! (default `127.0.0.1:0`) and prints `listening on http://…/mcp` on
//! standard error; `toolwright-conformance --stdio` serves one client on
//! standard input and output. With `--gateway` first (`--gateway --stdio`,
//! `--gateway [ADDR]`), the tools are served as a HOOT01 backend on a
//! loopback port and MCP is served by a gateway in front of it, in the same
//! process: every log, progress report and question of a handler crosses
//! the HOOT01 wire to reach the client.

use std::time::Duration;

use serde_json::{Value, json};
use toolwright::caller::{Elicited, LogLevel, Root, SamplingRequest};
use toolwright::entry::{
    Completion, CompletionRequest, PromptContent, PromptMessages, ResourceBody,
};
use toolwright::hoot::{Client, ClientConfig, Server, ServerConfig};
use toolwright::mcp::{HttpConfig, McpServer};
use toolwright::port::CallPort;
use toolwright::{Context, Dispatcher, ToolError, codes};

toolwright::include_tools!();

/// How long the logging and progress tools pause between messages, so a
/// client sees them arrive one by one.
const PAUSE: Duration = Duration::from_millis(50);

/// The handlers.
struct Conformance;

#[toolwright::tools]
impl Conformance {
    #[tool]
    fn test_simple_text(&self) -> Result<Text, ToolError> {
        Ok(text("This is a simple text response for testing."))
    }

    #[tool]
    fn test_custom_header(&self, request: TestCustomHeaderRequest) -> Result<Text, ToolError> {
        Ok(text(&format!("Region: {}", request.region)))
    }

    #[tool]
    fn test_image_content(&self) -> Result<TestImageContentResponse, ToolError> {
        Ok(TestImageContentResponse { image: png() })
    }

    #[tool]
    fn test_audio_content(&self) -> Result<TestAudioContentResponse, ToolError> {
        Ok(TestAudioContentResponse { audio: wav() })
    }

    #[tool]
    fn test_embedded_resource(&self) -> Result<TestEmbeddedResourceResponse, ToolError> {
        Ok(TestEmbeddedResourceResponse {
            resource: resource(),
        })
    }

    #[tool]
    fn test_multiple_content_types(&self) -> Result<TestMultipleContentTypesResponse, ToolError> {
        Ok(TestMultipleContentTypesResponse {
            text: "Multiple content types test:".to_owned(),
            image: png(),
            resource: resource(),
        })
    }

    #[tool]
    fn test_error_handling(&self) -> Result<(), ConformanceError> {
        Err(ConformanceError::FailedOnPurpose {})
    }

    #[tool]
    async fn test_tool_with_progress(&self, cx: Context) -> Result<Text, ToolError> {
        for fraction in [0.0, 0.5, 1.0] {
            cx.progress(fraction);
            tokio::time::sleep(PAUSE).await;
        }
        Ok(text("Progress reported three times."))
    }

    #[tool]
    async fn test_tool_with_logging(&self, cx: Context) -> Result<Text, ToolError> {
        for message in [
            "Tool execution started",
            "Tool processing data",
            "Tool execution completed",
        ] {
            cx.log(LogLevel::Info, message);
            tokio::time::sleep(PAUSE).await;
        }
        Ok(text("Logged three messages."))
    }

    #[tool]
    async fn test_logging_tool(&self, cx: Context) -> Result<Text, ToolError> {
        for level in [LogLevel::Debug, LogLevel::Info, LogLevel::Error] {
            cx.log(level, "a message only a listening client hears");
        }
        Ok(text("Logged at three levels."))
    }

    #[tool]
    async fn test_streaming_elicitation(&self, cx: Context) -> Result<Text, ToolError> {
        let schema = json!({"type": "object", "properties": {"name": {"type": "string"}}});
        Ok(text(
            &match cx.elicit::<Value>("Your name?", schema).await {
                Ok(answer) => format!("User response: {}", describe(answer)),
                Err(refused) => format!("Not asked: {}", refused.message),
            },
        ))
    }

    #[tool]
    async fn test_input_required_result_elicitation(&self, cx: Context) -> Result<Text, ToolError> {
        let name = ask_name(&cx, "user_name", "What is your name?").await?;
        Ok(text(&format!("Hello, {name}!")))
    }

    #[tool]
    async fn test_input_required_result_sampling(&self, cx: Context) -> Result<Text, ToolError> {
        let question = SamplingRequest::new("What is the capital of France?", 100);
        let sampled = cx.ask("capital_question").sample(question).await?;
        Ok(text(&format!("The model said: {}", sampled.text)))
    }

    #[tool]
    async fn test_input_required_result_list_roots(&self, cx: Context) -> Result<Text, ToolError> {
        let roots = cx.ask("client_roots").roots().await?;
        Ok(text(&format!("Roots: {}", uris(&roots))))
    }

    #[tool]
    async fn test_input_required_result_request_state(
        &self,
        cx: Context,
    ) -> Result<Text, ToolError> {
        let confirmed = confirm(&cx, "confirm").await?;
        // The server opened the sealed state before this run, or refused the
        // call: an answer here came through a state that verified.
        Ok(text(&format!("state-ok: confirmed={confirmed}")))
    }

    #[tool]
    async fn test_input_required_result_multiple_inputs(
        &self,
        cx: Context,
    ) -> Result<Text, ToolError> {
        // Asked together, so that they go to the client in one round.
        let (name, greeting, roots) = tokio::join!(
            ask_name(&cx, "user_name", "What is your name?"),
            cx.ask("greeting")
                .sample(SamplingRequest::new("Generate a greeting", 50)),
            cx.ask("client_roots").roots(),
        );
        let (name, greeting, roots) = (name?, greeting?, roots?);
        Ok(text(&format!(
            "{}, {name}! Roots: {}",
            greeting.text,
            uris(&roots)
        )))
    }

    #[tool]
    async fn test_input_required_result_multi_round(&self, cx: Context) -> Result<Text, ToolError> {
        let name = ask_name(&cx, "step1", "Step 1: What is your name?").await?;
        let schema = json!({
            "type": "object",
            "properties": {"color": {"type": "string"}},
            "required": ["color"],
        });
        let color = cx
            .ask("step2")
            .elicit::<Value>("Step 2: What is your favorite color?", schema)
            .await?
            .accepted()
            .and_then(|answer| answer["color"].as_str().map(str::to_owned))
            .unwrap_or_default();
        Ok(text(&format!("{name} likes {color}.")))
    }

    #[tool]
    async fn test_input_required_result_tampered_state(
        &self,
        cx: Context,
    ) -> Result<Text, ToolError> {
        let confirmed = confirm(&cx, "confirm").await?;
        Ok(text(&format!("confirmed={confirmed}")))
    }

    #[tool]
    async fn test_input_required_result_capabilities(
        &self,
        cx: Context,
    ) -> Result<Text, ToolError> {
        let (sampled, named) = tokio::join!(
            cx.ask("greeting")
                .sample(SamplingRequest::new("Generate a greeting", 50)),
            ask_name(&cx, "user_name", "What is your name?"),
        );
        // A question the client cannot take is refused in the handler; the
        // others go on.
        let greeting = unless_unsupported(sampled.map(|sampled| sampled.text))?;
        let name = unless_unsupported(named)?;
        Ok(text(&format!("greeting: {greeting}; name: {name}")))
    }

    #[tool]
    async fn test_missing_capability(&self, cx: Context) -> Result<Text, ToolError> {
        let sampled = cx.sample(SamplingRequest::new("Say hello", 20)).await?;
        Ok(text(&sampled.text))
    }

    #[tool]
    fn greet(&self, request: GreetRequest) -> Result<GreetResponse, ToolError> {
        Ok(GreetResponse {
            text: format!("Hello, {}!", request.name),
        })
    }

    #[tool]
    async fn slow_compute(
        &self,
        request: SlowComputeRequest,
        cx: Context,
    ) -> Result<Text, ConformanceError> {
        let work = tokio::time::sleep(Duration::from_secs(u64::from(request.seconds)));
        tokio::select! {
            () = work => {}
            () = cx.cancelled() => {}
        }
        let label = request.label.unwrap_or_else(|| "result".to_owned());
        Ok(text(&format!("Computed {label} in {} s.", request.seconds)))
    }

    #[tool]
    async fn failing_job(&self) -> Result<Text, ConformanceError> {
        Err(ConformanceError::FailedOnPurpose {})
    }

    #[tool]
    async fn protocol_error_job(&self) -> Result<Text, ConformanceError> {
        // The dispatcher catches the panic: the call's answer is `INTERNAL`.
        panic!("protocol_error_job fails on purpose")
    }

    #[tool]
    async fn confirm_delete(
        &self,
        request: ConfirmDeleteRequest,
        cx: Context,
    ) -> Result<Text, ToolError> {
        let confirmed = confirm(&cx, "confirm").await?;
        Ok(text(&format!("{}: deleted={confirmed}", request.filename)))
    }

    #[tool]
    async fn multi_input(&self, cx: Context) -> Result<Text, ToolError> {
        let (name, confirmed) = tokio::join!(
            ask_name(&cx, "user_name", "What is your name?"),
            confirm(&cx, "confirm"),
        );
        Ok(text(&format!("{}: confirmed={}", name?, confirmed?)))
    }

    #[tool]
    async fn test_tool_with_task(&self, cx: Context) -> Result<Text, ToolError> {
        let name = ask_name(&cx, "user_name", "What is your name?").await?;
        Ok(text(&format!("Hello, {name}!")))
    }

    #[tool]
    async fn test_reconnection(&self, cx: Context) -> Result<Text, ToolError> {
        // The client is told to come back shortly; the answer waits for it.
        let closed = cx.close_stream(Duration::from_millis(100)).await;
        Ok(text(if closed {
            "Answered on the resumed stream."
        } else {
            "Answered on the stream the call came on: this transport cannot close it."
        }))
    }

    #[tool]
    async fn test_sampling(
        &self,
        request: TestSamplingRequest,
        cx: Context,
    ) -> Result<Text, ToolError> {
        let sampled = cx.sample(SamplingRequest::new(request.prompt, 100)).await?;
        Ok(text(&format!("LLM response: {}", sampled.text)))
    }

    #[tool]
    async fn test_elicitation(
        &self,
        request: TestElicitationRequest,
        cx: Context,
    ) -> Result<Text, ToolError> {
        let schema = json!({
            "type": "object",
            "properties": {
                "username": {"type": "string", "description": "Your username"},
                "email": {"type": "string", "description": "Your email address"},
            },
            "required": ["username", "email"],
        });
        let answer = cx.elicit::<Value>(request.message, schema).await?;
        Ok(text(&format!("User response: {}", describe(answer))))
    }

    #[tool]
    async fn test_elicitation_sep1034_defaults(&self, cx: Context) -> Result<Text, ToolError> {
        // The requested schema is generated from the `@form` struct.
        let answer = cx.elicit_form::<Details>("Confirm your details").await?;
        let answer = match answer {
            Elicited::Accepted(details) => Elicited::Accepted(
                serde_json::to_value(details).map_err(|e| ToolError::internal(e.to_string()))?,
            ),
            Elicited::Declined => Elicited::Declined,
            Elicited::Cancelled => Elicited::Cancelled,
        };
        Ok(text(&format!(
            "Elicitation completed: {}",
            describe(answer)
        )))
    }

    #[tool]
    async fn test_elicitation_sep1330_enums(&self, cx: Context) -> Result<Text, ToolError> {
        let schema = json!({
            "type": "object",
            "properties": {
                "untitledSingle": {
                    "type": "string",
                    "enum": ["option1", "option2", "option3"],
                },
                "titledSingle": {
                    "type": "string",
                    "oneOf": [
                        {"const": "value1", "title": "First Option"},
                        {"const": "value2", "title": "Second Option"},
                        {"const": "value3", "title": "Third Option"},
                    ],
                },
                "legacyEnum": {
                    "type": "string",
                    "enum": ["opt1", "opt2", "opt3"],
                    "enumNames": ["Option One", "Option Two", "Option Three"],
                },
                "untitledMulti": {
                    "type": "array",
                    "items": {"type": "string", "enum": ["option1", "option2", "option3"]},
                },
                "titledMulti": {
                    "type": "array",
                    "items": {
                        "anyOf": [
                            {"const": "value1", "title": "First Choice"},
                            {"const": "value2", "title": "Second Choice"},
                            {"const": "value3", "title": "Third Choice"},
                        ],
                    },
                },
            },
        });
        let answer = cx.elicit::<Value>("Choose your options", schema).await?;
        Ok(text(&format!(
            "Elicitation completed: {}",
            describe(answer)
        )))
    }

    #[tool]
    fn json_schema_2020_12_tool(
        &self,
        request: JsonSchema202012ToolRequest,
    ) -> Result<Text, ToolError> {
        let name = request.name.unwrap_or_default();
        let city = request.address.and_then(|a| a.city).unwrap_or_default();
        Ok(text(&format!("name={name}, city={city}")))
    }

    #[resource]
    fn static_text(&self) -> Result<&'static str, ToolError> {
        Ok("This is the content of the static text resource.")
    }

    #[resource]
    fn static_binary(&self) -> Result<Vec<u8>, ToolError> {
        Ok(PNG.to_vec())
    }

    #[resource]
    fn template_data(&self, arguments: TemplateDataArguments) -> Result<String, ToolError> {
        let id = arguments.id;
        Ok(
            json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")})
                .to_string(),
        )
    }

    #[resource]
    fn watched_resource(&self) -> Result<&'static str, ToolError> {
        Ok("Watched resource content")
    }

    #[prompt]
    fn test_simple_prompt(&self) -> Result<PromptMessages, ToolError> {
        Ok(PromptMessages::new().user("This is a simple prompt for testing."))
    }

    #[prompt]
    fn test_prompt_with_arguments(
        &self,
        arguments: TestPromptWithArgumentsArguments,
    ) -> Result<PromptMessages, ToolError> {
        Ok(PromptMessages::new().user(format!(
            "Prompt with arguments: arg1='{}', arg2='{}'",
            arguments.arg1, arguments.arg2
        )))
    }

    #[prompt]
    fn test_prompt_with_embedded_resource(
        &self,
        arguments: TestPromptWithEmbeddedResourceArguments,
    ) -> Result<PromptMessages, ToolError> {
        Ok(PromptMessages::new()
            .user(PromptContent::Resource {
                uri: arguments.resource_uri,
                mime_type: Some("text/plain".to_owned()),
                body: ResourceBody::Text("Embedded resource content for testing.".to_owned()),
            })
            .user("Please process the embedded resource above."))
    }

    #[prompt]
    fn test_prompt_with_image(&self) -> Result<PromptMessages, ToolError> {
        let Media { data, mime_type } = png();
        Ok(PromptMessages::new()
            .user(PromptContent::Image { data, mime_type })
            .user("Please analyze the image above."))
    }

    #[complete(test_prompt_with_arguments.arg1)]
    fn complete_arg1(&self, request: CompletionRequest) -> Completion {
        Completion::matching(["paris", "park", "party"], &request.value)
    }
}

/// A one-pixel transparent PNG's bytes.
const PNG: [u8; 67] = [
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4,
    0x89, 0x00, 0x00, 0x00, 0x0a, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x00, 0x01, 0x00, 0x00,
    0x05, 0x00, 0x01, 0x0d, 0x0a, 0x2d, 0xb4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae,
    0x42, 0x60, 0x82,
];

/// A one-pixel transparent PNG.
fn png() -> Media {
    Media {
        data: PNG.to_vec().into(),
        mime_type: "image/png".to_owned(),
    }
}

/// A tenth of a second of silence: 8 kHz, 8-bit mono WAV.
fn wav() -> Media {
    const SAMPLES: u32 = 800;
    let mut wav = Vec::with_capacity(44 + SAMPLES as usize);
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + SAMPLES).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    wav.extend_from_slice(&16u32.to_le_bytes()); // fmt chunk size
    wav.extend_from_slice(&1u16.to_le_bytes()); // PCM
    wav.extend_from_slice(&1u16.to_le_bytes()); // mono
    wav.extend_from_slice(&8000u32.to_le_bytes()); // sample rate
    wav.extend_from_slice(&8000u32.to_le_bytes()); // byte rate
    wav.extend_from_slice(&1u16.to_le_bytes()); // block align
    wav.extend_from_slice(&8u16.to_le_bytes()); // bits per sample
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&SAMPLES.to_le_bytes());
    wav.resize(44 + SAMPLES as usize, 0x80);
    Media {
        data: wav.into(),
        mime_type: "audio/wav".to_owned(),
    }
}

/// A small text resource.
fn resource() -> Embedded {
    Embedded {
        uri: "test://embedded-resource".to_owned(),
        mime_type: Some("text/plain".to_owned()),
        text: Some("This is an embedded resource content.".to_owned()),
        blob: None,
    }
}

fn text(text: &str) -> Text {
    Text {
        text: text.to_owned(),
    }
}

/// Asks the client's user for a name, under `key`.
async fn ask_name(cx: &Context, key: &str, message: &str) -> Result<String, ToolError> {
    let schema = json!({
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"],
    });
    let answer = cx.ask(key).elicit::<Value>(message, schema).await?;
    Ok(answer
        .accepted()
        .and_then(|answer| answer["name"].as_str().map(str::to_owned))
        .unwrap_or_else(|| "stranger".to_owned()))
}

/// Asks the client's user to confirm, under `key`.
async fn confirm(cx: &Context, key: &str) -> Result<bool, ToolError> {
    let schema = json!({
        "type": "object",
        "properties": {"ok": {"type": "boolean"}},
        "required": ["ok"],
    });
    let answer = cx
        .ask(key)
        .elicit::<Value>("Please confirm", schema)
        .await?;
    Ok(answer
        .accepted()
        .is_some_and(|answer| answer["ok"] == json!(true)))
}

/// An answer, or `(not asked)` for a question the client cannot take.
fn unless_unsupported(answer: Result<String, ToolError>) -> Result<String, ToolError> {
    match answer {
        Err(e) if e.code == codes::UNSUPPORTED => Ok("(not asked)".to_owned()),
        answer => answer,
    }
}

/// The URIs of some roots, comma-separated.
fn uris(roots: &[Root]) -> String {
    roots
        .iter()
        .map(|root| root.uri.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// What the user did with an elicitation, as the suite's tools report it.
fn describe(answer: Elicited<Value>) -> String {
    match answer {
        Elicited::Accepted(content) => format!("action=accept, content={content}"),
        Elicited::Declined => "action=decline".to_owned(),
        Elicited::Cancelled => "action=cancel".to_owned(),
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--gateway") {
        args.remove(0);
        // Updates cross from the backend's IOPub, as in a deployment.
        let backend = Server::serve(
            dispatcher(),
            ServerConfig::new("tcp://127.0.0.1:0").iopub("tcp://127.0.0.1:0"),
        )?;
        let iopub = backend
            .iopub_endpoint()
            .ok_or("the HOOT01 backend publishes no IOPub")?;
        let client = Client::<ToolCatalogue>::connect(
            &[backend.endpoint()],
            ClientConfig::default().iopub(iopub),
        )?;
        if !client.ready(Duration::from_secs(5)).await {
            return Err("the HOOT01 backend does not answer".into());
        }
        let server = McpServer::new(client)?
            .named("toolwright-conformance-gateway", env!("CARGO_PKG_VERSION"));
        return serve(server, args.first().map(String::as_str)).await;
    }
    let server =
        McpServer::new(dispatcher())?.named("toolwright-conformance", env!("CARGO_PKG_VERSION"));
    serve(server, args.first().map(String::as_str)).await
}

/// The fixture's dispatcher, its update channel connected so its
/// `@subscribable` resource can be subscribed to (it never changes, so
/// nothing is ever said on it).
fn dispatcher() -> Dispatcher<Conformance> {
    Dispatcher::new(Conformance).with_resource_updates(toolwright::entry::ResourceUpdates::new())
}

/// Serves `server` on stdio (`--stdio`) or Streamable HTTP at `arg`.
async fn serve<P: CallPort>(
    server: McpServer<P>,
    arg: Option<&str>,
) -> Result<(), Box<dyn std::error::Error>> {
    if arg == Some("--stdio") {
        server.serve_stdio().await?;
        return Ok(());
    }
    let addr = arg.unwrap_or("127.0.0.1:0");
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let config = HttpConfig::default();
    // One write, so that a reader never sees half the line: `eprintln!`
    // writes its pieces one by one.
    let line = format!(
        "listening on http://{}{}\n",
        listener.local_addr()?,
        config.path
    );
    std::io::Write::write_all(&mut std::io::stderr().lock(), line.as_bytes())?;
    server.serve_http_on(listener, config).await?;
    Ok(())
}
