/// The catalogue the macro tests bind handlers to. `catalogue.rs` beside
/// it is the generator's output for it (with the built-in job tools),
/// checked in and kept fresh by codegen's `stand_ins` test.
category studio;

/// Add two integers.
tool add {
    timing sync
    title "Add"
    request MathOperands
    response MathResult
    errors MathError
}

/// Multiply two integers.
tool multiply {
    timing sync
    title "Multiply"
    request MathOperands
    response MathResult
    errors MathError
}

/// What the garden is doing.
tool garden_status { timing sync  response GardenStatus }

/// Start playing.
tool garden_play { timing fire_and_forget  errors GardenError }

/// Copy a file, reporting progress.
tool transfer {
    timing async_long
    request TransferRequest
    response TransferResponse
    stream TransferProgress
}

/// The two operands of a binary operation.
struct MathOperands {
    /// Left operand.
    a: i64,
    /// Right operand.
    b: i64,
}

/// The result of a binary operation.
struct MathResult {
    /// The result.
    result: i64,
}

/// Errors from arithmetic tools.
error MathError {
    /// The result does not fit in a signed 64-bit integer.
    overflow,
}

/// What the garden is doing.
struct GardenStatus {
    /// True while it plays.
    playing: bool,
    /// Tempo in beats per minute.
    tempo_bpm: f64,
}

/// Errors from the garden.
error GardenError {
    /// No audio device is open.
    no_device,
}

/// The request of `transfer`.
struct TransferRequest {
    /// Where to copy from.
    uri: string,
}

/// The response of `transfer`.
struct TransferResponse {
    /// Bytes copied.
    bytes: u64,
}

/// Progress of a transfer, streamed while it runs.
struct TransferProgress {
    /// Bytes copied so far.
    done: u64,
}
