tool render { timing async_short response { url: string } }
// new
tool render { timing async_long response { url: string } }
