// A handler for a job tool, which the runtime answers itself.

include!("../support/catalogue.rs");

struct Studio;

#[toolwright::tools(not_implemented)]
impl Studio {
    #[tool]
    async fn job_status(&self, request: JobRef) -> Result<JobInfo, JobError> {
        Err(JobError::NotFound {
            job_id: request.job_id,
        })
    }
}

fn main() {}
