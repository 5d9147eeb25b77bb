// `#[tool]` in an impl block that is not marked `#[tools]`.

include!("../support/catalogue.rs");

use toolwright::tool;

struct Studio;

impl Studio {
    #[tool]
    async fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
        Ok(MathResult {
            result: request.a + request.b,
        })
    }
}

fn main() {}
