/// Artifacts: CAS content plus what it is, who made it and where it came
/// from. Generating tools create artifacts; agents find and reuse them here.
category artifacts;

/// Upload a file from the server's filesystem and record it as an artifact.
tool artifact_upload {
    timing async_short
    title "Upload artifact"
    request {
        /// Absolute path of the file on the tool server.
        @length(1, 4096)
        file_path: string,
        /// MIME type of the file, e.g. `audio/wav`.
        @pattern("^[a-z]+/[A-Za-z0-9.+-]+$")
        mime_type: string,
        /// Free-form tags for later search, e.g. `genre:jazz`.
        tags: list<string> = [],
        /// Who made the content (agent or user name); defaults to the caller.
        creator: string?,
        /// Artifact this one was derived from.
        parent_id: string?,
        /// Variation set to add this artifact to.
        variation_set_id: string?,
    }
    response ArtifactCreated
    stream TransferProgress
    errors ArtifactError
}

/// Record content that is already in CAS as an artifact.
tool artifact_create {
    timing sync
    title "Create artifact from CAS"
    request {
        /// CAS hash of the content.
        @pattern("^[0-9a-f]{64}$")
        cas_hash: string,
        /// Free-form tags for later search.
        tags: list<string> = [],
        /// Who made the content; defaults to the caller.
        creator: string?,
        /// Artifact this one was derived from.
        parent_id: string?,
        /// Arbitrary metadata stored verbatim with the artifact.
        metadata: json?,
    }
    response ArtifactCreated
    errors ArtifactError
}

/// Fetch one artifact's record by ID.
@read_only @idempotent
tool artifact_get {
    timing sync
    title "Get artifact"
    request {
        /// Artifact ID, e.g. `artifact_01hx3k`.
        @length(1, 128)
        id: string,
    }
    response ArtifactInfo
    errors ArtifactError
}

/// List artifacts, newest first, optionally filtered by tag, creator or type.
@read_only @idempotent @paged
tool artifact_list {
    timing sync
    title "List artifacts"
    request {
        /// Only artifacts carrying this tag.
        tag: string?,
        /// Only artifacts made by this creator.
        creator: string?,
        /// Only artifacts of this MIME type.
        mime_type: string?,
        /// Maximum number of artifacts to return.
        @range(1, 1000)
        limit: u32 = 50,
    }
    response {
        /// The matching artifacts, newest first.
        artifacts: list<ArtifactInfo>,
        /// Number of artifacts in this page.
        count: u32,
    }
    errors ArtifactError
}

/// A newly recorded artifact.
struct ArtifactCreated {
    /// ID of the new artifact.
    artifact_id: string,
    /// CAS hash of the artifact's content.
    content_hash: string,
    /// Tags recorded on the artifact.
    tags: list<string>,
    /// Creator recorded on the artifact.
    creator: string,
}

/// Everything recorded about one artifact.
struct ArtifactInfo {
    /// Artifact ID.
    id: string,
    /// CAS hash of the content.
    content_hash: string,
    /// MIME type of the content.
    mime_type: string,
    /// Free-form tags.
    tags: list<string>,
    /// Who made the content.
    creator: string,
    /// Creation time, milliseconds since the Unix epoch.
    created_at: u64,
    /// Artifact this one was derived from.
    parent_id: string?,
    /// Variation set this artifact belongs to.
    variation_set_id: string?,
    /// Media details extracted from the content, when it is audio or MIDI.
    media: MediaMetadata?,
    /// Caller-supplied metadata, stored verbatim.
    metadata: json?,
}

/// Media details extracted from audio or MIDI content.
struct MediaMetadata {
    /// Playing time in seconds.
    duration_seconds: f64?,
    /// Audio sample rate in Hz.
    sample_rate: u32?,
    /// Number of audio channels.
    channels: u8?,
    /// MIDI structure, for MIDI content.
    midi: MidiMetadata?,
}

/// Structure of a Standard MIDI File.
struct MidiMetadata {
    /// Number of tracks.
    tracks: u16,
    /// Timing resolution in ticks per quarter note.
    ticks_per_quarter: u16,
    /// Length of the longest track in ticks.
    duration_ticks: u64,
}

/// Errors from the artifact store.
error ArtifactError {
    /// No artifact has this ID.
    not_found {
        /// The ID that was looked up.
        id: string,
    },
    /// The content hash is not in CAS, so no artifact can point at it.
    hash_not_in_cas {
        /// The missing CAS hash.
        hash: string,
    },
    /// The parent artifact does not exist.
    parent_not_found {
        /// The parent ID that was given.
        parent_id: string,
    },
    /// The file to upload does not exist or cannot be read.
    file_unreadable {
        /// Path of the file on the tool server.
        path: string,
        /// Operating-system error message.
        message: string,
    },
}
