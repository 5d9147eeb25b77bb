tool save { timing sync errors SaveError }

error SaveError {
    disk_full,
}
// new
tool save { timing sync errors SaveError }

error SaveError {
    disk_full,
    read_only { path: string },
}
