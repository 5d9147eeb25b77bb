// A tool listed twice in `not_implemented(...)`: the second is the error.

include!("../support/catalogue.rs");

use toolwright::ToolError;

struct Studio;

#[toolwright::tools(not_implemented(garden_play, transfer, garden_play))]
impl Studio {
    #[tool]
    async fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
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

    #[tool]
    async fn garden_status(&self) -> Result<GardenStatus, ToolError> {
        Ok(GardenStatus {
            playing: false,
            tempo_bpm: 120.0,
        })
    }
}

fn main() {}
