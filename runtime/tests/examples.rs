//! `toolwright::testing::check_examples`: the catalogue's declared examples
//! run against a service's handlers; one that answers wrongly fails with a
//! diff, a tool without a handler is listed as not served.

mod support;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use support::*;
use toolwright::{CallContext, Catalogue, Service, ToolError};

#[tokio::test]
async fn the_test_services_handlers_answer_every_example() {
    let report = toolwright::testing::check_examples(&Arc::new(Studio::default())).await;
    report.assert_all_served();
    let titles: Vec<&str> = report.passed.iter().map(|e| e.title).collect();
    assert_eq!(
        titles,
        ["Two small numbers", "Past the largest i64", "Anything back"]
    );
}

/// Adds one too many, never overflows, and serves nothing else.
struct OffByOne;

impl Service for OffByOne {
    type Catalogue = ToolCatalogue;

    fn call(
        _service: &Arc<Self>,
        request: ToolRequest,
        _cx: CallContext,
    ) -> impl Future<Output = Result<ToolResponse, ToolError>> + Send + 'static {
        let answer = match request {
            ToolRequest::Add(r) => Ok(ToolResponse::Add(MathResult {
                result: r.a.wrapping_add(r.b).wrapping_add(1),
            })),
            other => Err(ToolError::not_implemented(
                <ToolCatalogue as Catalogue>::call_info(&other).tool.name,
            )),
        };
        std::future::ready(answer)
    }
}

#[tokio::test]
async fn a_wrong_handler_fails_with_a_readable_diff() {
    let report = toolwright::testing::check_examples(&Arc::new(OffByOne)).await;
    assert!(report.passed.is_empty(), "{report}");
    let failed: Vec<&str> = report.failed.iter().map(|f| f.example.title).collect();
    assert_eq!(failed, ["Two small numbers", "Past the largest i64"]);
    let diff = &report.failed[0].why;
    assert!(diff.contains("-   \"result\": 5"), "{diff}");
    assert!(diff.contains("+   \"result\": 6"), "{diff}");
    assert!(
        report.failed[1]
            .why
            .starts_with("expected the error OVERFLOW, but the call succeeded"),
        "{}",
        report.failed[1].why
    );
    let not_served: Vec<&str> = report.not_served.iter().map(|e| e.tool).collect();
    assert_eq!(not_served, ["echo"]);

    let text = report.to_string();
    assert!(
        text.starts_with("examples: 0 passed, 2 failed, 1 not served"),
        "{text}"
    );
    assert!(text.contains("FAILED add \"Two small numbers\""), "{text}");
    assert!(
        text.contains("not served here: echo \"Anything back\""),
        "{text}"
    );
    let panic = catch_unwind(AssertUnwindSafe(|| report.assert_passed()))
        .expect_err("a failed example fails the test");
    let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(message.contains("+   \"result\": 6"), "{message}");
}
