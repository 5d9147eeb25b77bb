tool search { timing sync request { limit: u32 } }
// new
tool search { timing sync request { limit: u32 = 20 } }
