// Plain `fn` handlers, and one returning `impl Future`, next to `async fn`.

include!("../../support/catalogue.rs");

use std::future::Future;

use toolwright::ToolError;

struct Studio;

#[toolwright::tools(not_implemented)]
impl Studio {
    #[tool]
    fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
        let result = request
            .a
            .checked_add(request.b)
            .ok_or(MathError::Overflow {})?;
        Ok(MathResult { result })
    }

    #[tool]
    fn garden_status(&self) -> Result<GardenStatus, ToolError> {
        Ok(GardenStatus {
            playing: false,
            tempo_bpm: 120.0,
        })
    }

    #[tool]
    fn multiply(
        &self,
        request: MathOperands,
    ) -> impl Future<Output = Result<MathResult, MathError>> + Send + 'static {
        async move {
            Ok(MathResult {
                result: request.a * request.b,
            })
        }
    }

    #[tool]
    async fn garden_play(&self) -> Result<(), GardenError> {
        Ok(())
    }
}

fn main() {}
