//! A catalogue written by hand the way `toolwright_codegen` generates one
//! (docs/rust.md), for this IDL:
//!
//! ```text
//! tool add      { timing sync  request MathOperands { a: i64, b: i64 }
//!                 response MathResult { result: i64 }  errors MathError }
//! tool echo     { timing sync  request Echo { text: string, data: bytes,
//!                 items: list<u32>, tags: map<string>, value: json? }  response Echo }
//! tool crash    { timing sync }                          // its handler panics
//! tool sleep    { timing async_short   request { ms: u64 }  response { slept_ms: u64 } }
//! tool render   { timing async_medium  request { ms: u64 }  response { frames: u32 } }
//! tool generate { timing async_long  request { chunks: u32, interval_ms: u64 }
//!                 response { sent: u32 }  stream GenerationChunk }
//! tool stubborn { timing async_long }                    // ignores cancellation
//! tool meltdown { timing async_long }                    // its handler panics
//! tool launch   { timing fire_and_forget  request { fail: bool }  errors LaunchError }
//! tool fs {
//!     action read  { timing sync         request { uri: string }  response { text: string } }
//!     action write { timing async_short  request { uri: string, content: string, ms: u64 = 0 }
//!                    response { written: u64 } }
//! }
//! union GenerationChunk { step { n: u32 } }
//! error MathError { overflow }
//! error LaunchError { engine_down { reason: string } }
//! + the built-in job tools
//! ```

use std::collections::BTreeMap;

use toolwright::__private::serde::{self, Deserialize, Deserializer, Serialize};
use toolwright::__private::tagged::{self, Tagged};
use toolwright::jobs::{
    JobCall, JobCancelResponse, JobInfo, JobListRequest, JobListResponse, JobPollRequest,
    JobPollResponse, JobRef, JobReply,
};
use toolwright::{
    ActionInfo, Bytes, CallInfo, Catalogue, IntoToolError, Json, Tool, ToolError, ToolInfo,
    ToolTiming,
};

// ---- types ----

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(crate = "toolwright::__private::serde", deny_unknown_fields)]
pub struct MathOperands {
    pub a: i64,
    pub b: i64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(crate = "toolwright::__private::serde")]
pub struct MathResult {
    pub result: i64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(crate = "toolwright::__private::serde", deny_unknown_fields)]
pub struct Echo {
    pub text: String,
    pub data: Bytes,
    pub items: Vec<u32>,
    pub tags: BTreeMap<String, String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Json>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(crate = "toolwright::__private::serde", deny_unknown_fields)]
pub struct DelayRequest {
    pub ms: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(crate = "toolwright::__private::serde")]
pub struct SleepResponse {
    pub slept_ms: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(crate = "toolwright::__private::serde")]
pub struct RenderResponse {
    pub frames: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(crate = "toolwright::__private::serde", deny_unknown_fields)]
pub struct GenerateRequest {
    pub chunks: u32,
    pub interval_ms: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(crate = "toolwright::__private::serde")]
pub struct GenerateResponse {
    pub sent: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(crate = "toolwright::__private::serde", rename_all = "snake_case")]
pub enum GenerationChunk {
    Step { n: u32 },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(crate = "toolwright::__private::serde", deny_unknown_fields)]
pub struct LaunchRequest {
    pub fail: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(crate = "toolwright::__private::serde", deny_unknown_fields)]
pub struct FsReadRequest {
    pub uri: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(crate = "toolwright::__private::serde")]
pub struct FsReadResponse {
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(crate = "toolwright::__private::serde", deny_unknown_fields)]
pub struct FsWriteRequest {
    pub uri: String,
    pub content: String,
    #[serde(default)]
    pub ms: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(crate = "toolwright::__private::serde")]
pub struct FsWriteResponse {
    pub written: u64,
}

/// `fs`'s request: one variant per action, tagged by `action`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(
    crate = "toolwright::__private::serde",
    tag = "action",
    rename_all = "snake_case"
)]
pub enum FsRequest {
    Read(FsReadRequest),
    Write(FsWriteRequest),
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(
    crate = "toolwright::__private::serde",
    tag = "action",
    rename_all = "snake_case"
)]
pub enum FsResponse {
    Read(FsReadResponse),
    Write(FsWriteResponse),
}

// ---- errors ----

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(crate = "toolwright::__private::serde", rename_all = "snake_case")]
pub enum MathError {
    Overflow {},
}

impl MathError {
    pub const fn code(&self) -> &'static str {
        "OVERFLOW"
    }
}

impl std::fmt::Display for MathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("The result does not fit in an i64.")
    }
}

impl IntoToolError for MathError {
    fn into_tool_error(self) -> ToolError {
        let details = toolwright::__private::serde_json::to_value(&self).ok();
        let mut e = ToolError::new(self.code(), self.to_string());
        e.details = details;
        e
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(crate = "toolwright::__private::serde", rename_all = "snake_case")]
pub enum LaunchError {
    EngineDown { reason: String },
}

impl LaunchError {
    pub const fn code(&self) -> &'static str {
        "ENGINE_DOWN"
    }
}

impl std::fmt::Display for LaunchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("The engine is not running.")
    }
}

impl IntoToolError for LaunchError {
    fn into_tool_error(self) -> ToolError {
        let details = toolwright::__private::serde_json::to_value(&self).ok();
        let mut e = ToolError::new(self.code(), self.to_string());
        e.details = details;
        e
    }
}

// ---- catalogue enums ----

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(
    crate = "toolwright::__private::serde",
    tag = "tool",
    rename_all = "snake_case"
)]
pub enum ToolRequest {
    Add(MathOperands),
    Echo(Echo),
    Crash,
    Sleep(DelayRequest),
    Render(DelayRequest),
    Generate(GenerateRequest),
    Stubborn,
    Meltdown,
    Launch(LaunchRequest),
    Fs(FsRequest),
    JobStatus(JobRef),
    JobList(JobListRequest),
    JobPoll(JobPollRequest),
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

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(
    crate = "toolwright::__private::serde",
    tag = "tool",
    rename_all = "snake_case"
)]
pub enum ToolResponse {
    Add(MathResult),
    Echo(Echo),
    Crash,
    Sleep(SleepResponse),
    Render(RenderResponse),
    Generate(GenerateResponse),
    Stubborn,
    Meltdown,
    Launch,
    Fs(FsResponse),
    JobStatus(JobInfo),
    JobList(JobListResponse),
    JobPoll(JobPollResponse),
    JobCancel(JobCancelResponse),
}

impl Tagged for ToolRequest {
    const TAG: &'static str = "tool";
    const EXPECTING: &'static str = "a tool request";
    const VARIANTS: &'static [&'static str] = &TOOL_NAMES;

    fn variant<'de, A: serde::de::MapAccess<'de>>(name: &str, rest: A) -> Result<Self, A::Error> {
        Ok(match name {
            "add" => ToolRequest::Add(tagged::rest(rest)?),
            "echo" => ToolRequest::Echo(tagged::rest(rest)?),
            "crash" => {
                tagged::unit(rest)?;
                ToolRequest::Crash
            }
            "sleep" => ToolRequest::Sleep(tagged::rest(rest)?),
            "render" => ToolRequest::Render(tagged::rest(rest)?),
            "generate" => ToolRequest::Generate(tagged::rest(rest)?),
            "stubborn" => {
                tagged::unit(rest)?;
                ToolRequest::Stubborn
            }
            "meltdown" => {
                tagged::unit(rest)?;
                ToolRequest::Meltdown
            }
            "launch" => ToolRequest::Launch(tagged::rest(rest)?),
            "fs" => ToolRequest::Fs(tagged::rest(rest)?),
            "job_status" => ToolRequest::JobStatus(tagged::rest(rest)?),
            "job_list" => ToolRequest::JobList(tagged::rest(rest)?),
            "job_poll" => ToolRequest::JobPoll(tagged::rest(rest)?),
            "job_cancel" => ToolRequest::JobCancel(tagged::rest(rest)?),
            other => return Err(tagged::unknown::<_, Self>(other)),
        })
    }
}

impl<'de> Deserialize<'de> for ToolRequest {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        tagged::deserialize(d)
    }
}

impl Tagged for ToolResponse {
    const TAG: &'static str = "tool";
    const EXPECTING: &'static str = "a tool response";
    const VARIANTS: &'static [&'static str] = &TOOL_NAMES;

    fn variant<'de, A: serde::de::MapAccess<'de>>(name: &str, rest: A) -> Result<Self, A::Error> {
        Ok(match name {
            "add" => ToolResponse::Add(tagged::rest(rest)?),
            "echo" => ToolResponse::Echo(tagged::rest(rest)?),
            "crash" => {
                tagged::unit(rest)?;
                ToolResponse::Crash
            }
            "sleep" => ToolResponse::Sleep(tagged::rest(rest)?),
            "render" => ToolResponse::Render(tagged::rest(rest)?),
            "generate" => ToolResponse::Generate(tagged::rest(rest)?),
            "stubborn" => {
                tagged::unit(rest)?;
                ToolResponse::Stubborn
            }
            "meltdown" => {
                tagged::unit(rest)?;
                ToolResponse::Meltdown
            }
            "launch" => {
                tagged::unit(rest)?;
                ToolResponse::Launch
            }
            "fs" => ToolResponse::Fs(tagged::rest(rest)?),
            "job_status" => ToolResponse::JobStatus(tagged::rest(rest)?),
            "job_list" => ToolResponse::JobList(tagged::rest(rest)?),
            "job_poll" => ToolResponse::JobPoll(tagged::rest(rest)?),
            "job_cancel" => ToolResponse::JobCancel(tagged::rest(rest)?),
            other => return Err(tagged::unknown::<_, Self>(other)),
        })
    }
}

impl<'de> Deserialize<'de> for ToolResponse {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        tagged::deserialize(d)
    }
}

impl Tagged for FsRequest {
    const TAG: &'static str = "action";
    const EXPECTING: &'static str = "an `fs` request";
    const VARIANTS: &'static [&'static str] = &["read", "write"];

    fn variant<'de, A: serde::de::MapAccess<'de>>(name: &str, rest: A) -> Result<Self, A::Error> {
        Ok(match name {
            "read" => FsRequest::Read(tagged::rest(rest)?),
            "write" => FsRequest::Write(tagged::rest(rest)?),
            other => return Err(tagged::unknown::<_, Self>(other)),
        })
    }
}

impl<'de> Deserialize<'de> for FsRequest {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        tagged::deserialize(d)
    }
}

impl Tagged for FsResponse {
    const TAG: &'static str = "action";
    const EXPECTING: &'static str = "an `fs` response";
    const VARIANTS: &'static [&'static str] = &["read", "write"];

    fn variant<'de, A: serde::de::MapAccess<'de>>(name: &str, rest: A) -> Result<Self, A::Error> {
        Ok(match name {
            "read" => FsResponse::Read(tagged::rest(rest)?),
            "write" => FsResponse::Write(tagged::rest(rest)?),
            other => return Err(tagged::unknown::<_, Self>(other)),
        })
    }
}

impl<'de> Deserialize<'de> for FsResponse {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        tagged::deserialize(d)
    }
}

// ---- metadata ----

const TOOL_NAMES: [&str; 14] = [
    "add",
    "echo",
    "crash",
    "sleep",
    "render",
    "generate",
    "stubborn",
    "meltdown",
    "launch",
    "fs",
    "job_status",
    "job_list",
    "job_poll",
    "job_cancel",
];

const fn info(name: &'static str, timing: ToolTiming) -> ToolInfo {
    ToolInfo {
        name,
        title: None,
        description: "",
        timing,
        actions: &[],
        streams: false,
        builtin: false,
    }
}

const fn builtin(name: &'static str) -> ToolInfo {
    ToolInfo {
        builtin: true,
        ..info(name, ToolTiming::Sync)
    }
}

static FS_ACTIONS: [ActionInfo; 2] = [
    ActionInfo {
        name: "read",
        title: None,
        description: "Read a file.",
        timing: ToolTiming::Sync,
    },
    ActionInfo {
        name: "write",
        title: None,
        description: "Write a file.",
        timing: ToolTiming::AsyncShort,
    },
];

static TOOLS: [ToolInfo; 14] = [
    info("add", ToolTiming::Sync),
    info("echo", ToolTiming::Sync),
    info("crash", ToolTiming::Sync),
    info("sleep", ToolTiming::AsyncShort),
    info("render", ToolTiming::AsyncMedium),
    ToolInfo {
        streams: true,
        ..info("generate", ToolTiming::AsyncLong)
    },
    info("stubborn", ToolTiming::AsyncLong),
    info("meltdown", ToolTiming::AsyncLong),
    info("launch", ToolTiming::FireAndForget),
    ToolInfo {
        actions: &FS_ACTIONS,
        ..info("fs", ToolTiming::AsyncShort)
    },
    builtin("job_status"),
    builtin("job_list"),
    builtin("job_poll"),
    builtin("job_cancel"),
];

/// The catalogue.
pub struct ToolCatalogue;

impl Catalogue for ToolCatalogue {
    type Request = ToolRequest;
    type Response = ToolResponse;

    const TOOLS: &'static [ToolInfo] = &TOOLS;
    // Only what the MCP tests read: names and open input schemas.
    const MCP_SCHEMA: &'static str = r#"{"tools": [
        {"name": "add", "inputSchema": {"type": "object"}},
        {"name": "echo", "inputSchema": {"type": "object"}},
        {"name": "crash", "inputSchema": {"type": "object"}},
        {"name": "sleep", "inputSchema": {"type": "object"}},
        {"name": "render", "inputSchema": {"type": "object"}},
        {"name": "generate", "inputSchema": {"type": "object"}},
        {"name": "stubborn", "inputSchema": {"type": "object"}},
        {"name": "meltdown", "inputSchema": {"type": "object"}},
        {"name": "launch", "inputSchema": {"type": "object"}},
        {"name": "fs", "inputSchema": {"type": "object"}},
        {"name": "job_status", "inputSchema": {"type": "object"}},
        {"name": "job_list", "inputSchema": {"type": "object"}},
        {"name": "job_poll", "inputSchema": {"type": "object"}},
        {"name": "job_cancel", "inputSchema": {"type": "object"}}
    ], "actions": {}}"#;
    // Only what the web tests read: a few entries of the generated shape.
    const METADATA: &'static str = r#"{"tools": [
        {"name": "add", "description": "Adds two integers.", "category": "math",
         "source": "local", "timing": "sync",
         "parameters": [
            {"name": "a", "type": "integer", "idlType": "i64", "required": true},
            {"name": "b", "type": "integer", "idlType": "i64", "required": true}
         ],
         "errorCodes": ["OVERFLOW"], "streams": false},
        {"name": "generate", "category": "media", "source": "local",
         "timing": "async_long", "parameters": [], "errorCodes": [], "streams": true}
    ]}"#;

    fn tool(name: &str) -> Option<&'static ToolInfo> {
        let index = TOOL_NAMES.iter().position(|n| *n == name)?;
        TOOLS.get(index)
    }

    fn call_info(request: &ToolRequest) -> CallInfo {
        let (index, action) = match request {
            ToolRequest::Add(_) => (0, None),
            ToolRequest::Echo(_) => (1, None),
            ToolRequest::Crash => (2, None),
            ToolRequest::Sleep(_) => (3, None),
            ToolRequest::Render(_) => (4, None),
            ToolRequest::Generate(_) => (5, None),
            ToolRequest::Stubborn => (6, None),
            ToolRequest::Meltdown => (7, None),
            ToolRequest::Launch(_) => (8, None),
            ToolRequest::Fs(FsRequest::Read(_)) => (9, Some(&FS_ACTIONS[0])),
            ToolRequest::Fs(FsRequest::Write(_)) => (9, Some(&FS_ACTIONS[1])),
            ToolRequest::JobStatus(_) => (10, None),
            ToolRequest::JobList(_) => (11, None),
            ToolRequest::JobPoll(_) => (12, None),
            ToolRequest::JobCancel(_) => (13, None),
        };
        let tool = &TOOLS[index];
        CallInfo {
            tool,
            action,
            timing: action.map_or(tool.timing, |a| a.timing),
        }
    }

    fn into_job_call(request: ToolRequest) -> Result<JobCall, ToolRequest> {
        match request {
            ToolRequest::JobStatus(r) => Ok(JobCall::Status(r)),
            ToolRequest::JobList(r) => Ok(JobCall::List(r)),
            ToolRequest::JobPoll(r) => Ok(JobCall::Poll(r)),
            ToolRequest::JobCancel(r) => Ok(JobCall::Cancel(r)),
            other => Err(other),
        }
    }

    fn from_job_reply(reply: JobReply) -> ToolResponse {
        match reply {
            JobReply::Status(r) => ToolResponse::JobStatus(r),
            JobReply::List(r) => ToolResponse::JobList(r),
            JobReply::Poll(r) => ToolResponse::JobPoll(r),
            JobReply::Cancel(r) => ToolResponse::JobCancel(r),
        }
    }
}

// ---- tool markers (only the ones the service's handlers name) ----

pub struct GenerateTool;

impl Tool for GenerateTool {
    type Request = GenerateRequest;
    type Response = GenerateResponse;
    type Error = ToolError;
    type Chunk = GenerationChunk;
    const NAME: &'static str = "generate";
    const TIMING: ToolTiming = ToolTiming::AsyncLong;
    const DESCRIPTION: &'static str = "Streams numbered steps.";
}
