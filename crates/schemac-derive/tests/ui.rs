//! The compile errors a user of schemac reads, in the project's one trybuild batch (a batch
//! builds every dev-dependency of its package again, so there is one): every kind of mismatch
//! fails with the `.stderr` next to it, and so does a generated builder used wrongly
//! (`builder/`, on the generated crate `schema-types`), and so does generated code that needs a
//! runtime contract this runtime does not provide (`contract/`). Regenerate them with
//! `TRYBUILD=overwrite cargo test -p schemac-derive --test ui`.
//!
//! The types that conform (`ui/pass/`) are not in the batch: each is a test of this crate of its
//! own (`[[test]]` in Cargo.toml, `harness = false`), a program that compiles and whose `main`
//! asserts. A batch with no passing case is checked in one `cargo check --keep-going` of all its
//! cases; one passing case makes trybuild build and link every case in a cargo run of its own.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    for category in ["attributes", "builder", "contract", "enums", "include", "nested", "optionality", "properties", "types", "unknown"] {
        cases.compile_fail(format!("tests/ui/{category}/*.rs"));
    }
}
