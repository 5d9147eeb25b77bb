/// Add two integers.
@app
@app_permissions(camera, microphone)
tool add {
    timing sync
    request { a: i64, b: i64 }
    response { sum: i64 }
}
// new
/// Add two integers.
@app
@app_permissions(camera)
tool add {
    timing sync
    request { a: i64, b: i64 }
    response { sum: i64 }
}
