//! Content kinds: the MCP content block a `@content("…")` field of a
//! response becomes. The MCP edge sends such fields as content blocks and
//! the other fields as `structuredContent`; everywhere else they are
//! ordinary fields.

/// The kind of MCP content block a `@content("…")` field becomes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum ContentKind {
    /// `string`: a text block.
    Text,
    /// `{data: bytes, mime_type: string}`: an image block.
    Image,
    /// `{data: bytes, mime_type: string}`: an audio block.
    Audio,
    /// `{uri: string, mime_type: string?, text: string?, blob: bytes?}`: an
    /// embedded resource.
    Resource,
    /// `{uri: string, name: string, title: string?, description: string?,
    /// mime_type: string?}`: a link to a resource.
    Link,
}

impl ContentKind {
    /// Every kind, in the order the docs list them.
    pub const ALL: [ContentKind; 5] = [
        ContentKind::Text,
        ContentKind::Image,
        ContentKind::Audio,
        ContentKind::Resource,
        ContentKind::Link,
    ];

    /// The spelling in `@content("…")`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ContentKind::Text => "text",
            ContentKind::Image => "image",
            ContentKind::Audio => "audio",
            ContentKind::Resource => "resource",
            ContentKind::Link => "link",
        }
    }

    /// The kind spelled `name`, or `None` for anything else.
    pub fn from_name(name: &str) -> Option<ContentKind> {
        Self::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

impl std::fmt::Display for ContentKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::ContentKind;

    #[test]
    fn names_round_trip() {
        for kind in ContentKind::ALL {
            assert_eq!(ContentKind::from_name(kind.as_str()), Some(kind));
        }
        assert_eq!(ContentKind::from_name("video"), None);
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serde_spells_each_kind_as_the_idl_does() {
        for kind in ContentKind::ALL {
            let json = serde_json::to_value(kind).unwrap();
            assert_eq!(json, serde_json::Value::from(kind.as_str()));
            assert_eq!(serde_json::from_value::<ContentKind>(json).unwrap(), kind);
        }
    }
}
