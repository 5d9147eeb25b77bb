// A tool of the catalogue (`garden_play`) has no handler.

include!("../support/catalogue.rs");

use toolwright::{Context, ToolError};

struct Studio;

#[toolwright::tools]
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

    #[tool]
    async fn transfer(
        &self,
        request: TransferRequest,
        _cx: Context<TransferProgress>,
    ) -> Result<TransferResponse, ToolError> {
        Ok(TransferResponse {
            bytes: request.uri.len() as u64,
        })
    }
}

fn main() {}
