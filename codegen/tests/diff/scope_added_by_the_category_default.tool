@scopes("cas:read")
category scope_added_by_the_category_default;

tool cas_get { timing sync }

@scopes()
tool cas_ping { timing sync }
// new
@scopes("cas:read", "cas:admin")
category scope_added_by_the_category_default;

tool cas_get { timing sync }

@scopes()
tool cas_ping { timing sync }
