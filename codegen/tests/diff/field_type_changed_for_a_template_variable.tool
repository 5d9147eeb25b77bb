resource track { uri "music://tracks/{id}" arguments { id: u64 } }
// new
resource track { uri "music://tracks/{id}" arguments { id: u32 } }
