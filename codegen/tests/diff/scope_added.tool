@scopes("cas:read")
tool cas_get { timing sync }
// new
@scopes("cas:read", "cas:audit")
tool cas_get { timing sync }
