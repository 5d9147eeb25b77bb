//! The `toolwright` binary: exit codes, output streams, `--emit`, `--help`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn toolwright(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_toolwright"))
        .args(args)
        .env("NO_COLOR", "1")
        .current_dir(workspace())
        .output()
        .expect("the binary runs")
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("toolwright-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn help_is_pinned() {
    let out = toolwright(&["--help"]);
    assert!(out.status.success());
    insta::assert_snapshot!("help", text(&out.stdout));
    let out = toolwright(&["check", "--help"]);
    assert!(out.status.success());
    insta::assert_snapshot!("check_help", text(&out.stdout));
    let out = toolwright(&["fmt", "--help"]);
    assert!(out.status.success());
    insta::assert_snapshot!("fmt_help", text(&out.stdout));
}

#[test]
fn reference_catalogue_checks_clean_with_a_summary() {
    let out = toolwright(&["check", "idl"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("checked "), "{stdout}");
    assert!(
        stdout.contains(" files: ") && stdout.contains(" tools, ") && stdout.ends_with(" types\n")
    );
    assert!(out.stderr.is_empty());
}

#[test]
fn errors_exit_1_with_every_diagnostic_on_stderr() {
    let dir = scratch("errors");
    let file = dir.join("bad.tool");
    std::fs::write(
        &file,
        "tool a { timing sync response R }\nstruct R { x: Strin, y: u8 = 300 }\ntool b { }\n",
    )
    .unwrap();
    let out = toolwright(&["check", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let stderr = text(&out.stderr);
    for code in [
        "error[TW101]",
        "error[TW310]",
        "error[TW201]",
        "3 errors found",
    ] {
        assert!(stderr.contains(code), "{code} missing from:\n{stderr}");
    }
    assert!(stderr.contains("bad.tool:2:15"), "{stderr}");
    assert!(!stderr.contains('\u{1b}'), "NO_COLOR output has no escapes");
}

#[test]
fn emit_writes_the_model() {
    let dir = scratch("emit");
    let model = dir.join("model.json");
    let out = toolwright(&["check", "idl", "--emit", model.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&std::fs::read(&model).unwrap()).unwrap();
    assert!(json["tools"].as_array().is_some_and(|t| !t.is_empty()));
    assert!(json["types"].as_array().is_some_and(|t| !t.is_empty()));

    let out = toolwright(&["check", "idl", "--emit", "-"]);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is only JSON");
    assert!(json["files"].is_array());
    assert!(text(&out.stderr).starts_with("checked "));
}

#[test]
fn emit_is_not_written_when_the_check_fails() {
    let dir = scratch("emit-fail");
    std::fs::write(dir.join("bad.tool"), "tool a { }").unwrap();
    let model = dir.join("model.json");
    let out = toolwright(&[
        "check",
        dir.to_str().unwrap(),
        "--emit",
        model.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(!model.exists());
}

#[test]
fn unreadable_paths_and_usage_errors() {
    let out = toolwright(&["check", "no/such/dir"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("cannot read `no/such/dir`"));

    let empty = scratch("empty");
    let out = toolwright(&["check", empty.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("contains no `.tool` files"));

    let out = toolwright(&["check"]);
    assert_eq!(out.status.code(), Some(2));
    let out = toolwright(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn color_always_uses_ansi_escapes() {
    let dir = scratch("color");
    std::fs::write(dir.join("bad.tool"), "tool a { }").unwrap();
    let out = toolwright(&["check", dir.to_str().unwrap(), "--color", "always"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains('\u{1b}'));
}

#[test]
fn fmt_prints_checks_and_writes() {
    let dir = scratch("fmt");
    let file = dir.join("a.tool");
    std::fs::write(&file, "tool a{timing sync   request{x:u8}} // keep\n").unwrap();
    let canonical = "tool a {\n    timing sync\n    request { x: u8 }\n} // keep\n";

    let out = toolwright(&["fmt", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), canonical);

    let out = toolwright(&["fmt", "--check", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("a.tool"));

    let out = toolwright(&["fmt", "--write", dir.to_str().unwrap()]);
    assert!(out.status.success());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), canonical);

    let out = toolwright(&["fmt", "--check", dir.to_str().unwrap()]);
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
}

#[test]
fn fmt_leaves_files_with_syntax_errors_alone() {
    let dir = scratch("fmt-bad");
    let file = dir.join("bad.tool");
    std::fs::write(&file, "struct A { x: }").unwrap();
    let out = toolwright(&["fmt", "--write", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("error[TW010]"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "struct A { x: }");
}

#[test]
fn fmt_prints_one_file_only() {
    let out = toolwright(&["fmt", "idl"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("use `--write` or `--check`"));
    let out = toolwright(&["fmt", "--check", "idl"]);
    assert!(
        out.status.success(),
        "the catalogue is formatted: {}",
        text(&out.stdout)
    );
}

#[test]
fn json_diagnostics_are_one_object_per_line() {
    let dir = scratch("json");
    std::fs::write(
        dir.join("bad.tool"),
        "tool a { timing sync response R }\nstruct R { x: Strin }\ntool b { }\n",
    )
    .unwrap();
    let out = toolwright(&["check", dir.to_str().unwrap(), "--message-format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = text(&out.stderr)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["code"], "TW101");
    assert_eq!(lines[0]["start"]["line"], 2);
    assert_eq!(lines[0]["start"]["column"], 15);
    assert_eq!(lines[0]["end"]["column"], 20);
    assert_eq!(lines[0]["help"], "did you mean `string`?");
    assert!(lines[0]["rendered"].as_str().unwrap().contains("^^^^^"));
    assert_eq!(lines[1]["code"], "TW201");
}

#[test]
fn explain_prints_the_explanation() {
    let out = toolwright(&["explain", "tw101"]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("TW101: a type name that is not declared\n\n"),
        "{stdout}"
    );
    assert!(stdout.contains("Example:") && stdout.contains("Fix:"));
    let out = toolwright(&["explain", "TW999"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("not a diagnostic code"));
}

#[test]
fn a_file_named_twice_is_read_once() {
    let once = toolwright(&["check", "idl"]);
    let twice = toolwright(&["check", "idl", "./idl/abc.tool"]);
    assert!(twice.status.success(), "{}", text(&twice.stderr));
    assert_eq!(text(&once.stdout), text(&twice.stdout));
}
