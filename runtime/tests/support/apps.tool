/// The catalogue the runtime's MCP Apps tests serve: a tool with an app
/// generated from its schema, the origins it may reach, the permissions
/// and border it asks its host for, who hosts let see it, and the scope
/// its callers (and its page's readers) need. `apps.rs`
/// beside it is the generator's output for it (with the built-in job
/// tools), checked in and kept fresh by codegen's `stand_ins` test.
category apps;

/// Add two integers.
@app @app_connect("https://api.example.com") @app_resources("https://cdn.example.com")
@app_frames("https://www.youtube.com") @app_base_uri("https://cdn.example.com")
@app_permissions(camera, clipboard_write) @app_border(false)
@app_visibility(app)
@scopes("sums:add")
tool add {
    timing sync
    title "Add"
    request {
        /// Left operand.
        a: i64,
        /// Right operand.
        b: i64,
    }
    response {
        /// The sum.
        sum: i64,
    }
}
