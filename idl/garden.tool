/// Chaosgarden: the real-time playback engine. Transport control (play,
/// pause, seek, tempo) and the timeline of regions it plays. Transport
/// commands are fire-and-forget: they return a job ID at once, and a
/// failure (daemon down, nothing to play) is recorded on that job.
category garden;

/// Report the transport state and timeline summary.
@read_only @idempotent
tool garden_status {
    timing sync
    title "Garden status"
    response GardenStatus
    errors GardenError
}

/// Start playback from the current position.
@idempotent
tool garden_play {
    timing fire_and_forget
    title "Play"
    errors GardenError
}

/// Pause playback, keeping the current position.
@idempotent
tool garden_pause {
    timing fire_and_forget
    title "Pause"
    errors GardenError
}

/// Stop playback and return to the start of the timeline.
@idempotent
tool garden_stop {
    timing fire_and_forget
    title "Stop"
    errors GardenError
}

/// Move the playhead to a beat.
@idempotent
tool garden_seek {
    timing fire_and_forget
    title "Seek"
    request {
        /// Target position in beats from the start of the timeline.
        @range(0.0, 1000000.0)
        beat: f64,
    }
    errors GardenError
}

/// Change the tempo.
@idempotent
tool garden_set_tempo {
    timing fire_and_forget
    title "Set tempo"
    request {
        /// New tempo in beats per minute.
        @range(20.0, 400.0)
        bpm: f64,
    }
    errors GardenError
}

/// Silence all output immediately and confirm it; for when something is too loud.
@idempotent
tool garden_emergency_pause {
    timing sync
    title "Emergency pause"
    errors GardenError
}

/// List the regions on the timeline, optionally within a beat range.
@read_only @idempotent
tool garden_get_regions {
    timing sync
    title "Get regions"
    request {
        /// Only regions that end after this beat.
        @range(0.0, 1000000.0)
        start_beat: f64?,
        /// Only regions that start before this beat.
        @range(0.0, 1000000.0)
        end_beat: f64?,
    }
    response {
        /// The matching regions, ordered by start beat.
        regions: list<Region>,
        /// Number of regions returned.
        count: u32,
    }
    errors GardenError
}

/// Place content on the timeline as a new region.
tool garden_create_region {
    timing async_short
    title "Create region"
    /// Where a new region goes on the timeline and what it plays.
    request RegionSpec {
        /// Where the region starts, in beats from the start of the timeline.
        @range(0.0, 1000000.0)
        start_beat: f64,
        /// Length of the region in beats.
        @range(0.001, 100000.0)
        length_beats: f64,
        /// How the region behaves during playback.
        behavior: RegionBehavior = play_content,
        /// Artifact ID of the content the region plays.
        content_id: string,
        /// Display name shown in timelines.
        @length(1, 200)
        name: string?,
    }
    response Region
    errors GardenError
}

/// Remove a region from the timeline.
@destructive @idempotent
tool garden_delete_region {
    timing async_short
    title "Delete region"
    request {
        /// ID of the region to remove.
        region_id: string,
    }
    errors GardenError
}

/// Move a region to a new start beat, keeping its length.
@idempotent
tool garden_move_region {
    timing async_short
    title "Move region"
    request {
        /// ID of the region to move.
        region_id: string,
        /// New start position in beats.
        @range(0.0, 1000000.0)
        start_beat: f64,
    }
    response Region
    errors GardenError
}

/// Remove every region from the timeline.
@destructive @idempotent
tool garden_clear_regions {
    timing async_short
    title "Clear regions"
    response {
        /// Number of regions removed.
        removed: u32,
    }
    errors GardenError
}

/// Query the engine's state graph with a Trustfall (GraphQL-like) query.
@read_only @idempotent
tool garden_query {
    timing sync
    title "Query garden state"
    request {
        /// The Trustfall query text.
        @length(1, 65536)
        query: string,
        /// Values for the query's `$variables`, by name.
        variables: map<json>?,
    }
    response {
        /// One JSON object per result row.
        results: list<json>,
        /// Number of result rows.
        count: u32,
    }
    errors GardenError
}

/// Snapshot of the playback engine.
struct GardenStatus {
    /// Whether the transport is playing, paused or stopped.
    state: TransportState,
    /// Playhead position in beats.
    position_beats: f64,
    /// Current tempo in beats per minute.
    tempo_bpm: f64,
    /// Time signature of the timeline.
    time_signature: TimeSignature,
    /// Number of regions on the timeline.
    region_count: u32,
    /// True when an audio output device is attached.
    audio_attached: bool,
}

/// Transport states.
enum TransportState {
    /// Not playing; playhead at the start.
    stopped,
    /// Playing.
    playing,
    /// Not playing; playhead kept where it was.
    paused,
}

/// A span of the timeline that plays content.
struct Region {
    /// Region ID.
    id: string,
    /// Start position in beats.
    start_beat: f64,
    /// Length in beats.
    length_beats: f64,
    /// How the region behaves during playback.
    behavior: RegionBehavior,
    /// Artifact ID of the content the region plays.
    content_id: string,
    /// Display name shown in timelines.
    name: string?,
}

/// What a region does when the playhead reaches it.
enum RegionBehavior {
    /// Play the referenced artifact (MIDI or audio).
    play_content,
    /// Hold a place for content still being generated; silent until it resolves.
    latent,
}

/// Errors from the playback engine.
error GardenError {
    /// The chaosgarden daemon is not running or not answering.
    daemon_unavailable,
    /// Play was requested but the timeline has no regions.
    nothing_to_play,
    /// No region has this ID.
    region_not_found {
        /// The region ID that was looked up.
        region_id: string,
    },
    /// The region's content artifact does not exist.
    content_not_found {
        /// The artifact ID that was given.
        content_id: string,
    },
    /// The region would overlap another region on the same lane.
    region_overlap {
        /// ID of the region in the way.
        existing_region_id: string,
    },
    /// The state query did not parse or failed to run.
    query_failed {
        /// What the query engine reported.
        message: string,
    },
}
