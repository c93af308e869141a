//! The goal schema's history: every published version (`tests/history/goal/`, 31 of them)
//! compiles, and on every goal instance the repository has (valid and invalid for today's
//! schema, so valid or not for older ones) each version's generated type agrees with
//! `jsonschema` on that version: what it accepts round-trips losslessly, what it rejects is
//! rejected at a pointer into the instance.

mod common;

use std::path::{Path, PathBuf};

use common::{RoundTrip, round_trip};
use serde_json::Value;

/// Each version's file stem under `tests/history/goal/` and its root type.
const VERSIONS: &[(&str, RoundTrip)] = &[
    ("v01-2026-07-20-b6125db8", round_trip::<history_types::v01_2026_07_20_b6125db8::Goal>),
    ("v02-2026-07-20-8e5ff9a1", round_trip::<history_types::v02_2026_07_20_8e5ff9a1::Goal>),
    ("v03-2026-07-21-7b4193a2", round_trip::<history_types::v03_2026_07_21_7b4193a2::Goal>),
    ("v04-2026-07-21-6856c803", round_trip::<history_types::v04_2026_07_21_6856c803::Goal>),
    ("v05-2026-07-22-5ccb1f5c", round_trip::<history_types::v05_2026_07_22_5ccb1f5c::Goal>),
    ("v06-2026-07-28-af3b532c", round_trip::<history_types::v06_2026_07_28_af3b532c::Goal>),
    ("v07-2026-07-28-0b0d1859", round_trip::<history_types::v07_2026_07_28_0b0d1859::Goal>),
    ("v08-2026-07-29-8d40f8e0", round_trip::<history_types::v08_2026_07_29_8d40f8e0::Goal>),
    ("v09-2026-07-29-6b2a7e3e", round_trip::<history_types::v09_2026_07_29_6b2a7e3e::Goal>),
    ("v10-2026-07-29-d5b68ca1", round_trip::<history_types::v10_2026_07_29_d5b68ca1::Goal>),
    ("v11-2026-08-01-b5f857c9", round_trip::<history_types::v11_2026_08_01_b5f857c9::Goal>),
    ("v12-2026-08-02-c54e456c", round_trip::<history_types::v12_2026_08_02_c54e456c::Goal>),
    ("v13-2026-08-03-44a3b760", round_trip::<history_types::v13_2026_08_03_44a3b760::Goal>),
    ("v14-2026-08-10-3de941a2", round_trip::<history_types::v14_2026_08_10_3de941a2::Goal>),
    ("v15-2026-08-10-ada2e2d7", round_trip::<history_types::v15_2026_08_10_ada2e2d7::Goal>),
    ("v16-2026-08-10-fcf0c921", round_trip::<history_types::v16_2026_08_10_fcf0c921::Goal>),
    ("v17-2026-08-11-ee28961b", round_trip::<history_types::v17_2026_08_11_ee28961b::Goal>),
    ("v18-2026-08-12-541f4bf0", round_trip::<history_types::v18_2026_08_12_541f4bf0::Goal>),
    ("v19-2026-08-12-c892ff9a", round_trip::<history_types::v19_2026_08_12_c892ff9a::Goal>),
    ("v20-2026-08-12-177e909f", round_trip::<history_types::v20_2026_08_12_177e909f::Goal>),
    ("v21-2026-08-13-675a193c", round_trip::<history_types::v21_2026_08_13_675a193c::Goal>),
    ("v22-2026-08-14-5885c750", round_trip::<history_types::v22_2026_08_14_5885c750::Goal>),
    ("v23-2026-08-14-126b101f", round_trip::<history_types::v23_2026_08_14_126b101f::Goal>),
    ("v24-2026-08-15-52feed49", round_trip::<history_types::v24_2026_08_15_52feed49::Goal>),
    ("v25-2026-08-15-1c886dd7", round_trip::<history_types::v25_2026_08_15_1c886dd7::Goal>),
    ("v26-2026-08-15-b8445f41", round_trip::<history_types::v26_2026_08_15_b8445f41::Goal>),
    ("v27-2026-08-15-86e73799", round_trip::<history_types::v27_2026_08_15_86e73799::Goal>),
    ("v28-2026-08-16-87c870f0", round_trip::<history_types::v28_2026_08_16_87c870f0::Goal>),
    ("v29-2026-08-18-dda4c237", round_trip::<history_types::v29_2026_08_18_dda4c237::Goal>),
    ("v30-2026-08-22-62ecee21", round_trip::<history_types::v30_2026_08_22_62ecee21::Goal>),
    ("v31-2026-08-22-80cb40c2", round_trip::<history_types::v31_2026_08_22_80cb40c2::Goal>),
];

fn history_dir() -> PathBuf {
    common::tests_dir().join("history").join("goal")
}

/// Every goal instance: the valid ones as they are, the invalid ones' `instance`.
fn instances() -> Vec<(String, Value)> {
    let dir = common::tests_dir().join("instances").join("goal");
    let valid = common::json_files(&dir.join("valid")).into_iter().map(|path| (common::display(&path), common::read_json(&path)));
    let invalid =
        common::json_files(&dir.join("invalid")).into_iter().map(|path| (common::display(&path), common::read_invalid(&path).instance));
    valid.chain(invalid).collect()
}

/// One version against every instance; the disagreements, described.
fn disagreements(schema: &Path, parse: RoundTrip, instances: &[(String, Value)], accepted: &mut usize) -> Vec<String> {
    let validator = common::validator(schema);
    let mut found = Vec::new();
    for (name, instance) in instances {
        let text = instance.to_string();
        match (validator.is_valid(instance), parse(&text)) {
            (true, Ok((output, output_text))) => {
                *accepted += 1;
                if !schemac_runtime::json_eq(instance, &output) {
                    found.push(format!("{name}: the round trip changed the value to {output}"));
                } else if !matches!(parse(&output_text), Ok((again, _)) if again == output) {
                    found.push(format!("{name}: reading its own output back gave another value"));
                }
            }
            (false, Err(e)) if instance.pointer(e.pointer()).is_none() => {
                found.push(format!("{name}: rejected at {:?}, which names no value: {e}", e.pointer()));
            }
            (false, Err(_)) => {}
            (true, Err(e)) => found.push(format!("{name}: jsonschema accepts it, the type rejects it at {:?}: {e}", e.pointer())),
            (false, Ok(_)) => {
                found.push(format!("{name}: jsonschema rejects it ({:?}), the type accepts it", validator.validate(instance).err()))
            }
        }
    }
    found
}

#[test]
fn every_version_agrees_with_jsonschema() {
    let instances = instances();
    let mut failures = Vec::new();
    let (mut accepted, mut checked) = (0, 0);
    for (stem, parse) in VERSIONS {
        let schema = history_dir().join(format!("{stem}.json"));
        checked += instances.len();
        failures.extend(disagreements(&schema, *parse, &instances, &mut accepted).into_iter().map(|f| format!("{stem}: {f}")));
    }
    println!("{} versions × {} instances: {checked} checked, {accepted} accepted by both", VERSIONS.len(), instances.len());
    assert!(failures.is_empty(), "{} disagreements:\n{}", failures.len(), failures.join("\n"));
    // Older versions accept some of today's instances and reject others: both sides are tested.
    assert!(accepted > 0 && accepted < checked, "{accepted} of {checked} accepted");
}

#[test]
fn the_table_covers_every_version() {
    let files: Vec<String> = common::json_files(&history_dir())
        .iter()
        .map(|path| path.file_stem().expect("a file name").to_string_lossy().into_owned())
        .collect();
    let table: Vec<&str> = VERSIONS.iter().map(|(stem, _)| *stem).collect();
    assert_eq!(files, table);
}
