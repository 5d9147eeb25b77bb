// A name in `not_implemented(...)` that is no tool of the catalogue: the
// error points at the name and offers the unbound tool it resembles, which
// is then not reported as missing too.

include!("../support/catalogue.rs");

use toolwright::ToolError;

struct Studio;

#[toolwright::tools(not_implemented(garden_plya, transfer))]
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
