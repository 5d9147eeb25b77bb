/// Add two integers.
@app
@app_frames("https://www.youtube.com")
tool add {
    timing sync
    request { a: i64, b: i64 }
    response { sum: i64 }
}
// new
/// Add two integers.
@app
@app_frames("https://www.youtube.com", "https://player.vimeo.com")
@app_base_uri("https://cdn.example.com")
tool add {
    timing sync
    request { a: i64, b: i64 }
    response { sum: i64 }
}
