//! docs/web.md's samples of `GET /api/tools` are true of the studio's
//! document (`ToolCatalogue::METADATA`): every key and value a sample shows
//! is the document's. A sample is the ```json block after a
//! `<!-- sample: … -->` comment: `document` for a whole document (each of
//! its tools, resources and prompts compared with the entry of that name),
//! `tools/add` (or `resources/…`, `prompts/…`) for keys of one entry.

use serde_json::Value;
use studio::ToolCatalogue;
use toolwright::Catalogue;

const WEB_MD: &str = include_str!("../../../docs/web.md");

/// What a sample writes for what it leaves out: a value, a key (`"…": …`)
/// or, as an item, the rest of a list.
const ELIDED: &str = "…";

/// The marked samples of docs/web.md: `(marker, JSON)`. A sample that is a
/// run of keys rather than one value is read inside braces.
fn samples() -> Vec<(String, Value)> {
    let mut found = Vec::new();
    let mut lines = WEB_MD.lines();
    while let Some(line) = lines.next() {
        let Some(marker) = line
            .trim()
            .strip_prefix("<!-- sample:")
            .and_then(|rest| rest.strip_suffix("-->"))
        else {
            continue;
        };
        let marker = marker.trim().to_owned();
        assert_eq!(
            lines.next().map(str::trim),
            Some("```json"),
            "a ```json block follows <!-- sample: {marker} -->"
        );
        let text: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
        let text = text.join("\n");
        let value = serde_json::from_str(&text)
            .or_else(|_| serde_json::from_str(&format!("{{{text}}}")))
            .unwrap_or_else(|e| panic!("sample {marker} is JSON: {e}"));
        found.push((marker, value));
    }
    found
}

fn document() -> Value {
    serde_json::from_str(ToolCatalogue::METADATA).expect("the metadata is JSON")
}

/// The entry named `name` in the document's `list`.
fn entry<'a>(document: &'a Value, list: &str, name: &str) -> Option<&'a Value> {
    document[list]
        .as_array()?
        .iter()
        .find(|e| e["name"].as_str() == Some(name))
}

/// Where `sample` shows what `real` does not have, one line each, with its
/// path. Objects: every key shown is there with the value shown. Lists:
/// item by item and as long, unless an item is `"…"`, when the others are
/// found in order among the real ones.
fn differences(sample: &Value, real: &Value, path: &str) -> Vec<String> {
    match (sample, real) {
        (Value::String(s), _) if s == ELIDED => Vec::new(),
        (Value::Object(shown), Value::Object(fields)) => shown
            .iter()
            .filter(|(key, _)| key.as_str() != ELIDED)
            .flat_map(|(key, value)| {
                let at = format!("{path}.{key}");
                match fields.get(key) {
                    Some(actual) => differences(value, actual, &at),
                    None => vec![format!("{at}: shown, but the document has no such key")],
                }
            })
            .collect(),
        (Value::Array(shown), Value::Array(items)) => {
            let cut = shown.iter().any(|v| v.as_str() == Some(ELIDED));
            if !cut && shown.len() != items.len() {
                return vec![format!(
                    "{path}: {} items shown, the document has {}",
                    shown.len(),
                    items.len()
                )];
            }
            if !cut {
                return shown
                    .iter()
                    .zip(items)
                    .enumerate()
                    .flat_map(|(i, (s, r))| differences(s, r, &format!("{path}[{i}]")))
                    .collect();
            }
            let mut rest = items.iter();
            shown
                .iter()
                .filter(|v| v.as_str() != Some(ELIDED))
                .filter(|s| !rest.any(|r| differences(s, r, path).is_empty()))
                .map(|s| format!("{path}: {s} is not among the document's items, in order"))
                .collect()
        }
        _ if sample == real => Vec::new(),
        _ => vec![format!("{path}: shown {sample}, the document has {real}")],
    }
}

/// Where one marked sample is untrue of `document`.
fn check(marker: &str, sample: &Value, document: &Value) -> Vec<String> {
    if marker == "document" {
        return ["tools", "resources", "prompts"]
            .into_iter()
            .flat_map(|list| {
                let shown = sample[list].as_array().cloned().unwrap_or_default();
                shown.into_iter().flat_map(move |item| {
                    let name = item["name"].as_str().unwrap_or_default().to_owned();
                    match entry(document, list, &name) {
                        Some(real) => differences(&item, real, &format!("{list}/{name}")),
                        None => vec![format!("{list}/{name}: no such entry")],
                    }
                })
            })
            .collect();
    }
    let (list, name) = marker
        .split_once('/')
        .unwrap_or_else(|| panic!("a marker is `document` or `<list>/<name>`: {marker}"));
    match entry(document, list, name) {
        Some(real) => differences(sample, real, marker),
        None => vec![format!("{marker}: no such entry")],
    }
}

#[test]
fn every_sample_in_docs_web_md_is_true_of_the_document() {
    let document = document();
    let samples = samples();
    let markers: Vec<&str> = samples.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(markers, ["document", "tools/add", "document"]);
    let wrong: Vec<String> = samples
        .iter()
        .flat_map(|(marker, sample)| check(marker, sample, &document))
        .collect();
    assert!(wrong.is_empty(), "docs/web.md:\n{}", wrong.join("\n"));
}

#[test]
fn a_sample_with_a_changed_value_an_extra_key_or_a_missing_item_is_untrue() {
    let document = document();
    let add = entry(&document, "tools", "add").expect("add");
    let title = add["title"].as_str().expect("a title");
    let changed = serde_json::json!({"title": format!("{title}!")});
    assert_eq!(check("tools/add", &changed, &document).len(), 1);
    let extra = serde_json::json!({"name": "add", "colour": "red"});
    assert_eq!(check("tools/add", &extra, &document).len(), 1);
    let short = serde_json::json!({"examples": []});
    assert_eq!(check("tools/add", &short, &document).len(), 1);
    let cut = serde_json::json!({"title": ELIDED, "examples": [ELIDED], "…": ELIDED});
    assert!(check("tools/add", &cut, &document).is_empty());
}
