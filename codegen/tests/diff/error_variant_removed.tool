tool save { timing sync errors SaveError }

error SaveError {
    disk_full,
    read_only { path: string },
}
// new
tool save { timing sync errors SaveError }

error SaveError {
    disk_full,
}
