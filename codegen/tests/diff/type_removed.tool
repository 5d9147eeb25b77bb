tool ping { timing sync }

struct Unused { a: u32 }
// new
tool ping { timing sync }
