//! What the studio serves besides tools: its stored objects as resources
//! (`cas://objects/{hash}`, with their hashes completed by prefix), an
//! index of them that tells its subscribers when it changes
//! (`cas://index`), and the prompts a composer starts from.

use toolwright::entry::{
    Completion, PromptContent, PromptMessages, ResourceBody, ResourceContents,
};

use crate::cas::Cas;
use crate::{AbcComposeArguments, AbcMode, CasError, CasIndex, TuneLength, storage_failed};

/// The URI of the index, which `cas_store` says changed when it stores new
/// content.
pub const INDEX_URI: &str = "cas://index";

/// How many hashes the index and a completion show.
const SHOWN: usize = 100;

/// The moods `abc_compose` suggests.
const MOODS: [&str; 8] = [
    "a bright reel",
    "a calm lullaby",
    "a driving march",
    "a gentle waltz",
    "a playful jig",
    "a slow lament",
    "a stately hymn",
    "a wistful air",
];

/// The object stored under `hash`, in the MIME type it was stored with.
pub(crate) fn object(cas: &Cas, hash: &str) -> Result<ResourceContents, CasError> {
    let (data, meta) = cas
        .get(hash)
        .map_err(|e| storage_failed(&e))?
        .ok_or_else(|| CasError::NotFound {
            hash: hash.to_owned(),
        })?;
    Ok(ResourceContents::blob(data).with_mime(meta.mime_type))
}

/// The stored hashes that start with what has been typed.
pub(crate) fn hashes(cas: &Cas, typed: &str) -> Result<Completion, CasError> {
    // Only hex digits can begin a hash; anything else matches nothing (and
    // never reaches the store's directory names).
    if typed.len() > 64
        || !typed
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
    {
        return Ok(Completion::default());
    }
    let (values, has_more) = cas.list(typed, "", SHOWN).map_err(|e| storage_failed(&e))?;
    Ok(Completion {
        values,
        total: None,
        has_more,
    })
}

/// The first hashes, and how many there are.
pub(crate) fn index(cas: &Cas) -> Result<CasIndex, CasError> {
    let (all, _) = cas
        .list("", "", usize::MAX)
        .map_err(|e| storage_failed(&e))?;
    Ok(CasIndex {
        total: all.len() as u64,
        hashes: all.into_iter().take(SHOWN).collect(),
    })
}

/// `cas_describe`: the object attached, as text when it is text.
pub(crate) fn describe(
    cas: &Cas,
    hash: &str,
    focus: Option<&str>,
) -> Result<PromptMessages, CasError> {
    let contents = object(cas, hash)?;
    let mime_type = contents.mime_type.clone();
    let body = match contents.body {
        ResourceBody::Blob(bytes)
            if mime_type.as_deref().is_some_and(|m| m.starts_with("text/")) =>
        {
            match String::from_utf8(bytes.into_vec()) {
                Ok(text) => ResourceBody::Text(text),
                Err(e) => ResourceBody::Blob(e.into_bytes().into()),
            }
        }
        body => body,
    };
    let ask = match focus {
        Some(focus) => format!("Describe this stored object, paying attention to {focus}."),
        None => "Describe this stored object: what it is and what it could be used for.".to_owned(),
    };
    Ok(PromptMessages::new()
        .described(format!("Describe cas://objects/{hash}"))
        .user(PromptContent::Resource {
            uri: format!("cas://objects/{hash}"),
            mime_type,
            body,
        })
        .user(ask))
}

/// `abc_compose`: the request for a tune.
pub(crate) fn compose(arguments: &AbcComposeArguments) -> PromptMessages {
    let mode = match arguments.mode {
        AbcMode::Major => "major",
        AbcMode::Minor => "minor",
        AbcMode::Dorian => "dorian",
        AbcMode::Mixolydian => "mixolydian",
        AbcMode::Lydian => "lydian",
        AbcMode::Phrygian => "phrygian",
    };
    let bars = match arguments.length {
        TuneLength::Short => 8,
        TuneLength::Medium => 16,
        TuneLength::Long => 32,
    };
    let mood = arguments.mood.as_deref().unwrap_or("a tune");
    PromptMessages::new()
        .described(format!("{mood} in {} {mode}", arguments.tonic))
        .user(format!(
            "Write {mood} in {} {mode}, {bars} bars long, in ABC notation. Give only the \
             tune, starting with its X:, T:, M:, L: and K: headers, so that abc_validate \
             and abc_to_midi accept it as it is.",
            arguments.tonic
        ))
}

/// The moods that start with what has been typed (any case).
pub(crate) fn moods(typed: &str) -> Completion {
    let typed = typed.to_lowercase();
    MOODS
        .iter()
        .filter(|m| m.starts_with(&typed) || m.split(' ').any(|w| w.starts_with(&typed)))
        .map(|m| (*m).to_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moods_complete_by_any_word() {
        assert_eq!(moods("sl").values, ["a slow lament"]);
        assert_eq!(moods("A W").values, ["a wistful air"]);
        assert_eq!(moods("").values.len(), MOODS.len());
    }

    #[test]
    fn a_hash_prefix_that_is_not_lowercase_hex_matches_nothing() {
        let dir = std::env::temp_dir().join(format!("studio-library-{}", std::process::id()));
        let cas = Cas::open(&dir, 1024).unwrap();
        let (hash, _) = cas.put(b"la", "text/plain").unwrap();
        assert_eq!(hashes(&cas, &hash[..3]).unwrap().values, vec![hash.clone()]);
        for typed in ["AB", "é", "zz", &"a".repeat(65)] {
            assert!(hashes(&cas, typed).unwrap().values.is_empty(), "{typed}");
        }
        let described = describe(&cas, &hash, Some("its length")).unwrap();
        let PromptContent::Resource { body, .. } = &described.messages[0].content else {
            panic!("the object attached");
        };
        assert_eq!(body, &ResourceBody::Text("la".into()));
        let _ = std::fs::remove_dir_all(dir);
    }
}
