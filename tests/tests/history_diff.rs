//! The goal schema's 31 published versions, each consecutive pair classified by `schemac diff`:
//! the table (change counts per kind, verdicts and the bump per pair) is a snapshot, so a
//! change in how any real-world change is classified shows in review.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use schemac::diff::{Bump, Options, Role, Verdict, diff};
use schemac::{Config, Input, SchemaSource};

fn versions() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("history/goal");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).expect("tests/history/goal").map(|e| e.expect("an entry").path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    files
}

fn front(path: &Path) -> schemac::Front {
    let source = SchemaSource {
        path: path.to_path_buf(),
        display: "goal.json".to_owned(),
        module: vec!["goal".to_owned()],
        root_name: Some("Goal".to_owned()),
        pointer: String::new(),
    };
    schemac::front(&Input { schemas: vec![source], ..Input::default() }, &Config::default())
        .unwrap_or_else(|d| panic!("{}: {d}", path.display()))
}

fn short(verdict: Verdict) -> &'static str {
    verdict.as_str()
}

#[test]
fn goal_history_is_classified() {
    let files = versions();
    assert_eq!(files.len(), 31, "the goal schema's published versions");
    let name = |p: &Path| p.file_stem().and_then(|s| s.to_str()).unwrap_or_default().split('-').next().unwrap_or_default().to_owned();
    let mut table =
        String::from("| pair | changes | readers | writers | rust api | bump (both) | bump (readers) |\n|---|---|---|---|---|---|---|\n");
    let mut kinds_total: BTreeMap<&str, usize> = BTreeMap::new();
    let mut bumps: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    let fronts: Vec<schemac::Front> = files.iter().map(|f| front(f)).collect();
    let (mut candidates, mut breaking, mut witnessed) = (0, 0, 0);
    let mut counterexamples = Vec::new();
    let mut unwitnessed = Vec::new();
    for (i, pair) in fronts.windows(2).enumerate() {
        let mut report = diff(&pair[0], &pair[1], &Options::default()).unwrap_or_else(|d| panic!("{d}"));
        // Every breaking verdict is searched for a witness, every compatible role for a
        // counterexample, among documents synthesized from both versions (jsonschema decides).
        let search = schemac_synth::witnesses(&mut report, &pair[0], &pair[1], &schemac_synth::SynthConfig::default())
            .unwrap_or_else(|d| panic!("{d}"));
        for change in report.changes.iter().filter(|c| c.witness.is_none()) {
            for (role, verdict) in [("readers", change.readers()), ("writers", change.writers())] {
                if verdict == Verdict::Breaking {
                    let at = change.new.as_ref().or(change.old.as_ref()).map(ToString::to_string).unwrap_or_default();
                    unwitnessed.push(format!(
                        "- {} → {}: {} for {role} at {at} ({})",
                        name(&files[i]),
                        name(&files[i + 1]),
                        change.kind.name(),
                        change.detail
                    ));
                }
            }
        }
        candidates += search.candidates;
        breaking += search.breaking;
        witnessed += search.witnessed;
        counterexamples.extend(search.counterexamples.iter().map(|c| format!("{} → {}: {c:?}", name(&files[i]), name(&files[i + 1]))));
        let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
        for change in &report.changes {
            *kinds.entry(change.kind.name()).or_default() += 1;
            *kinds_total.entry(change.kind.name()).or_default() += 1;
        }
        let worst = |role: Role| {
            report.changes.iter().map(|c| c.verdict(role)).max_by_key(|v| match v {
                Verdict::Compatible => 0,
                Verdict::Unknown(_) => 1,
                Verdict::Breaking => 2,
            })
        };
        let verdict = |role| worst(role).map_or("—", short);
        let listed: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} ×{n}")).collect();
        let (both, readers) = (report.bump(Role::Both), report.bump(Role::Reader));
        for (role, bump) in [("both", both), ("readers", readers), ("writers", report.bump(Role::Writer))] {
            *bumps.entry((role, bump.as_str())).or_default() += 1;
        }
        table.push_str(&format!(
            "| {} → {} | {} | {} | {} | {} | {} | {} |\n",
            name(&files[i]),
            name(&files[i + 1]),
            if listed.is_empty() { "none".to_owned() } else { listed.join(", ") },
            verdict(Role::Reader),
            verdict(Role::Writer),
            report.api_bump().as_str(),
            both.as_str(),
            readers.as_str(),
        ));
        assert!(report.bump(Role::Both) >= report.api_bump().max(Bump::None));
    }
    table.push_str("\nChanges by kind over the 30 pairs:\n\n");
    for (kind, n) in &kinds_total {
        table.push_str(&format!("- {kind}: {n}\n"));
    }
    table.push_str("\nPairs by required bump:\n\n");
    for role in ["both", "readers", "writers"] {
        let counts: Vec<String> =
            ["none", "patch", "minor", "major"].iter().map(|b| format!("{b} {}", bumps.get(&(role, *b)).copied().unwrap_or(0))).collect();
        table.push_str(&format!("- {role}: {}\n", counts.join(", ")));
    }
    table.push_str(&format!(
        "\nWitness search: {candidates} synthesized documents tried; {witnessed} of {breaking} breaking verdicts have a witness \
         (a document one version accepts and the other rejects at the change); {} counterexamples to compatible verdicts.\n",
        counterexamples.len()
    ));
    if !unwitnessed.is_empty() {
        table.push_str(&format!("\nBreaking verdicts without a witness among those documents:\n\n{}\n", unwitnessed.join("\n")));
    }
    assert!(counterexamples.is_empty(), "the classifier called a role compatible that a document breaks:\n{}", counterexamples.join("\n"));
    insta::assert_snapshot!("goal_history_diff", table);
}
