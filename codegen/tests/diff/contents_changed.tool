resource object { uri "cas://objects/{hash}" contents text arguments { hash: string } }
// new
resource object { uri "cas://objects/{hash}" contents bytes arguments { hash: string } }
