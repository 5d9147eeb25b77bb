//! The `toolwright` command.

fn main() -> std::process::ExitCode {
    toolwright_codegen::cli::main()
}
