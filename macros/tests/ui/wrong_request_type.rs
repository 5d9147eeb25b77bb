// A handler whose request parameter is not the tool's request type.

include!("../support/catalogue.rs");

struct Studio;

#[toolwright::tools(not_implemented)]
impl Studio {
    #[tool]
    async fn add(&self, request: String) -> Result<MathResult, MathError> {
        Ok(MathResult {
            result: request.len() as i64,
        })
    }
}

fn main() {}
