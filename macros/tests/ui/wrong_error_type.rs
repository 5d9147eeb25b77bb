// A handler whose error type is not the tool's error type.

include!("../support/catalogue.rs");

struct Studio;

#[toolwright::tools(not_implemented)]
impl Studio {
    #[tool]
    fn add(&self, request: MathOperands) -> Result<MathResult, std::io::Error> {
        Ok(MathResult {
            result: request.a + request.b,
        })
    }
}

fn main() {}
