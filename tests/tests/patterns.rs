//! Patterns the linear-time engine cannot run, in generated code: they run on `fancy-regex`
//! with a step limit, and a value that spends it is rejected with the pattern and the JSON
//! pointer named, never accepted (`tests/fixtures/pattern-backtracking.json`).

use fixture_types::pattern_backtracking::{Backtracking, BacktrackingDoubled};

/// 49 characters on which the backreference pattern must backtrack past the limit.
fn hostile() -> String {
    format!("x{}!", "a".repeat(48))
}

#[test]
fn bounded_patterns_match_like_ecma() {
    let read = |json: &str| schemac_runtime::from_str::<Backtracking>(json).map_err(|e| e.to_string());
    assert!(read(r#"{"ahead": "aac", "doubled": "xaaax"}"#).is_ok());
    assert!(read(r#"{"ahead": "ab"}"#).unwrap_err().starts_with("/ahead: "));
    assert!(read(r#"{"doubled": "xaay"}"#).unwrap_err().starts_with("/doubled: "));
    // The lookahead is decided at once on the issue's 49 characters.
    let ahead = format!(r#"{{"ahead": "{}"}}"#, "a".repeat(49));
    assert!(read(&ahead).unwrap_err().starts_with("/ahead: "), "{:?}", read(&ahead));
}

#[test]
fn a_value_that_spends_the_step_limit_is_rejected_with_its_pointer() {
    let err = schemac_runtime::from_str::<Backtracking>(&format!(r#"{{"doubled": "{}"}}"#, hostile())).unwrap_err();
    assert_eq!(err.pointer(), "/doubled");
    assert_eq!(
        err.message(),
        format!(
            "pattern `^(x)(?:a|aa)+\\1$` gave up on this value after {} backtracking steps, so the value is rejected \
             (the limit keeps a pattern that backtracks from taking exponential time)",
            schemac_runtime::__private::pattern::BACKTRACK_LIMIT
        )
    );
    // Building the value in Rust checks the same way.
    assert!(BacktrackingDoubled::try_from(hostile()).unwrap_err().to_string().contains("gave up on this value"));
}
