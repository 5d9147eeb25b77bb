// A handler that does not return a `Result`.

include!("../support/catalogue.rs");

struct Studio;

#[toolwright::tools(not_implemented)]
impl Studio {
    #[tool]
    async fn add(&self, request: MathOperands) {
        let _ = request;
    }
}

fn main() {}
