tool play { timing sync request { mode: Mode } }

enum Mode { major, minor, dorian }
// new
tool play { timing sync request { mode: Mode } }

enum Mode { major, minor }
