prompt compose { }
// new
prompt compose { arguments { mood: string? } }
