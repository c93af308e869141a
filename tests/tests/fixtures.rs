//! The keyword fixtures: `tests/fixtures/<stem>.json` compiles into `fixture_types::<stem>`, and
//! the instances under `tests/fixture-instances/<stem>/{valid,invalid}` go through its root type
//! exactly as the bundled schemas' instances do (see `common/mod.rs`). The schemas under
//! `tests/fixtures-formats/` are compiled with `assert-formats` into the same crate, and those
//! under `tests/fixtures-hostile/` (names chosen to break generated code: keywords, `Option`,
//! `Some`, `A`, `D`, `Visitor`, `""`, a 10,000-character name, files named `serde.json` or
//! `with space.json`; properties named like the generated API's methods and the runtime's
//! helpers, definitions named like the runtime's items, 13 to 40 required properties, arrays
//! and maps nested 120 deep inline) as they are.

mod common;

use std::collections::BTreeSet;

use common::{RoundTrip, round_trip};

/// Fixture stem → its root type (named from the schema's `title`).
const FIXTURES: &[(&str, RoundTrip)] = &[
    ("allof-merge", round_trip::<fixture_types::allof_merge::Merged>),
    ("assert-arrays", round_trip::<fixture_types::assert_arrays::Arrays>),
    ("assert-checked", round_trip::<fixture_types::assert_checked::CheckedAssertions>),
    ("assert-numbers", round_trip::<fixture_types::assert_numbers::Numbers>),
    ("assert-objects", round_trip::<fixture_types::assert_objects::Objects>),
    ("assert-strings", round_trip::<fixture_types::assert_strings::Strings>),
    ("anchor", round_trip::<fixture_types::anchor::Anchored>),
    ("anyof-first-match", round_trip::<fixture_types::anyof_first_match::AnyOfValue>),
    ("awkward-names", round_trip::<fixture_types::awkward_names::AwkwardNames>),
    ("big-fields", round_trip::<fixture_types::big_fields::BigFields>),
    ("bool-schemas", round_trip::<fixture_types::bool_schemas::BoolSchemas>),
    ("const-values", round_trip::<fixture_types::const_values::ConstHolder>),
    ("dedup-structs", round_trip::<fixture_types::dedup_structs::Shipment>),
    ("defs-definitions", round_trip::<fixture_types::defs_definitions::DefsBoth>),
    ("draft-04", round_trip::<fixture_types::draft_04::DraftFour>),
    ("enum-mixed", round_trip::<fixture_types::enum_mixed::MixedEnum>),
    ("enum-string", round_trip::<fixture_types::enum_string::Color>),
    ("exact-numbers", round_trip::<fixture_types::exact_numbers::ExactNumbers>),
    ("formats", round_trip::<fixture_types::formats::Formats>),
    ("formats-asserted", round_trip::<fixture_types::formats_asserted::AssertedFormats>),
    ("if-then-else", round_trip::<fixture_types::if_then_else::Conditional>),
    ("integer-ranges", round_trip::<fixture_types::integer_ranges::IntegerRanges>),
    ("mutual-recursion", round_trip::<fixture_types::mutual_recursion::Directory>),
    ("not-schema", round_trip::<fixture_types::not_schema::NotExamples>),
    ("nullable-alias-branch", round_trip::<fixture_types::nullable_alias_branch::NullableAliasBranch>),
    ("nullable-branch", round_trip::<fixture_types::nullable_branch::NullableBranch>),
    ("nullable-ref-branch", round_trip::<fixture_types::nullable_ref_branch::NullableRefBranch>),
    ("nullable-scalar-branch", round_trip::<fixture_types::nullable_scalar_branch::NullableScalarBranch>),
    ("object-closed", round_trip::<fixture_types::object_closed::ClosedObject>),
    ("object-map", round_trip::<fixture_types::object_map::LabeledCounts>),
    ("object-open", round_trip::<fixture_types::object_open::OpenObject>),
    ("oneof-overlap", round_trip::<fixture_types::oneof_overlap::ExactlyOne>),
    ("oneof-tagged", round_trip::<fixture_types::oneof_tagged::Shape>),
    ("optional-nullable", round_trip::<fixture_types::optional_nullable::OptionalNullable>),
    ("pattern-properties", round_trip::<fixture_types::pattern_properties::PatternProps>),
    ("prefix-items", round_trip::<fixture_types::prefix_items::PairItems>),
    ("recursive-tree", round_trip::<fixture_types::recursive_tree::TreeNode>),
    ("ref-siblings", round_trip::<fixture_types::ref_siblings::RefSiblings>),
    ("required-nullable", round_trip::<fixture_types::required_nullable::RequiredNullable>),
    ("tuples", round_trip::<fixture_types::tuples::Tuples>),
    ("union-errors", round_trip::<fixture_types::union_errors::ViewSpec>),
    ("type-array", round_trip::<fixture_types::type_array::TypeUnion>),
    ("hostile-names", round_trip::<fixture_types::hostile_names::HostileNames>),
    ("wide-closed", round_trip::<fixture_types::wide_closed::WideClosed>),
    ("wide-open", round_trip::<fixture_types::wide_open::WideOpen>),
    ("method-names", round_trip::<fixture_types::method_names::MethodNames>),
    ("runtime-names", round_trip::<fixture_types::runtime_names::RuntimeNames>),
    ("wide-required", round_trip::<fixture_types::wide_required::WideRequired>),
    ("deep-inline", round_trip::<fixture_types::deep_inline::DeepInline>),
];

#[test]
fn fixture_instances() {
    let mut failures = Vec::new();
    let (mut valid, mut invalid) = (0, 0);
    for &(stem, parse) in FIXTURES {
        let schema = schema_of(stem);
        let dir = common::tests_dir().join("fixture-instances").join(stem);
        let report = common::check_instances(&schema, &dir, parse);
        println!("{stem}: {} valid, {} invalid", report.valid, report.invalid);
        valid += report.valid;
        invalid += report.invalid;
        failures.extend(report.failures);
    }
    println!("fixtures: {} schemas, {valid} valid, {invalid} invalid instances", FIXTURES.len());
    assert!(failures.is_empty(), "{} failures:\n\n{}", failures.len(), failures.join("\n\n"));
}

/// Every instance directory is in the table and every table entry has a schema, so no instance
/// set is skipped by omission.
#[test]
fn the_table_covers_every_instance_directory() {
    let dir = common::tests_dir().join("fixture-instances");
    let on_disk: BTreeSet<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("readable directory entry").file_name().to_string_lossy().into_owned())
        .collect();
    let in_table: BTreeSet<String> = FIXTURES.iter().map(|(stem, _)| (*stem).to_owned()).collect();
    assert_eq!(on_disk, in_table);
    for stem in &in_table {
        let schema = schema_of(stem);
        assert!(schema.is_file(), "{} is missing", schema.display());
    }
}

/// The schema of fixture `stem`: under `tests/fixtures/`, `tests/fixtures-hostile/`, or
/// `tests/fixtures-formats/` for the ones compiled with `assert-formats`.
fn schema_of(stem: &str) -> std::path::PathBuf {
    let file = format!("{stem}.json");
    ["fixtures", "fixtures-hostile", "fixtures-formats"]
        .iter()
        .map(|dir| common::tests_dir().join(dir).join(&file))
        .find(|path| path.is_file())
        .unwrap_or_else(|| common::tests_dir().join("fixtures-formats").join(file))
}

/// Values built in Rust are checked too: `validate()` reports a malformed format with its
/// pointer and keyword.
#[test]
fn asserted_formats_are_validated() {
    use schemac_runtime::Validate as _;
    let text = r#"{"ipv4": "10.0.0.1", "peers": ["10.0.0.1"]}"#;
    let mut value: fixture_types::formats_asserted::AssertedFormats = schemac_runtime::from_str(text).unwrap();
    assert!(value.validate().is_ok());
    value.peers = Some(vec!["10.0.0.1".into(), "10.0.0.01".into()]);
    value.uuid = Some("not-a-uuid".into());
    let errors = value.validate().unwrap_err();
    let found: Vec<(&str, &str)> = errors.iter().map(|e| (e.pointer(), e.keyword())).collect();
    assert_eq!(found, [("/uuid", "format"), ("/peers/1", "format")]);
}

/// Fields boxed for their size (`wide`, over 256 bytes; `first*`, the largest of a struct that
/// would pass 1 KiB) and a boxed union variant and tuple item are built with `Box::new` or
/// `.into()` and checked through their boxes by `validate()`; `second*` stays inline.
#[test]
fn boxed_fields_are_built_and_validated_through_their_box() {
    use fixture_types::big_fields::{BigFields, BigFieldsChoice, BigFieldsPair, First, Second, Wide};
    use schemac_runtime::Validate as _;
    let mut value: BigFields = schemac_runtime::from_str(r#"{"wide": {"w0": "ok"}}"#).unwrap();
    let wide: Box<Wide> = value.wide.clone().unwrap();
    // The structs are `#[non_exhaustive]`: invalid values are made by changing a field of a
    // value read or cloned (a builder's `build()` would refuse them).
    let mut first: First = serde_json::from_str("{}").unwrap();
    first.a0 = Some("abcd".to_owned());
    value.first2 = Some(Box::new(first));
    let mut second: Second = serde_json::from_str("{}").unwrap();
    second.b0 = Some("abcd".to_owned());
    value.second3 = Some(second);
    let mut changed: Wide = (*wide).clone();
    changed.w0 = "abcd".to_owned();
    value.choice = Some(BigFieldsChoice::Wide(changed.into()));
    value.pair = Some(BigFieldsPair(wide, 1.into()));
    let errors = value.validate().unwrap_err();
    let found: Vec<(&str, &str)> = errors.iter().map(|e| (e.pointer(), e.keyword())).collect();
    assert_eq!(found, [("/choice/w0", "maxLength"), ("/first2/a0", "maxLength"), ("/second3/b0", "maxLength")]);
    let text = serde_json::to_string(&value).unwrap();
    assert_eq!(schemac_runtime::from_str::<BigFields>(&text).unwrap_err().pointer(), "/choice/w0");
}

/// A value the schema leaves open (`serde_json::Value`) keeps every integer exactly or is an
/// error naming it: `Value` would hold one beyond `i64` and `u64` as a rounded `f64`, and the
/// round trip would write another number.
#[test]
fn open_values_keep_integers_exact_or_fail() {
    use fixture_types::type_array::TypeUnion;
    let exact = r#"{"id":7,"scalar":[18446744073709551615,-9223372036854775808,{"a":"12345678901234567890123"}]}"#;
    let value: TypeUnion = schemac_runtime::from_str(exact).unwrap();
    assert_eq!(serde_json::to_string(&value).unwrap(), exact);

    let err = schemac_runtime::from_str::<TypeUnion>(r#"{"id": 7, "scalar": [1, 18446744073709551617]}"#).unwrap_err();
    assert_eq!(err.pointer(), "/scalar/1");
    assert!(err.message().starts_with("integer 18446744073709551617 is out of range for serde_json::Value"), "{err}");
}

/// Numbers come back exactly: each float is the f64 nearest to its text (serde_json's
/// `float_roundtrip`, which schemac-runtime turns on for every crate that uses it) and is
/// written as text that reads back as the same f64; integers wider than 64 bits (a `maximum`
/// of 2^64 gives `i128`) are read from their text, not from a rounded f64.
#[test]
fn numbers_round_trip_exactly() {
    use fixture_types::exact_numbers::ExactNumbers;
    let hard = [
        "-6.411434336729626e-9",
        "5e-324",
        "2.225073858507201e-308",
        "2.2250738585072014e-308",
        "1.7976931348623157e308",
        "1e308",
        "-0.0",
        "0.30000000000000004",
        "1.2345678901234567e-300",
    ];
    let text = format!(r#"{{"x": {}, "xs": [{}], "open": [{}]}}"#, hard[0], hard.join(", "), hard.join(", "));
    let value: ExactNumbers = schemac_runtime::from_str(&text).unwrap();
    let (xs, open) = (value.xs.clone().unwrap(), value.open.clone().unwrap());
    let written: serde_json::Value = serde_json::from_str(&serde_json::to_string(&value).unwrap()).unwrap();
    for (i, text) in hard.iter().enumerate() {
        let exact = text.parse::<f64>().unwrap().to_bits();
        assert_eq!(xs[i].as_f64().to_bits(), exact, "xs/{i}: {text} read as {}", xs[i]);
        assert_eq!(open[i].as_f64().map(f64::to_bits), Some(exact), "open/{i}: {text}");
        let out = written["xs"][i].to_string();
        assert_eq!(out.parse::<f64>().unwrap().to_bits(), exact, "xs/{i}: {text} written as {out}");
    }
    assert_eq!(value.x.map(|x| x.as_f64().to_bits()), Some(hard[0].parse::<f64>().unwrap().to_bits()));
    // What no f64 holds is held as written, and written back so (issue 22): a valid document
    // is neither refused nor changed.
    let beyond = ["9223372036854775807", "98249283749234923498293171823948729348710298301928331", "0.10000000000000000001", "1e400"];
    let text = format!(r#"{{"x":{},"xs":[{}]}}"#, beyond[0], beyond.join(","));
    let value: ExactNumbers = schemac_runtime::from_str(&text).unwrap();
    assert_eq!(serde_json::to_string(&value).unwrap(), text);
    assert_eq!(value.x.as_ref().and_then(schemac_runtime::Number::as_i64), Some(i64::MAX));

    let wide = r#"{"to_two_pow_64":18446744073709551616,"natural_to_two_pow_64":18446744073709551616,"from_below_i64":-10000000000000000000,"up_to_u64":18446744073709551615}"#;
    let value: ExactNumbers = schemac_runtime::from_str(wide).unwrap();
    // No minimum: an `Integer`, which holds every integer.
    assert_eq!(value.to_two_pow_64.as_ref().and_then(schemac_runtime::Integer::as_i128), Some(1 << 64));
    assert_eq!(serde_json::to_string(&value).unwrap(), wide);
    let error = schemac_runtime::from_str::<ExactNumbers>(r#"{"natural_to_two_pow_64": 18446744073709551617}"#).unwrap_err();
    assert_eq!(error.pointer(), "/natural_to_two_pow_64");
    assert_eq!(error.message(), "18446744073709551617 is greater than the maximum 18446744073709551616");
}

/// A document no branch of a buffered union takes says where each branch failed, the one that
/// got furthest (deepest pointer) first, with absolute pointers, also through a union nested in
/// a branch of another.
#[test]
fn union_errors_say_which_branch_got_furthest() {
    use fixture_types::union_errors::ViewSpec;
    let error =
        schemac_runtime::from_str::<ViewSpec>(r#"{"facet": "row", "spec": {"facet": "col", "spec": {"mark": "pie"}}}"#).unwrap_err();
    assert_eq!(error.pointer(), "");
    let inner = "matches none of the variants of ViewSpec; the furthest, UnitSpec, fails at /spec/spec/mark: \"pie\" is not one of \"bar\", \"line\"; \
                 FacetSpec, fails at /spec/spec/mark: unknown property `mark` (additionalProperties is false); expected one of: facet, spec";
    let middle = format!(
        "matches none of the variants of ViewSpec; the furthest, FacetSpec, fails at /spec/spec: [{inner}]; \
         UnitSpec, fails at /spec/facet: unknown property `facet` (additionalProperties is false); expected one of: mark"
    );
    let outer = format!(
        "matches none of the variants of ViewSpec; the furthest, FacetSpec, fails at /spec: [{middle}]; \
         UnitSpec, fails at /facet: unknown property `facet` (additionalProperties is false); expected one of: mark"
    );
    assert_eq!(error.message(), outer);
    // Under a property, the pointers inside the message are absolute too.
    let error = schemac_runtime::from_str::<Vec<ViewSpec>>(r#"[{"mark": "bar"}, {"mark": "pie"}]"#).unwrap_err();
    assert_eq!(error.pointer(), "/1");
    assert!(error.message().contains("the furthest, UnitSpec, fails at /1/mark: \"pie\" is not one of"), "{error}");
}
