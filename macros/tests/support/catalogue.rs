// STAND-IN FOR GENERATED OUTPUT. Written by hand to what docs/rust.md says
// `toolwright_codegen::Builder` generates, so that the macro tests do not
// depend on the code generator; to be replaced by the generator's output for
// `catalogue.tool` beside it (`toolwright generate rust
// macros/tests/support/catalogue.tool --out ...` from the workspace root
// writes the same `declared` locations), which declares:
//
//   add, multiply   request MathOperands, response MathResult, errors MathError
//   garden_status   no request, response GardenStatus, no errors (ToolError)
//   garden_play     no request, no response (an acknowledgement), errors GardenError
//   transfer        request TransferRequest, response TransferResponse,
//                   stream TransferProgress, timing async_long
//   job_*           the built-in job tools, types re-exported from the runtime
//
// Included with `include!` by every ui test and by tests/dispatch.rs, at the
// crate root or in a module (the `#[tools(path)]` case).

/// The two operands of a binary operation.
#[derive(
    Clone,
    Debug,
    PartialEq,
    ::toolwright::__private::serde::Serialize,
    ::toolwright::__private::serde::Deserialize,
)]
#[serde(crate = "::toolwright::__private::serde", deny_unknown_fields)]
pub struct MathOperands {
    /// Left operand.
    pub a: i64,
    /// Right operand.
    pub b: i64,
}

/// The result of a binary operation.
#[derive(
    Clone,
    Debug,
    PartialEq,
    ::toolwright::__private::serde::Serialize,
    ::toolwright::__private::serde::Deserialize,
)]
#[serde(crate = "::toolwright::__private::serde")]
pub struct MathResult {
    /// The result.
    pub result: i64,
}

/// Errors from arithmetic tools.
#[derive(
    Clone,
    Debug,
    PartialEq,
    ::toolwright::__private::serde::Serialize,
    ::toolwright::__private::serde::Deserialize,
)]
#[serde(crate = "::toolwright::__private::serde", rename_all = "snake_case")]
pub enum MathError {
    /// The result does not fit in a signed 64-bit integer.
    Overflow {},
}

impl MathError {
    /// The stable wire code of this error.
    pub const fn code(&self) -> &'static str {
        match self {
            MathError::Overflow { .. } => "OVERFLOW",
        }
    }
}

impl ::core::fmt::Display for MathError {
    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
        match self {
            MathError::Overflow { .. } => {
                f.write_str("The result does not fit in a signed 64-bit integer.")
            }
        }
    }
}

impl ::std::error::Error for MathError {}

impl ::toolwright::__private::IntoToolError for MathError {
    fn into_tool_error(self) -> ::toolwright::__private::ToolError {
        let details = ::toolwright::__private::serde_json::to_value(&self).ok();
        ::toolwright::__private::ToolError {
            code: self.code().into(),
            message: self.to_string(),
            details,
        }
    }
}

/// What the garden is doing.
#[derive(
    Clone,
    Debug,
    PartialEq,
    ::toolwright::__private::serde::Serialize,
    ::toolwright::__private::serde::Deserialize,
)]
#[serde(crate = "::toolwright::__private::serde")]
pub struct GardenStatus {
    /// True while it plays.
    pub playing: bool,
    /// Tempo in beats per minute.
    pub tempo_bpm: f64,
}

/// Errors from the garden.
#[derive(
    Clone,
    Debug,
    PartialEq,
    ::toolwright::__private::serde::Serialize,
    ::toolwright::__private::serde::Deserialize,
)]
#[serde(crate = "::toolwright::__private::serde", rename_all = "snake_case")]
pub enum GardenError {
    /// No audio device is open.
    NoDevice {},
}

impl GardenError {
    /// The stable wire code of this error.
    pub const fn code(&self) -> &'static str {
        match self {
            GardenError::NoDevice { .. } => "NO_DEVICE",
        }
    }
}

impl ::core::fmt::Display for GardenError {
    fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
        match self {
            GardenError::NoDevice { .. } => f.write_str("No audio device is open."),
        }
    }
}

impl ::std::error::Error for GardenError {}

impl ::toolwright::__private::IntoToolError for GardenError {
    fn into_tool_error(self) -> ::toolwright::__private::ToolError {
        let details = ::toolwright::__private::serde_json::to_value(&self).ok();
        ::toolwright::__private::ToolError {
            code: self.code().into(),
            message: self.to_string(),
            details,
        }
    }
}

/// The request of `transfer`.
#[derive(
    Clone,
    Debug,
    PartialEq,
    ::toolwright::__private::serde::Serialize,
    ::toolwright::__private::serde::Deserialize,
)]
#[serde(crate = "::toolwright::__private::serde", deny_unknown_fields)]
pub struct TransferRequest {
    /// Where to copy from.
    pub uri: String,
}

/// The response of `transfer`.
#[derive(
    Clone,
    Debug,
    PartialEq,
    ::toolwright::__private::serde::Serialize,
    ::toolwright::__private::serde::Deserialize,
)]
#[serde(crate = "::toolwright::__private::serde")]
pub struct TransferResponse {
    /// Bytes copied.
    pub bytes: u64,
}

/// Progress of a transfer, streamed while it runs.
#[derive(
    Clone,
    Debug,
    PartialEq,
    ::toolwright::__private::serde::Serialize,
    ::toolwright::__private::serde::Deserialize,
)]
#[serde(crate = "::toolwright::__private::serde")]
pub struct TransferProgress {
    /// Bytes copied so far.
    pub done: u64,
}

pub use ::toolwright::__private::jobs::{
    JobCancelResponse, JobError, JobInfo, JobListRequest, JobListResponse, JobPollRequest,
    JobPollResponse, JobRef,
};

/// Add two integers.
pub struct AddTool;

impl ::toolwright::__private::Tool for AddTool {
    type Request = MathOperands;
    type Response = MathResult;
    type Error = MathError;
    type Chunk = ();
    const NAME: &'static str = "add";
    const TIMING: ::toolwright::__private::ToolTiming = ::toolwright::__private::ToolTiming::Sync;
    const DESCRIPTION: &'static str = "Add two integers.";
}

/// Multiply two integers.
pub struct MultiplyTool;

impl ::toolwright::__private::Tool for MultiplyTool {
    type Request = MathOperands;
    type Response = MathResult;
    type Error = MathError;
    type Chunk = ();
    const NAME: &'static str = "multiply";
    const TIMING: ::toolwright::__private::ToolTiming = ::toolwright::__private::ToolTiming::Sync;
    const DESCRIPTION: &'static str = "Multiply two integers.";
}

/// What the garden is doing.
pub struct GardenStatusTool;

impl ::toolwright::__private::Tool for GardenStatusTool {
    type Request = ();
    type Response = GardenStatus;
    type Error = ::toolwright::__private::ToolError;
    type Chunk = ();
    const NAME: &'static str = "garden_status";
    const TIMING: ::toolwright::__private::ToolTiming = ::toolwright::__private::ToolTiming::Sync;
    const DESCRIPTION: &'static str = "What the garden is doing.";
}

/// Start playing.
pub struct GardenPlayTool;

impl ::toolwright::__private::Tool for GardenPlayTool {
    type Request = ();
    type Response = ();
    type Error = GardenError;
    type Chunk = ();
    const NAME: &'static str = "garden_play";
    const TIMING: ::toolwright::__private::ToolTiming =
        ::toolwright::__private::ToolTiming::FireAndForget;
    const DESCRIPTION: &'static str = "Start playing.";
}

/// Copy a file, reporting progress.
pub struct TransferTool;

impl ::toolwright::__private::Tool for TransferTool {
    type Request = TransferRequest;
    type Response = TransferResponse;
    type Error = ::toolwright::__private::ToolError;
    type Chunk = TransferProgress;
    const NAME: &'static str = "transfer";
    const TIMING: ::toolwright::__private::ToolTiming =
        ::toolwright::__private::ToolTiming::AsyncLong;
    const DESCRIPTION: &'static str = "Copy a file, reporting progress.";
}

/// Report one job's state, timing and (when finished) result.
pub struct JobStatusTool;

impl ::toolwright::__private::Tool for JobStatusTool {
    type Request = JobRef;
    type Response = JobInfo;
    type Error = JobError;
    type Chunk = ();
    const NAME: &'static str = "job_status";
    const TIMING: ::toolwright::__private::ToolTiming = ::toolwright::__private::ToolTiming::Sync;
    const DESCRIPTION: &'static str = "Report one job's state, timing and (when finished) result.";
}

/// List jobs, newest first, optionally only those in one state.
pub struct JobListTool;

impl ::toolwright::__private::Tool for JobListTool {
    type Request = JobListRequest;
    type Response = JobListResponse;
    type Error = ::toolwright::__private::ToolError;
    type Chunk = ();
    const NAME: &'static str = "job_list";
    const TIMING: ::toolwright::__private::ToolTiming = ::toolwright::__private::ToolTiming::Sync;
    const DESCRIPTION: &'static str =
        "List jobs, newest first, optionally only those in one state.";
}

/// Wait until jobs finish or the timeout passes, whichever comes first.
pub struct JobPollTool;

impl ::toolwright::__private::Tool for JobPollTool {
    type Request = JobPollRequest;
    type Response = JobPollResponse;
    type Error = JobError;
    type Chunk = ();
    const NAME: &'static str = "job_poll";
    const TIMING: ::toolwright::__private::ToolTiming = ::toolwright::__private::ToolTiming::Sync;
    const DESCRIPTION: &'static str =
        "Wait until jobs finish or the timeout passes, whichever comes first.";
}

/// Cancel a job; its handler is stopped, not just forgotten.
pub struct JobCancelTool;

impl ::toolwright::__private::Tool for JobCancelTool {
    type Request = JobRef;
    type Response = JobCancelResponse;
    type Error = JobError;
    type Chunk = ();
    const NAME: &'static str = "job_cancel";
    const TIMING: ::toolwright::__private::ToolTiming = ::toolwright::__private::ToolTiming::Sync;
    const DESCRIPTION: &'static str = "Cancel a job; its handler is stopped, not just forgotten.";
}

/// A call of any tool of the catalogue: `{"tool": "add", "a": 1, "b": 2}`.
#[derive(Clone, Debug, PartialEq, ::toolwright::__private::serde::Serialize)]
#[serde(
    crate = "::toolwright::__private::serde",
    tag = "tool",
    rename_all = "snake_case"
)]
pub enum ToolRequest {
    /// `add`: add two integers.
    Add(MathOperands),
    /// `multiply`: multiply two integers.
    Multiply(MathOperands),
    /// `garden_status`: what the garden is doing.
    GardenStatus,
    /// `garden_play`: start playing.
    GardenPlay,
    /// `transfer`: copy a file, reporting progress.
    Transfer(TransferRequest),
    /// `job_status`: report one job's state.
    JobStatus(JobRef),
    /// `job_list`: list jobs.
    JobList(JobListRequest),
    /// `job_poll`: wait for jobs.
    JobPoll(JobPollRequest),
    /// `job_cancel`: cancel a job.
    JobCancel(JobRef),
}

// The job tools' requests carry constraints; this catalogue's own have none.
impl toolwright::Validate for ToolRequest {
    fn validate(&self) -> Result<(), toolwright::Violation> {
        use toolwright::Validate;
        match self {
            Self::JobStatus(r) | Self::JobCancel(r) => Validate::validate(r),
            Self::JobList(r) => Validate::validate(r),
            Self::JobPoll(r) => Validate::validate(r),
            _ => Ok(()),
        }
    }
}

impl ::toolwright::__private::tagged::Tagged for ToolRequest {
    const TAG: &'static str = "tool";
    const EXPECTING: &'static str = "a tool request";
    const VARIANTS: &'static [&'static str] = &[
        "add",
        "multiply",
        "garden_status",
        "garden_play",
        "transfer",
        "job_status",
        "job_list",
        "job_poll",
        "job_cancel",
    ];

    fn variant<'de, A: ::toolwright::__private::serde::de::MapAccess<'de>>(
        name: &str,
        rest: A,
    ) -> ::toolwright::__private::Result<Self, A::Error> {
        use ::toolwright::__private::tagged;
        ::toolwright::__private::Result::Ok(match name {
            "add" => ToolRequest::Add(tagged::rest(rest)?),
            "multiply" => ToolRequest::Multiply(tagged::rest(rest)?),
            "garden_status" => {
                tagged::unit(rest)?;
                ToolRequest::GardenStatus
            }
            "garden_play" => {
                tagged::unit(rest)?;
                ToolRequest::GardenPlay
            }
            "transfer" => ToolRequest::Transfer(tagged::rest(rest)?),
            "job_status" => ToolRequest::JobStatus(tagged::rest(rest)?),
            "job_list" => ToolRequest::JobList(tagged::rest(rest)?),
            "job_poll" => ToolRequest::JobPoll(tagged::rest(rest)?),
            "job_cancel" => ToolRequest::JobCancel(tagged::rest(rest)?),
            _ => {
                return ::toolwright::__private::Result::Err(tagged::unknown::<A::Error, Self>(
                    name,
                ));
            }
        })
    }
}

impl<'de> ::toolwright::__private::serde::Deserialize<'de> for ToolRequest {
    fn deserialize<D: ::toolwright::__private::serde::Deserializer<'de>>(
        deserializer: D,
    ) -> ::toolwright::__private::Result<Self, D::Error> {
        ::toolwright::__private::tagged::deserialize(deserializer)
    }
}

/// The answer of any tool of the catalogue: `{"tool": "add", "result": 3}`.
#[derive(Clone, Debug, PartialEq, ::toolwright::__private::serde::Serialize)]
#[serde(
    crate = "::toolwright::__private::serde",
    tag = "tool",
    rename_all = "snake_case"
)]
pub enum ToolResponse {
    /// `add`: add two integers.
    Add(MathResult),
    /// `multiply`: multiply two integers.
    Multiply(MathResult),
    /// `garden_status`: what the garden is doing.
    GardenStatus(GardenStatus),
    /// `garden_play`: start playing.
    GardenPlay,
    /// `transfer`: copy a file, reporting progress.
    Transfer(TransferResponse),
    /// `job_status`: report one job's state.
    JobStatus(JobInfo),
    /// `job_list`: list jobs.
    JobList(JobListResponse),
    /// `job_poll`: wait for jobs.
    JobPoll(JobPollResponse),
    /// `job_cancel`: cancel a job.
    JobCancel(JobCancelResponse),
}

impl ::toolwright::__private::tagged::Tagged for ToolResponse {
    const TAG: &'static str = "tool";
    const EXPECTING: &'static str = "a tool response";
    const VARIANTS: &'static [&'static str] =
        <ToolRequest as ::toolwright::__private::tagged::Tagged>::VARIANTS;

    fn variant<'de, A: ::toolwright::__private::serde::de::MapAccess<'de>>(
        name: &str,
        rest: A,
    ) -> ::toolwright::__private::Result<Self, A::Error> {
        use ::toolwright::__private::tagged;
        ::toolwright::__private::Result::Ok(match name {
            "add" => ToolResponse::Add(tagged::rest(rest)?),
            "multiply" => ToolResponse::Multiply(tagged::rest(rest)?),
            "garden_status" => ToolResponse::GardenStatus(tagged::rest(rest)?),
            "garden_play" => {
                tagged::unit(rest)?;
                ToolResponse::GardenPlay
            }
            "transfer" => ToolResponse::Transfer(tagged::rest(rest)?),
            "job_status" => ToolResponse::JobStatus(tagged::rest(rest)?),
            "job_list" => ToolResponse::JobList(tagged::rest(rest)?),
            "job_poll" => ToolResponse::JobPoll(tagged::rest(rest)?),
            "job_cancel" => ToolResponse::JobCancel(tagged::rest(rest)?),
            _ => {
                return ::toolwright::__private::Result::Err(tagged::unknown::<A::Error, Self>(
                    name,
                ));
            }
        })
    }
}

impl<'de> ::toolwright::__private::serde::Deserialize<'de> for ToolResponse {
    fn deserialize<D: ::toolwright::__private::serde::Deserializer<'de>>(
        deserializer: D,
    ) -> ::toolwright::__private::Result<Self, D::Error> {
        ::toolwright::__private::tagged::deserialize(deserializer)
    }
}

/// The catalogue: every tool's metadata and the job-tool hand-off.
pub struct ToolCatalogue;

impl ::toolwright::__private::Catalogue for ToolCatalogue {
    type Request = ToolRequest;
    type Response = ToolResponse;

    const TOOLS: &'static [::toolwright::__private::ToolInfo] = &[
        tool_info(
            "add",
            Some("Add"),
            "Add two integers.",
            ::toolwright::__private::ToolTiming::Sync,
            false,
            false,
        ),
        tool_info(
            "multiply",
            Some("Multiply"),
            "Multiply two integers.",
            ::toolwright::__private::ToolTiming::Sync,
            false,
            false,
        ),
        tool_info(
            "garden_status",
            None,
            "What the garden is doing.",
            ::toolwright::__private::ToolTiming::Sync,
            false,
            false,
        ),
        tool_info(
            "garden_play",
            None,
            "Start playing.",
            ::toolwright::__private::ToolTiming::FireAndForget,
            false,
            false,
        ),
        tool_info(
            "transfer",
            None,
            "Copy a file, reporting progress.",
            ::toolwright::__private::ToolTiming::AsyncLong,
            true,
            false,
        ),
        tool_info(
            "job_status",
            Some("Job status"),
            "Report one job's state, timing and (when finished) result.",
            ::toolwright::__private::ToolTiming::Sync,
            false,
            true,
        ),
        tool_info(
            "job_list",
            Some("List jobs"),
            "List jobs, newest first, optionally only those in one state.",
            ::toolwright::__private::ToolTiming::Sync,
            false,
            true,
        ),
        tool_info(
            "job_poll",
            Some("Wait for jobs"),
            "Wait until jobs finish or the timeout passes, whichever comes first.",
            ::toolwright::__private::ToolTiming::Sync,
            false,
            true,
        ),
        tool_info(
            "job_cancel",
            Some("Cancel job"),
            "Cancel a job; its handler is stopped, not just forgotten.",
            ::toolwright::__private::ToolTiming::Sync,
            false,
            true,
        ),
    ];
    const MCP_SCHEMA: &'static str = r#"{"tools": [], "actions": {}}"#;

    const METADATA: &'static str = r#"{"tools": []}"#;

    fn tool(name: &str) -> ::core::option::Option<&'static ::toolwright::__private::ToolInfo> {
        <Self as ::toolwright::__private::Catalogue>::TOOLS
            .iter()
            .find(|tool| tool.name == name)
    }

    fn call_info(request: &ToolRequest) -> ::toolwright::__private::CallInfo {
        let index = match request {
            ToolRequest::Add(_) => 0,
            ToolRequest::Multiply(_) => 1,
            ToolRequest::GardenStatus => 2,
            ToolRequest::GardenPlay => 3,
            ToolRequest::Transfer(_) => 4,
            ToolRequest::JobStatus(_) => 5,
            ToolRequest::JobList(_) => 6,
            ToolRequest::JobPoll(_) => 7,
            ToolRequest::JobCancel(_) => 8,
        };
        let tool = &<Self as ::toolwright::__private::Catalogue>::TOOLS[index];
        ::toolwright::__private::CallInfo {
            tool,
            action: ::core::option::Option::None,
            timing: tool.timing,
        }
    }

    fn into_job_call(
        request: ToolRequest,
    ) -> ::toolwright::__private::Result<::toolwright::__private::jobs::JobCall, ToolRequest> {
        use ::toolwright::__private::jobs::JobCall;
        match request {
            ToolRequest::JobStatus(r) => ::toolwright::__private::Result::Ok(JobCall::Status(r)),
            ToolRequest::JobList(r) => ::toolwright::__private::Result::Ok(JobCall::List(r)),
            ToolRequest::JobPoll(r) => ::toolwright::__private::Result::Ok(JobCall::Poll(r)),
            ToolRequest::JobCancel(r) => ::toolwright::__private::Result::Ok(JobCall::Cancel(r)),
            other => ::toolwright::__private::Result::Err(other),
        }
    }

    fn from_job_reply(reply: ::toolwright::__private::jobs::JobReply) -> ToolResponse {
        use ::toolwright::__private::jobs::JobReply;
        match reply {
            JobReply::Status(r) => ToolResponse::JobStatus(r),
            JobReply::List(r) => ToolResponse::JobList(r),
            JobReply::Poll(r) => ToolResponse::JobPoll(r),
            JobReply::Cancel(r) => ToolResponse::JobCancel(r),
        }
    }
}

const fn tool_info(
    name: &'static str,
    title: ::core::option::Option<&'static str>,
    description: &'static str,
    timing: ::toolwright::__private::ToolTiming,
    streams: bool,
    builtin: bool,
) -> ::toolwright::__private::ToolInfo {
    ::toolwright::__private::ToolInfo {
        name,
        title,
        description,
        timing,
        actions: &[],
        streams,
        builtin,
    }
}

/// Called back by `#[toolwright::tools]` with the impl block to bind.
#[doc(hidden)]
#[allow(unused_macros, reason = "called by `#[tools]`, if the crate binds handlers")]
macro_rules! __toolwright_catalogue {
    ($($input:tt)*) => {
        ::toolwright::__private::bind! {
            catalogue {
                tool "job_status" {
                    variant JobStatus,
                    marker JobStatusTool,
                    request JobRef,
                    response JobInfo,
                    error JobError,
                    timing sync,
                    declared "<builtin>/jobs.tool:8:6",
                    builtin,
                }
                tool "job_list" {
                    variant JobList,
                    marker JobListTool,
                    request JobListRequest,
                    response JobListResponse,
                    timing sync,
                    declared "<builtin>/jobs.tool:18:6",
                    builtin,
                }
                tool "job_poll" {
                    variant JobPoll,
                    marker JobPollTool,
                    request JobPollRequest,
                    response JobPollResponse,
                    error JobError,
                    timing sync,
                    declared "<builtin>/jobs.tool:42:6",
                    builtin,
                }
                tool "job_cancel" {
                    variant JobCancel,
                    marker JobCancelTool,
                    request JobRef,
                    response JobCancelResponse,
                    error JobError,
                    timing sync,
                    declared "<builtin>/jobs.tool:72:6",
                    builtin,
                }
                tool "add" {
                    variant Add,
                    marker AddTool,
                    request MathOperands,
                    response MathResult,
                    error MathError,
                    timing sync,
                    declared "macros/tests/support/catalogue.tool:7:6",
                }
                tool "multiply" {
                    variant Multiply,
                    marker MultiplyTool,
                    request MathOperands,
                    response MathResult,
                    error MathError,
                    timing sync,
                    declared "macros/tests/support/catalogue.tool:16:6",
                }
                tool "garden_status" {
                    variant GardenStatus,
                    marker GardenStatusTool,
                    response GardenStatus,
                    timing sync,
                    declared "macros/tests/support/catalogue.tool:25:6",
                }
                tool "garden_play" {
                    variant GardenPlay,
                    marker GardenPlayTool,
                    error GardenError,
                    timing fire_and_forget,
                    declared "macros/tests/support/catalogue.tool:28:6",
                }
                tool "transfer" {
                    variant Transfer,
                    marker TransferTool,
                    request TransferRequest,
                    response TransferResponse,
                    stream TransferProgress,
                    timing async_long,
                    declared "macros/tests/support/catalogue.tool:31:6",
                }
            }
            $($input)*
        }
    };
}

#[doc(hidden)]
#[allow(unused_imports, reason = "used by `#[tools]`, if the crate binds handlers")]
pub(crate) use __toolwright_catalogue;
