resource object { uri "cas://objects/{hash}" arguments { hash: string } }
// new
resource object { uri "cas://objects/{hash}" arguments { @length(32, 32) hash: string } }
