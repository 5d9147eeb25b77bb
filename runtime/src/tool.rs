//! The `Tool` trait and the static description of a catalogue.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::jobs::{JobCall, JobReply};
use crate::{IntoToolError, ToolTiming, Validate};

/// One tool of a catalogue, at the type level. The generated code implements
/// it on a marker struct per tool (`AddTool`).
pub trait Tool {
    /// What the handler receives: the request struct, the action enum of an
    /// action tool, or `()` for a tool that takes no arguments. It derives
    /// the serde halves its catalogue's side needs (docs/rust.md).
    type Request: Send + 'static;
    /// What the handler returns on success: the response struct, the action
    /// response enum, or `()` for an acknowledgement.
    type Response: Send + 'static;
    /// What the handler returns on failure: the tool's `error` type, or
    /// [`ToolError`](crate::ToolError) when it declares none.
    type Error: IntoToolError + Send + 'static;
    /// The chunks it streams while running, or `()` when it does not stream.
    type Chunk: Send + 'static;

    /// Wire name, snake_case.
    const NAME: &'static str;
    /// Timing class. For an action tool, the longest class of its actions;
    /// the dispatcher uses each call's own action timing.
    const TIMING: ToolTiming;
    /// The tool's doc comment.
    const DESCRIPTION: &'static str;
}

/// Static metadata of one tool, for dispatch, listings and schemas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ToolInfo {
    /// Wire name, snake_case.
    pub name: &'static str,
    /// Human-readable title, when declared.
    pub title: Option<&'static str>,
    /// The doc comment.
    pub description: &'static str,
    /// Timing class (for an action tool, the longest of its actions').
    pub timing: ToolTiming,
    /// Actions of an action tool, in declaration order; empty otherwise.
    pub actions: &'static [ActionInfo],
    /// True when it streams chunks while running.
    pub streams: bool,
    /// True when it is `@paged`: its request has a `cursor` and its
    /// response a `paging`. An action tool's actions say so each.
    pub paged: bool,
    /// True when it is `@task_required`: an MCP client that can call it
    /// as a task must (every call of it runs as a job).
    pub task_required: bool,
    /// True for the job tools, which the runtime serves itself.
    pub builtin: bool,
    /// The toolsets it belongs to: its category first, then those its
    /// `@toolset` attribute names. Servers select tools by toolset.
    pub toolsets: &'static [&'static str],
    /// The OAuth scopes a call of it needs, all of them (its `@scopes`, or
    /// its category's), in the order written; empty when it needs none.
    pub scopes: &'static [&'static str],
}

impl ToolInfo {
    /// The action with this name.
    pub fn action(&self, name: &str) -> Option<&'static ActionInfo> {
        self.actions.iter().find(|a| a.name == name)
    }

    /// True when a call of it, or of its action `action`, is paged.
    pub fn pages(&self, action: Option<&str>) -> bool {
        match action.and_then(|a| self.action(a)) {
            Some(action) => action.paged,
            None => self.paged,
        }
    }

    /// True when it belongs to the toolset `name`.
    pub fn in_toolset(&self, name: &str) -> bool {
        self.toolsets.contains(&name)
    }
}

/// Static metadata of one action of an action tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionInfo {
    /// Wire name, snake_case.
    pub name: &'static str,
    /// Human-readable title, when declared.
    pub title: Option<&'static str>,
    /// The doc comment.
    pub description: &'static str,
    /// Timing class.
    pub timing: ToolTiming,
    /// True when it is `@paged`.
    pub paged: bool,
}

/// What the dispatcher needs to know about one decoded call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallInfo {
    /// The tool.
    pub tool: &'static ToolInfo,
    /// The action, for action tools.
    pub action: Option<&'static ActionInfo>,
    /// The timing class this call runs under.
    pub timing: ToolTiming,
}

/// A whole generated catalogue: its request and response enums and the
/// metadata of every tool. Implemented by the generated `ToolCatalogue`.
pub trait Catalogue: Send + Sync + 'static {
    /// `ToolRequest`: one variant per tool, `{"tool": name, ...fields}` on
    /// the wire.
    type Request: Validate + Send + 'static;
    /// `ToolResponse`: one variant per tool.
    type Response: Send + 'static;

    /// Every tool, in declaration order.
    const TOOLS: &'static [ToolInfo];

    /// Every OAuth scope some tool of the catalogue needs (the union of
    /// [`ToolInfo::scopes`]), sorted, each once: what a server advertises
    /// as `scopes_supported` in its protected resource metadata.
    const SCOPES: &'static [&'static str];

    /// The catalogue as MCP sees it, JSON text generated from the same
    /// `.tool` files: `{"tools": [..], "actions": {..}}`, where `tools` is
    /// the `tools/list` array (name, title, description, inputSchema,
    /// outputSchema, annotations) and `actions` maps each action tool to
    /// its actions' own schemas. The MCP server parses it once.
    const MCP_SCHEMA: &'static str;

    /// The `GET /api/tools` document (docs/web.md): JSON text `{"tools":
    /// [..]}`, each tool's metadata generated from the same `.tool` files
    /// as the TypeScript and Python registries, with `source` `local`.
    const METADATA: &'static str;

    /// The tools as OpenAI function calling takes them in strict mode:
    /// JSON text, an array of `{"type": "function", "function": {..}}`,
    /// the same as the generated `schemas/profiles/openai.json`
    /// (docs/schemas.md, "Provider profiles").
    const OPENAI_TOOLS: &'static str;

    /// The tools as Anthropic's Messages API takes them: JSON text, an
    /// array of `{name, description, input_schema}`
    /// (`schemas/profiles/anthropic.json`).
    const ANTHROPIC_TOOLS: &'static str;

    /// The tools as Gemini function declarations: JSON text, an array of
    /// `{name, description, parameters}` in Gemini's OpenAPI 3.0 subset
    /// (`schemas/profiles/gemini.json`).
    const GEMINI_TOOLS: &'static str;

    /// The `@content` fields of each response that has any: the MCP edge
    /// sends them as content blocks. Empty unless the IDL marks some.
    const CONTENT: &'static [crate::ResponseContent] = &[];

    /// Every declared example (`example "Title" { … }` in the IDL), in
    /// declaration order: what [`crate::testing::check_examples`] runs.
    /// Empty unless the IDL declares some.
    const EXAMPLES: &'static [crate::Example] = &[];

    /// The tool with this wire name.
    fn tool(name: &str) -> Option<&'static ToolInfo>;

    /// The `cursor` field of a `@paged` call's request, which the
    /// dispatcher opens before the handler sees it; `None` for a call of a
    /// tool or action that is not paged.
    fn cursor(request: &mut Self::Request) -> Option<&mut Option<String>> {
        let _ = request;
        None
    }

    /// The `paging` field of a `@paged` call's response, whose cursor the
    /// dispatcher seals; `None` for any other response.
    fn paging(response: &mut Self::Response) -> Option<&mut crate::Paging> {
        let _ = response;
        None
    }

    /// Which tool and action a request calls, and under which timing.
    fn call_info(request: &Self::Request) -> CallInfo;

    /// A call of a built-in job tool, which the dispatcher answers itself;
    /// any other request is handed back.
    fn into_job_call(request: Self::Request) -> Result<JobCall, Self::Request>;

    /// The response of a built-in job tool as this catalogue's response.
    fn from_job_reply(reply: JobReply) -> Self::Response;
}

/// A catalogue a server can serve: its requests decode (and encode again,
/// for the web TOON route) and its responses encode. Every catalogue
/// generated for `Side::Server` or `Side::Both` is one; dispatchers, the
/// MCP server and every other call port need it.
pub trait ServerCatalogue:
    Catalogue<Request: Serialize + DeserializeOwned, Response: Serialize>
{
}

impl<C> ServerCatalogue for C
where
    C: Catalogue,
    C::Request: Serialize + DeserializeOwned,
    C::Response: Serialize,
{
}
