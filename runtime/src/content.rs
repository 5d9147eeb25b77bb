//! Which parts of a response are MCP content: the `@content("…")` fields
//! of the IDL, listed by the generated catalogue for the MCP edge, which
//! sends them as content blocks and keeps the other fields as
//! `structuredContent`. Everywhere else (MsgPack, TOON, the web routes,
//! the typed bindings) they are ordinary fields.

/// The kind of MCP content block a `@content` field becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ContentKind {
    /// A `string`: a text block.
    Text,
    /// `{data, mime_type}`: an image block.
    Image,
    /// `{data, mime_type}`: an audio block.
    Audio,
    /// `{uri, mime_type?, text?, blob?}`: an embedded resource.
    Resource,
    /// `{uri, name, title?, description?, mime_type?}`: a resource link.
    Link,
}

/// The `@content` fields of one tool's (or one action's) response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResponseContent {
    /// The tool.
    pub tool: &'static str,
    /// The action, for an action tool.
    pub action: Option<&'static str>,
    /// Each content field's wire name and kind, in declaration order.
    pub fields: &'static [(&'static str, ContentKind)],
}

impl ResponseContent {
    /// The content fields of `tool`'s (and `action`'s) response in `all`.
    pub fn find(
        all: &'static [ResponseContent],
        tool: &str,
        action: Option<&str>,
    ) -> Option<&'static ResponseContent> {
        all.iter()
            .find(|c| c.tool == tool && (c.action.is_none() || c.action == action))
    }
}
