//! The words of the IDL. Keywords are contextual: `title`, `request` or
//! `error` are keywords only where an item or clause may start, so they stay
//! legal field names (`title: string?` is common).

/// `category name;`
pub const CATEGORY: &str = "category";
/// `tool name { ... }`
pub const TOOL: &str = "tool";
/// `struct Name { ... }`
pub const STRUCT: &str = "struct";
/// `enum Name { ... }`
pub const ENUM: &str = "enum";
/// `union Name { ... }`
pub const UNION: &str = "union";
/// `error Name { ... }`
pub const ERROR: &str = "error";
/// `resource name { ... }`
pub const RESOURCE: &str = "resource";
/// `prompt name { ... }`
pub const PROMPT: &str = "prompt";

/// Keywords that start a top-level item.
pub const ITEMS: &[&str] = &[CATEGORY, TOOL, RESOURCE, PROMPT, STRUCT, ENUM, UNION, ERROR];

/// `timing sync`
pub const TIMING: &str = "timing";
/// `title "..."`
pub const TITLE: &str = "title";
/// `request { ... }`
pub const REQUEST: &str = "request";
/// `response { ... }`
pub const RESPONSE: &str = "response";
/// `errors SomeError`
pub const ERRORS: &str = "errors";
/// `stream SomeChunk`
pub const STREAM: &str = "stream";
/// `action name { ... }`
pub const ACTION: &str = "action";
/// `uri "cas://objects/{hash}"`
pub const URI: &str = "uri";
/// `mime "application/json"`
pub const MIME: &str = "mime";
/// `contents bytes`
pub const CONTENTS: &str = "contents";
/// `arguments { ... }`
pub const ARGUMENTS: &str = "arguments";
/// `example "Title" { request { ... } response { ... } }`
pub const EXAMPLE: &str = "example";

/// Clauses of a tool body.
pub const TOOL_CLAUSES: &[&str] = &[
    TIMING, TITLE, REQUEST, RESPONSE, ERRORS, STREAM, ACTION, EXAMPLE,
];

/// Clauses of an action body.
pub const ACTION_CLAUSES: &[&str] = &[TIMING, TITLE, REQUEST, RESPONSE, EXAMPLE];

/// Clauses of a resource body.
pub const RESOURCE_CLAUSES: &[&str] = &[URI, TITLE, MIME, CONTENTS, ARGUMENTS, ERRORS];

/// Clauses of a prompt body.
pub const PROMPT_CLAUSES: &[&str] = &[TITLE, ARGUMENTS, ERRORS];

/// Every clause keyword of any body: where the parser resumes after a bad
/// clause, so that a clause of another kind of body is reported too.
pub const CLAUSES: &[&str] = &[
    TIMING, TITLE, REQUEST, RESPONSE, ERRORS, STREAM, ACTION, URI, MIME, CONTENTS, ARGUMENTS,
    EXAMPLE,
];

/// The parts of an `example` body: the request, and the response it
/// answers or the error it fails with.
pub const EXAMPLE_PARTS: &[&str] = &[REQUEST, RESPONSE, ERROR];

/// `null` in an example's data.
pub const NULL: &str = "null";

/// `contents text`: a resource read as a string (the default).
pub const TEXT: &str = "text";
/// `contents bytes`: a resource read as a blob.
pub const BYTES: &str = "bytes";

/// `@scopes("cas:read", …)`: the OAuth scopes a tool's calls need. The
/// one attribute whose empty `()` means something (no scopes, overriding
/// its category's), so the formatter keeps it.
pub const SCOPES: &str = "scopes";

/// `@app` or `@app("apps/add.html")`: the tool's MCP App, generated from
/// its schema or a hand-written HTML file (docs/idl.md, "Apps").
pub const APP: &str = "app";
/// `@app_connect("https://api.example.com", …)`: origins the app may
/// connect to (`_meta.ui.csp.connectDomains`).
pub const APP_CONNECT: &str = "app_connect";
/// `@app_resources("https://cdn.example.com", …)`: origins the app may load
/// scripts, styles, images, fonts and media from
/// (`_meta.ui.csp.resourceDomains`).
pub const APP_RESOURCES: &str = "app_resources";
/// `@app_frames("https://www.youtube.com", …)`: origins the app may embed
/// in frames (`_meta.ui.csp.frameDomains`).
pub const APP_FRAMES: &str = "app_frames";
/// `@app_base_uri("https://cdn.example.com", …)`: origins the app's
/// document base URI may be (`_meta.ui.csp.baseUriDomains`).
pub const APP_BASE_URI: &str = "app_base_uri";
/// `@app_permissions(camera, clipboard_write)`: browser features the app
/// asks its host for (`_meta.ui.permissions`).
pub const APP_PERMISSIONS: &str = "app_permissions";
/// `@app_border` or `@app_border(false)`: whether the app would have the
/// host draw a border and background (`_meta.ui.prefersBorder`).
pub const APP_BORDER: &str = "app_border";
/// `@app_visibility(model, app)`: who hosts let see and call the tool
/// (`_meta.ui.visibility` on the tool).
pub const APP_VISIBILITY: &str = "app_visibility";

/// `true` literal.
pub const TRUE: &str = "true";
/// `false` literal.
pub const FALSE: &str = "false";

/// `list<T>`
pub const LIST: &str = "list";
/// `map<T>`
pub const MAP: &str = "map";

/// Action names generated for every action tool (HIP-0300 built-ins).
pub const BUILTIN_ACTIONS: &[&str] = &["help", "schema"];

/// Type names the generated code itself defines; declaring one would clash.
pub const RESERVED_TYPES: &[&str] = &[
    "ToolRequest",
    "ToolResponse",
    "ToolCatalogue",
    "ToolTiming",
    "ResponseEnvelope",
    "ToolError",
    "Tool",
    // The answer of a call that runs on as a job, in the generated schemas
    // (`schemas/types/JobHandle.json` and each tool's `$defs`).
    "JobHandle",
    // Keywords no escape can spell as a type name: Rust's `Self` (not even
    // as `r#Self`) and Python's `None`, `True` and `False`.
    "Self",
    "None",
    "True",
    "False",
];

/// Enum values that read as literals: `mode: Toggle = true` would be a bool.
pub const RESERVED_ENUM_VALUES: &[&str] = &[TRUE, FALSE];
