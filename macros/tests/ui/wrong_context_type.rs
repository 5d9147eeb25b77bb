// A context whose chunk type is not the tool's stream type.

include!("../support/catalogue.rs");

use toolwright::{Context, ToolError};

struct Studio;

#[toolwright::tools(not_implemented)]
impl Studio {
    #[tool]
    async fn transfer(
        &self,
        request: TransferRequest,
        cx: Context<String>,
    ) -> Result<TransferResponse, ToolError> {
        cx.send(&request.uri)?;
        Ok(TransferResponse { bytes: 0 })
    }
}

fn main() {}
