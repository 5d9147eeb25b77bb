/// BeatThis: beat and downbeat tracking for audio, with tempo and meter
/// estimates. Useful before aligning generated material to a recording.
category beatthis;

/// Find the beats and downbeats in an audio clip.
@read_only @idempotent @toolset("analysis")
tool beatthis_analyze {
    timing async_short
    title "Track beats (BeatThis)"
    request {
        /// CAS hash of the audio to analyze.
        @pattern("^[0-9a-f]{64}$")
        audio_hash: string?,
        /// Path of the audio on the tool server.
        @deprecated("store the file in CAS and pass audio_hash; server paths do not survive a move between hosts")
        audio_path: string?,
        /// Also return the per-frame beat probabilities.
        include_frames: bool = false,
        /// Smooth the beat grid with a dynamic Bayesian network (steadier, slower).
        use_dbn: bool = false,
    }
    /// Beat and downbeat times found in a recording.
    response BeatAnalysis {
        /// Beat times in seconds from the start.
        beats: list<f64>,
        /// Downbeat (first beat of the bar) times in seconds.
        downbeats: list<f64>,
        /// Estimated tempo in beats per minute.
        estimated_bpm: f64,
        /// Estimated time signature, when the downbeats are regular enough to tell.
        time_signature: TimeSignature?,
        /// Overall confidence between 0 and 1.
        @range(0.0, 1.0)
        confidence: f32,
        /// Frame-level probabilities, when `include_frames` was set.
        frames: BeatFrames?,
    }
    errors BeatthisError
}

/// Frame-level beat activations.
struct BeatFrames {
    /// Frames per second of the activation curves.
    fps: f32,
    /// Beat probability per frame, from 0 to 1.
    beat: list<f32>,
    /// Downbeat probability per frame, from 0 to 1.
    downbeat: list<f32>,
}

/// Errors from BeatThis.
error BeatthisError {
    /// Neither `audio_hash` nor `audio_path` was given.
    missing_input,
    /// The audio is not in CAS or not on disk.
    audio_not_found {
        /// The hash or path that was looked up.
        source: string,
    },
    /// The clip is longer than the model can take in one pass.
    audio_too_long {
        /// Length of the clip in seconds.
        duration_seconds: f64,
        /// Longest clip accepted, in seconds.
        max_seconds: f64,
    },
    /// The audio could not be decoded.
    decode_failed {
        /// What the decoder reported.
        message: string,
    },
}
