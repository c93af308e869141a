//! The diff's rules table: every old/new pair of `tests/diff/cases/` with its expected verdict
//! for readers and for writers (`tests/diff/expected.tsv`), checked in both directions (the
//! pair reversed swaps the roles); every breaking verdict has a witness the `jsonschema` crate
//! confirms; and every inclusion rule proves some pair for readers and some for writers.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use schemac::diff::{Options, Policy, Report, Role, Rule, Verdict};
use schemac::{Config, Front, Input, SchemaSource};
use serde_json::Value;

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/diff")
}

fn front_of(path: PathBuf) -> Front {
    let source = SchemaSource::new(path).display("schema.json".to_owned()).module(["schema"]).root_name("Root");
    schemac::front(&Input::new([source]), &Config::default()).unwrap_or_else(|d| panic!("{d}"))
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

struct Row {
    name: String,
    kinds: String,
    readers: String,
    writers: String,
    rust: String,
    policy: Policy,
}

fn rows() -> Vec<Row> {
    let expected = std::fs::read_to_string(cases_dir().join("expected.tsv")).expect("tests/diff/expected.tsv");
    expected
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let cells: Vec<&str> = line.split('\t').collect();
            let [name, kinds, readers, writers, rust, ref rest @ ..] = cells[..] else { panic!("bad row: {line}") };
            let policy = match rest.first().copied() {
                None | Some("strict") => Policy::Strict,
                Some("lenient") => Policy::Lenient,
                Some(other) => panic!("bad policy {other:?} in row {line}"),
            };
            Row {
                name: name.to_owned(),
                kinds: kinds.to_owned(),
                readers: readers.to_owned(),
                writers: writers.to_owned(),
                rust: rust.to_owned(),
                policy,
            }
        })
        .collect()
}

/// Every witness of `report` is valid under the version it says and invalid under the other,
/// by `jsonschema` directly (not through the diff).
fn witnesses_hold(report: &Report, old: &Value, new: &Value) -> Result<usize, String> {
    let (old_v, new_v) =
        (jsonschema::validator_for(old).map_err(|e| e.to_string())?, jsonschema::validator_for(new).map_err(|e| e.to_string())?);
    let mut count = 0;
    for change in &report.changes {
        for (i, verdict) in [change.readers(), change.writers()].into_iter().enumerate() {
            if verdict != Verdict::Breaking {
                continue;
            }
            let Some(witness) = &change.witnesses[i] else { return Err(format!("{}: breaking without a witness", change.kind.name())) };
            let (valid, invalid) = if i == 0 { (&old_v, &new_v) } else { (&new_v, &old_v) };
            if !valid.is_valid(witness) || invalid.is_valid(witness) {
                return Err(format!("{}: the witness {witness} does not separate the versions", change.kind.name()));
            }
            count += 1;
        }
    }
    Ok(count)
}

#[test]
fn every_fixture_pair_gets_its_expected_verdicts_both_ways() {
    let mut failures = Vec::new();
    let mut count = 0;
    let mut witnessed = 0;
    let mut unknown = 0;
    let mut used: BTreeMap<(Rule, &'static str), usize> = BTreeMap::new();
    for row in rows() {
        let dir = cases_dir().join("cases").join(&row.name);
        let read = |f: &str| -> Value { serde_json::from_str(&std::fs::read_to_string(dir.join(f)).expect("a case file")).expect("JSON") };
        let (old_json, new_json) = (read("old.json"), read("new.json"));
        let (old, new) = (front_of(dir.join("old.json")), front_of(dir.join("new.json")));
        let options = Options { config: Config::default(), policy: row.policy };
        for reversed in [false, true] {
            let (a, b) = if reversed { (&new, &old) } else { (&old, &new) };
            let (aj, bj) = if reversed { (&new_json, &old_json) } else { (&old_json, &new_json) };
            let report = schemac_synth::diff(a, b, &options).unwrap_or_else(|d| panic!("{}: {d}", row.name));
            let (readers, writers) = (worst(&report, Role::Reader), worst(&report, Role::Writer));
            let (want_readers, want_writers) = if reversed { (&row.writers, &row.readers) } else { (&row.readers, &row.writers) };
            let mut got = vec![readers.to_owned(), writers.to_owned()];
            let mut want = vec![want_readers.clone(), want_writers.clone()];
            if !reversed {
                if row.kinds != "-" {
                    let mut found: Vec<&str> = report.changes.iter().map(|c| c.kind.name()).collect();
                    found.sort_unstable();
                    found.dedup();
                    got.push(found.join(","));
                    want.push(row.kinds.clone());
                }
                if row.rust != "-" {
                    got.push(report.api_bump().as_str().to_owned());
                    want.push(row.rust.clone());
                }
            }
            let label = if reversed { format!("{} (reversed)", row.name) } else { row.name.clone() };
            if got != want {
                failures.push(format!("{label}:\n  want {want:?}\n  got  {got:?}\n{}", report.to_text(Role::Both)));
            }
            match witnesses_hold(&report, aj, bj) {
                Ok(n) => witnessed += n,
                Err(e) => failures.push(format!("{label}: {e}")),
            }
            unknown += usize::from(readers == "unknown") + usize::from(writers == "unknown");
            for proof in &report.proofs {
                if proof.holds {
                    for rule in &proof.rules {
                        *used.entry((*rule, if proof.role == Role::Reader { "readers" } else { "writers" })).or_default() += 1;
                    }
                }
            }
            count += 1;
        }
    }
    for rule in Rule::ALL {
        for role in ["readers", "writers"] {
            if !used.contains_key(&(rule, role)) {
                failures.push(format!("no pair is proved by rule {} for {role}", rule.name()));
            }
        }
    }
    eprintln!("{count} directed pairs, {witnessed} breaking verdicts with a confirmed witness, {unknown} unknown verdicts");
    assert!(count >= 400, "only {count} directed pairs");
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
}
