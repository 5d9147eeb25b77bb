prompt compose { }
// new
prompt compose { }
prompt summarise { }
