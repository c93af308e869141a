//! The compile errors a user of schemac reads, in the project's one trybuild batch (a batch
//! builds every dev-dependency of its package again, so there is one): the derive's types
//! that conform compile and run, every kind of mismatch fails with the `.stderr` next to it,
//! and so does a generated builder used wrongly (`builder/`, on the generated crate
//! `schema-types`), and so does generated code that needs a runtime contract this runtime does not
//! provide (`contract/`). Regenerate them with `TRYBUILD=overwrite cargo test -p schemac-derive --test ui`.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/pass/*.rs");
    for category in ["attributes", "builder", "contract", "enums", "include", "nested", "optionality", "properties", "types", "unknown"] {
        cases.compile_fail(format!("tests/ui/{category}/*.rs"));
    }
}
