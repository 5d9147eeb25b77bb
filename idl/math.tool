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
    example "Two small numbers" {
        request { a: 2, b: 3 }
        response { result: 5 }
    }
    example "A negative operand" {
        request { a: -7, b: 3 }
        response { result: -4 }
    }
    example "Past the largest i64" {
        request { a: 9223372036854775807, b: 1 }
        error overflow
    }
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
    example "Six times seven" {
        request { a: 6, b: 7 }
        response { result: 42 }
    }
    example "A product too large" {
        request { a: 4294967296, b: 4294967296 }
        error overflow
    }
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
