tool file { timing sync request { path: string } }
// new
tool file {
    action read { timing sync request { path: string } }
}
