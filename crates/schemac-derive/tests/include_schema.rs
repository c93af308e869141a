//! `include_schema!` expands to the types `schemac compile` writes: they read a valid
//! document and round-trip it, and reject an invalid one at its pointer.

mod report {
    schemac_runtime::include_schema!("../../schemas/madoo/attempts-report.v1.json", root = "AttemptsReport");
}

const VALID: &str = include_str!("../../../schemas/madoo/attempts-report.v1.examples/valid/boundary-lower.json");

#[test]
fn the_included_types_read_and_reject() {
    let report: report::AttemptsReport = schemac_runtime::from_str(VALID).unwrap();
    let back = serde_json::to_value(&report).unwrap();
    assert!(schemac_runtime::json_eq(&back, &serde_json::from_str(VALID).unwrap()), "{back}");
    let mut bad: serde_json::Value = serde_json::from_str(VALID).unwrap();
    bad["attempts"][0]["execution"] = "run_X".into();
    let err = schemac_runtime::from_str::<report::AttemptsReport>(&bad.to_string()).unwrap_err();
    assert_eq!(err.pointer(), "/attempts/0/execution");
}
