//! The benchmark's payloads, built from the bundled schemas' own valid instances so that they
//! are realistic and valid: one document each (small), and a JSON array of 1,000 documents
//! grown to the schemas' limits (large). `benches/deserialize.rs` times them; `BENCHMARKS.md`
//! at the repository root has the numbers and how to reproduce them.

use serde_json::{Value, json};

/// The goal schema, for the `jsonschema` baseline.
pub const GOAL_SCHEMA: &str = include_str!("../../schemas/pi-glla/goal.json");
/// The attempts-report schema, for the `jsonschema` baseline.
pub const ATTEMPTS_SCHEMA: &str = include_str!("../../schemas/madoo/attempts-report.v1.json");

/// A goal with every kind of property, extension (`x-`) properties included.
const GOAL_INSTANCE: &str = include_str!("../../tests/instances/goal/valid/full-auditing.json");
/// An attempts report with five attempts.
const ATTEMPTS_INSTANCE: &str = include_str!("../../tests/instances/attempts-report/valid/best-unaccepted-five-attempts.json");

/// One goal (the instance `full-auditing.json`), as compact JSON text.
pub fn goal_small() -> String {
    normalized(GOAL_INSTANCE).to_string()
}

/// One attempts report (the instance `best-unaccepted-five-attempts.json`), as compact JSON text.
pub fn attempts_small() -> String {
    normalized(ATTEMPTS_INSTANCE).to_string()
}

/// The instance with integral floats written as integers: JSON Schema's `integer` accepts
/// `3.0`, but serde's derived `u64` fields do not, and the plain baseline must read the same
/// text as everything else.
fn normalized(text: &str) -> Value {
    fn walk(value: &mut Value) {
        match value {
            Value::Number(n) if !n.is_i64() && !n.is_u64() => {
                if let Some(f) = n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15) {
                    *value = json!(f as i64);
                }
            }
            Value::Array(items) => items.iter_mut().for_each(walk),
            Value::Object(map) => map.values_mut().for_each(walk),
            _ => {}
        }
    }
    let mut value: Value = serde_json::from_str(text).unwrap_or_default();
    walk(&mut value);
    value
}

/// How many documents the large payloads hold.
pub const LARGE_COUNT: usize = 1_000;

/// 1,000 goals, each with 20 tasks and 20 audit entries (the schema's `maxItems`), as a JSON
/// array. The tasks and entries are the small goal's, repeated with distinct ids and texts.
pub fn goal_large() -> String {
    large(GOAL_INSTANCE, |i, goal| {
        let tasks = grow(goal.pointer("/taskList/tasks"), 20, |n, task| {
            task["id"] = json!(format!("task-{i}-{n}"));
            task["title"] = json!(format!("Task {n} of goal {i}"));
        });
        let audits = grow(goal.get("auditHistory"), 20, |n, audit| {
            audit["revision"] = json!(n + 1);
        });
        goal["taskList"]["tasks"] = tasks;
        goal["auditHistory"] = audits;
        goal["id"] = json!(format!("20260101{:06}-abc123", i % 1_000_000));
    })
}

/// [`goal_large`] without the extension (`x-`) properties, which schemac keeps (as their JSON
/// text in `schemac_runtime::Extra`, for a lossless round trip) and plain serde skips: the
/// difference between the two payloads is the price of keeping them.
pub fn goal_large_without_extensions() -> String {
    fn strip(value: &mut Value) {
        match value {
            Value::Array(items) => items.iter_mut().for_each(strip),
            Value::Object(map) => {
                map.retain(|name, _| !name.starts_with("x-"));
                map.values_mut().for_each(strip);
            }
            _ => {}
        }
    }
    let mut goals: Value = serde_json::from_str(&goal_large()).unwrap_or_default();
    strip(&mut goals);
    goals.to_string()
}

/// 1,000 attempts reports of five attempts each, as a JSON array.
pub fn attempts_large() -> String {
    large(ATTEMPTS_INSTANCE, |i, report| {
        report["item"] = json!(i);
        report["reason"] = json!(format!("Report {i}: no attempt reached the acceptance bar."));
    })
}

/// `LARGE_COUNT` copies of `document`, each changed by `vary(index, copy)`, as JSON text.
fn large(document: &str, vary: impl Fn(usize, &mut Value)) -> String {
    let parsed = normalized(document);
    let items: Vec<Value> = (0..LARGE_COUNT)
        .map(|i| {
            let mut copy = parsed.clone();
            vary(i, &mut copy);
            copy
        })
        .collect();
    Value::Array(items).to_string()
}

/// An array of `len` items taken round-robin from `items`, each changed by `vary`.
fn grow(items: Option<&Value>, len: usize, vary: impl Fn(usize, &mut Value)) -> Value {
    let items = items.and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    if items.is_empty() {
        return json!([]);
    }
    let grown = (0..len)
        .map(|n| {
            let mut item = items[n % items.len()].clone();
            vary(n, &mut item);
            item
        })
        .collect();
    Value::Array(grown)
}

#[cfg(test)]
mod tests {
    use super::*;
    use schema_types::madoo::attempts_report_v1::AttemptsReport;
    use schema_types::pi_glla::goal::Goal;

    /// Every variant of the benchmark must accept the payloads, or it would time an error. The
    /// large payloads' documents differ only in ids and texts: the first and last stand for all
    /// (reading all of them takes long in a debug build).
    #[test]
    fn payloads_are_valid() {
        let goals = goal_large();
        let stripped = goal_large_without_extensions();
        assert!(!stripped.contains("\"x-") && stripped.len() < goals.len(), "extension properties are left");
        for (schema, documents) in [(GOAL_SCHEMA, &goals), (GOAL_SCHEMA, &stripped), (ATTEMPTS_SCHEMA, &attempts_large())] {
            let schema: Value = serde_json::from_str(schema).unwrap();
            let validator = jsonschema::validator_for(&schema).unwrap();
            let documents: Vec<Value> = serde_json::from_str(documents).unwrap();
            assert_eq!(documents.len(), LARGE_COUNT);
            for document in [&documents[0], &documents[LARGE_COUNT - 1]] {
                assert!(validator.is_valid(document), "{:?}", validator.validate(document).err());
                let text = document.to_string();
                if document.get("attempts").is_some() {
                    schemac_runtime::from_str::<AttemptsReport>(&text).unwrap();
                    serde_json::from_str::<plain_types::madoo::attempts_report_v1::AttemptsReport>(&text).unwrap();
                } else {
                    let goal = schemac_runtime::from_str::<Goal>(&text).unwrap();
                    assert_eq!(goal.task_list.map(|t| t.tasks.len()), Some(20));
                    serde_json::from_str::<plain_types::pi_glla::goal::Goal>(&text).unwrap();
                }
            }
        }
        schemac_runtime::from_str::<Goal>(&goal_small()).unwrap();
        serde_json::from_str::<plain_types::pi_glla::goal::Goal>(&goal_small()).unwrap();
        schemac_runtime::from_str::<AttemptsReport>(&attempts_small()).unwrap();
        serde_json::from_str::<plain_types::madoo::attempts_report_v1::AttemptsReport>(&attempts_small()).unwrap();
    }
}
