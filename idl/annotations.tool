/// Annotations: short notes attached to artifacts ("great groove, drums too
/// busy"), so agents and people can record taste and find it again.
category annotations;

/// Attach a note to an artifact.
tool add_annotation {
    timing sync
    title "Annotate artifact"
    request {
        /// Artifact to annotate.
        @length(1, 128)
        artifact_id: string,
        /// The note itself.
        @length(1, 4000)
        message: string,
        /// Who is writing the note.
        source: AnnotationSource = agent,
        /// A few words of feel, e.g. `dreamy, slow build`, used by vibe search.
        @length(1, 200)
        vibe: string?,
    }
    response {
        /// The annotated artifact.
        artifact_id: string,
        /// ID of the new annotation.
        annotation_id: string,
    }
    errors AnnotationError
}

/// List the notes on an artifact, oldest first.
@read_only @idempotent
tool list_annotations {
    timing sync
    title "List annotations"
    request {
        /// Artifact whose annotations to list.
        @length(1, 128)
        artifact_id: string,
        /// Only annotations from this source.
        source: AnnotationSource?,
        /// Maximum number of annotations to return.
        @range(1, 500)
        limit: u32 = 50,
    }
    response {
        /// The annotations, oldest first.
        annotations: list<Annotation>,
    }
    errors AnnotationError
}

/// A note on an artifact.
struct Annotation {
    /// Annotation ID.
    id: string,
    /// The annotated artifact.
    artifact_id: string,
    /// The note itself.
    message: string,
    /// Who wrote the note.
    source: AnnotationSource,
    /// A few words of feel, when given.
    vibe: string?,
    /// When the note was written, milliseconds since the Unix epoch.
    created_at: u64,
}

/// Who wrote an annotation.
enum AnnotationSource {
    /// A person, through a UI or chat.
    user,
    /// A language-model agent.
    agent,
    /// The server itself, e.g. an automatic analysis.
    system,
}

/// Errors from annotation tools.
error AnnotationError {
    /// No artifact has this ID.
    artifact_not_found {
        /// The artifact ID that was given.
        artifact_id: string,
    },
}
