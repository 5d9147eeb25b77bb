// Several errors in one block are all reported, each at its own place.

include!("../support/catalogue.rs");

use toolwright::ToolError;

struct Studio;

#[toolwright::tools]
impl Studio {
    #[tool]
    async fn ad(&self, request: MathOperands) -> Result<MathResult, MathError> {
        Ok(MathResult {
            result: request.a + request.b,
        })
    }

    #[tool]
    async fn multiply(&self, request: MathOperands) -> Result<MathResult, MathError> {
        Ok(MathResult {
            result: request.a * request.b,
        })
    }

    #[tool(name = "multiply")]
    async fn times(&self, request: MathOperands) -> Result<MathResult, MathError> {
        Ok(MathResult {
            result: request.a * request.b,
        })
    }

    #[tool]
    async fn garden_status(&mut self) -> Result<GardenStatus, ToolError> {
        Ok(GardenStatus {
            playing: false,
            tempo_bpm: 120.0,
        })
    }

    #[tool]
    async fn garden_play(&self) -> Result<(), GardenError> {
        Ok(())
    }

    #[tool]
    async fn job_cancel(&self, request: JobRef) -> Result<JobCancelResponse, JobError> {
        Err(JobError::NotFound {
            job_id: request.job_id,
        })
    }
}

fn main() {}
