//! Diff tests that need no validator; the rules table (`tests/diff/`, every pair with its
//! verdicts, witnesses confirmed by `jsonschema`) is `schemac-synth`'s `tests/diff_table.rs`.

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
fn bumps_follow_the_verdicts_for_each_role() {
    let change = |effect, readers, writers| Change {
        verdicts: [readers, writers],
        ..Change::new(ChangeKind::BoundAdded, None, None, effect, String::new())
    };
    let loosens = change(Effect::Loosens, Verdict::Compatible, Verdict::Breaking);
    assert_eq!(loosens.verdict(Role::Both), Verdict::Breaking);
    let unknown = change(Effect::Changes, Verdict::Compatible, Verdict::Unknown("why".into()));
    assert_eq!(unknown.verdict(Role::Both), Verdict::Unknown("why".into()));
    let proof = |role, holds| Proof { role, holds, rules: Vec::new(), witnessed: 0, undecided: 0 };
    let report =
        Report { changes: vec![loosens], proofs: vec![proof(Role::Reader, true), proof(Role::Writer, false)], ..Report::default() };
    assert_eq!((report.wire_bump(Role::Reader), report.wire_bump(Role::Writer)), (Bump::Minor, Bump::Major));
    // Both inclusions hold: the sets are the same, and a compatible change is a patch.
    let same = Report {
        changes: vec![change(Effect::Tightens, Verdict::Compatible, Verdict::Compatible)],
        proofs: vec![proof(Role::Reader, true), proof(Role::Writer, true)],
        ..Report::default()
    };
    assert_eq!(same.wire_bump(Role::Both), Bump::Patch);
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
        let options = Options { config: Config { non_exhaustive: true, ..Config::default() }, ..Options::default() };
        let report = diff(&old, &new, &options).unwrap();
        assert_eq!(report.api_bump(), Bump::Minor, "{case}: {}", report.to_text(Role::Both));
        assert!(
            report.api.iter().any(|c| c.detail.contains("added to non-exhaustive") && c.path.contains(member)),
            "{case}: {:?}",
            report.api
        );
    }
}
