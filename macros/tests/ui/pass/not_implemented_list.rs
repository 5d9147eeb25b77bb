// `#[tools(not_implemented(a, b))]`: only the listed tools answer
// NOT_IMPLEMENTED, every other one is bound; with the module path too, in
// either order, and with a trailing comma.

mod api {
    include!("../../support/catalogue.rs");
}

use api::{GardenStatus, MathError, MathOperands, MathResult};
use toolwright::{Service, ToolError};

struct Calculator;

#[toolwright::tools(crate::api, not_implemented(garden_play, transfer))]
impl Calculator {
    #[tool]
    async fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
        Ok(MathResult {
            result: request.a + request.b,
        })
    }

    #[tool]
    fn multiply(&self, request: MathOperands) -> Result<MathResult, MathError> {
        Ok(MathResult {
            result: request.a * request.b,
        })
    }

    #[tool]
    async fn garden_status(&self) -> Result<GardenStatus, ToolError> {
        Ok(GardenStatus {
            playing: false,
            tempo_bpm: 120.0,
        })
    }
}

mod nested {
    use super::api::{MathError, MathOperands, MathResult};

    pub struct Adder;

    #[toolwright::tools(
        not_implemented(multiply, garden_status, garden_play, transfer,),
        super::api,
    )]
    impl Adder {
        #[tool]
        async fn add(&self, request: MathOperands) -> Result<MathResult, MathError> {
            Ok(MathResult {
                result: request.a + request.b,
            })
        }
    }
}

fn assert_service<S: Service<Catalogue = api::ToolCatalogue>>() {}

fn main() {
    assert_service::<Calculator>();
    assert_service::<nested::Adder>();
}
