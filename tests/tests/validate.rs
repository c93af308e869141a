//! `validate()` on values built or changed in Rust: every violation is reported, each with the
//! JSON pointer and keyword deserialization would name; constrained newtypes cannot hold an
//! invalid value at all.

mod common;

use schema_types::madoo::attempts_report_v1::AttemptsReport;
use schemac_runtime::{Validate, ValidationError};

fn report() -> AttemptsReport {
    let path = common::tests_dir().join("instances/attempts-report/valid/best-unaccepted-five-attempts.json");
    let text = std::fs::read_to_string(&path).expect("readable instance");
    schemac_runtime::from_str(&text).unwrap_or_else(|e| panic!("{e}"))
}

fn described(errors: &[ValidationError]) -> Vec<String> {
    errors.iter().map(|e| format!("{} [{}] {}", e.pointer(), e.keyword(), e.message())).collect()
}

#[test]
fn a_deserialized_value_is_valid() {
    assert_eq!(report().validate(), Ok(()));
}

#[test]
fn validate_reports_every_violation_with_its_pointer() {
    let mut report = report();
    report.attempts[0].score = schemac_runtime::Number::new(1.5);
    report.attempts[2].attempt = 0;
    report.policy.max_attempts = 6;
    report.body.version = 0.into();
    let extra = report.attempts[0].clone();
    report.attempts.push(extra);
    let errors: Vec<ValidationError> = report.validate().expect_err("four violations").into_iter().collect();
    assert_eq!(
        described(&errors),
        [
            "/body/version [minimum] 0 is less than the minimum 1",
            "/policy/max_attempts [maximum] 6 is greater than the maximum 5",
            "/attempts [maxItems] 6 items are more than the maxItems 5",
            "/attempts/0/score [maximum] 1.5 is greater than the maximum 1",
            "/attempts/2/attempt [minimum] 0 is less than the minimum 1",
            "/attempts/5/score [maximum] 1.5 is greater than the maximum 1",
        ]
    );
}

#[test]
fn deserialization_stops_at_the_first_violation_with_pointer_keyword_and_limit() {
    let mut value = serde_json::to_value(report()).expect("serializes");
    value["attempts"][0]["score"] = serde_json::json!(1.5);
    value["attempts"][1]["score"] = serde_json::json!(2);
    let err = schemac_runtime::from_value::<AttemptsReport>(value).expect_err("score above maximum");
    assert_eq!(err.to_string(), "/attempts/0/score: 1.5 is greater than the maximum 1");
}

#[test]
fn constrained_newtypes_check_on_construction() {
    use fixture_types::assert_strings::StringsCode;
    assert!(StringsCode::try_from("ABC").is_ok());
    assert_eq!(StringsCode::try_from("ABCD").unwrap_err().to_string(), "\"ABCD\" has 4 characters, more than the maxLength 3");
    assert!(StringsCode::try_from("abc").is_err());
}

#[test]
fn object_assertions_are_validated_on_built_structs() {
    use fixture_types::assert_objects::Objects;
    let mut objects: Objects = schemac_runtime::from_str(r#"{"card": "4111", "billing": "home"}"#).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(objects.validate(), Ok(()));
    objects.billing = None;
    objects.limits = Some([("a".to_owned(), 1.into()), ("b".to_owned(), 2.into()), ("long".to_owned(), 3.into())].into_iter().collect());
    let errors: Vec<ValidationError> = objects.validate().expect_err("violations").into_iter().collect();
    let keywords: Vec<(&str, &str)> = errors.iter().map(|e| (e.pointer(), e.keyword())).collect();
    assert_eq!(keywords, [("/limits", "maxProperties"), ("/limits", "propertyNames"), ("", "dependentRequired")]);
}
