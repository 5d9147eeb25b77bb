/// ABC music notation: a compact text format for tunes that language
/// models read and write well. Parse, check, transpose, and render to MIDI.
category abc;

/// Parse ABC notation and report what the tune contains.
@read_only @idempotent
tool abc_parse {
    timing sync
    title "Parse ABC"
    request {
        /// The ABC notation source text.
        @length(1, 1048576)
        abc: string,
    }
    /// What a parsed tune contains.
    response AbcParsed {
        /// True when the source parsed without errors.
        valid: bool,
        /// Tune title from the `T:` field.
        title: string?,
        /// Key from the `K:` field, e.g. `Gmaj` or `Ador`.
        key: string?,
        /// Meter from the `M:` field, e.g. `6/8`.
        meter: string?,
        /// Tempo in quarter notes per minute from the `Q:` field.
        tempo: u32?,
        /// Voice names from `V:` fields; empty for single-voice tunes.
        voices: list<string>,
        /// Number of notes in the tune body.
        notes_count: u64,
    }
    errors AbcError
}

/// Check ABC notation and list every problem with its position.
@read_only @idempotent
tool abc_validate {
    timing sync
    title "Validate ABC"
    request {
        /// The ABC notation source text.
        @length(1, 1048576)
        abc: string,
        /// Treat warnings as errors when deciding `valid`.
        strict: bool = false,
    }
    response {
        /// True when there are no errors (and, in strict mode, no warnings).
        valid: bool,
        /// Every problem found, in source order.
        diagnostics: list<AbcDiagnostic>,
    }
}

/// Transpose ABC notation by an interval or to a target key.
@read_only @idempotent
tool abc_transpose {
    timing sync
    title "Transpose ABC"
    request {
        /// The ABC notation source text.
        @length(1, 1048576)
        abc: string,
        /// Semitones to shift; ignored when `target_key` is given.
        @range(-24, 24)
        semitones: i8 = 0,
        /// Key to transpose to, e.g. `D`, `Bb` or `F#m`.
        @pattern("^[A-G][#b]?(m|maj|min|dor|mix|lyd|phr|loc)?$")
        target_key: string?,
    }
    /// The tune after transposition.
    response AbcTransposed {
        /// The transposed ABC source.
        abc: string,
        /// Key before transposing, when the tune declares one.
        original_key: string?,
        /// Key after transposing.
        new_key: string?,
        /// Semitones actually shifted.
        semitones: i8,
    }
    errors AbcError
}

/// Render ABC notation to a MIDI file and record it as an artifact.
tool abc_to_midi {
    timing async_short
    title "ABC to MIDI"
    request {
        /// The ABC notation source text.
        @length(1, 1048576)
        abc: string,
        /// Tempo in quarter notes per minute, overriding the tune's `Q:` field.
        @range(20, 400)
        tempo_override: u16?,
        /// Semitones to transpose while rendering.
        @range(-24, 24)
        transpose: i8 = 0,
        /// Note-on velocity for every note.
        @range(1, 127)
        velocity: u8 = 80,
        /// MIDI channel for single-voice tunes, counting from 0.
        @range(0, 15)
        channel: u8 = 0,
        /// Tags recorded on the resulting artifact.
        tags: list<string> = [],
        /// Creator recorded on the resulting artifact.
        creator: string?,
        /// Artifact the result is derived from.
        parent_id: string?,
        /// Variation set to add the result to.
        variation_set_id: string?,
    }
    response {
        /// Artifact ID of the MIDI file.
        artifact_id: string,
        /// CAS hash of the MIDI file.
        content_hash: string,
        /// Playing time in seconds.
        duration_seconds: f64,
        /// Number of notes rendered.
        notes_count: u64,
    }
    errors AbcError
}

/// Ask for a new tune in ABC notation, ready for `abc_to_midi`.
prompt abc_compose {
    title "Compose a tune in ABC"
    arguments {
        /// The key's tonic, e.g. `D` or `Bb`.
        @pattern("^[A-G][b#]?$")
        tonic: string = "C",
        /// The key's mode.
        mode: AbcMode = major,
        /// What the tune should feel like, e.g. `a slow lament`.
        @complete
        mood: string?,
        /// How long: `short` is 8 bars, `medium` 16, `long` 32.
        length: TuneLength = medium,
    }
}

/// A mode of a key.
enum AbcMode {
    /// Ionian: the major scale.
    major,
    /// Aeolian: the natural minor scale.
    minor,
    /// Minor with a raised sixth.
    dorian,
    /// Major with a lowered seventh.
    mixolydian,
    /// Major with a raised fourth.
    lydian,
    /// Minor with a lowered second.
    phrygian,
}

/// How long a tune is.
enum TuneLength {
    /// 8 bars.
    short,
    /// 16 bars.
    medium,
    /// 32 bars.
    long,
}

/// One problem found in ABC source.
struct AbcDiagnostic {
    /// Line number, counting from 1.
    line: u32,
    /// Column number, counting from 1.
    column: u32,
    /// How serious the problem is.
    severity: Severity,
    /// What is wrong.
    message: string,
}

/// Errors from ABC tools.
error AbcError {
    /// The input is not valid ABC.
    parse_failed {
        /// Line of the first error, counting from 1.
        line: u32,
        /// Column of the first error, counting from 1.
        column: u32,
        /// What the parser expected.
        message: string,
    },
    /// The tune uses ABC syntax this server does not support.
    unsupported_feature {
        /// The feature, e.g. `%%MIDI drum`.
        feature: string,
    },
    /// The target key is not one the transposer knows.
    unknown_key {
        /// The key as given.
        key: string,
    },
    /// Transposing would move notes outside the MIDI range 0-127.
    out_of_midi_range,
}
