//! Compile-fail tests of the generated crate's API, in one trybuild batch: what a user who
//! gets a builder wrong reads, and what a build says when the generated code needs a contract
//! version the runtime does not provide. Regenerate the `.stderr` files with
//! `TRYBUILD=overwrite cargo test -p schemac-tests --test ui`, after reading each diff.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("ui/builder/*.rs");
    cases.compile_fail("ui/contract/*.rs");
}
