tool key { timing sync response { mode: Mode } }

enum Mode { major, minor }
// new
tool key { timing sync response { mode: Mode } }

enum Mode { major, minor, dorian }
