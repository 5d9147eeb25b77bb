// A handler whose success type is not the tool's response type.

include!("../support/catalogue.rs");

struct Studio;

#[toolwright::tools(not_implemented)]
impl Studio {
    #[tool]
    async fn add(&self, request: MathOperands) -> Result<String, MathError> {
        Ok((request.a + request.b).to_string())
    }
}

fn main() {}
