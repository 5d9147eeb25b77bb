/// MusicGen: text-to-music audio generation, optionally conditioned on a
/// melody. Runs on the GPU as a long job and streams partial audio.
category musicgen;

/// Generate instrumental audio from a text description.
@toolset("generation")
tool musicgen_generate {
    timing async_long
    title "Generate music (MusicGen)"
    request {
        /// What the music should sound like, e.g. `lo-fi hip hop with warm rhodes`; unconditional when omitted.
        @length(1, 2000)
        prompt: string?,
        /// Which MusicGen checkpoint to use.
        model: MusicgenModel = medium,
        /// Length of the generated audio in seconds.
        @range(1.0, 30.0)
        duration_seconds: f32 = 10.0,
        /// CAS hash of audio whose melody to follow (needs the `melody` model).
        @pattern("^[0-9a-f]{64}$")
        melody_hash: string?,
        /// Sampling temperature.
        @range(0.1, 2.0)
        temperature: f32 = 1.0,
        /// Sample from the k most likely tokens (0 disables top-k).
        @range(0, 2048)
        top_k: u32 = 250,
        /// Nucleus sampling threshold (0 disables top-p).
        @range(0.0, 1.0)
        top_p: f32 = 0.0,
        /// Classifier-free guidance strength; higher follows the prompt more closely.
        @range(0.0, 20.0)
        guidance_scale: f32 = 3.0,
        /// Sample (true) or decode greedily (false).
        do_sample: bool = true,
        /// Random seed for reproducible output.
        seed: u64?,
        /// Container and codec of the generated file.
        format: AudioFormat = wav,
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
    errors MusicgenError
}

/// MusicGen checkpoints, smallest to largest.
enum MusicgenModel {
    /// 300M parameters; fastest.
    small,
    /// 1.5B parameters; the usual choice.
    medium,
    /// 3.3B parameters; best quality, slowest.
    large,
    /// 1.5B parameters, conditioned on a reference melody.
    melody,
}

/// Errors from MusicGen.
error MusicgenError {
    /// The requested checkpoint is not loaded on this server.
    model_unavailable {
        /// The requested checkpoint.
        model: MusicgenModel,
    },
    /// `melody_hash` was given with a model that cannot follow a melody.
    melody_needs_melody_model,
    /// The melody audio is not in CAS.
    melody_not_found {
        /// The missing CAS hash.
        hash: string,
    },
    /// The GPU ran out of memory; retry with a shorter duration or smaller model.
    gpu_out_of_memory,
    /// Inference failed for another reason.
    generation_failed {
        /// Description of the failure.
        message: string,
    },
}
