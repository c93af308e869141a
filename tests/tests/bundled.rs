//! The bundled schemas: every instance under `tests/instances/<schema>/valid` round-trips
//! losslessly through the generated type, and every one under `invalid` is rejected at the JSON
//! pointer its file names. See `common/mod.rs` for exactly what is checked.

mod common;

use std::path::PathBuf;

use common::{RoundTrip, round_trip};
use schema_types::madoo::attempts_report_v1::AttemptsReport;
use schema_types::pi_glla::goal::Goal;

/// A bundled schema, its instance directory and its generated root type.
struct Bundled {
    name: &'static str,
    schema: &'static str,
    parse: RoundTrip,
}

const ATTEMPTS_REPORT: Bundled =
    Bundled { name: "attempts-report", schema: "schemas/madoo/attempts-report.v1.json", parse: round_trip::<AttemptsReport> };

const GOAL: Bundled = Bundled { name: "goal", schema: "schemas/pi-glla/goal.json", parse: round_trip::<Goal> };

impl Bundled {
    fn schema_path(&self) -> PathBuf {
        common::repo_root().join(self.schema)
    }

    fn instances(&self) -> PathBuf {
        common::tests_dir().join("instances").join(self.name)
    }
}

fn check(bundled: &Bundled) {
    common::check_instances(&bundled.schema_path(), &bundled.instances(), bundled.parse).finish(bundled.name);
}

#[test]
fn attempts_report_instances() {
    check(&ATTEMPTS_REPORT);
}

#[test]
fn goal_instances() {
    check(&GOAL);
}

/// The generic check compares numbers by value and finds every string somewhere in the output;
/// this pins the two cases the promise names: a date-time with an offset and fractional seconds
/// keeps its exact text in its own field, and `"revision": 3.0` reads as the integer 3.
#[test]
fn goal_keeps_date_time_text_and_reads_integral_floats() {
    let path = GOAL.instances().join("valid/full-auditing.json");
    let text = std::fs::read_to_string(&path).expect("readable instance");
    assert!(text.contains("\"revision\": 3.0"), "the fixture must keep its 1.0-style integer");
    let goal: Goal = schemac_runtime::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    let output = serde_json::to_string(&goal).expect("serializes");
    for field in [
        r#""updatedAt":"2026-03-01T13:45:10.123456+02:00""#,
        r#""createdAt":"2026-03-01T10:15:30.123+02:00""#,
        r#""at":"2026-03-01T12:00:00.5+02:00""#,
        r#""resetAt":"2026-03-01T14:00:00-05:00""#,
    ] {
        assert!(output.contains(field), "{field} is not in the output:\n{output}");
    }
    // An integer, held as written (`3.0`), so written back as it was.
    assert_eq!(goal.revision, Some(schemac_runtime::Integer::from(3_u8)));
    assert!(output.contains(r#""revision":3.0"#), "{output}");
}

/// Undeclared properties come back as the text they were read from, are readable as values,
/// and a name given twice is rejected (at the object) as among the declared ones.
#[test]
fn goal_keeps_undeclared_properties_as_read() {
    let path = GOAL.instances().join("valid/full-auditing.json");
    let text = std::fs::read_to_string(&path).expect("readable instance");
    let goal: Goal = schemac_runtime::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    let audit = &goal.audit_history.as_ref().expect("audits")[0];
    assert_eq!(audit.extra.get_raw("x-trace"), Some(r#"{ "spans": [1, 2.5, "three", null, true, {"deep": []}] }"#));
    assert_eq!(audit.extra.get("tokenCount"), Some(serde_json::json!(18234)));
    assert_eq!(audit.extra.keys().collect::<Vec<_>>(), ["tokenCount", "x-trace"]);
    let output = serde_json::to_string(audit).expect("serializes");
    assert!(output.ends_with(r#""tokenCount":18234,"x-trace":{ "spans": [1, 2.5, "three", null, true, {"deep": []}] }}"#), "{output}");

    let twice = text.replacen(r#""x-trace": {"#, r#""x-trace": 1, "x-trace": {"#, 1);
    let err = schemac_runtime::from_str::<Goal>(&twice).unwrap_err();
    assert_eq!((err.pointer(), err.message()), ("/auditHistory/0", "duplicate property `x-trace`"));
}

/// Absent and `null` are different JSON: `item` is left out in one report and `null` in another.
#[test]
fn attempts_report_keeps_absent_apart_from_null() {
    let dir = ATTEMPTS_REPORT.instances().join("valid");
    let read = |file: &str| -> serde_json::Value {
        let text = std::fs::read_to_string(dir.join(file)).expect("readable instance");
        let report: AttemptsReport = schemac_runtime::from_str(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        serde_json::to_value(&report).expect("serializes")
    };
    let absent = read("accepted-first-attempt.json");
    assert!(absent.get("item").is_none(), "item was absent: {absent}");
    let null = read("discarded-deleted-body.json");
    assert_eq!(null.get("item"), Some(&serde_json::Value::Null), "item was null: {null}");
    assert_eq!(null["selected_attempt"], serde_json::Value::Null);
    assert_eq!(null["body"]["workflow"], serde_json::Value::Null);
}
