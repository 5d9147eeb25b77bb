//! Fixture-based snapshot tests of the IDL frontend.
//!
//! - `fixtures/valid/*.tool`: one file per language feature. Each must check
//!   cleanly; the snapshot is the model as pretty JSON, which is exactly what
//!   every backend sees.
//! - `fixtures/invalid/*.tool`: one file per mistake, named after it. Each
//!   must fail with exactly one diagnostic (except `several.tool`, a
//!   newcomer's file with three mistakes, and `recovery.tool`, which proves
//!   the parser recovers and the checker still runs); the snapshot is the
//!   plain rendered diagnostics, snippet, notes and hint included.
//!
//! - `fixtures/warnings/*.tool`: one file per warning, named after it. Each
//!   must check cleanly and draw warnings of that code only; the snapshot
//!   is the rendered warnings.
//!
//! Files are loaded under stable names (`valid/<file>.tool`,
//! `invalid/<file>.tool`) so snapshots do not depend on where the workspace
//! is checked out. Review changes with
//! `INSTA_UPDATE=always cargo test -p toolwright-codegen --test fixtures`
//! and read the diff of `tests/snapshots/`.

use std::collections::BTreeSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use toolwright_codegen::diag::Code;
use toolwright_codegen::{
    Clients, ColorChoice, Diagnostics, Model, Profile, Sources, check, check_for_clients,
};

/// Codes no invalid fixture exercises, each with the reason. Keep it empty
/// unless a code truly cannot be reached from a `.tool` file.
const CODES_NOT_EXERCISED: &[(&str, &str)] = &[];

/// Invalid fixtures that may report more than one diagnostic: the file stem
/// and the accepted count.
fn expected_count(stem: &str) -> Expected {
    match stem {
        // A newcomer's first file: a misspelt type, a missing timing and a
        // default that does not fit, all reported in one run.
        "several" => Expected::Exactly(3),
        // A syntax error early, valid items after it, and a semantic error
        // later: at least one of each.
        "recovery" => Expected::AtLeast(2),
        // Four dialects' habits, each refused at its own pattern.
        "pattern_not_portable" => Expected::Exactly(4),
        // A name in the wrong case, one given twice, and none at all.
        "toolset_names" => Expected::Exactly(3),
        // One field of each kind whose type does not fit it.
        "content_shapes" => Expected::Exactly(4),
        // A request named from elsewhere, no response, a cursor of its own.
        "paged_shape" => Expected::Exactly(3),
        _ => Expected::Exactly(1),
    }
}

#[derive(Clone, Copy, Debug)]
enum Expected {
    Exactly(usize),
    AtLeast(usize),
}

impl Expected {
    fn accepts(self, n: usize) -> bool {
        match self {
            Expected::Exactly(k) => n == k,
            Expected::AtLeast(k) => n >= k,
        }
    }
}

struct Fixture {
    /// File name without `.tool`.
    stem: String,
    /// The name the file is loaded under: `valid/<file>.tool`.
    name: String,
    /// Path on disk, for the snapshot header.
    path: PathBuf,
    bytes: Vec<u8>,
}

impl Fixture {
    /// Checked alone; one that uses `@paged` with the built-in files too,
    /// which declare its `Paging` (the CLI and build scripts check every
    /// catalogue with them).
    fn check(&self) -> (Sources, Result<Model, Diagnostics>) {
        let mut sources = Sources::new();
        if self.bytes.windows(6).any(|w| w == b"@paged") {
            sources.add_job_tools();
        }
        sources.add(self.name.clone(), self.bytes.clone());
        let result = check(&sources);
        (sources, result)
    }
}

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.tool` file of `fixtures/<kind>/`, sorted by name.
fn fixtures(kind: &str) -> Vec<Fixture> {
    let dir = manifest_dir().join("tests/fixtures").join(kind);
    let mut out: Vec<Fixture> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "tool"))
        .map(|path| {
            let file = path
                .file_name()
                .and_then(|n| n.to_str())
                .expect("fixture names are UTF-8")
                .to_owned();
            let stem = file.strip_suffix(".tool").unwrap_or(&file).to_owned();
            let bytes = std::fs::read(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            Fixture {
                stem,
                name: format!("{kind}/{file}"),
                path,
                bytes,
            }
        })
        .collect();
    out.sort_by(|a, b| a.stem.cmp(&b.stem));
    assert!(!out.is_empty(), "no fixtures in {}", dir.display());
    out
}

/// Compares one snapshot; a mismatch is returned rather than raised, so one
/// run reports (and, with `INSTA_UPDATE`, writes) every snapshot.
fn snapshot(kind: &str, fixture: &Fixture, text: &str) -> Result<(), String> {
    let mut settings = insta::Settings::clone_current();
    settings.set_input_file(&fixture.path);
    settings.set_omit_expression(true);
    settings.set_prepend_module_to_snapshot(true);
    let name = format!("{kind}__{}", fixture.stem);
    settings.bind(|| {
        catch_unwind(AssertUnwindSafe(|| insta::assert_snapshot!(name, text)))
            .map_err(|_| format!("{}: snapshot differs", fixture.name))
    })
}

fn finish(failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "{} fixture(s) failed:\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}

#[test]
fn valid_fixtures_check_and_match_their_model_snapshots() {
    let mut failures = Vec::new();
    for fixture in fixtures("valid") {
        let (sources, result) = fixture.check();
        match result {
            Ok(model) => {
                let json = serde_json::to_string_pretty(&model).expect("model serializes");
                if let Err(e) = snapshot("valid", &fixture, &json) {
                    failures.push(e);
                }
            }
            Err(diags) => failures.push(format!(
                "{} was rejected:\n{}",
                fixture.name,
                diags.render(&sources, ColorChoice::Never)
            )),
        }
    }
    finish(failures);
}

#[test]
fn invalid_fixtures_fail_and_match_their_diagnostic_snapshots() {
    let mut failures = Vec::new();
    for fixture in fixtures("invalid") {
        let (sources, result) = fixture.check();
        let diags = match result {
            Ok(_) => {
                failures.push(format!("{} was accepted", fixture.name));
                continue;
            }
            Err(diags) => diags,
        };
        let rendered = diags.render(&sources, ColorChoice::Never);
        let expected = expected_count(&fixture.stem);
        if !expected.accepts(diags.len()) {
            failures.push(format!(
                "{}: expected {expected:?} diagnostic(s), got {}:\n{rendered}",
                fixture.name,
                diags.len()
            ));
        }
        if let Err(e) = snapshot("invalid", &fixture, &rendered) {
            failures.push(e);
        }
    }
    finish(failures);
}

/// The code a warning fixture is named after (`missing_docs` → `TW403`).
fn warning_code(stem: &str) -> Code {
    match stem {
        "unused_type" => Code::UnusedType,
        "deprecated_use" => Code::DeprecatedUse,
        "missing_docs" => Code::MissingDocs,
        "async_long_without_errors" => Code::AsyncWithoutErrors,
        "provider_name" => Code::ProviderName,
        "profile_unfaithful" => Code::ProfileUnfaithful,
        "scope_typo" => Code::ScopeTypo,
        other => panic!("warnings/{other}.tool: name the warning it shows"),
    }
}

#[test]
fn warning_fixtures_check_and_match_their_warning_snapshots() {
    let mut failures = Vec::new();
    for fixture in fixtures("warnings") {
        let mut sources = Sources::new();
        sources.add(fixture.name.clone(), fixture.bytes.clone());
        // As for a catalogue that targets every provider profile, which
        // TW406 needs.
        let clients = Clients {
            profiles: Profile::ALL.to_vec(),
            ..Clients::default()
        };
        let warnings = match check_for_clients(&sources, &clients) {
            Ok(checked) => checked.warnings,
            Err(diags) => {
                failures.push(format!(
                    "{} was rejected:\n{}",
                    fixture.name,
                    diags.render(&sources, ColorChoice::Never)
                ));
                continue;
            }
        };
        let rendered = warnings.render(&sources, ColorChoice::Never);
        let code = warning_code(&fixture.stem);
        if warnings.is_empty() || warnings.iter().any(|d| d.code != code) {
            failures.push(format!(
                "{}: expected {} warnings only, got:\n{rendered}",
                fixture.name,
                code.as_str()
            ));
        }
        if let Err(e) = snapshot("warnings", &fixture, &rendered) {
            failures.push(e);
        }
    }
    finish(failures);
}

/// `recovery.tool` must report a syntax error *and* a semantic one: proof
/// that the parser recovered and the checker ran over what followed.
#[test]
fn recovery_fixture_reports_syntax_and_semantic_errors() {
    let fixture = fixtures("invalid")
        .into_iter()
        .find(|f| f.stem == "recovery")
        .expect("invalid/recovery.tool exists");
    let (_, result) = fixture.check();
    let diags = result.expect_err("recovery.tool is invalid");
    let codes: Vec<&str> = diags.iter().map(|d| d.code.as_str()).collect();
    // TW0xx codes come from the lexer and parser, TW1xx and up from the checker.
    assert!(
        codes.iter().any(|c| c.starts_with("TW0")),
        "no syntax error in {codes:?}"
    );
    assert!(
        codes.iter().any(|c| !c.starts_with("TW0")),
        "no semantic error in {codes:?}"
    );
}

#[test]
fn invalid_fixtures_exercise_every_diagnostic_code() {
    let mut exercised = BTreeSet::new();
    for fixture in fixtures("invalid") {
        if let (_, Err(diags)) = fixture.check() {
            exercised.extend(diags.iter().map(|d| d.code.as_str()));
        }
    }
    for fixture in fixtures("warnings") {
        exercised.insert(warning_code(&fixture.stem).as_str());
    }
    let excepted: BTreeSet<&str> = CODES_NOT_EXERCISED.iter().map(|(c, _)| *c).collect();
    let missing: Vec<String> = Code::ALL
        .iter()
        .filter(|c| !exercised.contains(c.as_str()) && !excepted.contains(c.as_str()))
        .map(|c| format!("{} ({})", c.as_str(), c.summary()))
        .collect();
    assert!(
        missing.is_empty(),
        "no invalid fixture exercises:\n  {}",
        missing.join("\n  ")
    );
    let stale: Vec<&&str> = excepted.iter().filter(|c| exercised.contains(*c)).collect();
    assert!(
        stale.is_empty(),
        "codes listed as not exercised are exercised after all: {stale:?}"
    );
}

/// A snapshot whose fixture was renamed or deleted would otherwise linger.
#[test]
fn every_snapshot_belongs_to_a_fixture() {
    let mut known = BTreeSet::new();
    for kind in ["valid", "invalid", "warnings"] {
        for fixture in fixtures(kind) {
            known.insert(format!("fixtures__{kind}__{}.snap", fixture.stem));
        }
    }
    let dir = manifest_dir().join("tests/snapshots");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    let orphans: Vec<String> = entries
        .map(|entry| entry.expect("directory entry").file_name())
        .filter_map(|name| name.to_str().map(str::to_owned))
        .filter(|name| name.starts_with("fixtures__") && name.ends_with(".snap"))
        .filter(|name| !known.contains(name))
        .collect();
    assert!(
        orphans.is_empty(),
        "snapshots without a fixture in {}: {orphans:?}",
        dir.display()
    );
}
