tool save { timing sync }
// new
tool save { timing sync errors SaveError }

error SaveError { disk_full }
