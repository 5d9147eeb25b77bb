tool render { timing sync response { url: string } }
// new
tool render { timing async_long response { url: string } }
