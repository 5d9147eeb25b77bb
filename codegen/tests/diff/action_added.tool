tool file {
    action read { timing sync }
}
// new
tool file {
    action read { timing sync }
    action write { timing sync }
}
