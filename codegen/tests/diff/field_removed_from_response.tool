tool stat { timing sync response { size: u64, mode: u32? } }
// new
tool stat { timing sync response { size: u64 } }
