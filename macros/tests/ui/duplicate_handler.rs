// Two handlers for one tool.

include!("../support/catalogue.rs");

struct Studio;

#[toolwright::tools(not_implemented)]
impl Studio {
    #[tool]
    async fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
        Ok(MathResult {
            result: request.a + request.b,
        })
    }

    #[tool(name = "add")]
    async fn sum(&self, request: MathOperands) -> Result<MathResult, MathError> {
        Ok(MathResult {
            result: request.a + request.b,
        })
    }
}

fn main() {}
