@subscribable
resource regions { uri "garden://regions" }
// new
resource regions { uri "garden://regions" }
