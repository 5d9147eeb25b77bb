//! A user's flow, end to end, with real `cargo` runs: build a crate that
//! serves a catalogue; rebuild with nothing changed (the build script must
//! not run again); add a tool to the IDL (the build fails, naming the tool
//! that has no handler, and the generated code has its variant); write the
//! handler (it builds and answers); break the IDL (the build script's
//! output is the CLI's diagnostic); add a `.tool` file (the build script
//! runs again).
//!
//! The crate's dependencies are compiled once into `target/user-flow` and
//! reused by later runs. They are the dependencies `toolwright init` writes
//! (codegen's `init` test builds such a crate in the same directory), so
//! the two tests compile them once between them.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repository root")
}

struct UserCrate {
    dir: tempfile::TempDir,
    target: PathBuf,
}

impl UserCrate {
    fn new() -> UserCrate {
        let repo = repo();
        let dir = tempfile::tempdir().expect("temporary directory");
        copy_dir(&repo.join("tests/flow/template"), dir.path());
        let manifest = format!(
            r#"[package]
name = "shop"
version = "0.0.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
toolwright = {{ path = "{runtime}", features = ["mcp"] }}
tokio = {{ version = "1", features = ["rt-multi-thread", "macros", "net"] }}

[build-dependencies]
toolwright-codegen = {{ path = "{codegen}", default-features = false }}
"#,
            runtime = repo.join("runtime").display(),
            codegen = repo.join("codegen").display(),
        );
        fs::write(dir.path().join("Cargo.toml"), manifest).expect("write Cargo.toml");
        // The workspace's lock file pins the same versions, so nothing new
        // is resolved or downloaded.
        fs::copy(repo.join("Cargo.lock"), dir.path().join("Cargo.lock")).expect("copy Cargo.lock");
        UserCrate {
            dir,
            target: repo.join("target/user-flow"),
        }
    }

    fn path(&self, relative: &str) -> PathBuf {
        self.dir.path().join(relative)
    }

    fn cargo(&self, args: &[&str]) -> Output {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        Command::new(cargo)
            .args(args)
            .arg("--offline")
            .current_dir(self.dir.path())
            .env("CARGO_TARGET_DIR", &self.target)
            .env_remove("RUSTFLAGS")
            // A user's crate has no profile of its own: without these its
            // dependencies build with full debug info and incremental
            // caches, gigabytes that this one build never reads again.
            .env("CARGO_PROFILE_DEV_DEBUG", "0")
            .env("CARGO_INCREMENTAL", "0")
            .env("CARGO_TERM_COLOR", "never")
            .output()
            .expect("cargo runs")
    }

    fn build(&self) -> Output {
        self.cargo(&["build", "-v"])
    }

    fn generated(&self) -> String {
        // The newest build output directory of this crate's build script.
        let build = self.target.join("debug/build");
        let mut outputs: Vec<PathBuf> = fs::read_dir(&build)
            .expect("build directory")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("shop-"))
                    && p.join("out/toolwright/tools.rs").exists()
            })
            .collect();
        outputs.sort_by_key(|p| {
            fs::metadata(p.join("out/toolwright/tools.rs"))
                .and_then(|m| m.modified())
                .ok()
        });
        fs::read_to_string(
            outputs
                .last()
                .expect("generated code")
                .join("out/toolwright/tools.rs"),
        )
        .expect("read generated code")
    }
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("create directory");
    for entry in fs::read_dir(from).expect("read template") {
        let entry = entry.expect("template entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), target).expect("copy template file");
        }
    }
}

fn text(output: &Output) -> String {
    format!(
        "status: {}\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// True when the verbose build ran the crate's build script.
fn ran_build_script(output: &Output) -> bool {
    String::from_utf8_lossy(&output.stderr)
        .lines()
        .any(|l| l.contains("Running `") && l.contains("shop-") && l.contains("build-script-build"))
}

const DISCOUNT_TOOL: &str = r#"
/// Discount on an item, in percent.
tool discount {
    timing sync
    request {
        /// Item name.
        item: string,
    }
    response {
        /// Discount in percent.
        percent: u8,
    }
}
"#;

const DISCOUNT_HANDLER: &str = r#"
    #[tool]
    fn discount(&self, request: DiscountRequest) -> Result<DiscountResponse, toolwright::ToolError> {
        Ok(DiscountResponse { percent: if request.item == "apple" { 10 } else { 0 } })
    }
"#;

#[test]
fn add_a_tool_then_its_handler() {
    let shop = UserCrate::new();

    let first = shop.build();
    assert!(
        first.status.success(),
        "the template builds\n{}",
        text(&first)
    );
    assert!(
        ran_build_script(&first),
        "a first build runs the build script\n{}",
        text(&first)
    );
    let run = shop.cargo(&["run", "-q"]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        stdout.contains("apple: Success(Price(PriceResponse { cents: 40 }))"),
        "{}",
        text(&run)
    );
    assert!(
        stdout.contains("pear: Error(ToolError { code: \"UNKNOWN_ITEM\""),
        "{}",
        text(&run)
    );

    let again = shop.build();
    assert!(again.status.success(), "{}", text(&again));
    assert!(
        !ran_build_script(&again),
        "a no-op build reruns the build script\n{}",
        text(&again)
    );

    // A new tool in the IDL: the build script reruns, the generated code has
    // its variant, and the service does not compile until it has a handler.
    let idl = shop.path("idl/shop.tool");
    let mut source = fs::read_to_string(&idl).expect("read idl");
    source.push_str(DISCOUNT_TOOL);
    fs::write(&idl, source).expect("write idl");
    let missing = shop.build();
    assert!(
        !missing.status.success(),
        "a tool without a handler must not compile\n{}",
        text(&missing)
    );
    assert!(
        ran_build_script(&missing),
        "editing a .tool file reruns the build script\n{}",
        text(&missing)
    );
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(
        stderr.contains("tool `discount` has no handler (declared at idl/shop.tool:"),
        "{}",
        text(&missing)
    );
    assert!(
        stderr.contains("src/main.rs"),
        "the error points at the user's impl block\n{}",
        text(&missing)
    );
    let generated = shop.generated();
    assert!(
        generated.contains("Discount(DiscountRequest)"),
        "ToolRequest has the new variant"
    );
    assert!(
        generated.contains("pub struct DiscountTool;"),
        "the new tool has a marker"
    );

    let main = shop.path("src/main.rs");
    let code = fs::read_to_string(&main).expect("read main.rs");
    let code = code.replacen("impl Shop {", &format!("impl Shop {{{DISCOUNT_HANDLER}"), 1);
    let code = code.replace(
        r#"let request = ToolRequest::Price(PriceRequest { item: item.into() });"#,
        r#"let request = ToolRequest::Discount(DiscountRequest { item: item.into() });"#,
    );
    fs::write(&main, code).expect("write main.rs");
    let fixed = shop.build();
    assert!(
        fixed.status.success(),
        "with its handler it compiles\n{}",
        text(&fixed)
    );
    assert!(
        !ran_build_script(&fixed),
        "editing Rust code does not rerun the build script\n{}",
        text(&fixed)
    );
    let run = shop.cargo(&["run", "-q"]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        stdout.contains("apple: Success(Discount(DiscountResponse { percent: 10 }))"),
        "{}",
        text(&run)
    );

    // A mistake in the IDL fails the build script with the CLI's rendering.
    let good = fs::read_to_string(&idl).expect("read idl");
    fs::write(&idl, good.replacen("timing sync", "timing snyc", 1)).expect("write idl");
    let broken = shop.build();
    assert!(!broken.status.success(), "{}", text(&broken));
    let stderr = String::from_utf8_lossy(&broken.stderr);
    for expected in [
        "error[TW202]",
        "idl/shop.tool:",
        "timing snyc",
        "did you mean `sync`?",
        "1 error found",
    ] {
        assert!(
            stderr.contains(expected),
            "build script output lacks {expected:?}\n{}",
            text(&broken)
        );
    }
    fs::write(&idl, good).expect("restore idl");

    // A new file in the IDL directory is found too.
    fs::write(
        shop.path("idl/more.tool"),
        "/// More.\ncategory more;\n\n/// Ping.\ntool ping { timing sync }\n",
    )
    .expect("write new idl file");
    let added = shop.build();
    assert!(
        ran_build_script(&added),
        "adding a .tool file reruns the build script\n{}",
        text(&added)
    );
    assert!(
        String::from_utf8_lossy(&added.stderr).contains("tool `ping` has no handler"),
        "{}",
        text(&added)
    );
}
