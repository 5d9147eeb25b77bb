// `#[tools(not_implemented)]`: unbound tools answer NOT_IMPLEMENTED, and a
// block may bind none at all.

include!("../../support/catalogue.rs");

use toolwright::Service;

struct Calculator;

#[toolwright::tools(not_implemented)]
impl Calculator {
    #[tool]
    async fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
        Ok(MathResult {
            result: request.a + request.b,
        })
    }
}

struct Nothing;

#[toolwright::tools(not_implemented)]
impl Nothing {}

fn assert_service<S: Service<Catalogue = ToolCatalogue>>() {}

fn main() {
    assert_service::<Calculator>();
    assert_service::<Nothing>();
}
