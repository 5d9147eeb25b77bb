/// Add two integers.
@app
@app_border
tool add {
    timing sync
    request { a: i64, b: i64 }
    response { sum: i64 }
}
// new
/// Add two integers.
@app
@app_border(false)
tool add {
    timing sync
    request { a: i64, b: i64 }
    response { sum: i64 }
}
