// The catalogue in a module: `#[tools(path)]`, a generic block, and the
// handlers' types named through the module.

mod api {
    include!("../../support/catalogue.rs");
}

use api::{MathError, MathOperands, MathResult};
use toolwright::Service;

trait Backend: Send + Sync + 'static {
    fn add(&self, a: i64, b: i64) -> i64;
}

struct Exact;

impl Backend for Exact {
    fn add(&self, a: i64, b: i64) -> i64 {
        a + b
    }
}

struct Studio<B> {
    backend: B,
}

#[toolwright::tools(crate::api, not_implemented)]
impl<B: Backend> Studio<B> {
    #[tool]
    async fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
        Ok(MathResult {
            result: self.backend.add(request.a, request.b),
        })
    }
}

mod nested {
    pub struct Other;

    #[toolwright::tools(super::api, not_implemented)]
    impl Other {}
}

fn assert_service<S: Service<Catalogue = api::ToolCatalogue>>() {}

fn main() {
    assert_service::<Studio<Exact>>();
    assert_service::<nested::Other>();
    let _ = Studio { backend: Exact };
}
