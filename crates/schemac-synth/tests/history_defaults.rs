//! The goal schema's 31 published versions under the defaults a project generates its crate
//! with (`schemas.non-exhaustive = true`: structs, string enums and unions are
//! `#[non_exhaustive]` and built with builders), each consecutive pair's required bump per role
//! under both policies, and for each pair that stays major, the change that makes it one (the
//! wire's and the Rust API's). An added
//! optional property or enum value is a minor change of the Rust API here; a snapshot holds the
//! table, so a change in any pair's class shows in review.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use schemac::diff::{Bump, Effect, Options, Policy, Report, Role, Verdict};
use schemac::{Config, Input, SchemaSource};

fn versions() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/history/goal");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).expect("tests/history/goal").map(|e| e.expect("an entry").path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    files
}

fn front(path: &Path, config: &Config) -> schemac::Front {
    let source = SchemaSource::new(path.to_path_buf()).display("goal.json".to_owned()).module(["goal"]).root_name("Goal");
    schemac::front(&Input::new([source]), config).unwrap_or_else(|d| panic!("{}: {d}", path.display()))
}

/// Why a pair is major for both roles: its first breaking or undecided wire change (one whose
/// own effect breaks the role it breaks first: the diff gives every change at a place the
/// verdict of the place), else its first major Rust API change.
fn why_major(report: &Report) -> String {
    let explains = |c: &&schemac::diff::Change| match (c.readers(), c.writers(), &c.effect) {
        (Verdict::Breaking, Verdict::Compatible, Effect::Tightens) | (Verdict::Compatible, Verdict::Breaking, Effect::Loosens) => 0,
        _ => 1,
    };
    let mut wire: Vec<&schemac::diff::Change> =
        report.changes.iter().filter(|c| matches!(c.verdict(Role::Both), Verdict::Breaking | Verdict::Unknown(_))).collect();
    wire.sort_by_key(explains);
    let wire = wire.first();
    if let Some(change) = wire {
        let at = change.new.as_ref().or(change.old.as_ref()).map(|p| p.pointer.clone()).unwrap_or_default();
        let roles = match (change.readers(), change.writers()) {
            (Verdict::Compatible, _) => "writers",
            (_, Verdict::Compatible) => "readers",
            _ => "readers and writers",
        };
        return format!("{} at `{at}`, {} for {roles}: {}", change.kind.name(), change.verdict(Role::Both).as_str(), change.detail);
    }
    report.api.iter().find(|c| c.class == Bump::Major).map_or_else(String::new, |c| format!("Rust API: {}", c.detail))
}

/// Why a pair's Rust API is major under non-exhaustive types: every major API change of the
/// pair, first the first in the report's order, then how many more.
fn why_api_major(report: &Report) -> String {
    let majors: Vec<&str> = report.api.iter().filter(|c| c.class == Bump::Major).map(|c| c.detail.as_str()).collect();
    match majors.as_slice() {
        [] => String::new(),
        [only] => (*only).to_owned(),
        [first, rest @ ..] => format!("{first} (and {} more)", rest.len()),
    }
}

#[test]
fn goal_history_under_the_project_defaults() {
    let files = versions();
    assert_eq!(files.len(), 31, "the goal schema's published versions");
    let config = Config::default().non_exhaustive(true);
    let fronts: Vec<schemac::Front> = files.iter().map(|f| front(f, &config)).collect();
    let name = |p: &Path| p.file_stem().and_then(|s| s.to_str()).unwrap_or_default().split('-').next().unwrap_or_default().to_owned();
    let mut table = String::from(
        "| pair | rust api (exhaustive) | rust api (non-exhaustive) | bump (both, strict) | bump (both, lenient) | bump (readers, lenient) | bump (writers, lenient) | why major (both, lenient) | why the rust api is major (non-exhaustive) |\n\
         |---|---|---|---|---|---|---|---|---|\n",
    );
    let mut counts: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    let mut additive_minor = 0;
    for (i, pair) in fronts.windows(2).enumerate() {
        let exhaustive = Options { config: Config::default(), policy: Policy::Strict };
        let exhaustive = schemac::diff::diff(&pair[0], &pair[1], &exhaustive).unwrap_or_else(|d| panic!("{d}"));
        let strict = Options { config: config.clone(), policy: Policy::Strict };
        let strict = schemac_synth::diff(&pair[0], &pair[1], &strict).unwrap_or_else(|d| panic!("{d}"));
        let lenient = Options { config: config.clone(), policy: Policy::Lenient };
        let lenient = schemac_synth::diff(&pair[0], &pair[1], &lenient).unwrap_or_else(|d| panic!("{d}"));
        for (column, report) in [("exhaustive api", &exhaustive), ("api", &strict)] {
            *counts.entry((column, report.api_bump().as_str())).or_default() += 1;
        }
        for (column, report) in [("strict", &strict), ("lenient", &lenient)] {
            *counts.entry((column, report.bump(Role::Both).as_str())).or_default() += 1;
        }
        for (column, report, role) in [
            ("strict readers", &strict, Role::Reader),
            ("strict writers", &strict, Role::Writer),
            ("lenient readers", &lenient, Role::Reader),
            ("lenient writers", &lenient, Role::Writer),
        ] {
            *counts.entry((column, report.bump(role).as_str())).or_default() += 1;
        }
        // What must hold: an added optional property or enum value is no major Rust API change.
        for change in &strict.api {
            let added = change.detail.contains(" added to non-exhaustive ");
            assert!(!added || change.class == Bump::Minor, "{} → {}: {change:?}", name(&files[i]), name(&files[i + 1]));
            additive_minor += usize::from(added);
        }
        for change in lenient.changes.iter().filter(|c| c.kind.name().starts_with("property-added") || c.kind.name() == "enum-values-added")
        {
            // Their Rust class is minor: a major pair is major for its wire verdict only.
            if lenient.api_bump() == Bump::Major {
                let majors: Vec<&str> = lenient.api.iter().filter(|c| c.class == Bump::Major).map(|c| c.detail.as_str()).collect();
                assert!(
                    majors.iter().all(|d| !d.contains(" added to ")),
                    "{} → {}: {} made the API major: {majors:?}",
                    name(&files[i]),
                    name(&files[i + 1]),
                    change.kind.name()
                );
            }
        }
        let lenient_bump = lenient.bump(Role::Both);
        table.push_str(&format!(
            "| {} → {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            name(&files[i]),
            name(&files[i + 1]),
            exhaustive.api_bump().as_str(),
            strict.api_bump().as_str(),
            strict.bump(Role::Both).as_str(),
            lenient_bump.as_str(),
            lenient.bump(Role::Reader).as_str(),
            lenient.bump(Role::Writer).as_str(),
            if lenient_bump == Bump::Major { why_major(&lenient).replace('|', "\\|") } else { String::new() },
            why_api_major(&strict).replace('|', "\\|"),
        ));
        // A neutral-only pair is a patch, whatever the policy.
        if lenient.changes.iter().all(|c| c.effect == Effect::Neutral) && lenient.api_bump() <= Bump::Patch {
            assert!(lenient_bump <= Bump::Patch);
        }
    }
    table.push_str("\nPairs by class (of 30):\n\n");
    for (column, label) in [
        ("exhaustive api", "Rust API, exhaustive types (schemas.non-exhaustive = false)"),
        ("api", "Rust API, non-exhaustive types (the default)"),
        ("strict", "required bump for both roles, strict policy"),
        ("lenient", "required bump for both roles, lenient policy"),
        ("strict readers", "required bump for readers (`role = \"reader\"`), strict policy"),
        ("strict writers", "required bump for writers (`role = \"writer\"`), strict policy"),
        ("lenient readers", "required bump for readers (`role = \"reader\"`), lenient policy"),
        ("lenient writers", "required bump for writers (`role = \"writer\"`), lenient policy"),
    ] {
        let row: Vec<String> = ["none", "patch", "minor", "major"]
            .iter()
            .map(|b| format!("{b} {}", counts.get(&(column, *b)).copied().unwrap_or(0)))
            .collect();
        table.push_str(&format!("- {label}: {}\n", row.join(", ")));
    }
    table.push_str(&format!("\nFields and variants added to non-exhaustive types, each a minor Rust API change: {additive_minor}\n"));
    insta::assert_snapshot!("goal_history_defaults", table);
}
