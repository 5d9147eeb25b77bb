//! Which parts of a response are MCP content: the `@content("…")` fields
//! of the IDL, listed by the generated catalogue for the MCP edge, which
//! sends them as content blocks and keeps the other fields as
//! `structuredContent`. Everywhere else (MsgPack, TOON, the web routes,
//! the typed bindings) they are ordinary fields.

/// The kinds, shared with the generator through `toolwright-vocab`.
pub use toolwright_vocab::ContentKind;

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
