resource readme { uri "docs://readme.md" }
// new
resource readme { uri "docs://readme.md" }
resource licence { uri "docs://licence.md" }
