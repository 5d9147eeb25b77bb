resource readme { uri "docs://readme" mime "text/plain" }
// new
resource readme { uri "docs://readme" mime "text/markdown" }
