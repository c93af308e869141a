//! Builders of the bundled schemas' types: a value built with `Type::builder()` equals the one
//! deserialized from the same JSON, and `build()` of an invalid value returns every violation
//! with its pointer. The user guide's builder examples (`docs/builders.md`) are built and run by
//! `crates/schemac-cli/tests/docs.rs`.

use schema_types::madoo::attempts_report_v1::{
    Attempt, AttemptsReport, AttemptsReportBody, AttemptsReportDisposition, AttemptsReportPolicy, AttemptsReportPolicyOnExhausted,
    AttemptsReportSchema,
};
use schema_types::pi_glla::goal::{Goal, GoalPolicy, GoalStatus, GoalTaskList, GoalTaskListVersion, GoalUsage, Task, TaskStatus};
use schemac_runtime::{Integer, Number, ValidationErrors};

fn goal() -> Result<Goal, ValidationErrors> {
    let usage = GoalUsage::builder().tokens_used(1200u32).tokens_limit(0u32).build()?;
    let tasks = vec![
        Task::builder().id("t1").title("Write the exporter").status(TaskStatus::Complete).build()?,
        Task::builder().id("t2").title("Round-trip test").status(TaskStatus::Pending).extra("x-estimate", 1.5).build()?,
    ];
    let goal = Goal::builder()
        .id("20260301101530-a1b2c3") // a `pattern` newtype, checked by `build()`
        .objective("Make the nightly export job idempotent.")
        .status(GoalStatus::Active)
        .policy(GoalPolicy::Goal)
        .auto_continue(true)
        .usage(usage)
        .created_at("2026-03-01T10:15:30Z")
        .updated_at("2026-03-01T10:15:30Z")
        .task_list(GoalTaskList::builder().version(GoalTaskListVersion).tasks(tasks).build()?) // optional
        .extra("x-owner", "ops") // a property the schema does not declare
        .build()?;
    Ok(goal)
}

const GOAL_JSON: &str = r#"{
  "id": "20260301101530-a1b2c3",
  "objective": "Make the nightly export job idempotent.",
  "status": "active",
  "policy": "goal",
  "autoContinue": true,
  "taskList": {
    "version": 1,
    "tasks": [
      {"id": "t1", "title": "Write the exporter", "status": "complete"},
      {"id": "t2", "title": "Round-trip test", "status": "pending", "x-estimate": 1.5}
    ]
  },
  "usage": {"tokensUsed": 1200, "tokensLimit": 0},
  "createdAt": "2026-03-01T10:15:30Z",
  "updatedAt": "2026-03-01T10:15:30Z",
  "x-owner": "ops"
}"#;

fn attempts_report() -> Result<AttemptsReport, ValidationErrors> {
    let report = AttemptsReport::builder()
        .schema(AttemptsReportSchema)
        .body(AttemptsReportBody::builder().workflow(None).version(3u8).build()?) // `workflow` is required and nullable
        .policy(
            AttemptsReportPolicy::builder()
                .max_attempts(3)
                .on_exhausted(AttemptsReportPolicyOnExhausted::Best)
                .minimum_score_to_deliver(Number::new(0.0))
                .build()?,
        )
        .item(Integer::from(17)) // optional and nullable: not calling it leaves it absent, `None` writes `null`
        .attempts(vec![
            Attempt::builder()
                .attempt(1)
                .execution("run_5d41402abc4b2a76b9719d911017c592")
                .accepted(true)
                .score(1.0)
                .feedback(None)
                .build()?,
        ])
        .selected_attempt(Integer::from(1))
        .disposition(AttemptsReportDisposition::Accepted)
        .reason("Attempt 1 was accepted.")
        .build()?;
    Ok(report)
}

const ATTEMPTS_REPORT_JSON: &str = r#"{
  "schema": "madoo.attempts-report/v1",
  "body": {"workflow": null, "version": 3},
  "policy": {"max_attempts": 3, "on_exhausted": "best", "minimum_score_to_deliver": 0.0},
  "item": 17,
  "attempts": [
    {"attempt": 1, "execution": "run_5d41402abc4b2a76b9719d911017c592", "accepted": true, "score": 1.0, "feedback": null}
  ],
  "selected_attempt": 1,
  "disposition": "accepted",
  "reason": "Attempt 1 was accepted."
}"#;

#[test]
fn a_built_goal_equals_the_deserialized_one() {
    let built = goal().unwrap();
    let read: Goal = schemac_runtime::from_str(GOAL_JSON).unwrap();
    assert_eq!(built, read);
    assert_eq!(serde_json::to_value(&built).unwrap(), serde_json::from_str::<serde_json::Value>(GOAL_JSON).unwrap());
    // Optional properties not set stay absent.
    assert_eq!(built.agent_role, None);
}

#[test]
fn a_built_attempts_report_equals_the_deserialized_one() {
    let built = attempts_report().unwrap();
    let read: AttemptsReport = schemac_runtime::from_str(ATTEMPTS_REPORT_JSON).unwrap();
    assert_eq!(built, read);
    let written = serde_json::to_value(&built).unwrap();
    assert_eq!(written, serde_json::from_str::<serde_json::Value>(ATTEMPTS_REPORT_JSON).unwrap());
}

#[test]
fn unset_optional_nullable_properties_stay_absent() {
    let report = AttemptsReport::builder()
        .schema(AttemptsReportSchema)
        .body(AttemptsReportBody::builder().workflow(None).version(1u8).build().unwrap())
        .policy(
            AttemptsReportPolicy::builder()
                .max_attempts(1)
                .on_exhausted(AttemptsReportPolicyOnExhausted::Fail)
                .minimum_score_to_deliver(None)
                .build()
                .unwrap(),
        )
        .attempts(vec![
            Attempt::builder()
                .attempt(1)
                .execution("run_5d41402abc4b2a76b9719d911017c592")
                .accepted(false)
                .score(0.0)
                .feedback("no".to_owned())
                .build()
                .unwrap(),
        ])
        .selected_attempt(None)
        .disposition(AttemptsReportDisposition::Discarded)
        .reason("none")
        .build()
        .unwrap();
    let written = serde_json::to_value(&report).unwrap();
    assert!(written.get("item").is_none(), "{written}");
    assert_eq!(written["selected_attempt"], serde_json::Value::Null);
    assert_eq!(written["policy"]["minimum_score_to_deliver"], serde_json::Value::Null);
}

fn violations(errors: &ValidationErrors) -> Vec<(&str, &str)> {
    errors.iter().map(|e| (e.pointer(), e.keyword())).collect()
}

#[test]
fn an_invalid_attempt_reports_every_violation_with_its_pointer() {
    let errors = Attempt::builder().attempt(7).execution("run_X").accepted(false).score(1.5).feedback(None).build().unwrap_err();
    // A raw value its setter could not convert first, then what `validate()` finds; all of them.
    assert_eq!(violations(&errors), [("/execution", "schema")]);
    assert_eq!(errors.to_string(), r#"/execution: "run_X" does not match the pattern "^run_[0-9a-f]{32}$""#);
    let errors = Attempt::builder()
        .attempt(7)
        .execution("run_5d41402abc4b2a76b9719d911017c592")
        .accepted(false)
        .score(1.5)
        .feedback(None)
        .build()
        .unwrap_err();
    assert_eq!(violations(&errors), [("/attempt", "maximum"), ("/score", "maximum")]);
    let errors = AttemptsReportPolicy::builder()
        .max_attempts(0)
        .on_exhausted(AttemptsReportPolicyOnExhausted::Best)
        .minimum_score_to_deliver(Number::new(2.0))
        .build();
    assert_eq!(violations(&errors.unwrap_err()), [("/max_attempts", "minimum"), ("/minimum_score_to_deliver", "maximum")]);
}

#[test]
fn an_invalid_attempts_report_reports_nested_violations_with_their_pointers() {
    let good = attempts_report().unwrap();
    // A nested value made without its builder (its fields are public) is checked by the outer
    // `build()`, at its pointer.
    let mut bad = good.attempts[0].clone();
    bad.score = Number::new(-1.0);
    let errors = AttemptsReport::builder()
        .schema(AttemptsReportSchema)
        .body(good.body.clone())
        .policy(good.policy.clone())
        .item(Integer::from(17))
        .attempts(vec![good.attempts[0].clone(), bad.clone(), bad.clone(), bad.clone(), bad.clone(), bad])
        .selected_attempt(Integer::from(0))
        .disposition(AttemptsReportDisposition::Accepted)
        .reason("")
        .build()
        .unwrap_err();
    let found = violations(&errors);
    assert_eq!(found[0], ("/attempts", "maxItems"), "{errors}");
    assert_eq!(
        found[1..6].iter().map(|(p, _)| *p).collect::<Vec<_>>(),
        ["/attempts/1/score", "/attempts/2/score", "/attempts/3/score", "/attempts/4/score", "/attempts/5/score"],
        "{errors}"
    );
    assert_eq!(found[6..], [("/selected_attempt", "minimum")], "{errors}");
}

#[test]
fn an_invalid_goal_reports_every_setter_value_that_did_not_convert() {
    let errors = Goal::builder()
        .id("not-a-goal-id")
        .objective("o")
        .status(GoalStatus::Active)
        .policy(GoalPolicy::Goal)
        .auto_continue(true)
        .usage(GoalUsage::builder().tokens_used(0u8).tokens_limit(0u8).build().unwrap())
        .created_at("2026-03-01T10:15:30Z")
        .updated_at("2026-03-01T10:15:30Z")
        .extra("objective", "declared")
        .build()
        .unwrap_err();
    assert_eq!(violations(&errors), [("/id", "schema"), ("/objective", "properties")], "{errors}");
}

/// The schema's `default`s are typed functions; reading a document leaves the property absent.
#[test]
fn schema_defaults_are_typed_functions_and_reading_keeps_absent_absent() {
    let limit: Integer = GoalUsage::tokens_limit_default();
    assert_eq!(limit, 0);
    assert_eq!(Goal::revision_default(), 0);
    let read: Goal = schemac_runtime::from_str(GOAL_JSON).unwrap();
    assert_eq!(read.revision, None);
}

/// Builders past the 12 elements std implements tuples' traits for (issue 22): 13, 24 and 40
/// required properties, each builder `Debug` and `Clone` at every state.
#[test]
fn builders_of_structs_with_many_required_properties() {
    use fixture_types::wide_required::{Forty, Thirteen, TwentyFour};
    let thirteen =
        Thirteen::builder().p0("s0").p1(1).p2("s2").p3(3).p4("s4").p5(5).p6("s6").p7(7).p8("s8").p9(9).p10("s10").p11(11).p12("s12");
    assert!(format!("{:?}", thirteen.clone()).starts_with("ThirteenBuilder(Builder { parts: ThirteenBuilderParts {"));
    let built = thirteen.build().unwrap();
    let read: Thirteen = schemac_runtime::from_str(&serde_json::to_string(&built).unwrap()).unwrap();
    assert_eq!(read, built);
    assert!(format!("{:?}", TwentyFour::builder().clone()).starts_with("TwentyFourBuilder("));
    assert!(format!("{:?}", Forty::builder().p39(39).clone()).contains("p39: Some(Integer(39))"));
}

/// Past 64 required properties a builder checks them when `build()` runs (a typestate builder's
/// code would grow with the square of their number): each one not set is a `required`
/// violation at its pointer, with the others `build()` finds; set, the value equals the one
/// read from the same JSON. Downstream code has no other way to make a `#[non_exhaustive]`
/// struct.
#[test]
fn a_struct_with_more_than_64_required_properties_has_a_builder_checked_at_run_time() {
    use fixture_types::many_required::Seventy;
    // Every property but `p69`; `p67` a value its `minimum` (0) rejects.
    let builder = Seventy::builder()
        .p0("s0")
        .p1(1)
        .p2("s2")
        .p3(3)
        .p4("s4")
        .p5(5)
        .p6("s6")
        .p7(7)
        .p8("s8")
        .p9(9)
        .p10("s10")
        .p11(11)
        .p12("s12")
        .p13(13)
        .p14("s14")
        .p15(15)
        .p16("s16")
        .p17(17)
        .p18("s18")
        .p19(19)
        .p20("s20")
        .p21(21)
        .p22("s22")
        .p23(23)
        .p24("s24")
        .p25(25)
        .p26("s26")
        .p27(27)
        .p28("s28")
        .p29(29)
        .p30("s30")
        .p31(31)
        .p32("s32")
        .p33(33)
        .p34("s34")
        .p35(35)
        .p36("s36")
        .p37(37)
        .p38("s38")
        .p39(39)
        .p40("s40")
        .p41(41)
        .p42("s42")
        .p43(43)
        .p44("s44")
        .p45(45)
        .p46("s46")
        .p47(47)
        .p48("s48")
        .p49(49)
        .p50("s50")
        .p51(51)
        .p52("s52")
        .p53(53)
        .p54("s54")
        .p55(55)
        .p56("s56")
        .p57(57)
        .p58("s58")
        .p59(59)
        .p60("s60")
        .p61(61)
        .p62("s62")
        .p63(63)
        .p64("s64")
        .p65(65)
        .p66("s66")
        .p67(-1)
        .p68("s68");
    let errors = builder.clone().build().unwrap_err();
    assert_eq!(errors.to_string(), "/p69: the required property `p69` is not set");
    let errors = builder.clone().p69(69).build().unwrap_err();
    assert_eq!(errors.iter().map(|e| (e.pointer(), e.keyword())).collect::<Vec<_>>(), [("/p67", "minimum")], "{errors}");
    let built = builder.p67(67).p69(69).build().unwrap();
    let json: serde_json::Map<String, serde_json::Value> =
        (0..70).map(|i| (format!("p{i}"), if i % 2 == 0 { format!("s{i}").into() } else { i.into() })).collect();
    let read: Seventy = schemac_runtime::from_str(&serde_json::Value::Object(json).to_string()).unwrap();
    assert_eq!(built, read);
}

/// A property named like a builder's own method (`build`) is set with a setter of its own
/// name (`build_2`); one named like a field the struct has already (`extra`) is a field of its
/// own name; every other property named like a method or helper of the generated API or the
/// runtime keeps its name (issue 22).
#[test]
fn properties_named_like_methods_are_set_and_read() {
    use fixture_types::method_names::{Closed, MethodNames};
    let value = MethodNames::builder()
        .build_2("b")
        .builder("x")
        .validate("v")
        .new("n")
        .default("d")
        .get("g")
        .plain("p")
        .nullable("nl")
        .check_0("c")
        .all_of("a")
        // The struct keeps undeclared properties in `extra`, so the property is `extra_2`.
        .extra_2("e")
        .closed(Closed::builder().build_2(1).extra(2).finish(3).build().unwrap())
        .build()
        .unwrap();
    assert_eq!((value.build.as_str(), value.extra_2.as_str(), value.plain.as_str()), ("b", "e", "p"));
    let text = serde_json::to_string(&value).unwrap();
    assert!(text.starts_with(r#"{"build":"b","builder":"x","extra":"e","#), "{text}");
    assert!(text.contains(r#""closed":{"build":1,"extra":2,"finish":3}"#), "{text}");
    let back: MethodNames = schemac_runtime::from_str(&text).unwrap();
    assert_eq!(back, value);
}
