@scopes("cas:read")
tool cas_get { timing sync }
// new
@scopes("cas:read")
category scope_moved_to_the_category;

tool cas_get { timing sync }
