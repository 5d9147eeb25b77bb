tool render { timing async_long stream Progress }

struct Progress { percent: f32 }
// new
tool render { timing async_long }
