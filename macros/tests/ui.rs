//! Compile-time behaviour of `#[tools]` / `#[tool]`: programs that must
//! build and run (`ui/pass/`), and programs that must fail with exactly the
//! errors pinned in `ui/*.stderr`, one error per file, named after it.
//!
//! After an intended change of message or span, rerun with
//! `TRYBUILD=overwrite` and read every changed `.stderr` before committing:
//! the error must point at the user's code and say how to fix it.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/pass/*.rs");
    cases.compile_fail("tests/ui/*.rs");
}
