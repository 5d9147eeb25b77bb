//! The Python binding of the reference catalogue: generation is
//! deterministic, and the package has the shape pip and mypy expect.
//! Whether `generated/python/` is fresh is `tests/generated.rs`'s job;
//! whether the Python type-checks and speaks the wire is proven by
//! `tests/python/run`.

use std::path::{Path, PathBuf};

use toolwright_codegen::{Binding, ColorChoice, OutputFile, Sources, generate_bindings};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

/// The reference catalogue's Python files, named as the CLI names them
/// when run from the repository root.
fn reference() -> Vec<OutputFile> {
    let mut sources = Sources::new();
    sources.add_job_tools();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(root().join("idl"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "tool"))
        .collect();
    paths.sort();
    for path in paths {
        let name = format!("idl/{}", path.file_name().unwrap().to_string_lossy());
        sources.add(name, std::fs::read(&path).unwrap());
    }
    generate_bindings(&sources, &[Binding::Python])
        .unwrap_or_else(|d| panic!("{}", d.render(&sources, ColorChoice::Never)))
}

#[test]
fn generation_is_deterministic() {
    assert_eq!(reference(), reference());
}

#[test]
fn the_package_has_the_layout_pip_and_mypy_expect() {
    let files = reference();
    let paths: Vec<String> = files
        .iter()
        .map(|f| f.path.to_string_lossy().replace('\\', "/"))
        .collect();
    for expected in [
        "python/pyproject.toml",
        "python/README.md",
        "python/src/toolwright_catalogue/__init__.py",
        "python/src/toolwright_catalogue/py.typed",
        "python/src/toolwright_catalogue/models.py",
        "python/src/toolwright_catalogue/tools.py",
        "python/src/toolwright_catalogue/registry.py",
        "python/src/toolwright_catalogue/toon.py",
        "python/src/toolwright_catalogue/codec.py",
    ] {
        assert!(
            paths.iter().any(|p| p == expected),
            "{expected} in {paths:?}"
        );
    }
    for file in &files {
        let name = file.path.display();
        assert!(
            file.contents.is_empty() || file.contents.ends_with('\n'),
            "{name} ends with a newline"
        );
        assert!(
            !file.contents.contains("\n\n\n\n"),
            "{name}: no runs of blank lines"
        );
        assert!(
            file.contents.lines().all(|l| l == l.trim_end()),
            "{name}: no trailing spaces"
        );
        if file.path.extension().is_some_and(|e| e == "py") {
            assert!(
                file.contents.starts_with("\"\"\""),
                "{name} opens with a docstring"
            );
            assert!(!file.contents.contains('\t'), "{name} indents with spaces");
        }
    }
}

#[test]
fn every_tool_has_a_call_a_result_and_a_registry_entry() {
    let files = reference();
    let text = |name: &str| {
        files
            .iter()
            .find(|f| f.path.ends_with(name))
            .map(|f| f.contents.clone())
            .unwrap()
    };
    let tools = text("tools.py");
    let registry = text("registry.py");
    for (call, result, tag) in [
        ("AddCall", "AddResult", "\"add\""),
        ("FsReadCall", "FsReadResult", "\"fs.read\""),
        ("JobListCall", "JobListResult", "\"job_list\""),
        ("GardenPlayCall", "GardenPlayResult", "\"garden_play\""),
    ] {
        assert!(
            tools.contains(&format!("class {call}(wire.ToolCall):")),
            "{call}"
        );
        assert!(
            tools.contains(&format!("class {result}(wire.ToolResult):")),
            "{result}"
        );
        assert!(tools.contains(&format!("pydantic.Tag({tag})")), "{tag}");
    }
    // The entries are the shared metadata as Python literals.
    assert!(registry.contains("\"name\": \"add\","));
    assert!(registry.contains("\"readOnlyHint\": True,"));
    assert!(registry.contains("ToolMetadata.model_validate(entry) for entry in _ENTRIES"));
}
