/// The catalogue the runtime's integration tests serve: one tool per timing
/// class and behaviour under test. `catalogue.rs` beside it is the
/// generator's output for it (with the built-in job tools), checked in and
/// kept fresh by codegen's `stand_ins` test.
category studio;

/// Add two integers.
tool add {
    timing sync
    request MathOperands
    response MathResult
    errors MathError
    example "Two small numbers" {
        request { a: 2, b: 3 }
        response { result: 5 }
    }
    example "Past the largest i64" {
        request { a: 9223372036854775807, b: 1 }
        error overflow
    }
}

/// Answer with the request itself.
tool echo {
    timing sync
    request Echo
    response Echo
    example "Anything back" {
        request { text: "hi", data: "AQI=", items: [1, 2], tags: { k: "v" } }
    }
}

/// A handler that panics.
tool crash { timing sync }

/// A handler that panics, written as a plain function (answered without
/// a future).
tool crash_now { timing sync }

/// Sleep for a while.
tool sleep {
    timing async_short
    request DelayRequest
    response {
        /// How long it slept.
        slept_ms: u64,
    }
}

/// Render for a while.
tool render {
    timing async_medium
    request DelayRequest
    response {
        /// Frames rendered.
        frames: u32,
    }
}

/// Stream chunks at an interval.
tool generate {
    timing async_long
    request {
        /// How many chunks.
        chunks: u32,
        /// The pause between them.
        interval_ms: u64,
    }
    response {
        /// How many were sent.
        sent: u32,
    }
    stream GenerationChunk
}

/// A handler that ignores cancellation.
tool stubborn { timing async_long }

/// A long handler that panics.
tool meltdown { timing async_long }

/// Launch, failing on request. A caller the server authenticated needs
/// `studio:launch`.
@scopes("studio:launch")
tool launch {
    timing fire_and_forget
    request {
        /// Fail with `engine_down`.
        fail: bool,
    }
    errors LaunchError
}

/// Talk to the caller: log, report progress, ask its model, its user and
/// its roots.
tool chat {
    timing async_short
    request {
        /// What to ask the model.
        prompt: string,
    }
    response {
        /// The model's answer.
        answer: string,
        /// The user's name; absent when they declined.
        name: string?,
        /// The caller's roots.
        roots: list<string>,
    }
}

/// Answer with the factor as read: an `f32`, to show what becomes of a
/// number too large for one.
tool scale {
    timing sync
    request {
        /// The factor.
        factor: f32,
    }
    response {
        /// The factor, as read.
        factor: f32,
    }
}

/// Count up to `to`, a page at a time.
@paged
tool count {
    timing sync
    request {
        /// The last number.
        to: u32,
        /// Numbers on one page.
        @range(1, 100)
        per_page: u32 = 10,
        /// Answer with paging that contradicts itself: `more` without a
        /// cursor.
        lie: bool = false,
    }
    response {
        /// The numbers on this page.
        numbers: list<u32>,
    }
}

/// A file system.
tool fs {
    /// Read a file.
    action read {
        timing sync
        request {
            /// Which file.
            uri: string,
        }
        response {
            /// Its text.
            text: string,
        }
    }
    /// List the files, a page at a time (as a job that is waited for).
    @paged
    action list {
        timing async_short
        request {
            /// How many files there are.
            files: u32,
        }
        response {
            /// The files on this page.
            names: list<string>,
        }
    }
    /// Write a file.
    action write {
        timing async_short
        request {
            /// Which file.
            uri: string,
            /// What to write.
            content: string,
            /// How long to take.
            ms: u64 = 0,
        }
        response {
            /// Bytes written.
            written: u64,
        }
    }
}

/// Two operands.
struct MathOperands {
    /// The first.
    a: i64,
    /// The second.
    b: i64,
}

/// A result.
struct MathResult {
    /// The value.
    result: i64,
}

/// Values of every wire shape.
struct Echo {
    /// Text.
    text: string,
    /// Bytes.
    data: bytes,
    /// A list.
    items: list<u32>,
    /// A map.
    tags: map<string>,
    /// Anything.
    value: json?,
}

/// How long to take.
struct DelayRequest {
    /// Milliseconds.
    ms: u64,
}

/// A chunk of `generate`'s stream.
union GenerationChunk {
    /// One step.
    step {
        /// Its number.
        n: u32,
    },
}

/// Arithmetic failures.
error MathError {
    /// The result does not fit in an i64.
    overflow,
}

/// Launch failures.
error LaunchError {
    /// The engine is not running.
    engine_down {
        /// Why.
        reason: string,
    },
}
