//! The goal schema's 31 published versions, each consecutive pair classified by `schemac diff`
//! under both policies: the table (change counts per kind, verdicts and the bump per pair) is a
//! snapshot, so a change in how any real-world change is classified shows in review. Every
//! breaking verdict has a witness `jsonschema` confirms; no compatible role has a counterexample
//! among the documents synthesized from both versions.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use schemac::diff::{Bump, Options, Policy, Role, Verdict};
use schemac::{Config, Input, SchemaSource};

fn versions() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/history/goal");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir).expect("tests/history/goal").map(|e| e.expect("an entry").path()).collect();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    files
}

fn front(path: &Path) -> schemac::Front {
    let source = SchemaSource::new(path.to_path_buf()).display("goal.json".to_owned()).module(["goal"]).root_name("Goal");
    schemac::front(&Input::new([source]), &Config::default()).unwrap_or_else(|d| panic!("{}: {d}", path.display()))
}

/// `work` on every item, on as many threads as the machine has cores (each pair is classified
/// on its own; this test is one of CI's slowest), the results in the items' order.
fn each_in_parallel<T: Sync, R: Send>(items: &[T], work: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(items.len()).max(1);
    let mut done: Vec<(usize, R)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break mine };
                        mine.push((i, work(item)));
                    }
                })
            })
            .collect();
        // A panic in a worker (a failed expectation) is this test's failure, with its message.
        workers.into_iter().flat_map(|worker| worker.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    done.sort_by_key(|(i, _)| *i);
    assert_eq!(done.len(), items.len(), "every item has its result");
    done.into_iter().map(|(_, result)| result).collect()
}

fn short(verdict: Verdict) -> &'static str {
    verdict.as_str()
}

#[test]
fn goal_history_is_classified() {
    let files = versions();
    assert_eq!(files.len(), 31, "the goal schema's published versions");
    let name = |p: &Path| p.file_stem().and_then(|s| s.to_str()).unwrap_or_default().split('-').next().unwrap_or_default().to_owned();
    let mut table = String::from(
        "| pair | changes | readers | writers | wire (both) | rust api | bump (both) | bump (readers) | lenient: readers | lenient: writers | lenient: wire (both) |\n|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let mut lenient_bumps: BTreeMap<&str, usize> = BTreeMap::new();
    let mut wire_bumps: BTreeMap<&str, usize> = BTreeMap::new();
    let mut kinds_total: BTreeMap<&str, usize> = BTreeMap::new();
    let mut bumps: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    let fronts: Vec<schemac::Front> = files.iter().map(|f| front(f)).collect();
    let (mut candidates, mut breaking, mut witnessed) = (0, 0, 0);
    let mut counterexamples = Vec::new();
    let mut unwitnessed = Vec::new();
    let pairs: Vec<&[schemac::Front]> = fronts.windows(2).collect();
    let classified = each_in_parallel(&pairs, |pair| {
        let report = schemac_synth::diff(&pair[0], &pair[1], &Options::default()).unwrap_or_else(|d| panic!("{d}"));
        let lenient = Options { policy: Policy::Lenient, ..Options::default() };
        let lenient = schemac_synth::diff(&pair[0], &pair[1], &lenient).unwrap_or_else(|d| panic!("{d}"));
        // Every compatible role is searched for a counterexample among documents synthesized
        // from both versions (jsonschema decides).
        let search = schemac_synth::witnesses(&report, &pair[0], &pair[1], &schemac_synth::SynthConfig::default(), 5_000)
            .unwrap_or_else(|d| panic!("{d}"));
        let lenient_search = schemac_synth::witnesses(&lenient, &pair[0], &pair[1], &schemac_synth::SynthConfig::default(), 0)
            .unwrap_or_else(|d| panic!("{d}"));
        (report, lenient, search, lenient_search)
    });
    for (i, (report, lenient, search, lenient_search)) in classified.into_iter().enumerate() {
        breaking += lenient_search.breaking;
        witnessed += lenient_search.witnessed;
        for change in report.changes.iter().chain(&lenient.changes) {
            for (i, (role, verdict)) in [("readers", change.readers()), ("writers", change.writers())].into_iter().enumerate() {
                if verdict == Verdict::Breaking && change.witnesses[i].is_none() {
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
        let lenient_worst = |role: Role| {
            lenient.changes.iter().map(|c| c.verdict(role)).max_by_key(|v| match v {
                Verdict::Compatible => 0,
                Verdict::Unknown(_) => 1,
                Verdict::Breaking => 2,
            })
        };
        let lenient_verdict = |role| lenient_worst(role).map_or("—", short);
        *lenient_bumps.entry(lenient.wire_bump(Role::Both).as_str()).or_default() += 1;
        *wire_bumps.entry(report.wire_bump(Role::Both).as_str()).or_default() += 1;
        let listed: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} ×{n}")).collect();
        let (both, readers) = (report.bump(Role::Both), report.bump(Role::Reader));
        for (role, bump) in [("both", both), ("readers", readers), ("writers", report.bump(Role::Writer))] {
            *bumps.entry((role, bump.as_str())).or_default() += 1;
        }
        table.push_str(&format!(
            "| {} → {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            name(&files[i]),
            name(&files[i + 1]),
            if listed.is_empty() { "none".to_owned() } else { listed.join(", ") },
            verdict(Role::Reader),
            verdict(Role::Writer),
            report.wire_bump(Role::Both).as_str(),
            report.api_bump().as_str(),
            both.as_str(),
            readers.as_str(),
            lenient_verdict(Role::Reader),
            lenient_verdict(Role::Writer),
            lenient.wire_bump(Role::Both).as_str(),
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
    for (label, counts) in [("wire only, both roles, strict", &wire_bumps), ("wire only, both roles, lenient", &lenient_bumps)] {
        let counts: Vec<String> =
            ["none", "patch", "minor", "major"].iter().map(|b| format!("{b} {}", counts.get(*b).copied().unwrap_or(0))).collect();
        table.push_str(&format!("- {label}: {}\n", counts.join(", ")));
    }
    table.push_str(&format!(
        "\nWitnesses: {witnessed} of {breaking} breaking verdicts (both policies) have a witness jsonschema confirms (a document \
         one version accepts and the other rejects); counterexample search (strict): {candidates} synthesized documents tried, \
         {} counterexamples to compatible verdicts.\n",
        counterexamples.len()
    ));
    if !unwitnessed.is_empty() {
        table.push_str(&format!("\nBreaking verdicts without a witness among those documents:\n\n{}\n", unwitnessed.join("\n")));
    }
    assert!(counterexamples.is_empty(), "the classifier called a role compatible that a document breaks:\n{}", counterexamples.join("\n"));
    assert!(unwitnessed.is_empty(), "breaking verdicts without a witness:\n{}", unwitnessed.join("\n"));
    insta::assert_snapshot!("goal_history_diff", table);
}
