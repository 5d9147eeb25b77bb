//! `generated/` holds the reference catalogue's bindings (schemas,
//! TypeScript, Python), checked in for frontends. This test runs
//! `toolwright generate bindings idl --out generated --check` and fails
//! when any file is missing, different or left over; with
//! `TOOLWRIGHT_BLESS=1` it runs the same command without `--check`,
//! rewriting them, so the diff can be reviewed.

use std::path::Path;
use std::process::Command;

#[test]
fn generated_bindings_are_fresh() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let bless = std::env::var_os("TOOLWRIGHT_BLESS").is_some_and(|v| v == "1");
    let mut command = Command::new(env!("CARGO_BIN_EXE_toolwright"));
    command
        .current_dir(&root)
        .args(["generate", "bindings", "idl", "--out", "generated"]);
    if !bless {
        command.arg("--check");
    }
    let output = command.output().expect("the toolwright binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "generated/ is out of date with idl/:\n{stdout}{stderr}\n\
         Rebuild the studio example (its build script rewrites generated/), or run\n  \
         TOOLWRIGHT_BLESS=1 cargo test -p toolwright-codegen --test generated\n\
         and review the diff."
    );
}

#[test]
fn bindings_do_not_depend_on_how_the_catalogue_is_found() {
    // The studio's build script loads `../../idl`, the CLI `idl`: both
    // write generated/, so their bytes must agree.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let generate = |path: &Path| {
        let mut sources = toolwright_codegen::Sources::new();
        sources.add_job_tools();
        sources.load_paths(&[path]).expect("idl/ loads");
        toolwright_codegen::generate_bindings(&sources, &toolwright_codegen::Binding::ALL)
            .expect("idl/ checks")
    };
    let absolute = generate(&root.join("idl").canonicalize().unwrap());
    let relative = generate(Path::new("../idl"));
    assert_eq!(absolute.len(), relative.len());
    for (a, r) in absolute.iter().zip(&relative) {
        assert_eq!(a.path, r.path);
        assert!(a.contents == r.contents, "{} differs", a.path.display());
    }
}
