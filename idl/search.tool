/// Search: the web, and the server's own document collections by meaning
/// (retrieval-augmented generation).
category search;

/// Search the web and return the top results.
@read_only @idempotent @open_world
tool web_search {
    timing async_short
    title "Web search"
    request {
        /// What to search for.
        @length(1, 512)
        query: string,
        /// Maximum number of results.
        @range(1, 50)
        max_results: u32 = 5,
        /// Region code for localised results, e.g. `us-en`; `wt-wt` means no region.
        @pattern("^[a-z]{2}-[a-z]{2}$")
        region: string = "wt-wt",
        /// Adult-content filtering.
        safe_search: SafeSearch = moderate,
        /// Only results published within this period.
        recency: Recency?,
    }
    response {
        /// The results, most relevant first.
        results: list<WebResult>,
    }
    errors SearchError
}

/// Find the passages in a document collection closest in meaning to a query.
@read_only @idempotent
tool rag_search {
    timing async_short
    title "Document search"
    request {
        /// What to look for, in natural language.
        @length(1, 2000)
        query: string,
        /// Collection to search.
        @pattern("^[a-z0-9][a-z0-9_-]*$")
        collection: string = "default",
        /// Number of passages to return.
        @range(1, 100)
        top_k: u32 = 5,
        /// Drop passages scoring below this similarity.
        @range(0.0, 1.0)
        min_score: f32 = 0.0,
        /// Only passages whose metadata has these exact values, by key.
        filters: map<string>?,
    }
    response {
        /// The passages, best match first.
        chunks: list<RagChunk>,
    }
    errors SearchError
}

/// One web search result.
struct WebResult {
    /// Page title.
    title: string,
    /// Page URL.
    url: string,
    /// Excerpt of the page around the match.
    snippet: string,
}

/// One passage from a document collection.
struct RagChunk {
    /// Document the passage comes from.
    document_id: string,
    /// The passage text.
    text: string,
    /// Similarity to the query, from 0 to 1.
    @range(0.0, 1.0)
    score: f32,
    /// Where the document came from, e.g. a URL or file path.
    source: string?,
    /// Metadata stored with the passage.
    metadata: map<json>,
}

/// Adult-content filtering levels.
enum SafeSearch {
    /// No filtering.
    off,
    /// Filter explicit images and video.
    moderate,
    /// Filter all explicit content.
    strict,
}

/// Publication periods for web results.
enum Recency {
    /// The last 24 hours.
    day,
    /// The last 7 days.
    week,
    /// The last 30 days.
    month,
    /// The last 365 days.
    year,
}

/// Errors from search tools.
error SearchError {
    /// The search provider is throttling requests.
    rate_limited {
        /// How long to wait before retrying, in milliseconds.
        retry_after_ms: u64,
    },
    /// The search provider could not be reached.
    provider_unavailable {
        /// The provider, e.g. `duckduckgo`.
        provider: string,
    },
    /// No collection has this name.
    collection_not_found {
        /// The collection that was asked for.
        collection: string,
    },
    /// The query could not be embedded.
    embedding_failed {
        /// What the embedding model reported.
        message: string,
    },
}
