@scopes("cas:read")
resource object { uri "cas://objects/{hash}" arguments { hash: string } }
// new
@scopes("cas:read", "cas:audit")
resource object { uri "cas://objects/{hash}" arguments { hash: string } }
