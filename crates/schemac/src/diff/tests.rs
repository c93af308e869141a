//! Diff tests: one fixture pair per change kind (`tests/diff/cases/`), their expected
//! verdicts in `tests/diff/expected.tsv`.

use std::path::{Path, PathBuf};

use super::*;
use crate::{Input, SchemaSource};

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/diff")
}

fn front_of(path: PathBuf) -> Front {
    let source = SchemaSource {
        path,
        display: "schema.json".to_owned(),
        module: vec!["schema".to_owned()],
        root_name: Some("Root".to_owned()),
        pointer: String::new(),
    };
    crate::front(&Input { schemas: vec![source], ..Input::default() }, &Config::default()).unwrap_or_else(|d| panic!("{d}"))
}

/// The worst verdict of a role over all changes.
fn worst(report: &Report, role: Role) -> &'static str {
    if report.breaking(role) {
        "breaking"
    } else if report.unknown(role) {
        "unknown"
    } else {
        "compatible"
    }
}

#[test]
fn every_fixture_pair_gets_its_expected_verdicts() {
    let expected = std::fs::read_to_string(cases_dir().join("expected.tsv")).expect("tests/diff/expected.tsv");
    let mut failures = Vec::new();
    let mut count = 0;
    for line in expected.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let cells: Vec<&str> = line.split('\t').collect();
        let [name, kinds, readers, writers, rust] = cells[..] else { panic!("bad row: {line}") };
        let dir = cases_dir().join("cases").join(name);
        let (old, new) = (front_of(dir.join("old.json")), front_of(dir.join("new.json")));
        let report = diff(&old, &new, &Options::default()).unwrap_or_else(|d| panic!("{name}: {d}"));
        let mut found: Vec<&str> = report.changes.iter().map(|c| c.kind.name()).collect();
        found.sort_unstable();
        found.dedup();
        let got = [
            found.join(","),
            worst(&report, Role::Reader).to_owned(),
            worst(&report, Role::Writer).to_owned(),
            report.api_bump().as_str().to_owned(),
        ];
        let want = [kinds.to_owned(), readers.to_owned(), writers.to_owned(), rust.to_owned()];
        if got != want {
            failures.push(format!("{name}:\n  want {want:?}\n  got  {got:?}\n{}", report.to_text(Role::Both)));
        }
        count += 1;
    }
    assert!(count >= 30, "only {count} fixture pairs");
    assert!(failures.is_empty(), "{} of {count} pairs differ:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn identical_schemas_have_no_changes() {
    let path = cases_dir().join("cases/ref-retargeted/old.json");
    let report = diff(&front_of(path.clone()), &front_of(path), &Options::default()).expect("diffs");
    assert!(report.changes.is_empty() && report.api.is_empty(), "{}", report.to_text(Role::Both));
    assert_eq!(report.bump(Role::Both), Bump::None);
}

#[test]
fn bumps_follow_cargo_semver() {
    assert_eq!(Bump::Major.apply("1.4.2").as_deref(), Some("2.0.0"));
    assert_eq!(Bump::Minor.apply("1.4.2").as_deref(), Some("1.5.0"));
    assert_eq!(Bump::Patch.apply("1.4.2").as_deref(), Some("1.4.3"));
    // While the major is 0, breaking bumps the minor.
    assert_eq!(Bump::Major.apply("0.1.3").as_deref(), Some("0.2.0"));
    assert_eq!(Bump::Minor.apply("0.1.3").as_deref(), Some("0.1.4"));
    assert_eq!(Bump::None.apply("0.1.3").as_deref(), Some("0.1.3"));
    assert_eq!(Bump::Major.apply("1.x"), None);
}

#[test]
fn verdicts_follow_the_effect_for_each_role() {
    let change = |effect| Change { kind: ChangeKind::BoundAdded, old: None, new: None, effect, detail: String::new(), witness: None };
    let tightens = change(Effect::Tightens);
    assert_eq!((tightens.readers(), tightens.writers()), (Verdict::Breaking, Verdict::Compatible));
    let loosens = change(Effect::Loosens);
    assert_eq!((loosens.readers(), loosens.writers()), (Verdict::Compatible, Verdict::Breaking));
    assert_eq!(change(Effect::Changes).verdict(Role::Both), Verdict::Breaking);
    assert_eq!(change(Effect::Neutral).verdict(Role::Both), Verdict::Compatible);
    let report = Report { changes: vec![loosens], api: Vec::new(), roots: Vec::new() };
    assert_eq!((report.wire_bump(Role::Reader), report.wire_bump(Role::Writer)), (Bump::Minor, Bump::Major));
}

/// With `Config::non_exhaustive` the generated struct and enum are `#[non_exhaustive]`, so a
/// property or enum value added is a minor change of the Rust API; without it, major.
#[test]
fn additions_behind_non_exhaustive_are_minor() {
    for (case, member) in [("enum-values-added", "RootA::z"), ("property-added-open", "Root::")] {
        let dir = cases_dir().join("cases").join(case);
        let (old, new) = (front_of(dir.join("old.json")), front_of(dir.join("new.json")));
        let exhaustive = diff(&old, &new, &Options::default()).unwrap();
        assert_eq!(exhaustive.api_bump(), Bump::Major, "{case}: {}", exhaustive.to_text(Role::Both));
        let options = Options { config: Config { non_exhaustive: true, ..Config::default() } };
        let report = diff(&old, &new, &options).unwrap();
        assert_eq!(report.api_bump(), Bump::Minor, "{case}: {}", report.to_text(Role::Both));
        assert!(
            report.api.iter().any(|c| c.detail.contains("added to non-exhaustive") && c.path.contains(member)),
            "{case}: {:?}",
            report.api
        );
    }
}
