//! The Rust type of `integer` schemas with and without big integers (`Config::big_integers`),
//! and which `multipleOf` every integer satisfies.

use schemac::{Config, Input, SchemaSource};

/// The code schemac makes of `schema` (a root with one property `n`).
fn compile(schema: &str, big_integers: bool) -> String {
    let dir = std::env::temp_dir().join(format!("schemac-numbers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{:x}.json", schema.len() * 31 + usize::from(big_integers)));
    std::fs::write(&path, format!(r#"{{"title": "Holder", "type": "object", "properties": {{"n": {schema}}}}}"#)).unwrap();
    let input = Input {
        schemas: vec![SchemaSource {
            path: path.clone(),
            display: "holder.json".to_owned(),
            module: vec![],
            root_name: None,
            ..SchemaSource::default()
        }],
        ..Input::default()
    };
    let output = schemac::compile(&input, &Config { big_integers, ..Config::default() });
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
        (r#"{"type": "integer"}"#, false, "i64"),
        (r#"{"type": "integer"}"#, true, "::schemac_runtime::BigInt"),
        // Every integer is a multiple of 0.5: the keyword says nothing about integers.
        (r#"{"type": "integer", "multipleOf": 0.5}"#, true, "::schemac_runtime::BigInt"),
        (r#"{"type": "integer", "multipleOf": 0.3}"#, true, "i64"),
        (r#"{"type": "integer", "minimum": 0}"#, true, "u64"),
        (r#"{"type": "integer", "maximum": 18446744073709551616}"#, true, "i128"),
        (r#"{"type": "integer", "minimum": 0, "maximum": 255}"#, true, "u8"),
    ];
    for (schema, big, expected) in cases {
        let code = compile(schema, big);
        assert_eq!(field_type(&code), expected, "{schema} with big_integers = {big}");
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
