/// The catalogue the macro tests bind resource, prompt and completion
/// handlers to. `entries.rs` beside it is the generator's output for it
/// (with the built-in job tools), checked in and kept fresh by codegen's
/// `stand_ins` test.
category cas;

/// Say hello.
tool hello { timing sync  response Greeting }

/// An object in the content store, by its content hash.
@scopes("cas:read")
resource cas_object {
    uri "cas://objects/{hash}"
    mime "application/octet-stream"
    contents bytes
    arguments {
        /// The object's content hash.
        @pattern("^[0-9a-f]{4,64}$") @complete
        hash: string,
    }
    errors CasError
}

/// A page of the objects under a prefix.
@subscribable
resource cas_listing {
    uri "cas://listing/{prefix}{?page}"
    contents CasListing
    arguments {
        /// The hash prefix.
        prefix: string,
        /// The page, from 0.
        page: u32 = 0,
    }
}

/// The store's licence.
resource licence {
    uri "cas://licence"
    mime "text/markdown"
}

/// Ask for a tune.
prompt compose {
    arguments {
        /// The key to write in.
        key: Key,
        /// What it should feel like.
        @complete
        mood: string?,
    }
}

/// Summarise what the store holds.
prompt summarise {}

/// A greeting.
struct Greeting {
    /// The words.
    text: string,
}

/// Why reading an object failed.
error CasError {
    /// No object has this hash.
    not_found {
        /// The hash asked for.
        hash: string,
    },
}

/// A page of hashes.
struct CasListing {
    /// The hashes.
    hashes: list<string>,
}

/// A musical key.
enum Key { c_major, a_minor }
