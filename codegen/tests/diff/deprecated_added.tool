tool transpose { timing sync request { semitones: i8 } }
// new
@deprecated("use `transpose_to`")
tool transpose { timing sync request { semitones: i8 } }
