// A context parameter, spelled every way `#[tools]` recognises: for a
// streaming tool, and (with the default chunk type) for one that does not.

include!("../../support/catalogue.rs");

use toolwright::{Context, ToolError};

struct Studio;

#[toolwright::tools(not_implemented)]
impl Studio {
    #[tool]
    async fn transfer(
        &self,
        request: TransferRequest,
        cx: toolwright::Context<TransferProgress>,
    ) -> Result<TransferResponse, ToolError> {
        cx.progress(0.5);
        cx.send(&TransferProgress { done: 1 })?;
        Ok(TransferResponse {
            bytes: request.uri.len() as u64,
        })
    }

    #[tool]
    async fn garden_status(&self, cx: Context) -> Result<GardenStatus, ToolError> {
        Ok(GardenStatus {
            playing: !cx.is_cancelled(),
            tempo_bpm: 120.0,
        })
    }

    #[tool]
    fn add(&self, request: MathOperands, _cx: Context<()>) -> Result<MathResult, MathError> {
        Ok(MathResult {
            result: request.a + request.b,
        })
    }
}

fn main() {}
