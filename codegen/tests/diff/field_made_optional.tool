tool transpose { timing sync request { semitones: i8 } }
// new
tool transpose { timing sync request { semitones: i8? } }
