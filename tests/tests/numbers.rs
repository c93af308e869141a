//! The Rust type of `integer` and `number` schemas by default (exact: `schemac_runtime::Integer`
//! where a bound is missing, `Number`), with big integers (`Config::big_integers`) and with
//! primitive numbers (`Config::primitive_numbers`), and which `multipleOf` every integer
//! satisfies.

use schemac::{Config, Input, SchemaSource};

/// The code schemac makes of `schema` (a root with one property `n`).
fn compile(schema: &str, big_integers: bool) -> String {
    compile_with(schema, &Config::default().big_integers(big_integers))
}

fn compile_with(schema: &str, config: &Config) -> String {
    // A file of its own per call: the tests run in parallel.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("schemac-numbers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{call}.json"));
    std::fs::write(&path, format!(r#"{{"title": "Holder", "type": "object", "properties": {{"n": {schema}}}}}"#)).unwrap();
    let input = Input::new([SchemaSource::new(path.clone()).display("holder.json".to_owned())]);
    let output = schemac::compile(&input, config);
    let _ = std::fs::remove_file(&path);
    output.unwrap_or_else(|d| panic!("{schema}: {d}")).single_file()
}

/// How the optional field `n` starts: generated code names the prelude by absolute path.
const FIELD: &str = "pub n: ::core::option::Option<";

fn field_type(code: &str) -> &str {
    let start = code.find(FIELD).map(|i| i + FIELD.len()).unwrap_or_else(|| panic!("no field n in\n{code}"));
    let end = code[start..].find(">,\n").map_or(code.len(), |i| start + i);
    &code[start..end]
}

#[test]
fn big_integers_apply_to_integers_without_bounds() {
    let cases = [
        (r#"{"type": "integer"}"#, false, "::schemac_runtime::Integer"),
        (r#"{"type": "integer"}"#, true, "::schemac_runtime::BigInt"),
        // Every integer is a multiple of 0.5: the keyword says nothing about integers.
        (r#"{"type": "integer", "multipleOf": 0.5}"#, true, "::schemac_runtime::BigInt"),
        (r#"{"type": "integer", "multipleOf": 0.3}"#, true, "::schemac_runtime::Integer"),
        (r#"{"type": "integer", "minimum": 0}"#, true, "::schemac_runtime::Integer"),
        (r#"{"type": "integer", "maximum": 18446744073709551616}"#, true, "::schemac_runtime::Integer"),
        (r#"{"type": "integer", "minimum": 0, "maximum": 18446744073709551616}"#, false, "i128"),
        (r#"{"type": "integer", "minimum": 0, "maximum": 255}"#, true, "u8"),
        (r#"{"type": "number"}"#, false, "::schemac_runtime::Number"),
    ];
    for (schema, big, expected) in cases {
        let code = compile(schema, big);
        assert_eq!(field_type(&code), expected, "{schema} with big_integers = {big}");
    }
}

/// With `primitive_numbers`, an open side of an integer stands for the end of `u64` or `i64`
/// and a `number` is an `f64`, each of which refuses (naming the value) what it cannot hold.
#[test]
fn primitive_numbers_are_the_narrowest_rust_primitives() {
    let cases = [
        (r#"{"type": "integer"}"#, "i64"),
        (r#"{"type": "integer", "minimum": 0}"#, "u64"),
        (r#"{"type": "integer", "maximum": 18446744073709551616}"#, "i128"),
        (r#"{"type": "integer", "minimum": 0, "maximum": 255}"#, "u8"),
        (r#"{"type": "number"}"#, "f64"),
    ];
    let config = Config::default().primitive_numbers(true);
    for (schema, expected) in cases {
        let code = compile_with(schema, &config);
        assert_eq!(field_type(&code), expected, "{schema} with primitive numbers");
    }
}

#[test]
fn a_multiple_of_one_over_k_is_no_assertion_on_integers() {
    for (divisor, kept) in
        [("1", false), ("1.0", false), ("0.5", false), ("0.25", false), ("0.1", false), ("0.3", true), ("2", true), ("1.5", true)]
    {
        let code = compile(&format!(r#"{{"type": "integer", "multipleOf": {divisor}}}"#), false);
        assert_eq!(code.contains("multiple_of"), kept, "multipleOf {divisor}:\n{code}");
    }
}
