//! The `proptest` feature of a generated crate: `src/arbitrary.rs` implements
//! `proptest::arbitrary::Arbitrary` for every generated type from a plan the synthesizer makes
//! (see the runtime's `arbitrary` module), and `tests/proptest.rs` checks, for every root type,
//! value → JSON → accepted by `jsonschema` → read back → the same value.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use schemac_synth::{ModuleSynthesis, SynthConfig};

use super::{draft_name, header};

/// Cases per property test: enough to mix the plans' choices, few enough for CI.
const CASES: u32 = 64;

/// The feature's dependency and its `[features]` entry.
pub fn manifest(manifest: &mut toml_edit::DocumentMut) {
    use toml_edit::{Array, InlineTable, Item, Table, value};
    let mut proptest = InlineTable::new();
    proptest.insert("version", "1".into());
    proptest.insert("optional", true.into());
    proptest.insert("default-features", false.into());
    proptest.insert("features", Array::from_iter(["std"]).into());
    manifest["dependencies"]["proptest"] = value(proptest);
    let mut features = Table::new();
    features["proptest"] = value(Array::from_iter(["dep:proptest", "schemac-runtime/proptest"]));
    if let Some(mut key) = features.key_mut("proptest") {
        key.leaf_decor_mut().set_prefix("# `Arbitrary` for every type, producing only schema-valid values, and the property tests.\n");
    }
    manifest["features"] = Item::Table(features);
}

pub fn add(
    front: &schemac_synth::Front,
    command: &str,
    dir: &str,
    krate: &str,
    modules: &[ModuleSynthesis],
    files: &mut BTreeMap<String, String>,
) {
    let synth = SynthConfig::default();
    let mut impls = header(command, "the schemas of this crate");
    impls.push_str("//! `proptest::arbitrary::Arbitrary` for every generated type: values made from a plan that\n");
    impls.push_str("//! composes what the schema leaves free and draws the rest from refereed instances.\n\n");
    for module in modules {
        // A `type` alias (`pub type T = Vec<U>;`) is no type of its own and gets no impl; an
        // alias written as a newtype (`pub struct T(pub BTreeMap<String, U>)`, where serde's
        // own impls would not check what the schema says) is one. A shape merged into another
        // type (`pub type TaskAgentRole = GoalAgentRole;`, `schemas.dedup`) is that type's.
        let source = files.get(&format!("{dir}/src/{}.rs", module.path.join("/"))).cloned().unwrap_or_default();
        let merged = |name: &str| source.contains(&format!("\npub type {name} = "));
        for ty in module.types.iter().filter(|t| (!t.alias || source.contains(&format!("pub struct {}(", t.name))) && !merged(&t.name)) {
            let plan = front.plan(&module.source, &ty.pointer, &synth).to_string();
            let path = format!("crate::{}::{}", module.path.join("::"), ty.name);
            let _ = writeln!(
                impls,
                "impl proptest::arbitrary::Arbitrary for {path} {{\n    type Parameters = ();\n    type Strategy = proptest::strategy::BoxedStrategy<Self>;\n    fn arbitrary_with((): ()) -> Self::Strategy {{\n        schemac_runtime::__private::arbitrary::strategy({})\n    }}\n}}\n",
                raw_string(&plan)
            );
        }
    }
    files.insert(format!("{dir}/src/arbitrary.rs"), impls);
    if let Some(lib) = files.get_mut(&format!("{dir}/src/lib.rs")) {
        lib.push_str("\n#[cfg(feature = \"proptest\")]\n#[rustfmt::skip]\nmod arbitrary;\n");
    }
    let krate = krate.replace('-', "_");
    let mut test = header(command, "the schemas of this crate");
    test.push_str("//! Property tests: every root type's values serialize to JSON the schema accepts and read\n");
    test.push_str("//! back as the same value. Run with `--features proptest`.\n\n");
    test.push_str("#![cfg(feature = \"proptest\")]\n\nuse proptest::prelude::*;\n\n");
    test.push_str("fn validator(schema: &str, draft: &str) -> jsonschema::Validator {\n");
    test.push_str("    let schema: serde_json::Value = serde_json::from_str(schema).expect(\"the schema copy is JSON\");\n");
    test.push_str("    let draft = match draft {\n        \"4\" => jsonschema::Draft::Draft4,\n        \"6\" => jsonschema::Draft::Draft6,\n        \"7\" => jsonschema::Draft::Draft7,\n        \"2019-09\" => jsonschema::Draft::Draft201909,\n        _ => jsonschema::Draft::Draft202012,\n    };\n");
    test.push_str("    jsonschema::options().with_draft(draft).should_validate_formats(false).build(&schema).expect(\"jsonschema compiles the schema\")\n}\n\n");
    test.push_str("/// Value → JSON → accepted by the schema → read back → equal.\n");
    test.push_str("fn check<T>(validator: &jsonschema::Validator, value: &T) -> Result<(), TestCaseError>\nwhere\n    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,\n{\n");
    test.push_str("    let json = serde_json::to_value(value).expect(\"a generated type serializes\");\n");
    test.push_str("    if let Err(error) = validator.validate(&json) {\n        return Err(TestCaseError::fail(format!(\"the schema rejects {json}: {error}\")));\n    }\n");
    test.push_str("    let back: T = schemac_runtime::from_str(&json.to_string()).map_err(|e| TestCaseError::fail(e.to_string()))?;\n");
    test.push_str("    prop_assert_eq!(&back, value);\n    Ok(())\n}\n\n");
    let _ = writeln!(
        test,
        "proptest! {{\n    #![proptest_config(ProptestConfig {{ cases: {CASES}, failure_persistence: None, ..ProptestConfig::default() }})]"
    );
    for module in modules {
        let data = format!("data/{}", module.path.join("/"));
        let name = module.path.join("_");
        let _ = writeln!(
            test,
            "\n    #[test]\n    fn {name}(value in any::<{krate}::{}::{}>()) {{\n        let validator = validator(include_str!(\"{data}/schema.json\"), \"{}\");\n        check(&validator, &value)?;\n    }}",
            module.path.join("::"),
            module.root,
            draft_name(module.draft)
        );
    }
    test.push_str("}\n");
    files.insert(format!("{dir}/tests/proptest.rs"), test);
}

/// `text` as a Rust raw string literal.
fn raw_string(text: &str) -> String {
    let mut hashes = "#".to_owned();
    while text.contains(&format!("\"{hashes}")) {
        hashes.push('#');
    }
    format!("r{hashes}\"{text}\"{hashes}")
}
