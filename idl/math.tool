/// Arithmetic: the smallest possible tools, useful for checking that a
/// model, a client and a server agree on the wire before anything larger.
category math;

/// Add two integers.
@read_only @idempotent @app
tool add {
    timing sync
    title "Add"
    request MathOperands
    response MathResult
    errors MathError
}

// Its app is written by hand; it may reach the studio's own web routes.
/// Multiply two integers.
@read_only @idempotent @app("apps/multiply.html") @app_connect("http://localhost:8787")
tool multiply {
    timing sync
    title "Multiply"
    request MathOperands
    response MathResult
    errors MathError
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
