//! The HTML and Markdown catalogue: `toolwright docs` writes a
//! self-contained page and a Markdown file holding every tool, and the
//! runtime's copy of the page it serves at `/` is the viewer without data.
//! `TOOLWRIGHT_BLESS=1` rewrites that copy after a change to the viewer.

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_owned()
}

fn docs(out: &Path, extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .args(["docs", "idl", "--out"])
        .arg(out)
        .args(extra)
        .env("NO_COLOR", "1")
        .current_dir(workspace())
        .output()
        .expect("the binary runs")
}

/// The reference catalogue's tool names, from its checked model.
fn tool_names() -> Vec<String> {
    let mut sources = toolwright_codegen::Sources::new();
    sources.add_job_tools();
    sources
        .load_paths(&[workspace().join("idl")])
        .expect("idl/ loads");
    let model = toolwright_codegen::check(&sources).expect("idl/ is valid");
    model.tools.iter().map(|t| t.name.clone()).collect()
}

#[test]
fn the_runtime_serves_the_viewer_without_data() {
    let path = workspace().join("runtime/src/web/viewer.html");
    let page = toolwright_codegen::served_docs_page();
    if std::env::var_os("TOOLWRIGHT_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &page).expect("the copy is written");
    }
    let copy = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        copy == page,
        "runtime/src/web/viewer.html is not the viewer of codegen/src/lang/docs/viewer.html; \
         rerun with TOOLWRIGHT_BLESS=1 and review the diff"
    );
}

#[test]
fn the_page_and_the_markdown_hold_every_tool() {
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let out = docs(scratch.path(), &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = std::fs::read_to_string(scratch.path().join("index.html")).expect("index.html");
    let markdown =
        std::fs::read_to_string(scratch.path().join("catalogue.md")).expect("catalogue.md");

    // The page is self-contained: nothing is loaded from elsewhere.
    for reference in ["src=", "href=\"http", "@import", "url("] {
        assert!(
            !page.contains(reference),
            "the page refers out: {reference}"
        );
    }
    let start = page
        .find("id=\"toolwright-catalogue\">")
        .expect("the data is embedded")
        + "id=\"toolwright-catalogue\">".len();
    let end = start + page[start..].find("</script>").expect("the data ends");
    let document: serde_json::Value = serde_json::from_str(&page[start..end]).expect("JSON");
    let embedded: Vec<&str> = document["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    let names = tool_names();
    assert_eq!(embedded, names);
    for name in &names {
        assert!(
            markdown.contains(&format!("\n### {name}\n")),
            "no section for {name}"
        );
    }

    // Written again, nothing changes; `--check` agrees.
    let check = docs(scratch.path(), &["--check"]);
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    std::fs::write(scratch.path().join("catalogue.md"), "stale").expect("written");
    let check = docs(scratch.path(), &["--check"]);
    assert!(!check.status.success());
}
