@read_only
tool list_files { timing sync }
// new
@destructive
tool list_files { timing sync }
