tool save { timing sync response { id: string } }
// new
tool save { timing sync }
