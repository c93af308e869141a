//! String conversions of the bundled schemas' string types: string enums and pattern newtypes
//! parse from and show as their JSON strings, and a string that is no value says what was
//! expected.

use std::str::FromStr;

use schema_types::madoo::attempts_report_v1::AttemptExecution;
use schema_types::pi_glla::goal::{Goal, GoalId, GoalStatus};
use schemac_runtime::format::DateTime;

#[test]
fn string_enums_convert_from_and_to_their_json_strings() {
    for &status in GoalStatus::ALL {
        let text = status.as_str();
        assert_eq!(GoalStatus::from_str(text).unwrap(), status);
        assert_eq!(GoalStatus::try_from(text).unwrap(), status);
        assert_eq!(GoalStatus::try_from(text.to_owned()).unwrap(), status);
        assert_eq!(status.to_string(), text);
        assert_eq!(status.as_ref(), text);
        assert_eq!(serde_json::to_value(status).unwrap(), text);
    }
    let error = "Active".parse::<GoalStatus>().unwrap_err();
    assert_eq!(error.to_string(), r#""Active" is not one of "active", "auditing", "complete", "paused", "aborted""#);
}

#[test]
fn pattern_newtypes_parse_with_their_check() {
    let id: GoalId = "20260301101530-a1b2c3".parse().unwrap();
    assert_eq!(id.as_str(), "20260301101530-a1b2c3");
    assert_eq!(id.to_string(), "20260301101530-a1b2c3");
    assert_eq!(AsRef::<str>::as_ref(&id), "20260301101530-a1b2c3");
    let error = AttemptExecution::from_str("run_X").unwrap_err();
    assert_eq!(error.to_string(), r#""run_X" does not match the pattern "^run_[0-9a-f]{32}$""#);
    // A format is an annotation: any text is kept as written.
    let at: DateTime = "not a date".parse().unwrap();
    assert_eq!(at.as_str(), "not a date");
}

#[test]
fn a_setter_takes_an_enum_value_as_its_string() {
    let built = Goal::builder()
        .id("20260301101530-a1b2c3")
        .objective("o")
        .status("finished")
        .policy("goal")
        .auto_continue(false)
        .usage(schema_types::pi_glla::goal::GoalUsage::builder().tokens_used(0u8).tokens_limit(0u8).build().unwrap())
        .created_at("2026-03-01T10:15:30Z")
        .updated_at("2026-03-01T10:15:30Z")
        .build()
        .unwrap_err();
    // The string did not convert: `build()` reports it at the property.
    assert_eq!(built.to_string(), r#"/status: "finished" is not one of "active", "auditing", "complete", "paused", "aborted""#);
}
