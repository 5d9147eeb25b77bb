tool play { timing sync request { mode: Mode } }

enum Mode { major, minor }
// new
tool play { timing sync request { mode: Scale } }

enum Scale { major, minor }
