tool list_files { timing sync }
// new
@read_only @idempotent
tool list_files { timing sync }
