//! Helpers for the tests of a service: run the catalogue's declared
//! examples against its handlers.
//!
//! ```ignore
//! #[tokio::test]
//! async fn every_example_holds() {
//!     let service = std::sync::Arc::new(MyService::default());
//!     toolwright::testing::check_examples(&service).await.assert_passed();
//! }
//! ```

mod compare;
mod report;

use std::sync::Arc;

pub use report::{ExampleFailure, ExampleReport};

use crate::{CallContext, Catalogue, Example, ExampleOutcome, Service, ToolError, Validate, codes};
use compare::{diff, same};

/// Runs every example of the service's catalogue
/// ([`Catalogue::EXAMPLES`]) against its handlers, one after another in
/// declaration order, each as its own call with a detached context, and
/// reports each that does not hold: a request the catalogue does not
/// decode or validate, a response other than the one declared (with a
/// diff), an error other than the one declared, or an error where a
/// response was declared. A tool the service answers `NOT_IMPLEMENTED`
/// for is reported as not served, which
/// [`assert_passed`](ExampleReport::assert_passed) allows and
/// [`assert_all_served`](ExampleReport::assert_all_served) does not.
///
/// Examples run in order on the one service, so one that changes its state
/// is seen by those after it.
pub async fn check_examples<S: Service>(service: &Arc<S>) -> ExampleReport {
    let mut report = ExampleReport::default();
    for example in S::Catalogue::EXAMPLES {
        match run::<S>(service, example).await {
            Outcome::Held => report.passed.push(*example),
            Outcome::NotServed => report.not_served.push(*example),
            Outcome::Failed(why) => report.failed.push(ExampleFailure {
                example: *example,
                why,
            }),
        }
    }
    report
}

enum Outcome {
    Held,
    NotServed,
    Failed(String),
}

async fn run<S: Service>(service: &Arc<S>, example: &Example) -> Outcome {
    let request = match request::<S::Catalogue>(example) {
        Ok(request) => request,
        Err(why) => return Outcome::Failed(why),
    };
    let answer = S::call(service, request, CallContext::detached()).await;
    match (answer, example.outcome) {
        (Err(error), _) if error.code == codes::NOT_IMPLEMENTED => Outcome::NotServed,
        (Ok(_), ExampleOutcome::Succeeds) => Outcome::Held,
        (Ok(response), ExampleOutcome::Response(expected)) => {
            let actual = match serde_json::to_value(&response) {
                Ok(serde_json::Value::Object(mut fields)) => {
                    // The catalogue's response carries the wire tags.
                    fields.remove("tool");
                    fields.remove("action");
                    serde_json::Value::Object(fields)
                }
                Ok(other) => other,
                Err(e) => return Outcome::Failed(format!("the response does not encode: {e}")),
            };
            let expected = parse(expected);
            if same(&expected, &actual) {
                Outcome::Held
            } else {
                Outcome::Failed(format!(
                    "the response differs (- declared, + answered):\n{}",
                    diff(&expected, &actual)
                ))
            }
        }
        (Ok(response), ExampleOutcome::Error { code, .. }) => {
            let answered = serde_json::to_string(&response).unwrap_or_default();
            Outcome::Failed(format!(
                "expected the error {code}, but the call succeeded with {answered}"
            ))
        }
        (Err(error), ExampleOutcome::Error { code, details }) => {
            if error.code != code {
                return Outcome::Failed(format!(
                    "expected the error {code}, got {}: {}",
                    error.code, error.message
                ));
            }
            match details.map(parse) {
                Some(expected) => {
                    let actual = error.details.clone().unwrap_or(serde_json::Value::Null);
                    if same(&expected, &actual) {
                        Outcome::Held
                    } else {
                        Outcome::Failed(format!(
                            "the error's details differ (- declared, + answered):\n{}",
                            diff(&expected, &actual)
                        ))
                    }
                }
                None => Outcome::Held,
            }
        }
        (Err(error), _) => Outcome::Failed(failed_call(&error)),
    }
}

/// The example's request as the catalogue decodes it from the wire, tags
/// and all, and validated as every door validates it.
fn request<C: Catalogue>(example: &Example) -> Result<C::Request, String>
where
    C::Request: serde::de::DeserializeOwned,
{
    // The tags come first, as the catalogue's decoder reads them.
    let mut call =
        serde_json::to_string(&serde_json::json!({ "tool": example.tool })).unwrap_or_default();
    call.pop();
    if let Some(action) = example.action {
        call.push_str(&format!(",\"action\":{}", serde_json::Value::from(action)));
    }
    let fields = example.request.trim().trim_start_matches('{');
    if !fields.trim_start().starts_with('}') {
        call.push(',');
    }
    call.push_str(fields);
    let request: C::Request =
        serde_json::from_str(&call).map_err(|e| format!("the request does not decode: {e}"))?;
    request
        .validate()
        .map_err(|v| format!("the request is refused: {v}"))?;
    Ok(request)
}

fn failed_call(error: &ToolError) -> String {
    format!(
        "expected success, got the error {}: {}",
        error.code, error.message
    )
}

/// Generated JSON text, which `toolwright check` produced from the IDL.
fn parse(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or(serde_json::Value::Null)
}
