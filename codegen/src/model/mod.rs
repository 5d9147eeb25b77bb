//! The checked model: what every backend reads. Names are resolved to ids,
//! types are in dependency order, cycles are known. It is language-neutral
//! (IDL names, no target casing) and serializable, so `toolwright check
//! --emit model.json` shows exactly what the backends see.

mod apps;
mod examples;
mod resources;
mod types;

pub use apps::{APP_MIME, APP_SCHEME, App, AppPermission, AppSource, MAX_APP_BYTES, Visibility};
pub use examples::{Example, ExampleOutcome};
pub use resources::{Cache, CacheScope, Completion, Contents, Prompt, Resource, Role};
/// The kinds of `@content`, shared with the runtime (`toolwright::ContentKind`).
pub use toolwright_vocab::ContentKind;
/// The IDL's timing classes, shared with the runtime (`toolwright::ToolTiming`).
pub use toolwright_vocab::ToolTiming as Timing;
pub use types::{Constraints, Number, Primitive, Type, TypeRef, Value};

use std::collections::HashSet;

use serde::Serialize;

use crate::source::Location;

/// A whole catalogue: every file, tool, resource, prompt and type.
#[derive(Clone, Debug, Serialize)]
pub struct Model {
    /// The files read, in path order.
    pub files: Vec<FileInfo>,
    /// Every tool, in file order then source order.
    pub tools: Vec<Tool>,
    /// Every resource, in file order then source order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<Resource>,
    /// Every prompt, in file order then source order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub prompts: Vec<Prompt>,
    /// Every type, declared or generated for a request, response or
    /// arguments, indexed by [`TypeId`]: in file order then source order.
    pub types: Vec<TypeDef>,
    /// Every type id, dependencies before dependents (members of a cycle in
    /// declaration order). Languages that need definition before use emit in
    /// this order.
    pub type_order: Vec<TypeId>,
}

impl Model {
    /// The type with this id.
    pub fn type_def(&self, id: TypeId) -> &TypeDef {
        &self.types[id.index()]
    }

    /// The type with this name, if any.
    pub fn type_named(&self, name: &str) -> Option<&TypeDef> {
        self.types.iter().find(|t| t.name == name)
    }

    /// The tool with this name, if any.
    pub fn tool(&self, name: &str) -> Option<&Tool> {
        self.tools.iter().find(|t| t.name == name)
    }

    /// The variants of `tool`'s error type; none when it declares no errors.
    pub fn error_variants(&self, tool: &Tool) -> &[Variant] {
        match tool.errors.map(|id| &self.type_def(id).kind) {
            Some(TypeKind::Error(variants)) => variants,
            _ => &[],
        }
    }

    /// True when `location` is in a file built into the generator.
    pub fn is_builtin(&self, location: &Location) -> bool {
        self.files.get(location.file).is_some_and(|f| f.builtin)
    }

    /// Indexed by type id: true when a request can contain the type (a
    /// tool's or action's request struct, a resource's or prompt's
    /// arguments, or a type their fields reach). Such structs reject
    /// unknown fields on the wire (docs/wire.md), so every backend marks
    /// the same set.
    pub fn request_types(&self) -> Vec<bool> {
        let tools = self.tools.iter().flat_map(|tool| match &tool.kind {
            ToolKind::Single(e) => e.request.into_iter().collect(),
            ToolKind::Actions(actions) => actions
                .iter()
                .filter_map(|a| a.endpoint.request)
                .collect::<Vec<_>>(),
        });
        let resources = self.resources.iter().filter_map(|r| r.arguments);
        let prompts = self.prompts.iter().filter_map(|p| p.arguments);
        self.marked(tools.chain(resources).chain(prompts))
    }

    /// Indexed by type id: true when a type can be part of what a server
    /// sends back (a response, an error or a stream chunk; a resource's
    /// typed contents or errors, a prompt's errors).
    pub fn response_types(&self) -> Vec<bool> {
        let tools = self.tools.iter().flat_map(|tool| {
            let responses: Vec<TypeId> = match &tool.kind {
                ToolKind::Single(e) => e.response.into_iter().collect(),
                ToolKind::Actions(actions) => {
                    actions.iter().filter_map(|a| a.endpoint.response).collect()
                }
            };
            responses.into_iter().chain(tool.errors).chain(tool.stream)
        });
        let resources = self.resources.iter().flat_map(|r| {
            let typed = match r.contents {
                Contents::Typed(id) => Some(id),
                Contents::Text | Contents::Bytes => None,
            };
            typed.into_iter().chain(r.errors)
        });
        let prompts = self.prompts.iter().filter_map(|p| p.errors);
        self.marked(tools.chain(resources).chain(prompts))
    }

    /// Indexed by type id: true when a type can be part of a tool's,
    /// resource's or prompt's typed error.
    pub fn error_types(&self) -> Vec<bool> {
        let errors = self.tools.iter().filter_map(|t| t.errors);
        let resources = self.resources.iter().filter_map(|r| r.errors);
        let prompts = self.prompts.iter().filter_map(|p| p.errors);
        self.marked(errors.chain(resources).chain(prompts))
    }

    /// Indexed by type id: true for `roots` and the types they reach.
    fn marked(&self, roots: impl IntoIterator<Item = TypeId>) -> Vec<bool> {
        let mut reached = HashSet::new();
        self.reach(roots, &mut reached);
        let mut marked = vec![false; self.types.len()];
        for id in reached {
            if let Some(slot) = marked.get_mut(id.index()) {
                *slot = true;
            }
        }
        marked
    }

    /// Adds to `seen` the types in `from` and every type their fields
    /// reach, through lists, maps, `?` and variants. Types already in
    /// `seen` are not walked again.
    pub fn reach(&self, from: impl IntoIterator<Item = TypeId>, seen: &mut HashSet<TypeId>) {
        let mut stack: Vec<TypeId> = from.into_iter().collect();
        while let Some(id) = stack.pop() {
            if id.index() < self.types.len() && seen.insert(id) {
                for field in self.type_def(id).kind.fields() {
                    field.ty.push_named(&mut stack);
                }
            }
        }
    }

    /// Every OAuth scope some tool, resource or prompt needs, sorted,
    /// each once: what a server advertises as `scopes_supported`.
    pub fn scopes(&self) -> Vec<&str> {
        let tools = self.tools.iter().flat_map(|t| &t.scopes);
        let resources = self.resources.iter().flat_map(|r| &r.scopes);
        let prompts = self.prompts.iter().flat_map(|p| &p.scopes);
        let scopes: std::collections::BTreeSet<&str> = tools
            .chain(resources)
            .chain(prompts)
            .map(|s| s.name.as_str())
            .collect();
        scopes.into_iter().collect()
    }

    /// The tools with an app, in model order.
    pub fn apps(&self) -> impl Iterator<Item = (&Tool, &App)> {
        self.tools
            .iter()
            .filter_map(|t| t.app.as_ref().map(|app| (t, app)))
    }

    /// Number of actions across all tools.
    pub fn action_count(&self) -> usize {
        self.tools
            .iter()
            .map(|t| match &t.kind {
                ToolKind::Single(_) => 0,
                ToolKind::Actions(actions) => actions.len(),
            })
            .sum()
    }
}

/// One source file of the catalogue.
#[derive(Clone, Debug, Serialize)]
pub struct FileInfo {
    /// The path as given to the loader.
    pub path: String,
    /// The file's category (declared, or the file stem).
    pub category: String,
    /// The file's doc comment (above `category`).
    pub docs: Option<String>,
    /// True for a file built into the generator (the job tools): backends
    /// refer to the runtime's copy of its items instead of emitting them.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub builtin: bool,
}

/// Index of a type in [`Model::types`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct TypeId(pub(crate) u32);

impl TypeId {
    /// The index into [`Model::types`].
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// `@deprecated` on anything.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Deprecation {
    /// Why, and what to use instead.
    pub reason: Option<String>,
}

/// MCP tool annotations, from `@read_only @destructive @idempotent @open_world`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Annotations {
    /// The tool does not modify its environment.
    pub read_only: bool,
    /// The tool may perform destructive updates.
    pub destructive: bool,
    /// Calling again with the same arguments has no further effect.
    pub idempotent: bool,
    /// The tool interacts with an open world of external entities.
    pub open_world: bool,
}

/// A tool: something called by name with arguments.
#[derive(Clone, Debug, Serialize)]
pub struct Tool {
    /// Wire name, snake_case.
    pub name: String,
    /// Category of the file that declares it.
    pub category: String,
    /// The toolsets `@toolset` adds it to, besides the one its category
    /// makes (see [`Tool::toolsets`]).
    pub extra_toolsets: Vec<String>,
    /// Doc comment.
    pub docs: Option<String>,
    /// Human-readable title (`title "..."`).
    pub title: Option<String>,
    /// MCP annotations.
    pub annotations: Annotations,
    /// The OAuth scopes a call of it needs, all of them: its own
    /// `@scopes`, or else its category's, in the order written, each once.
    /// Empty when it needs none.
    pub scopes: Vec<Scope>,
    /// Set when `@deprecated`.
    pub deprecated: Option<Deprecation>,
    /// One endpoint, or several actions.
    pub kind: ToolKind,
    /// The `error` type its handler may fail with.
    pub errors: Option<TypeId>,
    /// The chunk type it streams while running.
    pub stream: Option<TypeId>,
    /// `@task_required`: every call of it runs as a job, and an MCP client
    /// that can call it as a task must (`execution.taskSupport:
    /// "required"`; `-32021` on 2026-07-28 without the tasks extension).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub task_required: bool,
    /// `@app`: the MCP App a host renders for its calls.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub app: Option<App>,
    /// `@app_visibility(…)`: who hosts of MCP Apps let see and call it,
    /// each once, in the order written; empty when not written (the
    /// extension's default, the model and apps alike).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub visibility: Vec<Visibility>,
    /// Its declared examples, in the order written (an action tool's are
    /// its actions').
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<Example>,
    /// Where it is declared.
    pub location: Location,
}

impl Tool {
    /// Every declared example, the tool's own or, for an action tool, its
    /// actions' in declaration order, each with the action it calls.
    pub fn examples_with_actions(&self) -> Vec<(Option<&Action>, &Example)> {
        match &self.kind {
            ToolKind::Single(_) => self.examples.iter().map(|e| (None, e)).collect(),
            ToolKind::Actions(actions) => actions
                .iter()
                .flat_map(|a| a.examples.iter().map(move |e| (Some(a), e)))
                .collect(),
        }
    }

    /// The names of the OAuth scopes a call of it needs (see
    /// [`Tool::scopes`]).
    pub fn scope_names(&self) -> impl Iterator<Item = &str> {
        self.scopes.iter().map(|s| s.name.as_str())
    }

    /// Every toolset it belongs to: its category's, then those it names
    /// with `@toolset`.
    pub fn toolsets(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.category.as_str())
            .chain(self.extra_toolsets.iter().map(String::as_str))
    }

    /// Its endpoints: `(None, e)` for a plain tool, `(Some(action), e)`
    /// per action.
    pub fn endpoints(&self) -> Vec<(Option<&Action>, &Endpoint)> {
        match &self.kind {
            ToolKind::Single(e) => vec![(None, e)],
            ToolKind::Actions(actions) => actions.iter().map(|a| (Some(a), &a.endpoint)).collect(),
        }
    }

    /// Every type the tool names directly: the requests and responses of
    /// its endpoint or actions, its errors and its stream chunk.
    pub fn types(&self) -> Vec<TypeId> {
        self.endpoints()
            .into_iter()
            .flat_map(|(_, e)| [e.request, e.response])
            .chain([self.errors, self.stream])
            .flatten()
            .collect()
    }
}

/// An OAuth scope a tool's calls need (RFC 6749 §3.3), from `@scopes`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Scope {
    /// The scope token, e.g. `cas:read`.
    pub name: String,
    /// Where it is written: in the tool's `@scopes`, or in its category's
    /// when the tool has none of its own.
    pub location: Location,
}

/// A plain tool or an action tool (HIP-0300).
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolKind {
    /// One request, one response.
    Single(Endpoint),
    /// Several actions, each with its own request and response.
    Actions(Vec<Action>),
}

/// Timing, request and response of a tool or action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Endpoint {
    /// How the dispatcher answers.
    pub timing: Timing,
    /// Request struct; `None` when it takes no arguments.
    pub request: Option<TypeId>,
    /// Response struct; `None` when it answers with an acknowledgement.
    pub response: Option<TypeId>,
    /// `@paged`: its request has a `cursor` field and its response a
    /// `paging` field (the built-in `Paging`), which the runtime seals and
    /// opens.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub paged: bool,
}

/// One action of an action tool.
#[derive(Clone, Debug, Serialize)]
pub struct Action {
    /// Wire name, snake_case.
    pub name: String,
    /// Doc comment.
    pub docs: Option<String>,
    /// Human-readable title.
    pub title: Option<String>,
    /// Set when `@deprecated`.
    pub deprecated: Option<Deprecation>,
    /// Timing, request, response.
    #[serde(flatten)]
    pub endpoint: Endpoint,
    /// Its declared examples, in the order written.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<Example>,
    /// Where it is declared.
    pub location: Location,
}

impl TypeKind {
    /// The fields of a struct, or of every variant of a union or error;
    /// none for an enum.
    pub fn fields(&self) -> Vec<&Field> {
        match self {
            TypeKind::Struct(fields) => fields.iter().collect(),
            TypeKind::Union(variants) | TypeKind::Error(variants) => {
                variants.iter().flat_map(|v| &v.fields).collect()
            }
            TypeKind::Enum(_) => Vec::new(),
        }
    }
}

/// Why a type exists.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Origin {
    /// Declared with `struct`/`enum`/`union`/`error`.
    Declared,
    /// The request of a tool (or one of its actions).
    Request {
        /// The tool.
        tool: String,
        /// The action, for action tools.
        action: Option<String>,
    },
    /// The response of a tool (or one of its actions).
    Response {
        /// The tool.
        tool: String,
        /// The action, for action tools.
        action: Option<String>,
    },
    /// The `arguments` of a resource: its template's variables.
    ResourceArguments {
        /// The resource.
        resource: String,
    },
    /// The `arguments` of a prompt.
    PromptArguments {
        /// The prompt.
        prompt: String,
    },
}

/// A named type.
#[derive(Clone, Debug, Serialize)]
pub struct TypeDef {
    /// Its id.
    pub id: TypeId,
    /// Its name, PascalCase.
    pub name: String,
    /// Doc comment.
    pub docs: Option<String>,
    /// Set when `@deprecated`.
    pub deprecated: Option<Deprecation>,
    /// Declared, or generated for a tool, resource or prompt.
    pub origin: Origin,
    /// What it is.
    pub kind: TypeKind,
    /// Set by `@form`: a struct handlers ask users to fill in (MCP
    /// elicitation); its fields are each a scalar, an enum or a list of
    /// enum values.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub form: bool,
    /// Where it is declared.
    pub location: Location,
}

/// The four kinds of named type.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TypeKind {
    /// Named fields.
    Struct(Vec<Field>),
    /// String values.
    Enum(Vec<EnumValue>),
    /// Tagged variants with fields.
    Union(Vec<Variant>),
    /// Error variants with fields and wire codes.
    Error(Vec<Variant>),
}

/// A field of a struct or variant.
#[derive(Clone, Debug, Serialize)]
pub struct Field {
    /// Wire name, snake_case (backends escape target keywords).
    pub name: String,
    /// Doc comment.
    pub docs: Option<String>,
    /// Set when `@deprecated`.
    pub deprecated: Option<Deprecation>,
    /// Its type.
    pub ty: Type,
    /// Default value; a field with one may be left out on the wire.
    pub default: Option<Value>,
    /// True when a caller must send it: not optional, no default.
    pub required: bool,
    /// `@range`, `@length`, `@pattern`.
    pub constraints: Constraints,
    /// True when the field's type contains the field's owner again without
    /// a list or map in between: languages with inline layout (Rust) box it.
    pub indirect: bool,
    /// Set by `@content("…")` on a response's field: the MCP edge sends it
    /// as content blocks of this kind rather than in `structuredContent`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<ContentKind>,
    /// Set by `@header("…")` on a request's field: MCP clients over
    /// Streamable HTTP mirror its value into the header `Mcp-Param-<name>`
    /// (the schema's `x-mcp-header`), and the server checks that they agree.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub header: Option<String>,
    /// Set by `@complete` on a field of a resource's or prompt's
    /// `arguments`: the handler completes its values as a user types them
    /// (MCP `completion/complete`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub complete: bool,
    /// Where it is declared.
    pub location: Location,
}

/// One value of an enum.
#[derive(Clone, Debug, Serialize)]
pub struct EnumValue {
    /// Wire string, snake_case.
    pub name: String,
    /// Doc comment.
    pub docs: Option<String>,
    /// Set when `@deprecated`.
    pub deprecated: Option<Deprecation>,
    /// Where it is declared.
    pub location: Location,
}

/// A variant of a union or error.
#[derive(Clone, Debug, Serialize)]
pub struct Variant {
    /// Wire tag, snake_case.
    pub name: String,
    /// Stable error code (`PARSE_FAILED`); errors only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Doc comment.
    pub docs: Option<String>,
    /// Set when `@deprecated`.
    pub deprecated: Option<Deprecation>,
    /// Its fields.
    pub fields: Vec<Field>,
    /// Where it is declared.
    pub location: Location,
}
