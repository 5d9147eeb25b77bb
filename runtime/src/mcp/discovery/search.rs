//! `search_tools`' ranking: a few weighted word matches, which is all a
//! catalogue's short, curated descriptions need, and stays predictable
//! (the same query ranks the same tools the same way on every server).

use crate::ToolInfo;

/// How much a word matching in each part of a tool counts.
const NAME: u32 = 3;
const TOOLSET: u32 = 3;
const TITLE: u32 = 2;
const DESCRIPTION: u32 = 1;

/// A query word this long or longer also matches the words it begins.
const PREFIX_MIN: usize = 3;

/// The words of every tool, lowercased once.
#[derive(Debug)]
pub(super) struct Index {
    entries: Vec<Entry>,
}

#[derive(Debug)]
struct Entry {
    tool: &'static ToolInfo,
    /// Each word with the weight of the part it is in, the highest when
    /// it is in several.
    words: Vec<(String, u32)>,
}

impl Index {
    pub(super) fn new(tools: &'static [ToolInfo]) -> Index {
        let entries = tools
            .iter()
            .map(|tool| {
                let mut words = Words::default();
                words.add(tool.name, NAME);
                for toolset in tool.toolsets {
                    words.add(toolset, TOOLSET);
                }
                words.add(tool.title.unwrap_or_default(), TITLE);
                words.add(tool.description, DESCRIPTION);
                for action in tool.actions {
                    words.add(action.name, DESCRIPTION);
                    words.add(action.description, DESCRIPTION);
                }
                Entry {
                    tool,
                    words: words.0,
                }
            })
            .collect();
        Index { entries }
    }

    /// The tools `keep` allows that match `query`, best first (ties in
    /// catalogue order), each with its score.
    pub(super) fn search(
        &self,
        query: &str,
        keep: impl Fn(&ToolInfo) -> bool,
    ) -> Vec<(u32, &'static ToolInfo)> {
        let query: Vec<String> = words_of(query).collect();
        let mut hits: Vec<(u32, usize, &'static ToolInfo)> = self
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| keep(e.tool))
            .filter_map(|(i, e)| {
                let score: u32 = query.iter().map(|q| score(&e.words, q)).sum();
                (score > 0).then_some((score, i, e.tool))
            })
            .collect();
        hits.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        hits.into_iter()
            .map(|(score, _, tool)| (score, tool))
            .collect()
    }
}

/// How well a tool known only by its name, title and description (a
/// mounted server's, which has no toolsets or actions) matches `query`,
/// weighed as a catalogue tool's: 0 when it does not.
#[cfg(feature = "mount")]
pub(super) fn score_plain(query: &str, name: &str, title: Option<&str>, description: &str) -> u32 {
    let mut words = Words::default();
    words.add(name, NAME);
    words.add(title.unwrap_or_default(), TITLE);
    words.add(description, DESCRIPTION);
    words_of(query).map(|q| score(&words.0, &q)).sum()
}

/// A tool's words, each with the weight of the part it is in, the
/// highest when it is in several.
#[derive(Default)]
struct Words(Vec<(String, u32)>);

impl Words {
    fn add(&mut self, text: &str, weight: u32) {
        for word in words_of(text) {
            match self.0.iter_mut().find(|(w, _)| *w == word) {
                Some((_, w)) => *w = (*w).max(weight),
                None => self.0.push((word, weight)),
            }
        }
    }
}

/// What one query word adds to a tool of `words`: its best match, twice
/// the weight when whole and the weight when a prefix.
fn score(words: &[(String, u32)], query: &str) -> u32 {
    words
        .iter()
        .map(|(word, weight)| {
            if word == query {
                2 * weight
            } else if query.len() >= PREFIX_MIN && word.starts_with(query) {
                *weight
            } else {
                0
            }
        })
        .max()
        .unwrap_or(0)
}

/// The lowercased words of `text` (runs of letters and digits; `_` splits
/// names), leaving out one-letter ones.
fn words_of(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().nth(1).is_some())
        .map(str::to_lowercase)
}

/// The first sentence of a description (or its first line), at most
/// 200 characters: what a search answer shows of each tool.
pub(super) fn summary(description: &str) -> String {
    const MAX: usize = 200;
    let line = description.lines().next().unwrap_or_default();
    let sentence = line.find(". ").map_or(line, |end| &line[..=end]);
    match sentence.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}…", &sentence[..cut]),
        None => sentence.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ToolTiming;

    const fn tool(
        name: &'static str,
        title: Option<&'static str>,
        description: &'static str,
        toolsets: &'static [&'static str],
    ) -> ToolInfo {
        ToolInfo {
            name,
            title,
            description,
            timing: ToolTiming::Sync,
            actions: &[],
            streams: false,
            paged: false,
            task_required: false,
            builtin: false,
            toolsets,
            scopes: &[],
        }
    }

    static TOOLS: [ToolInfo; 3] = [
        tool(
            "audio_convert",
            Some("Convert audio"),
            "Convert an audio file to another format.",
            &["audio"],
        ),
        tool(
            "midi_to_wav",
            None,
            "Render MIDI to audio with a soundfont.",
            &["audio", "generation"],
        ),
        tool("ping", None, "Answer pong.", &["admin"]),
    ];

    fn names(hits: &[(u32, &ToolInfo)]) -> Vec<&'static str> {
        hits.iter().map(|(_, t)| t.name).collect()
    }

    #[test]
    fn a_name_outranks_a_description_and_ties_keep_catalogue_order() {
        let index = Index::new(&TOOLS);
        assert_eq!(names(&index.search("convert", |_| true)), ["audio_convert"]);
        assert_eq!(
            names(&index.search("Audio", |_| true)),
            ["audio_convert", "midi_to_wav"]
        );
        assert_eq!(
            names(&index.search("render wav", |_| true)),
            ["midi_to_wav"]
        );
    }

    #[test]
    fn prefixes_match_toolsets_count_and_filters_apply() {
        let index = Index::new(&TOOLS);
        assert_eq!(names(&index.search("conv", |_| true)), ["audio_convert"]);
        assert_eq!(names(&index.search("co", |_| true)), Vec::<&str>::new());
        assert_eq!(
            names(&index.search("generation", |_| true)),
            ["midi_to_wav"]
        );
        assert_eq!(
            names(&index.search("audio", |t| t.name != "audio_convert")),
            ["midi_to_wav"]
        );
        assert!(index.search("", |_| true).is_empty());
    }

    #[cfg(feature = "mount")]
    #[test]
    fn a_plain_tool_scores_as_a_catalogue_tool_of_the_same_words() {
        let index = Index::new(&TOOLS);
        let [(catalogue, _)] = index.search("convert audio", |t| t.name == "audio_convert")[..]
        else {
            panic!("one hit");
        };
        let plain = score_plain(
            "convert audio",
            "audio_convert",
            Some("Convert audio"),
            "Convert an audio file to another format.",
        );
        assert_eq!(plain, catalogue);
        assert_eq!(score_plain("midi", "audio_convert", None, "Convert."), 0);
    }

    #[test]
    fn summaries_are_first_sentences_cut_at_200_characters() {
        assert_eq!(
            summary("Convert audio. Then more.\nAnd more."),
            "Convert audio."
        );
        assert_eq!(summary("One line\nanother"), "One line");
        let long = "é".repeat(300);
        assert_eq!(summary(&long).chars().count(), 201);
    }
}
