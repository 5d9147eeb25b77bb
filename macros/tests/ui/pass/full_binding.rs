// Every tool bound, async handlers, one named with `#[tool(name = ...)]`.

include!("../../support/catalogue.rs");

use toolwright::{Context, Service, ToolError};

struct Studio;

#[toolwright::tools]
impl Studio {
    #[tool]
    async fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
        Ok(MathResult {
            result: request.a + request.b,
        })
    }

    #[tool(name = "multiply")]
    async fn times(&self, request: MathOperands) -> Result<MathResult, MathError> {
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

    #[toolwright::tool]
    async fn garden_play(&self) -> Result<(), GardenError> {
        Err(GardenError::NoDevice {})
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

fn assert_service<S: Service<Catalogue = ToolCatalogue>>() {}

fn main() {
    assert_service::<Studio>();
}
