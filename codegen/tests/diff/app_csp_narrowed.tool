/// Add two integers.
@app
@app_connect("https://api.example.com", "https://auth.example.com")
@app_resources("https://cdn.example.com")
tool add {
    timing sync
    request { a: i64, b: i64 }
    response { sum: i64 }
}
// new
/// Add two integers.
@app
@app_connect("https://api.example.com")
tool add {
    timing sync
    request { a: i64, b: i64 }
    response { sum: i64 }
}
