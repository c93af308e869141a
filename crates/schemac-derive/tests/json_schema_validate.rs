//! What `#[derive(Conforms)]` implements besides the check: `schemars::JsonSchema` (the
//! node's source, its references bundled as generated types bundle theirs) and `Validate`
//! (the assertions the Rust types cannot express, each violation with its pointer).
//!
//! An ordinary integration test, not a trybuild case: these types compile by design, and
//! the assertions are about what their impls return.

use schemac_runtime::schemars::{JsonSchema, SchemaGenerator, schema_for};
use schemac_runtime::{Conforms, SchemaBound, Tristate, Validate};
use serde::Serialize;
use serde_json::json;

#[derive(Debug, Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json")]
#[serde(deny_unknown_fields)]
pub struct AttemptsReport {
    pub schema: String,
    pub body: Body,
    pub policy: Policy,
    #[serde(skip_serializing_if = "Tristate::is_absent")]
    pub item: Tristate<u64>,
    pub attempts: Vec<Attempt>,
    pub selected_attempt: Option<u64>,
    pub disposition: Disposition,
    pub reason: String,
}

#[derive(Debug, Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json", pointer = "/properties/body")]
#[serde(deny_unknown_fields)]
pub struct Body {
    pub workflow: Option<String>,
    pub version: u64,
}

#[derive(Debug, Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json", pointer = "/properties/policy")]
#[serde(deny_unknown_fields)]
pub struct Policy {
    pub max_attempts: u8,
    pub on_exhausted: OnExhausted,
    pub minimum_score_to_deliver: Option<f64>,
}

#[derive(Debug, Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json", pointer = "/properties/policy/properties/on_exhausted")]
#[serde(rename_all = "lowercase")]
pub enum OnExhausted {
    Best,
    Discard,
    Fail,
}

#[derive(Debug, Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json", pointer = "/properties/disposition")]
#[serde(rename_all = "snake_case")]
pub enum Disposition {
    Accepted,
    BestUnaccepted,
    Discarded,
}

#[derive(Clone, Debug, Serialize, Conforms)]
#[schemac(schema = "schemas/madoo/attempts-report.v1.json", pointer = "/$defs/attempt")]
#[serde(deny_unknown_fields)]
pub struct Attempt {
    pub attempt: u8,
    pub execution: String,
    pub accepted: bool,
    pub score: f64,
    pub feedback: Option<String>,
}

const RUN: &str = "run_0123456789abcdef0123456789abcdef";

fn attempt(n: u8) -> Attempt {
    Attempt { attempt: n, execution: RUN.to_owned(), accepted: n == 1, score: 0.5, feedback: None }
}

fn report(attempts: Vec<Attempt>) -> AttemptsReport {
    AttemptsReport {
        schema: "madoo.attempts-report/v1".to_owned(),
        body: Body { workflow: Some("wf_0123456789abcdef0123456789abcdef".to_owned()), version: 1 },
        policy: Policy { max_attempts: 3, on_exhausted: OnExhausted::Best, minimum_score_to_deliver: Some(0.5) },
        item: Tristate::Absent,
        attempts,
        selected_attempt: Some(1),
        disposition: Disposition::Accepted,
        reason: "accepted".to_owned(),
    }
}

/// `(pointer, keyword)` of every violation.
fn violations(value: &impl Validate) -> Vec<(String, String)> {
    match value.validate() {
        Ok(()) => Vec::new(),
        Err(errors) => errors.iter().map(|e| (e.pointer().to_owned(), e.keyword().to_owned())).collect(),
    }
}

fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
    expected.iter().map(|(p, k)| ((*p).to_owned(), (*k).to_owned())).collect()
}

#[test]
fn json_schema_is_the_source_node() {
    let mut expected = Attempt::schema().clone();
    // What `schema_for!` adds to any root: the meta-schema, and the name as the title.
    expected["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    expected["title"] = json!("attempt");
    assert_eq!(schema_for!(Attempt).to_value(), expected);
    assert_eq!(Attempt::schema_name(), "attempt");
}

#[test]
fn references_are_bundled_through_the_field_types() {
    let schema = schema_for!(AttemptsReport).to_value();
    assert_eq!(schema["$id"], "urn:madoo:schema:attempts-report:v1");
    assert_eq!(schema["properties"]["attempts"]["items"], json!({"$ref": "#/$defs/attempt"}));
    assert_eq!(schema["properties"]["attempts"]["maxItems"], 5);
    // The definition is `Attempt`'s own schema, registered by `subschema_for::<Attempt>()`.
    let mut generator = SchemaGenerator::default();
    let nested = generator.subschema_for::<Attempt>().to_value();
    assert_eq!(nested, json!({"$ref": "#/$defs/attempt"}));
    assert_eq!(schema["$defs"]["attempt"], generator.definitions()["attempt"]);
    assert_eq!(schema["$defs"]["attempt"]["properties"]["score"], json!({"type": "number", "minimum": 0, "maximum": 1}));
}

#[test]
fn valid_values_validate() {
    assert_eq!(violations(&attempt(1)), []);
    assert_eq!(violations(&report(vec![attempt(1), attempt(2)])), []);
}

#[test]
fn validate_reports_each_violation_with_its_pointer() {
    let bad = Attempt { attempt: 6, execution: "run_XYZ".to_owned(), accepted: false, score: 1.5, feedback: None };
    assert_eq!(violations(&bad), pairs(&[("/attempt", "maximum"), ("/execution", "pattern"), ("/score", "maximum")]));
    let errors = bad.validate().err().map(|e| e.to_string()).unwrap_or_default();
    assert!(errors.contains("/score: 1.5 is greater than the maximum 1"), "{errors}");

    // The guide's example (docs/conforms.md), which the docs test also runs.
    let readme = Attempt { attempt: 1, execution: "run_X".into(), accepted: false, score: 1.5, feedback: None };
    assert_eq!(
        readme.validate().err().map(|e| e.to_string()).unwrap_or_default(),
        "/execution: \"run_X\" does not match the pattern \"^run_[0-9a-f]{32}$\"\n/score: 1.5 is greater than the maximum 1"
    );

    let mut report = report(vec![attempt(1); 6]);
    report.schema = "madoo.attempts-report/v2".to_owned();
    report.body.version = 0;
    report.body.workflow = Some("wf_nope".to_owned());
    report.policy.max_attempts = 9;
    report.policy.minimum_score_to_deliver = Some(-0.1);
    report.attempts[4].score = 1.5;
    report.item = Tristate::Value(3);
    report.selected_attempt = Some(0);
    assert_eq!(
        violations(&report),
        pairs(&[
            ("/schema", "const"),
            ("/body/workflow", "pattern"),
            ("/body/version", "minimum"),
            ("/policy/max_attempts", "maximum"),
            ("/policy/minimum_score_to_deliver", "minimum"),
            ("/attempts", "maxItems"),
            ("/attempts/4/score", "maximum"),
            ("/selected_attempt", "minimum"),
        ])
    );
    assert_eq!(<AttemptsReport as SchemaBound>::POINTER, "");
}

/// An open object with assertions of its own, over its fields and its flattened map.
#[derive(Debug, Serialize, Conforms)]
#[schemac(schema = "tests/ui/schemas/object-limits.json")]
pub struct Limited {
    pub a: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b: Option<i64>,
    #[serde(skip_serializing_if = "Tristate::is_absent")]
    pub c: Tristate<String>,
    #[serde(flatten)]
    pub extra: std::collections::BTreeMap<String, serde_json::Value>,
}

/// `minProperties`, `maxProperties` and `dependentRequired` count the properties the value
/// writes: present fields (`None` and absent ones are not written) and the map's keys.
#[test]
fn object_assertions_count_the_written_properties() {
    let limited = |b: Option<i64>, c: Tristate<String>, extra: &[&str]| Limited {
        a: "x".to_owned(),
        b,
        c,
        extra: extra.iter().map(|name| (name.to_string(), json!(1))).collect(),
    };
    let cases = [
        (limited(None, Tristate::Absent, &[]), pairs(&[("", "minProperties")])),
        (limited(Some(1), Tristate::Absent, &[]), pairs(&[("", "dependentRequired")])),
        (limited(Some(1), Tristate::Null, &[]), pairs(&[])),
        (limited(None, Tristate::Value("y".to_owned()), &["x-1"]), pairs(&[])),
        (limited(None, Tristate::Value("y".to_owned()), &["x-1", "x-2"]), pairs(&[("", "maxProperties")])),
    ];
    let schema: serde_json::Value = serde_json::from_str(include_str!("ui/schemas/object-limits.json")).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    for (value, expected) in cases {
        assert_eq!(violations(&value), expected, "{value:?}");
        // The reference validator's verdict on the JSON the value writes is the same.
        let json = serde_json::to_value(&value).unwrap();
        assert_eq!(validator.is_valid(&json), expected.is_empty(), "{json}");
    }
}

/// A hand-written open enum against the goal's closed `status` enum: the catch-all is
/// accepted only as `#[schemac(open)]`, keeps an unknown value, and `validate()` reports it.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, schemac_runtime::Conforms)]
#[schemac(schema = "schemas/pi-glla/goal.json", pointer = "/definitions/task/properties/status")]
#[serde(rename_all = "snake_case")]
pub enum OpenTaskStatus {
    Pending,
    InProgress,
    Complete,
    #[schemac(open)]
    #[serde(untagged)]
    Other(String),
}

#[test]
fn an_open_hand_written_enum_keeps_and_reports_unknown_values() {
    let known: OpenTaskStatus = serde_json::from_str(r#""in_progress""#).unwrap();
    assert_eq!(known, OpenTaskStatus::InProgress);
    assert!(known.validate().is_ok());
    let unknown: OpenTaskStatus = serde_json::from_str(r#""blocked""#).unwrap();
    assert_eq!(unknown, OpenTaskStatus::Other("blocked".to_owned()));
    assert_eq!(serde_json::to_string(&unknown).unwrap(), r#""blocked""#);
    let errors = unknown.validate().unwrap_err();
    assert_eq!(errors.to_string(), r#"(root): "blocked" is not one of "pending", "in_progress", "complete""#);
}
