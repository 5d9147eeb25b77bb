@scopes("cas:write", "cas:read")
tool cas_store { timing sync }
// new
@scopes("cas:write")
tool cas_store { timing sync }
