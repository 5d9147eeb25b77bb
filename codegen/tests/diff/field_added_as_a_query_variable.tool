resource listing { uri "cas://listing/{prefix}" arguments { prefix: string } }
// new
resource listing { uri "cas://listing/{prefix}{?page}" arguments { prefix: string, page: u32 = 0 } }
