/// Orpheus: a transformer that writes multi-instrument MIDI. Every
/// generating tool runs on the GPU as a long job, streams progress and
/// partial MIDI, and records each variation as an artifact.
category orpheus;

/// Generate new MIDI from scratch.
@toolset("generation")
tool orpheus_generate {
    timing async_long
    title "Generate MIDI"
    request {
        /// Which Orpheus checkpoint to sample from.
        model: OrpheusModel = base,
        /// Sampling temperature; higher is more adventurous.
        @range(0.1, 2.0)
        temperature: f32 = 1.0,
        /// Nucleus sampling threshold.
        @range(0.0, 1.0)
        top_p: f32 = 0.95,
        /// Maximum MIDI tokens to generate per variation.
        @range(1, 8192)
        max_tokens: u32 = 1024,
        /// Number of independent variations to generate.
        @range(1, 8)
        num_variations: u32 = 1,
        /// Random seed for reproducible output; random when omitted.
        seed: u64?,
        /// Tags recorded on every resulting artifact.
        tags: list<string> = [],
        /// Creator recorded on every resulting artifact; defaults to the caller.
        creator: string?,
        /// Artifact the results are derived from.
        parent_id: string?,
        /// Variation set to add the results to; a new one is made when omitted.
        variation_set_id: string?,
    }
    response OrpheusGenerated
    stream GenerationChunk
    errors OrpheusError
    // Generation samples a model, so the example states no response.
    example "One short seeded variation" {
        request { max_tokens: 128, seed: 7 }
    }
}

/// Continue an existing MIDI file from where it ends.
@toolset("generation")
tool orpheus_continue {
    timing async_long
    title "Continue MIDI"
    request {
        /// CAS hash of the MIDI to continue.
        @pattern("^[0-9a-f]{64}$")
        input_hash: string,
        /// Which Orpheus checkpoint to sample from.
        model: OrpheusModel = base,
        /// Sampling temperature.
        @range(0.1, 2.0)
        temperature: f32 = 1.0,
        /// Nucleus sampling threshold.
        @range(0.0, 1.0)
        top_p: f32 = 0.95,
        /// Maximum MIDI tokens to add per variation.
        @range(1, 8192)
        max_tokens: u32 = 1024,
        /// Number of independent continuations.
        @range(1, 8)
        num_variations: u32 = 1,
        /// Random seed for reproducible output.
        seed: u64?,
        /// Tags recorded on every resulting artifact.
        tags: list<string> = [],
        /// Creator recorded on every resulting artifact.
        creator: string?,
        /// Artifact the results are derived from; usually the input's artifact.
        parent_id: string?,
        /// Variation set to add the results to.
        variation_set_id: string?,
    }
    response OrpheusGenerated
    stream GenerationChunk
    errors OrpheusError
}

/// Write a transition that leads from one section into another.
@toolset("generation")
tool orpheus_bridge {
    timing async_long
    title "Bridge MIDI sections"
    request {
        /// CAS hash of the section the bridge starts from.
        @pattern("^[0-9a-f]{64}$")
        section_a_hash: string,
        /// CAS hash of the section the bridge leads into; open-ended when omitted.
        @pattern("^[0-9a-f]{64}$")
        section_b_hash: string?,
        /// Sampling temperature.
        @range(0.1, 2.0)
        temperature: f32 = 1.0,
        /// Nucleus sampling threshold.
        @range(0.0, 1.0)
        top_p: f32 = 0.95,
        /// Maximum MIDI tokens in the bridge.
        @range(1, 4096)
        max_tokens: u32 = 512,
        /// Tags recorded on the resulting artifact.
        tags: list<string> = [],
        /// Creator recorded on the resulting artifact.
        creator: string?,
        /// Artifact the bridge is derived from.
        parent_id: string?,
        /// Variation set to add the result to.
        variation_set_id: string?,
    }
    response OrpheusGenerated
    stream GenerationChunk
    errors OrpheusError
}

/// Generate short MIDI phrases that loop seamlessly, optionally seeded.
@toolset("generation")
tool orpheus_loops {
    timing async_long
    title "Generate MIDI loops"
    request {
        /// CAS hash of MIDI to seed the loop from; unseeded when omitted.
        @pattern("^[0-9a-f]{64}$")
        seed_hash: string?,
        /// Sampling temperature.
        @range(0.1, 2.0)
        temperature: f32 = 1.0,
        /// Nucleus sampling threshold.
        @range(0.0, 1.0)
        top_p: f32 = 0.95,
        /// Maximum MIDI tokens per loop.
        @range(1, 4096)
        max_tokens: u32 = 1024,
        /// Number of loops to generate.
        @range(1, 8)
        num_variations: u32 = 4,
        /// Tags recorded on every resulting artifact.
        tags: list<string> = [],
        /// Creator recorded on every resulting artifact.
        creator: string?,
        /// Artifact the loops are derived from.
        parent_id: string?,
        /// Variation set to add the loops to.
        variation_set_id: string?,
    }
    response OrpheusGenerated
    stream GenerationChunk
    errors OrpheusError
}

/// Judge whether MIDI sounds human-performed or machine-generated.
@read_only @idempotent @toolset("analysis")
tool orpheus_classify {
    timing async_short
    title "Classify MIDI"
    request {
        /// CAS hash of the MIDI to classify.
        @pattern("^[0-9a-f]{64}$")
        midi_hash: string,
    }
    response {
        /// Labels with confidences, most likely first.
        classifications: list<MidiClassification>,
    }
    errors OrpheusError
}

/// What an Orpheus generation produced.
struct OrpheusGenerated {
    /// CAS hashes of the generated MIDI files, one per variation.
    output_hashes: list<string>,
    /// Artifact IDs of the generated MIDI files, one per variation.
    artifact_ids: list<string>,
    /// Tokens generated for each variation.
    tokens_per_variation: list<u64>,
    /// Total tokens generated across all variations.
    total_tokens: u64,
    /// Variation set grouping the results.
    variation_set_id: string?,
    /// One-line human-readable summary of what was generated.
    summary: string,
}

/// Orpheus model checkpoints.
enum OrpheusModel {
    /// General multi-instrument model.
    base,
    /// Fine-tuned on children's songs: simple, diatonic, short.
    children,
    /// Fine-tuned on single-voice melodies.
    mono_melodies,
}

/// One classification label and how sure the model is.
struct MidiClassification {
    /// The label, e.g. `human` or `generated`.
    label: string,
    /// Confidence between 0 and 1.
    @range(0.0, 1.0)
    confidence: f32,
}

/// Errors from Orpheus tools.
error OrpheusError {
    /// The requested checkpoint is not loaded on this server.
    model_unavailable {
        /// Name of the checkpoint.
        model: string,
    },
    /// The input content is not in CAS.
    input_not_found {
        /// The missing CAS hash.
        hash: string,
    },
    /// The input is not a valid Standard MIDI File.
    invalid_midi {
        /// CAS hash of the rejected input.
        hash: string,
        /// What the MIDI parser reported.
        message: string,
    },
    /// The GPU ran out of memory; retry with fewer variations or tokens.
    gpu_out_of_memory,
    /// Inference failed for another reason.
    generation_failed {
        /// Description of the failure.
        message: string,
    },
}
