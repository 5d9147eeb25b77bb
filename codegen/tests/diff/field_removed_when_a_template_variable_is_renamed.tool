resource track { uri "music://tracks/{id}" arguments { id: string } }
// new
resource track { uri "music://tracks/{key}" arguments { key: string } }
