tool run { timing async_long stream Output }

union Output {
    stdout { data: bytes },
}
// new
tool run { timing async_long stream Output }

union Output {
    stdout { data: bytes },
    stderr { data: bytes },
}
