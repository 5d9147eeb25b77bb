// A tool listed in `not_implemented(...)` that has a handler as well, with
// the catalogue in a module (`#[tools(path, not_implemented(...))]`).

mod api {
    include!("../support/catalogue.rs");
}

use api::{GardenStatus, MathError, MathOperands, MathResult};
use toolwright::ToolError;

struct Studio;

#[toolwright::tools(crate::api, not_implemented(garden_play, add, transfer))]
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
