/// SoundFonts (.sf2): the sample banks `midi_to_wav` renders with. Look
/// inside one to pick a bank and program before rendering.
category soundfont;

/// List the presets in a SoundFont.
@read_only @idempotent
tool soundfont_inspect {
    timing async_short
    title "Inspect SoundFont"
    request {
        /// CAS hash of the SoundFont.
        @pattern("^[0-9a-f]{64}$")
        soundfont_hash: string,
        /// Also return the General MIDI drum map of bank 128.
        include_drum_map: bool = false,
    }
    /// The presets and metadata of a SoundFont.
    response SoundfontInfo {
        /// Bank name from the SoundFont's INFO chunk.
        name: string,
        /// Every preset, ordered by bank then program.
        presets: list<SoundfontPreset>,
        /// Number of presets.
        preset_count: u32,
        /// Drum names keyed by MIDI note number (as a decimal string), when requested.
        drum_map: map<string>?,
    }
    errors SoundfontError
}

/// Show how one preset maps keys and velocities to samples.
@read_only @idempotent
tool soundfont_preset_inspect {
    timing async_short
    title "Inspect SoundFont preset"
    request {
        /// CAS hash of the SoundFont.
        @pattern("^[0-9a-f]{64}$")
        soundfont_hash: string,
        /// Bank number; 128 is the percussion bank.
        @range(0, 128)
        bank: u16,
        /// Program number within the bank.
        @range(0, 127)
        program: u16,
    }
    /// One SoundFont preset in detail.
    response SoundfontPresetInfo {
        /// Bank number.
        bank: u16,
        /// Program number.
        program: u16,
        /// Preset name, e.g. `Acoustic Grand Piano`.
        name: string,
        /// Key and velocity zones, in file order.
        zones: list<SoundfontZone>,
    }
    errors SoundfontError
}

/// One preset of a SoundFont.
struct SoundfontPreset {
    /// Bank number; 128 is the percussion bank.
    bank: u16,
    /// Program number within the bank.
    program: u16,
    /// Preset name.
    name: string,
}

/// A key and velocity range of a preset and the sample it plays.
struct SoundfontZone {
    /// Lowest MIDI key of the zone.
    @range(0, 127)
    key_low: u8,
    /// Highest MIDI key of the zone.
    @range(0, 127)
    key_high: u8,
    /// Lowest velocity of the zone.
    @range(0, 127)
    velocity_low: u8,
    /// Highest velocity of the zone.
    @range(0, 127)
    velocity_high: u8,
    /// MIDI key at which the sample plays unpitched.
    @range(0, 127)
    root_key: u8?,
    /// Name of the sample the zone plays.
    sample_name: string?,
}

/// Errors from SoundFont tools.
error SoundfontError {
    /// The SoundFont is not in CAS.
    not_found {
        /// The missing CAS hash.
        hash: string,
    },
    /// The content is not a valid SoundFont 2 file.
    invalid_soundfont {
        /// What the parser reported.
        message: string,
    },
    /// The SoundFont has no preset at this bank and program.
    preset_not_found {
        /// Bank number requested.
        bank: u16,
        /// Program number requested.
        program: u16,
    },
}
