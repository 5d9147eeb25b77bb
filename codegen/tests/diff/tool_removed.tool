tool ping { timing sync }
tool pong { timing sync }
// new
tool ping { timing sync }
