tool transpose {
    timing sync
    request {
        @range(-12, 12)
        semitones: i8,
    }
}
// new
tool transpose {
    timing sync
    request {
        @range(-24, 24)
        semitones: i8,
    }
}
