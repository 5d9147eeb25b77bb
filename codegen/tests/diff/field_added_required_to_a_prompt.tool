prompt compose { arguments { key: string } }
// new
prompt compose { arguments { key: string, mood: string } }
