tool play { timing sync request { mode: Mode } }
tool key { timing sync response { mode: Mode } }

enum Mode { major, minor }
// new
tool play { timing sync request { mode: Mode } }
tool key { timing sync response { mode: Mode } }

enum Mode { major, minor, dorian }
