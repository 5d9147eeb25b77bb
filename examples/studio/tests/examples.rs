//! Every example the reference catalogue declares holds against the
//! studio's handlers; a handler that answers wrongly fails with a diff.

use std::sync::Arc;

use studio::{Studio, ToolCatalogue};
use toolwright::{Catalogue, ExampleOutcome};

fn studio() -> (tempfile::TempDir, Arc<Studio>) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let studio = Studio::open(dir.path()).expect("the studio opens");
    (dir, Arc::new(studio))
}

#[tokio::test]
async fn every_declared_example_holds_for_the_tools_the_studio_serves() {
    let (_dir, studio) = studio();
    let report = toolwright::testing::check_examples(&studio).await;
    report.assert_passed();
    let served: Vec<&str> = report.passed.iter().map(|e| e.tool).collect();
    for tool in ["add", "multiply", "cas_store", "cas_get"] {
        assert!(
            served.contains(&tool),
            "{tool} has examples that ran: {report}"
        );
    }
}

#[test]
fn the_catalogue_carries_its_examples_with_their_outcomes() {
    let add: Vec<_> = ToolCatalogue::EXAMPLES
        .iter()
        .filter(|e| e.tool == "add")
        .collect();
    assert_eq!(add.len(), 3);
    assert_eq!(add[0].title, "Two small numbers");
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(add[0].request).unwrap(),
        serde_json::json!({"a": 2, "b": 3})
    );
    assert_eq!(
        add[2].outcome,
        ExampleOutcome::Error {
            code: "OVERFLOW",
            details: None
        }
    );
}

/// The sample request `GET /api/tools` offers for every tool and action
/// (made from the types when no example is declared) is one the server
/// decodes and validates: a form prefilled with it can be sent as it is.
#[test]
fn every_sample_request_decodes_and_validates() {
    use toolwright::Validate;
    let document: serde_json::Value =
        serde_json::from_str(ToolCatalogue::METADATA).expect("the metadata is JSON");
    let mut checked = 0;
    for tool in document["tools"].as_array().expect("tools") {
        let name = tool["name"].as_str().expect("a name");
        let samples: Vec<&serde_json::Value> = match tool["actions"].as_array() {
            Some(actions) => actions.iter().map(|a| &a["example"]["request"]).collect(),
            None => vec![&tool["example"]["request"]],
        };
        for request in samples {
            // The tool's name first, as the catalogue's decoder reads it.
            let fields = serde_json::to_string(request).expect("JSON");
            let rest = fields.trim_start_matches('{');
            let comma = if rest.starts_with('}') { "" } else { "," };
            let call = format!("{{\"tool\":{name:?}{comma}{rest}");
            let decoded: studio::ToolRequest = serde_json::from_str(&call)
                .unwrap_or_else(|e| panic!("{name}: {call} does not decode: {e}"));
            decoded
                .validate()
                .unwrap_or_else(|v| panic!("{name}: {call} is refused: {v}"));
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked} samples");
}
