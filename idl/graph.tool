/// The audio graph: identities (synths, interfaces, software instruments),
/// their tags and the connections between their ports, plus a context
/// summary of recent work for language models.
category graph;

/// Bind a stable identity to a device, with hints for recognising it again.
@idempotent
tool graph_bind {
    timing sync
    title "Bind identity"
    request {
        /// Stable identity ID chosen by the caller, e.g. `jdxi`.
        @pattern("^[a-z][a-z0-9_-]*$")
        id: string,
        /// Human-readable name, e.g. `Roland JD-Xi`.
        @length(1, 200)
        name: string,
        /// Evidence that identifies the device when it reappears.
        hints: list<IdentityHint> = [],
    }
    response {
        /// The bound identity ID.
        identity_id: string,
        /// The identity's name.
        name: string,
        /// Number of hints recorded.
        hints_count: u32,
    }
    errors GraphError
}

/// Attach a namespaced tag to an identity.
@idempotent
tool graph_tag {
    timing sync
    title "Tag identity"
    request {
        /// Identity to tag.
        identity_id: string,
        /// Tag namespace, e.g. `role` or `manufacturer`.
        @pattern("^[a-z][a-z0-9_.]*$")
        namespace: string,
        /// Tag value, e.g. `drum_machine`.
        @length(1, 200)
        value: string,
    }
    response {
        /// The tagged identity.
        identity_id: string,
        /// The tag as stored, `namespace:value`.
        tag: string,
    }
    errors GraphError
}

/// Connect an output port of one identity to an input port of another.
@idempotent
tool graph_connect {
    timing sync
    title "Connect ports"
    request {
        /// Identity that sends.
        from_identity: string,
        /// Output port on the sender, e.g. `midi_out` or `audio_out_l`.
        from_port: string,
        /// Identity that receives.
        to_identity: string,
        /// Input port on the receiver.
        to_port: string,
        /// How the signal travels, e.g. `usb_midi`, `din_midi`, `analog`.
        transport: string?,
    }
    /// A connection between two ports of the audio graph.
    response GraphConnection {
        /// ID of the new connection.
        connection_id: string,
        /// Identity that sends.
        from_identity: string,
        /// Output port on the sender.
        from_port: string,
        /// Identity that receives.
        to_identity: string,
        /// Input port on the receiver.
        to_port: string,
        /// How the signal travels, when recorded.
        transport: string?,
    }
    errors GraphError
}

/// Find identities by name or tag.
@read_only @idempotent
tool graph_find {
    timing sync
    title "Find identities"
    request {
        /// Case-insensitive substring of the identity name.
        name: string?,
        /// Only identities with a tag in this namespace.
        tag_namespace: string?,
        /// Only identities with this tag value (within `tag_namespace` when given).
        tag_value: string?,
    }
    response {
        /// The matching identities.
        identities: list<GraphIdentity>,
        /// Number of matches.
        count: u32,
    }
    errors GraphError
}

/// Run a Trustfall query over identities, connections and artifacts.
@read_only @idempotent
tool graph_query {
    timing sync
    title "Query graph"
    request {
        /// The Trustfall query text.
        @length(1, 65536)
        query: string,
        /// Values for the query's `$variables`, by name.
        variables: map<json>?,
        /// Maximum number of result rows.
        @range(1, 10000)
        limit: u32 = 100,
    }
    response {
        /// One JSON object per result row.
        results: list<json>,
        /// Number of result rows.
        count: u32,
    }
    errors GraphError
}

/// Summarise recent artifacts and the device graph as text for a language model's context.
@read_only @idempotent
tool graph_context {
    timing sync
    title "Graph context"
    request {
        /// Maximum number of artifacts to describe.
        @range(1, 200)
        limit: u32 = 20,
        /// Only artifacts carrying this tag.
        tag: string?,
        /// Only artifacts by this creator.
        creator: string?,
        /// Only artifacts whose annotations match this free-text vibe.
        vibe_search: string?,
        /// Only artifacts from the last this-many minutes.
        @range(1, 525600)
        within_minutes: u32?,
        /// Include annotations under each artifact.
        include_annotations: bool = true,
        /// Include each artifact's stored metadata.
        include_metadata: bool = false,
    }
    response {
        /// Markdown summary ready to paste into a prompt.
        context: string,
        /// Number of artifacts described.
        artifact_count: u32,
        /// Number of identities described.
        identity_count: u32,
    }
}

/// Evidence that identifies a device.
struct IdentityHint {
    /// What kind of evidence this is.
    kind: HintKind,
    /// The evidence, e.g. a USB `vendor:product` pair or a MIDI port name.
    value: string,
    /// How strongly the evidence identifies the device, from 0 to 1.
    @range(0.0, 1.0)
    confidence: f64 = 1.0,
}

/// Kinds of device evidence.
enum HintKind {
    /// USB `vendor:product` ID, e.g. `0582:01df`.
    usb_device_id,
    /// MIDI port name as the OS reports it.
    midi_name,
    /// ALSA card name.
    alsa_card,
    /// PipeWire node name.
    pipewire_name,
}

/// An identity and its tags.
struct GraphIdentity {
    /// Identity ID.
    id: string,
    /// Human-readable name.
    name: string,
    /// Tags as `namespace:value` strings.
    tags: list<string>,
}

/// Errors from graph tools.
error GraphError {
    /// No identity has this ID.
    identity_not_found {
        /// The identity ID that was looked up.
        id: string,
    },
    /// The identity has no port with this name.
    port_not_found {
        /// The identity that was looked up.
        identity_id: string,
        /// The missing port.
        port: string,
    },
    /// The Trustfall query did not parse.
    query_parse_failed {
        /// Line of the error, counting from 1.
        line: u32?,
        /// Column of the error, counting from 1.
        column: u32?,
        /// What the parser reported.
        message: string,
    },
    /// The query parsed but failed while running.
    query_failed {
        /// What the query engine reported.
        message: string,
    },
}
