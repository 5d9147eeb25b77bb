prompt compose { }
prompt summarise { }
// new
prompt compose { }
