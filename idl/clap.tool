/// CLAP: contrastive language-audio embeddings. Describe audio with
/// genre and mood labels, score it against free text, or compare two clips.
category clap;

/// Embed and label audio, or compare it with text or other audio.
@read_only @idempotent @toolset("analysis")
tool clap_analyze {
    timing async_short
    title "Analyze audio (CLAP)"
    request {
        /// CAS hash of the audio to analyze.
        @pattern("^[0-9a-f]{64}$")
        audio_hash: string,
        /// CAS hash of a second clip, for the `similarity` task.
        @pattern("^[0-9a-f]{64}$")
        audio_b_hash: string?,
        /// Analyses to run; an empty list runs `embeddings` only.
        @length(0, 5)
        tasks: list<ClapTask> = [],
        /// Free-text labels to score the audio against, for the `zero_shot` task.
        @length(0, 64)
        text_candidates: list<string> = [],
        /// How many labels to return per classification task.
        @range(1, 50)
        top_k: u32 = 5,
    }
    /// The results of the requested CLAP tasks; a field is set only when its task ran.
    response ClapAnalysis {
        /// The 512-dimensional audio embedding, when `embeddings` ran.
        embeddings: list<f32>?,
        /// Genre labels, most likely first, when `genre` ran.
        genre: list<ClapLabel>?,
        /// Mood labels, most likely first, when `mood` ran.
        mood: list<ClapLabel>?,
        /// Scores for `text_candidates`, best first, when `zero_shot` ran.
        zero_shot: list<ClapLabel>?,
        /// Cosine similarity of the two clips, from -1 to 1, when `similarity` ran.
        similarity: f32?,
    }
    errors ClapError
}

/// An analysis CLAP can run.
enum ClapTask {
    /// Return the audio embedding vector.
    embeddings,
    /// Rank a fixed genre vocabulary.
    genre,
    /// Rank a fixed mood vocabulary.
    mood,
    /// Rank caller-supplied text labels.
    zero_shot,
    /// Compare with a second clip.
    similarity,
}

/// A text label and how well the audio matches it.
struct ClapLabel {
    /// The label, e.g. `ambient` or `melancholic`.
    label: string,
    /// Match score between 0 and 1 (softmax over the candidates).
    @range(0.0, 1.0)
    score: f32,
}

/// Errors from CLAP.
error ClapError {
    /// The audio is not in CAS.
    audio_not_found {
        /// The missing CAS hash.
        hash: string,
    },
    /// The audio could not be decoded.
    decode_failed {
        /// What the decoder reported.
        message: string,
    },
    /// The `zero_shot` task needs at least one entry in `text_candidates`.
    zero_shot_needs_candidates,
    /// The `similarity` task needs `audio_b_hash`.
    similarity_needs_second_clip,
}
