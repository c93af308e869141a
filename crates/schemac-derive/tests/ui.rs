//! The derive's UI tests, in one trybuild batch (each batch builds its dependencies once):
//! types that conform compile and run; every kind of mismatch fails with the `.stderr` next
//! to it. Regenerate those with `TRYBUILD=overwrite cargo test -p schemac-derive --test ui`.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/pass/*.rs");
    for category in ["attributes", "enums", "include", "nested", "optionality", "properties", "types", "unknown"] {
        cases.compile_fail(format!("tests/ui/{category}/*.rs"));
    }
}
