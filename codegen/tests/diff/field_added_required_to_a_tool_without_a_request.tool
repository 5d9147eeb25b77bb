tool ping { timing sync }
// new
tool ping { timing sync request { echo: string } }
