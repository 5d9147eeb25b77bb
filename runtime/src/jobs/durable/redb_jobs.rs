//! [`JobBackend`] on redb: one file, one table from job id to the job's
//! MsgPack encoding, every write committed before the next.

use std::path::Path;

use redb::{Database, ReadableDatabase, ReadableTable, TableDefinition};

use super::{BackendError, JobBackend, StoredJob};

const JOBS: TableDefinition<&str, &[u8]> = TableDefinition::new("jobs");

/// Jobs in a redb database file.
pub struct RedbJobs {
    db: Database,
}

impl std::fmt::Debug for RedbJobs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedbJobs").finish_non_exhaustive()
    }
}

impl RedbJobs {
    /// Opens the database at `path`, creating it when there is none.
    ///
    /// # Errors
    /// When the file cannot be opened or is not a redb database.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, BackendError> {
        let db = Database::create(path).map_err(error)?;
        Ok(RedbJobs { db })
    }
}

fn error(e: impl std::fmt::Display) -> BackendError {
    BackendError(e.to_string())
}

impl JobBackend for RedbJobs {
    fn put(&mut self, job: &StoredJob) -> Result<(), BackendError> {
        let bytes = rmp_serde::to_vec_named(job).map_err(error)?;
        let tx = self.db.begin_write().map_err(error)?;
        {
            let mut table = tx.open_table(JOBS).map_err(error)?;
            table
                .insert(job.job_id.as_str(), bytes.as_slice())
                .map_err(error)?;
        }
        tx.commit().map_err(error)
    }

    fn remove(&mut self, job_ids: &[String]) -> Result<(), BackendError> {
        let tx = self.db.begin_write().map_err(error)?;
        {
            let mut table = tx.open_table(JOBS).map_err(error)?;
            for id in job_ids {
                table.remove(id.as_str()).map_err(error)?;
            }
        }
        tx.commit().map_err(error)
    }

    fn load(&mut self) -> Result<Vec<StoredJob>, BackendError> {
        let tx = self.db.begin_read().map_err(error)?;
        let table = match tx.open_table(JOBS) {
            Ok(table) => table,
            Err(redb::TableError::TableDoesNotExist(_)) => return Ok(Vec::new()),
            Err(e) => return Err(error(e)),
        };
        let mut jobs = Vec::new();
        for entry in table.iter().map_err(error)? {
            let (_, value) = entry.map_err(error)?;
            // A record this version cannot read is skipped, not fatal: the
            // rest of the jobs still come back.
            if let Ok(job) = rmp_serde::from_slice::<StoredJob>(value.value()) {
                jobs.push(job);
            }
        }
        Ok(jobs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ToolError;
    use crate::jobs::JobState;

    fn job(id: &str, state: JobState) -> StoredJob {
        StoredJob {
            job_id: id.to_owned(),
            tool: "add".to_owned(),
            owner: Some("web".to_owned()),
            state,
            created_at: 1,
            completed_at: Some(2),
            result: Some(vec![0x81, 0xa1, 0x61, 0x01]),
            error: Some(ToolError::new("X", "y")),
        }
    }

    #[test]
    fn jobs_written_are_read_back_by_the_next_opening() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("jobs.redb");
        {
            let mut jobs = RedbJobs::open(&path).expect("creates");
            assert_eq!(jobs.load().expect("reads"), Vec::new());
            jobs.put(&job("job_a", JobState::Running)).expect("writes");
            jobs.put(&job("job_b", JobState::Complete)).expect("writes");
            jobs.put(&job("job_a", JobState::Failed)).expect("replaces");
            jobs.remove(&["job_b".to_owned(), "job_none".to_owned()])
                .expect("removes");
        }
        let mut jobs = RedbJobs::open(&path).expect("opens again");
        assert_eq!(
            jobs.load().expect("reads"),
            vec![job("job_a", JobState::Failed)]
        );
    }

    #[test]
    fn a_file_that_is_not_a_database_is_an_error() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("jobs.redb");
        std::fs::write(&path, b"not a database at all, just some bytes").expect("writes");
        assert!(RedbJobs::open(&path).is_err());
    }
}
