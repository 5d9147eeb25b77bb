/// YuE: full songs with vocals from lyrics and a style description.
/// Very slow (minutes per segment); always a long job with progress.
category yue;

/// Generate a song, vocals included, from structured lyrics.
@toolset("generation")
tool yue_generate {
    timing async_long
    title "Generate song (YuE)"
    request {
        /// Lyrics divided into sections with markers such as `[verse]` and `[chorus]`.
        @length(1, 20000)
        lyrics: string,
        /// Style tags, e.g. `inspiring female uplifting pop airy vocal`.
        @length(0, 500)
        genre: string = "",
        /// Tokens to generate per segment.
        @range(500, 6000)
        max_new_tokens: u32 = 3000,
        /// Number of lyric sections to render, from the start.
        @range(1, 8)
        run_n_segments: u32 = 2,
        /// Random seed for reproducible output.
        seed: u64?,
        /// Container and codec of the generated file.
        format: AudioFormat = mp3,
        /// Tags recorded on the resulting artifact.
        tags: list<string> = [],
        /// Creator recorded on the resulting artifact.
        creator: string?,
        /// Artifact the result is derived from.
        parent_id: string?,
        /// Variation set to add the result to.
        variation_set_id: string?,
    }
    response GeneratedAudio
    stream GenerationChunk
    errors YueError
}

/// Errors from YuE.
error YueError {
    /// The lyrics contain no section markers such as `[verse]`.
    lyrics_missing_sections,
    /// More segments were requested than the lyrics have sections.
    too_many_segments {
        /// Segments requested.
        requested: u32,
        /// Sections found in the lyrics.
        available: u32,
    },
    /// The GPU ran out of memory; retry with fewer segments.
    gpu_out_of_memory,
    /// Inference failed for another reason.
    generation_failed {
        /// Which stage failed: `stage1` (semantic tokens) or `stage2` (acoustic tokens).
        stage: string,
        /// Description of the failure.
        message: string,
    },
}
