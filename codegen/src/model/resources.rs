//! Resources and prompts: what an MCP client reads by URI
//! (`resources/read`) and gets by name with arguments (`prompts/get`),
//! beside the tools it calls. Their arguments are ordinary structs in
//! [`Model::types`](super::Model::types).

use serde::Serialize;

use super::{Deprecation, Field, Model, Scope, Type, TypeId, TypeKind};
use crate::source::Location;

/// A resource: something a client reads by URI.
#[derive(Clone, Debug, Serialize)]
pub struct Resource {
    /// Its name, snake_case: unique among tools, resources and prompts.
    pub name: String,
    /// Category of the file that declares it.
    pub category: String,
    /// Doc comment: the MCP description.
    pub docs: Option<String>,
    /// Human-readable title (`title "..."`).
    pub title: Option<String>,
    /// The URI as written: a fixed URI, or an RFC 6570 template.
    pub uri: String,
    /// True when `uri` has expressions: listed by
    /// `resources/templates/list` rather than `resources/list`.
    pub template: bool,
    /// The template's variables in order of appearance; empty for a
    /// fixed URI. Each is a field of `arguments`.
    pub variables: Vec<String>,
    /// The MIME type of what a read returns: `mime "…"`, or the default
    /// of its contents.
    pub mime: String,
    /// What a read returns.
    pub contents: Contents,
    /// The struct of the template's variables (`<Resource>Arguments` when
    /// anonymous); `None` for a fixed URI.
    pub arguments: Option<TypeId>,
    /// The `error` type a read can fail with.
    pub errors: Option<TypeId>,
    /// `@subscribable`: clients may subscribe to its updates.
    pub subscribable: bool,
    /// `@audience(…)`: who it is for (MCP annotation `audience`), in the
    /// order written; empty when not said.
    pub audience: Vec<Role>,
    /// `@priority(p)`: MCP annotation `priority`, from 0 to 1.
    pub priority: Option<f64>,
    /// `@size(n)`: its size in bytes, known in advance (fixed URIs only).
    pub size: Option<u64>,
    /// `@cache(ttl_ms[, scope])`: how long a client may keep what it read.
    pub cache: Option<Cache>,
    /// The OAuth scopes a read needs, all of them: its own `@scopes`, or
    /// else its category's. Empty when it needs none.
    pub scopes: Vec<Scope>,
    /// Set when `@deprecated`.
    pub deprecated: Option<Deprecation>,
    /// Where it is declared.
    pub location: Location,
}

impl Resource {
    /// Every type it names: its arguments, typed contents and errors.
    pub fn types(&self) -> Vec<TypeId> {
        let typed = match self.contents {
            Contents::Typed(id) => Some(id),
            Contents::Text | Contents::Bytes => None,
        };
        [self.arguments, typed, self.errors]
            .into_iter()
            .flatten()
            .collect()
    }
}

/// What reading a resource returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Contents {
    /// `contents text` (the default): a string.
    Text,
    /// `contents bytes`: a blob, base64 in JSON.
    Bytes,
    /// `contents SomeType`: a value of a declared type, sent as its JSON.
    Typed(TypeId),
}

impl Contents {
    /// The MIME type of a read when `mime` does not say.
    pub fn default_mime(self) -> &'static str {
        match self {
            Contents::Text => "text/plain",
            Contents::Bytes => "application/octet-stream",
            Contents::Typed(_) => "application/json",
        }
    }
}

/// Who a resource is for (MCP's `Role`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The person using the client.
    User,
    /// The model.
    Assistant,
}

impl Role {
    /// Every role, as `@audience` spells them.
    pub const ALL: [Role; 2] = [Role::User, Role::Assistant];

    /// The IDL and wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// `@cache(ttl_ms, scope)`: how long, and by whom, what a read returned
/// may be kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Cache {
    /// How long, in milliseconds.
    pub ttl_ms: u64,
    /// Who may keep it.
    pub scope: CacheScope,
}

/// Who may keep a cached read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CacheScope {
    /// Any cache, shared ones included.
    Public,
    /// Only the client that read it: the default of a resource that needs
    /// scopes, whose contents depend on who asks.
    Private,
}

impl CacheScope {
    /// The IDL name.
    pub fn as_str(self) -> &'static str {
        match self {
            CacheScope::Public => "public",
            CacheScope::Private => "private",
        }
    }
}

/// A prompt: messages a client gets by name with arguments.
#[derive(Clone, Debug, Serialize)]
pub struct Prompt {
    /// Its name, snake_case: unique among tools, resources and prompts.
    pub name: String,
    /// Category of the file that declares it.
    pub category: String,
    /// Doc comment: the MCP description.
    pub docs: Option<String>,
    /// Human-readable title (`title "..."`).
    pub title: Option<String>,
    /// The struct of its arguments (`<Prompt>Arguments` when anonymous);
    /// `None` when it takes none. Each field is a `string` or an enum.
    pub arguments: Option<TypeId>,
    /// The `error` type getting it can fail with.
    pub errors: Option<TypeId>,
    /// The OAuth scopes getting it needs: its own `@scopes`, or else its
    /// category's.
    pub scopes: Vec<Scope>,
    /// Set when `@deprecated`.
    pub deprecated: Option<Deprecation>,
    /// Where it is declared.
    pub location: Location,
}

impl Prompt {
    /// Every type it names: its arguments and errors.
    pub fn types(&self) -> Vec<TypeId> {
        [self.arguments, self.errors]
            .into_iter()
            .flatten()
            .collect()
    }
}

/// Where the completions of an argument come from (MCP
/// `completion/complete`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Completion<'m> {
    /// An enum: its values, with no code.
    Enum(Vec<&'m str>),
    /// `@complete`: the handler completes it.
    Handler,
    /// Nothing completes it.
    None,
}

impl Model {
    /// The resource with this name, if any.
    pub fn resource(&self, name: &str) -> Option<&Resource> {
        self.resources.iter().find(|r| r.name == name)
    }

    /// The prompt with this name, if any.
    pub fn prompt(&self, name: &str) -> Option<&Prompt> {
        self.prompts.iter().find(|p| p.name == name)
    }

    /// Each field of a resource's or prompt's `arguments`, with where its
    /// completions come from: an enum's values, the handler
    /// (`@complete`), or nowhere. Empty without arguments.
    pub fn completions(&self, arguments: Option<TypeId>) -> Vec<(&Field, Completion<'_>)> {
        let Some(TypeKind::Struct(fields)) = arguments.map(|id| &self.type_def(id).kind) else {
            return Vec::new();
        };
        fields
            .iter()
            .map(|field| {
                let completion = match field.ty.strip_optional() {
                    _ if field.complete => Completion::Handler,
                    Type::Named(r) => match &self.type_def(r.id).kind {
                        TypeKind::Enum(values) => {
                            Completion::Enum(values.iter().map(|v| v.name.as_str()).collect())
                        }
                        _ => Completion::None,
                    },
                    _ => Completion::None,
                };
                (field, completion)
            })
            .collect()
    }
}
