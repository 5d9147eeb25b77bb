tool search { timing sync request { limit: u32 = 20 } }
// new
tool search { timing sync request { limit: u32 = 50 } }
