/// Doc comments are not compared.
tool ping { timing sync }
// new
/// Reworded docs.
tool ping { timing sync }
