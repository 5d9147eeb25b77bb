resource regions { uri "garden://regions" }
// new
@subscribable
resource regions { uri "garden://regions" }
