//! `toolwright diff`: one fixture per rule (and per direction where the
//! verdict differs) under tests/diff/, each holding the old version, a
//! `// new` line and the new version (the pages of its hand-written apps
//! under tests/diff/old/ and tests/diff/new/); the report for people is
//! snapshotted, and the rule the fixture is named after must be found.
#![cfg(feature = "diff")]

use std::path::Path;

use toolwright_codegen::diff::{self, AllowList, Category, Report, Rule};
use toolwright_codegen::{ColorChoice, Model, Sources, check};

struct Versions {
    old: Sources,
    new: Sources,
}

impl Versions {
    fn read(case: &str, text: &str) -> Versions {
        let (old, new) = text
            .split_once("// new\n")
            .unwrap_or_else(|| panic!("{case}: no `// new` line"));
        let mut versions = Versions {
            old: Sources::new(),
            new: Sources::new(),
        };
        // As if read from tests/diff/old/ and tests/diff/new/, where the
        // pages an `@app("apps/….html")` names are.
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diff");
        let file = format!("{case}.tool");
        versions
            .old
            .add_at(format!("old/{file}"), dir.join("old").join(&file), old);
        versions
            .new
            .add_at(format!("new/{file}"), dir.join("new").join(&file), new);
        versions
    }

    fn models(&self) -> (Model, Model) {
        let model = |sources: &Sources| {
            check(sources).unwrap_or_else(|d| panic!("{}", d.render(sources, ColorChoice::Never)))
        };
        (model(&self.old), model(&self.new))
    }

    fn report(&self, allow: &AllowList) -> Report {
        let (old, new) = self.models();
        let mut changes = diff::diff(&old, &new);
        let unused = allow.apply(&mut changes);
        Report { changes, unused }
    }
}

fn fixtures() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diff");
    let mut cases: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "tool"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    cases.sort();
    cases
}

/// The rule a fixture is named after: the longest rule id its name starts
/// with (`enum_value_added_to_response` → `ENUM_VALUE_ADDED`).
fn rule_of(case: &str) -> Option<Rule> {
    Rule::ALL
        .iter()
        .copied()
        .filter(|r| case.starts_with(&r.id().to_ascii_lowercase()))
        .max_by_key(|r| r.id().len())
}

#[test]
fn every_fixture_reports_its_rule_and_its_report_is_pinned() {
    let all = Category::ALL;
    for (case, text) in fixtures() {
        let versions = Versions::read(&case, &text);
        let report = versions.report(&AllowList::new());
        let rendered = report.render(&versions.old, &versions.new, &all, ColorChoice::Never);
        match rule_of(&case) {
            Some(rule) => assert!(
                report.changes.iter().any(|c| c.rule == rule),
                "{case}: expected {rule}, got\n{rendered}"
            ),
            None => assert!(report.changes.is_empty(), "{case}:\n{rendered}"),
        }
        insta::assert_snapshot!(format!("diff_{case}"), rendered);
    }
}

#[test]
fn every_rule_has_a_fixture() {
    let cases: Vec<String> = fixtures().into_iter().map(|(c, _)| c).collect();
    for rule in Rule::ALL {
        assert!(
            cases.iter().any(|c| rule_of(c) == Some(*rule)),
            "no fixture under tests/diff/ for {rule}"
        );
    }
}

#[test]
fn verdicts_follow_the_direction_data_travels() {
    let verdict = |case: &str, rule: Rule| {
        let (_, text) = fixtures().into_iter().find(|(c, _)| c == case).unwrap();
        let report = Versions::read(case, &text).report(&AllowList::new());
        report
            .changes
            .into_iter()
            .find(|c| c.rule == rule)
            .unwrap_or_else(|| panic!("{case}: no {rule}"))
            .breaks
    };
    use Category::{Semantic, Source, Wire};
    assert_eq!(verdict("enum_value_added", Rule::EnumValueAdded), []);
    assert_eq!(
        verdict("enum_value_added_to_response", Rule::EnumValueAdded),
        [Wire]
    );
    // Reached from a request and a response: reported once, breaking.
    assert_eq!(
        verdict("enum_value_added_to_a_shared_type", Rule::EnumValueAdded),
        [Wire]
    );
    assert_eq!(verdict("field_added", Rule::FieldAdded), []);
    assert_eq!(verdict("field_added_to_response", Rule::FieldAdded), []);
    assert_eq!(
        verdict("field_added_required", Rule::FieldAddedRequired),
        [Wire]
    );
    assert_eq!(
        verdict("field_made_optional", Rule::FieldMadeOptional),
        [Source]
    );
    assert_eq!(
        verdict("field_made_optional_in_response", Rule::FieldMadeOptional),
        [Wire, Source]
    );
    assert_eq!(verdict("timing_changed", Rule::TimingChanged), [Semantic]);
    assert_eq!(
        verdict("timing_changed_between_async_classes", Rule::TimingChanged),
        []
    );
    assert_eq!(verdict("variant_added", Rule::VariantAdded), [Wire]);
    // Judged on the scopes a call needs, wherever they are written.
    assert_eq!(verdict("scope_added", Rule::ScopeAdded), [Semantic]);
    assert_eq!(
        verdict("scope_added_by_the_category_default", Rule::ScopeAdded),
        [Semantic]
    );
    assert_eq!(verdict("scope_removed", Rule::ScopeRemoved), []);
    assert_eq!(verdict("type_renamed", Rule::TypeRenamed), [Source]);
    // A resource's and a prompt's arguments travel as a request does.
    assert_eq!(
        verdict("field_added_required_to_a_prompt", Rule::FieldAddedRequired),
        [Wire]
    );
    assert_eq!(verdict("field_added_to_a_prompt", Rule::FieldAdded), []);
    assert_eq!(
        verdict(
            "constraint_tightened_on_a_template_variable",
            Rule::ConstraintTightened
        ),
        [Wire]
    );
    assert_eq!(verdict("uri_changed", Rule::UriChanged), [Wire]);
    assert_eq!(verdict("mime_changed", Rule::MimeChanged), [Semantic]);
    assert_eq!(
        verdict("subscribable_removed", Rule::SubscribableRemoved),
        [Semantic]
    );
    assert_eq!(verdict("subscribable_added", Rule::SubscribableAdded), []);
}

#[test]
fn an_apps_changes_are_judged_by_what_hosts_do_with_it() {
    let changes = |case: &str| {
        let (_, text) = fixtures().into_iter().find(|(c, _)| c == case).unwrap();
        let report = Versions::read(case, &text).report(&AllowList::new());
        report
            .changes
            .into_iter()
            .map(|c| (c.rule, c.item, c.message, c.breaks))
            .collect::<Vec<_>>()
    };
    use Category::{Semantic, Wire};
    assert_eq!(
        changes("app_removed"),
        [(
            Rule::AppRemoved,
            "add.app".to_owned(),
            "tool `add` lost its app `ui://add`".to_owned(),
            vec![Wire, Semantic]
        )]
    );
    assert_eq!(
        changes("app_added"),
        [(
            Rule::AppAdded,
            "add.app".to_owned(),
            "tool `add` gained the app `ui://add`".to_owned(),
            vec![]
        )]
    );
    assert_eq!(
        changes("app_csp_narrowed"),
        [(
            Rule::AppCspNarrowed,
            "add.app".to_owned(),
            "the app of tool `add` may no longer connect to `https://auth.example.com` \
             or load from `https://cdn.example.com`"
                .to_owned(),
            vec![Semantic]
        )]
    );
    // `https://*.example.com` takes over `https://api.example.com`: wider
    // only, nothing lost.
    assert_eq!(
        changes("app_csp_widened"),
        [(
            Rule::AppCspWidened,
            "add.app".to_owned(),
            "the app of tool `add` may now connect to `https://*.example.com` \
             or load from `https://cdn.example.com`"
                .to_owned(),
            vec![]
        )]
    );
    assert_eq!(
        changes("app_page_changed"),
        [(
            Rule::AppPageChanged,
            "add.app".to_owned(),
            "the page of tool `add`'s app (`apps/add.html`) changed".to_owned(),
            vec![]
        )]
    );
    assert_eq!(
        changes("app_page_changed_to_generated"),
        [(
            Rule::AppPageChanged,
            "add.app".to_owned(),
            "the app of tool `add` was `apps/add.html` and is now generated".to_owned(),
            vec![]
        )]
    );
}

#[test]
fn a_generated_page_follows_its_tool_and_is_not_a_change_of_its_own() {
    let mut versions = Versions {
        old: Sources::new(),
        new: Sources::new(),
    };
    versions.old.add(
        "old/add.tool",
        "@app tool add { timing sync request { a: i64 } response { sum: i64 } }",
    );
    versions.new.add(
        "new/add.tool",
        "@app tool add { timing sync request { a: i64, b: i64? } response { sum: i64 } }",
    );
    let report = versions.report(&AllowList::new());
    let rules: Vec<Rule> = report.changes.iter().map(|c| c.rule).collect();
    assert_eq!(rules, [Rule::FieldAdded]);
}

#[test]
fn a_query_variable_is_an_argument_not_a_new_uri() {
    let case = "field_added_as_a_query_variable";
    let (_, text) = fixtures().into_iter().find(|(c, _)| c == case).unwrap();
    let report = Versions::read(case, &text).report(&AllowList::new());
    let rules: Vec<Rule> = report.changes.iter().map(|c| c.rule).collect();
    assert_eq!(rules, [Rule::FieldAdded]);
}

#[test]
fn a_changed_category_default_reaches_only_the_tools_that_take_it() {
    let case = "scope_added_by_the_category_default";
    let (_, text) = fixtures().into_iter().find(|(c, _)| c == case).unwrap();
    let report = Versions::read(case, &text).report(&AllowList::new());
    let changes: Vec<(Rule, &str, &str)> = report
        .changes
        .iter()
        .map(|c| (c.rule, c.item.as_str(), c.message.as_str()))
        .collect();
    assert_eq!(
        changes,
        [(
            Rule::ScopeAdded,
            "cas_get",
            "tool `cas_get` now requires scope `cas:admin`"
        )],
        "`cas_ping` overrides the default with `@scopes()`"
    );
}

#[test]
fn a_renamed_type_is_not_reported_as_removed_and_added() {
    let (_, text) = fixtures()
        .into_iter()
        .find(|(c, _)| c == "type_renamed")
        .unwrap();
    let report = Versions::read("type_renamed", &text).report(&AllowList::new());
    let rules: Vec<Rule> = report.changes.iter().map(|c| c.rule).collect();
    assert_eq!(rules, [Rule::TypeRenamed]);
}

#[test]
fn allow_entries_accept_changes_with_their_reason_and_stale_ones_are_named() {
    let (_, text) = fixtures()
        .into_iter()
        .find(|(c, _)| c == "field_removed")
        .unwrap();
    let versions = Versions::read("field_removed", &text);
    let mut allow = AllowList::new();
    allow
        .add_text(
            Path::new("allowed-breaks.toml"),
            r#"
[[allow]]
rule = "FIELD_REMOVED"
item = "transpose.request.octave"
reason = "octave moved into semitones in 2.0"

[[allow]]
rule = "TOOL_REMOVED"
item = "transpose"
reason = "stale"
"#,
        )
        .unwrap();
    let report = versions.report(&allow);
    assert_eq!(report.failures(&Category::ALL), 0);
    assert_eq!(
        report.changes[0].allowed.as_deref(),
        Some("octave moved into semitones in 2.0")
    );
    assert_eq!(report.unused.len(), 1);
    assert_eq!(report.unused[0].origin.1, 8);
    insta::assert_snapshot!(
        "diff_allowed",
        report.render(
            &versions.old,
            &versions.new,
            &Category::ALL,
            ColorChoice::Never
        )
    );

    // A wildcard accepts every item under a path; another rule, nothing.
    let mut wildcard = AllowList::new();
    wildcard
        .add_text(
            Path::new("a.toml"),
            "[[allow]]\nrule = \"FIELD_REMOVED\"\nitem = \"transpose.*\"\nreason = \"2.0\"\n",
        )
        .unwrap();
    assert_eq!(versions.report(&wildcard).failures(&Category::ALL), 0);
    let mut other = AllowList::new();
    other
        .add_text(
            Path::new("a.toml"),
            "[[allow]]\nrule = \"FIELD_ADDED\"\nreason = \"not this one\"\n",
        )
        .unwrap();
    assert_eq!(versions.report(&other).failures(&Category::ALL), 1);
}

#[test]
fn bad_allow_files_are_refused_with_a_place() {
    let error = |text: &str| {
        AllowList::new()
            .add_text(Path::new("allowed-breaks.toml"), text)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        error("[[allow]]\nrule = \"FIELD_REMOVD\"\nreason = \"x\"\n"),
        "allowed-breaks.toml:2:8: `FIELD_REMOVD` is not a rule of `toolwright diff` (docs/diff.md lists them); did you mean `FIELD_REMOVED`?"
    );
    assert_eq!(
        error("[[allow]]\nrule = \"FIELD_REMOVED\"\nreason = \"  \"\n"),
        "allowed-breaks.toml:3:10: the reason is empty: say why the break is intended, for the reviewer"
    );
    assert!(error("[[allow]]\nrule = \"FIELD_REMOVED\"\n").contains("reason"));
    assert!(
        error("[[allow]]\nrule = \"FIELD_REMOVED\"\nreason = \"x\"\nwhy = 1\n").contains("why")
    );
    assert!(error("[[allow]\n").starts_with("allowed-breaks.toml:1:"));
}

#[test]
fn json_lines_carry_both_places() {
    let (_, text) = fixtures()
        .into_iter()
        .find(|(c, _)| c == "field_removed")
        .unwrap();
    let versions = Versions::read("field_removed", &text);
    let report = versions.report(&AllowList::new());
    let json = report.render_json(&versions.old, &versions.new, &Category::ALL);
    let line: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(line["rule"], "FIELD_REMOVED");
    assert_eq!(line["item"], "transpose.request.octave");
    assert_eq!(line["breaking"], true);
    assert_eq!(line["breaks"], serde_json::json!(["wire", "source"]));
    assert_eq!(line["old"]["file"], "old/field_removed.tool");
    assert_eq!(line["old"]["line"], 5);
    assert_eq!(line["new"]["file"], "new/field_removed.tool");
    // Only the selected categories fail.
    let json = report.render_json(&versions.old, &versions.new, &[Category::Semantic]);
    assert!(json.contains("\"breaking\":false"));
}

#[test]
fn docs_describe_every_rule() {
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/diff.md"))
            .unwrap();
    for rule in Rule::ALL {
        assert!(
            docs.contains(&format!("### `{}`", rule.id())),
            "docs/diff.md has no section for {rule}"
        );
    }
}
