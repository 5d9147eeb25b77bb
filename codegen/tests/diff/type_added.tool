tool ping { timing sync }
// new
tool ping { timing sync }

struct Spare { a: u32 }
