// A handler with a parameter that is neither the request nor a context.

include!("../support/catalogue.rs");

struct Studio;

#[toolwright::tools(not_implemented)]
impl Studio {
    #[tool]
    async fn add(&self, request: MathOperands, scale: i64) -> Result<MathResult, MathError> {
        Ok(MathResult {
            result: (request.a + request.b) * scale,
        })
    }
}

fn main() {}
