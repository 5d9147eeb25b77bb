/// Content-addressable storage: immutable blobs (MIDI, audio, SoundFonts,
/// images) stored and fetched by the hash of their bytes. Every other
/// category refers to content by these hashes.
category cas;

/// Store raw bytes and return their content hash; storing the same bytes twice is a no-op.
@idempotent @scopes("cas:write")
tool cas_store {
    timing sync
    title "Store bytes in CAS"
    request {
        /// The bytes to store (at most 256 MiB).
        @length(1, 268435456)
        data: bytes,
        /// MIME type recorded alongside the content, e.g. `audio/midi`.
        @pattern("^[a-z]+/[A-Za-z0-9.+-]+$")
        mime_type: string = "application/octet-stream",
    }
    response CasStored
    errors CasError
    // Examples run in order on one store: `cas_get`'s below reads these bytes.
    example "Store a short text" {
        request { data: "aGVsbG8=", mime_type: "text/plain" }
        response {
            hash: "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
            size: 5,
            mime_type: "text/plain",
            already_present: false,
        }
    }
}

/// Fetch the bytes stored under a content hash.
@read_only @idempotent @scopes("cas:read")
tool cas_get {
    timing sync
    title "Get bytes from CAS"
    request {
        /// Content hash returned by `cas_store` or any generating tool.
        @pattern("^[0-9a-f]{64}$")
        hash: string,
    }
    /// Content stored under a hash, with its size and media type.
    response CasContent {
        /// Content hash of the returned bytes.
        hash: string,
        /// Size of the content in bytes.
        size: u64,
        /// MIME type recorded when the content was stored.
        mime_type: string,
        /// The stored bytes.
        data: bytes,
    }
    errors CasError
    example "Read back stored text" {
        request { hash: "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824" }
        response {
            hash: "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
            size: 5,
            mime_type: "text/plain",
            data: "aGVsbG8=",
        }
    }
    example "Nothing stored under the hash" {
        request { hash: "0000000000000000000000000000000000000000000000000000000000000000" }
        error not_found { hash: "0000000000000000000000000000000000000000000000000000000000000000" }
    }
}

/// Report whether content exists and describe it, without transferring the bytes.
@read_only @idempotent @scopes("cas:read")
tool cas_inspect {
    timing sync
    title "Inspect CAS content"
    request {
        /// Content hash to look up.
        @pattern("^[0-9a-f]{64}$")
        hash: string,
        /// Maximum length of the text preview, in characters (0 disables the preview).
        @range(0, 4096)
        preview_chars: u32 = 256,
    }
    /// What the store knows about a hash, without the full content.
    response CasInspected {
        /// The hash that was looked up.
        hash: string,
        /// True when content is stored under this hash.
        exists: bool,
        /// Size in bytes, when the content exists.
        size: u64?,
        /// MIME type, when the content exists.
        mime_type: string?,
        /// Start of the content as text, for text-like MIME types.
        preview: string?,
    }
    errors CasError
    example "Stored text, previewed" {
        request {
            hash: "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
            preview_chars: 5,
        }
        response {
            hash: "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824",
            exists: true,
            size: 5,
            mime_type: "text/plain",
            preview: "hello",
        }
    }
    example "Nothing stored" {
        request { hash: "0000000000000000000000000000000000000000000000000000000000000000" }
        response {
            hash: "0000000000000000000000000000000000000000000000000000000000000000",
            exists: false,
        }
    }
}

/// List the hashes of the stored content in order, a page at a time.
@read_only @idempotent @paged @scopes("cas:read")
tool cas_list {
    timing sync
    title "List CAS content"
    request {
        /// Only hashes that start with these hex digits, e.g. `ab`.
        @pattern("^[0-9a-f]{0,64}$")
        prefix: string = "",
        /// Most hashes on one page.
        @range(1, 1000)
        limit: u32 = 100,
    }
    response {
        /// The hashes on this page, in ascending order.
        hashes: list<string>,
    }
    errors CasError
    example "Hashes starting 2cf2" {
        request { prefix: "2cf2", limit: 10 }
        response {
            hashes: ["2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"],
            paging: { more: false },
        }
    }
}

/// Read a file from the server's filesystem and store its bytes in CAS.
@deprecated("use artifact_upload, which stores the file and records an artifact with provenance in one call")
@idempotent
@scopes("cas:write")
tool cas_upload_file {
    timing async_short
    title "Upload file to CAS"
    request {
        /// Absolute path of the file on the tool server.
        @length(1, 4096)
        file_path: string,
        /// MIME type to record; guessed from the file extension when omitted.
        mime_type: string?,
    }
    response CasStored
    stream TransferProgress
    errors CasError
}

/// Report how much content the store holds and where it lives.
@read_only @idempotent
tool cas_stats {
    timing sync
    title "CAS statistics"
    /// Size and shape of the content store.
    response CasStats {
        /// Number of distinct blobs stored.
        total_items: u64,
        /// Total size of all blobs in bytes.
        total_bytes: u64,
        /// Directory that holds the store on the tool server.
        cas_dir: string,
    }
}

/// A stored object's bytes, by its content hash, in the MIME type it was
/// stored with.
@scopes("cas:read")
resource cas_object {
    uri "cas://objects/{hash}"
    title "Stored object"
    mime "application/octet-stream"
    contents bytes
    arguments {
        /// The object's content hash (64 lowercase hex digits).
        @pattern("^[0-9a-f]{64}$") @complete
        hash: string,
    }
    errors CasError
}

/// The first hashes the store holds, in order: read it again when it says
/// it changed (each `cas_store` of new content does).
@subscribable @scopes("cas:read") @audience(assistant)
resource cas_index {
    uri "cas://index"
    title "Stored objects"
    contents CasIndex
    errors CasError
}

/// Ask for a description of a stored object, with the object itself
/// attached.
@scopes("cas:read")
prompt cas_describe {
    title "Describe a stored object"
    arguments {
        /// The object's content hash.
        @pattern("^[0-9a-f]{64}$") @complete
        hash: string,
        /// What to look for, e.g. `tempo and key`.
        focus: string?,
    }
    errors CasError
}

/// The first hashes of the content store.
struct CasIndex {
    /// At most 100 hashes, in ascending order.
    hashes: list<string>,
    /// How many objects the store holds in all.
    total: u64,
}

/// Where stored content ended up.
struct CasStored {
    /// Content hash of the stored bytes (SHA-256, 64 lowercase hex digits).
    hash: string,
    /// Size of the stored content in bytes.
    size: u64,
    /// MIME type recorded for the content.
    mime_type: string,
    /// True when the content was already present and nothing was written.
    already_present: bool,
}

/// Progress of a byte transfer (upload, download, copy).
struct TransferProgress {
    /// Bytes transferred so far.
    bytes_done: u64,
    /// Total bytes to transfer, when known in advance.
    bytes_total: u64?,
    /// Current transfer rate in bytes per second, when measurable.
    rate_bytes_per_sec: f64?,
}

/// Errors from the content-addressable store.
error CasError {
    /// No content is stored under this hash.
    not_found {
        /// The hash that was looked up.
        hash: string,
    },
    /// The hash is not 64 lowercase hex digits.
    invalid_hash {
        /// The malformed hash as received.
        hash: string,
    },
    /// The content exceeds the store's size limit.
    too_large {
        /// Size of the rejected content in bytes.
        size: u64,
        /// Largest size the store accepts, in bytes.
        limit: u64,
    },
    /// The file to upload does not exist or cannot be read.
    file_unreadable {
        /// Path of the file on the tool server.
        path: string,
        /// Operating-system error message.
        message: string,
    },
    /// The store's disk is full.
    disk_full,
    /// Writing to the store failed for another reason.
    storage_failed {
        /// Description of the failure.
        message: string,
    },
}
