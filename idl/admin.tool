/// Administration: liveness and discovery. Clients call `ping` before a
/// batch and `list_tools` to learn what this server offers.
category admin;

/// Check that the server is alive and report its version.
@read_only @idempotent
tool ping {
    timing sync
    title "Ping"
    response {
        /// Server version, e.g. `0.4.2`.
        version: string,
        /// Seconds since the server started.
        uptime_seconds: u64,
        /// Server clock, milliseconds since the Unix epoch.
        server_time: u64,
    }
}

/// List the tools this server offers, with their timing and origin.
@read_only @idempotent
tool list_tools {
    timing sync
    title "List tools"
    request {
        /// Only tools in this category, e.g. `garden`.
        @pattern("^[a-z][a-z0-9_]*$")
        category: string?,
        /// Only tools from this origin.
        origin: ToolOrigin?,
        /// Also list deprecated tools.
        include_deprecated: bool = false,
    }
    response {
        /// The tools, ordered by category then name.
        tools: list<ToolSummary>,
        /// Number of tools listed.
        count: u32,
    }
    errors AdminError
}

/// What a client needs to know to call a tool.
struct ToolSummary {
    /// Tool name as called on the wire, e.g. `abc_parse`.
    name: string,
    /// Human-readable title.
    title: string?,
    /// What the tool does.
    description: string,
    /// Category the tool belongs to.
    category: string,
    /// How the call is scheduled and when it answers.
    timing: TimingClass,
    /// Where the tool is implemented.
    origin: ToolOrigin,
    /// Action names, for tools with actions; empty otherwise.
    actions: list<string>,
    /// Why the tool is deprecated, when it is.
    deprecated: string?,
}

/// How a tool call is scheduled.
enum TimingClass {
    /// Answers inline.
    sync,
    /// Runs as a job; answers inline if it ends within about 30 seconds.
    async_short,
    /// Runs as a job; answers inline if it ends within about 120 seconds.
    async_medium,
    /// Runs as a job and returns its ID at once.
    async_long,
    /// Acknowledges with a job ID at once; failures are recorded on the job.
    fire_and_forget,
}

/// Where a tool is implemented.
enum ToolOrigin {
    /// In this server's process.
    local,
    /// Forwarded to an external MCP server.
    mcp,
}

/// Errors from administration tools.
error AdminError {
    /// No tool belongs to this category.
    unknown_category {
        /// The category that was asked for.
        category: string,
    },
}
