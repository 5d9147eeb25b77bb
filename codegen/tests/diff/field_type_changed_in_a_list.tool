tool tag { timing sync request { tags: list<string> } }
// new
tool tag { timing sync request { tags: list<u32> } }
