tool run { timing sync request { input: Input } }

union Input {
    text { body: string },
    file { path: string },
}
// new
tool run { timing sync request { input: Input } }

union Input {
    text { body: string },
}
