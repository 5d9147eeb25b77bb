resource object { uri "cas://objects/{hash}" arguments { hash: string } }
// new
resource object { uri "cas://blobs/{hash}" arguments { hash: string } }
