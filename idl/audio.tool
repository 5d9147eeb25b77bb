/// Audio conversion and inspection: render MIDI through a SoundFont,
/// transcode between formats, and read levels and structure without a GPU.
/// Also home to the audio types the generating categories share.
category audio;

/// Render MIDI to audio through a SoundFont.
tool midi_to_wav {
    timing async_medium
    title "Render MIDI to audio"
    request {
        /// CAS hash of the MIDI file to render.
        @pattern("^[0-9a-f]{64}$")
        input_hash: string,
        /// CAS hash of the SoundFont (.sf2) to render with.
        @pattern("^[0-9a-f]{64}$")
        soundfont_hash: string,
        /// Output sample rate in Hz.
        @range(8000, 192000)
        sample_rate: u32 = 44100,
        /// Container and codec of the rendered file.
        format: AudioFormat = wav,
        /// Output gain in decibels applied after rendering.
        @range(-48.0, 12.0)
        gain_db: f32 = 0.0,
        /// Tags recorded on the resulting artifact.
        tags: list<string> = [],
        /// Creator recorded on the resulting artifact.
        creator: string?,
        /// Artifact the render is derived from; usually the MIDI's artifact.
        parent_id: string?,
        /// Variation set to add the result to.
        variation_set_id: string?,
    }
    response {
        /// Artifact ID of the rendered audio.
        artifact_id: string,
        /// CAS hash of the rendered audio.
        content_hash: string,
        /// Sample rate of the rendered audio in Hz.
        sample_rate: u32,
        /// Container and codec of the rendered file.
        format: AudioFormat,
        /// Length of the rendered audio in seconds.
        duration_seconds: f64,
    }
    stream RenderProgress
    errors AudioError
}

/// Transcode audio to another format, sample rate or channel count.
tool audio_convert {
    timing async_medium
    title "Convert audio"
    request {
        /// CAS hash of the audio to convert.
        @pattern("^[0-9a-f]{64}$")
        input_hash: string,
        /// Target container and codec.
        format: AudioFormat,
        /// Target sample rate in Hz; unchanged when omitted.
        @range(8000, 192000)
        sample_rate: u32?,
        /// Target channel count (1 = mono, 2 = stereo); unchanged when omitted.
        @range(1, 8)
        channels: u8?,
        /// Bitrate for lossy formats, in kilobits per second.
        @range(32, 320)
        bitrate_kbps: u32 = 192,
        /// Tags recorded on the resulting artifact.
        tags: list<string> = [],
        /// Artifact the converted audio is derived from.
        parent_id: string?,
    }
    response {
        /// Artifact ID of the converted audio.
        artifact_id: string,
        /// CAS hash of the converted audio.
        content_hash: string,
        /// Size of the converted file in bytes.
        size: u64,
    }
    stream RenderProgress
    errors AudioError
}

/// Measure an audio file's length, format and levels.
@read_only @idempotent
tool audio_info {
    timing async_short
    title "Audio info"
    request {
        /// Artifact ID of the audio; give this or `hash`.
        artifact_id: string?,
        /// CAS hash of the audio; give this or `artifact_id`.
        @pattern("^[0-9a-f]{64}$")
        hash: string?,
        /// Mean level below which the audio counts as silent, in dBFS.
        @range(-120.0, 0.0)
        silence_threshold_db: f32 = -60.0,
    }
    /// Format, length and level measurements of an audio file.
    response AudioInfo {
        /// Length in seconds.
        duration_seconds: f64,
        /// Sample rate in Hz.
        sample_rate: u32,
        /// Number of channels.
        channels: u16,
        /// Peak level in dBFS (0 dB is full scale).
        peak_db: f32,
        /// Mean (RMS) level in dBFS.
        mean_db: f32,
        /// True when the mean level is below the silence threshold.
        is_silent: bool,
    }
    errors AudioError
}

/// Read a MIDI file's tempo, meter, length and size.
@read_only @idempotent
tool midi_info {
    timing async_short
    title "MIDI info"
    request {
        /// Artifact ID of the MIDI file; give this or `hash`.
        artifact_id: string?,
        /// CAS hash of the MIDI file; give this or `artifact_id`.
        @pattern("^[0-9a-f]{64}$")
        hash: string?,
    }
    /// Tempo, meter, tracks and notes of a MIDI file.
    response MidiInfo {
        /// Initial tempo in beats per minute, when the file sets one.
        tempo_bpm: f64?,
        /// Every tempo change in the file, in order.
        tempo_changes: list<TempoChange>,
        /// Initial time signature, when the file sets one.
        time_signature: TimeSignature?,
        /// Playing time in seconds.
        duration_seconds: f64,
        /// Number of tracks.
        track_count: u32,
        /// Timing resolution in pulses per quarter note.
        ppq: u16,
        /// Number of note-on events.
        note_count: u64,
        /// Standard MIDI File format: 0, 1 or 2.
        @range(0, 2)
        format: u8,
    }
    errors AudioError
}

/// Audio container and codec.
enum AudioFormat {
    /// Uncompressed PCM in a RIFF/WAVE container.
    wav,
    /// Lossless FLAC.
    flac,
    /// Lossy MPEG-1 Layer III.
    mp3,
    /// Lossy Opus in an Ogg container.
    ogg,
}

/// A musical time signature, e.g. 6/8.
struct TimeSignature {
    /// Beats per bar.
    @range(1, 64)
    numerator: u8,
    /// Note value of one beat: 1, 2, 4, 8, 16 or 32.
    @range(1, 32)
    denominator: u8,
}

/// A tempo change inside a MIDI file.
struct TempoChange {
    /// Position of the change in ticks from the start.
    tick: u64,
    /// New tempo in beats per minute.
    bpm: f64,
}

/// Result of an audio generator (MusicGen, YuE).
struct GeneratedAudio {
    /// Artifact ID of the generated audio.
    artifact_id: string,
    /// CAS hash of the generated audio.
    content_hash: string,
    /// Length in seconds.
    duration_seconds: f64,
    /// Sample rate in Hz.
    sample_rate: u32,
    /// Container and codec of the generated file.
    format: AudioFormat,
    /// Genre or style the model was conditioned on, when any.
    genre: string?,
}

/// Progress of a render or transcode.
struct RenderProgress {
    /// Fraction of the input processed, from 0 to 1.
    @range(0.0, 1.0)
    fraction: f32,
    /// Seconds of audio produced so far.
    rendered_seconds: f64,
}

/// One piece of a generator's output stream, sent while a job runs.
union GenerationChunk {
    /// Overall progress.
    progress {
        /// Percentage complete, from 0 to 100.
        @range(0.0, 100.0)
        percent: f32,
        /// What the generator is doing now, e.g. `sampling variation 2 of 4`.
        message: string,
    },
    /// MIDI produced so far, as a Standard MIDI File fragment.
    partial_midi {
        /// Which variation this fragment belongs to, counting from 0.
        variation: u32,
        /// MIDI bytes of the fragment.
        events: bytes,
    },
    /// Audio produced so far, as interleaved little-endian f32 samples.
    partial_audio {
        /// Interleaved little-endian 32-bit float samples.
        samples: bytes,
        /// Sample rate of the samples in Hz.
        sample_rate: u32,
        /// Number of interleaved channels.
        channels: u8,
    },
    /// A log line from the model worker.
    log_line {
        /// Severity of the line.
        level: LogLevel,
        /// The log message.
        message: string,
    },
    /// The model is loaded and generation is starting.
    model_loaded,
}

/// Severity of a log line.
enum LogLevel {
    /// Very detailed diagnostics.
    trace,
    /// Diagnostics useful when debugging.
    debug,
    /// Normal operational messages.
    info,
    /// Something unexpected that did not stop the work.
    warn,
    /// A failure.
    error,
}

/// Errors from audio conversion and inspection.
error AudioError {
    /// Neither `artifact_id` nor `hash` was given.
    missing_input,
    /// The input content or artifact does not exist.
    not_found {
        /// The artifact ID or CAS hash that was looked up.
        id: string,
    },
    /// The input could not be decoded as audio or MIDI.
    decode_failed {
        /// CAS hash of the rejected input.
        hash: string,
        /// What the decoder reported.
        message: string,
    },
    /// The SoundFont is not in CAS or is not a valid .sf2 file.
    soundfont_invalid {
        /// CAS hash of the SoundFont.
        hash: string,
    },
    /// The encoder for the requested format is not available on this server.
    unsupported_format {
        /// The requested format.
        format: AudioFormat,
    },
    /// Rendering or encoding failed.
    render_failed {
        /// Description of the failure.
        message: string,
    },
}
