//! `cargo xtask bench diff`: `schemac diff` (release build, whole process per pair) over real
//! schema histories: the goal schema's consecutive versions (`tests/history/goal/`, under both
//! policies) and the catalog families of `../shared/corpus/schemastore/schemas/json/` that have
//! several versions (`NAME-1.0.json`, `NAME-1.1.json`, …, consecutive versions in version
//! order, refs to the catalog mapped to its directory). Reports the time of each pair (median
//! and max), the pairs per verdict for each role, the breaking verdicts and how many have a
//! witness, and the unknown verdicts; writes the table to `target/bench-diff/REPORT.md`. A pair
//! that runs longer than [`TIMEOUT`] is stopped and counted as such. Not part of `ci`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::Value;

/// A pair still running after this is stopped (the bound for any catalog pair is 5 s).
const TIMEOUT: Duration = Duration::from_secs(120);
const CATALOG_URL: &str = "https://json.schemastore.org/";

/// One measured pair.
struct Run {
    family: String,
    pair: String,
    policy: &'static str,
    bytes: u64,
    time: Duration,
    /// `None`: stopped at the timeout or failed (with why).
    outcome: Result<Outcome, String>,
}

struct Outcome {
    readers: &'static str,
    writers: &'static str,
    breaking: usize,
    witnessed: usize,
    unknown: usize,
}

pub fn run(root: &Path) -> Result<()> {
    let schemac = crate::bench_codegen::build_schemac(root)?;
    let work = root.join("target/bench-diff");
    fs::create_dir_all(&work)?;
    let mut pairs: Vec<(String, PathBuf, PathBuf, &'static str)> = Vec::new();
    let goal = root.join("tests/history/goal");
    let mut versions: Vec<PathBuf> = fs::read_dir(&goal)
        .with_context(|| format!("cannot list {}", goal.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    versions.sort();
    for policy in ["strict", "lenient"] {
        for w in versions.windows(2) {
            pairs.push(("goal".to_owned(), w[0].clone(), w[1].clone(), policy));
        }
    }
    let catalog = root.join("../shared/corpus/schemastore/schemas/json");
    if !catalog.is_dir() {
        bail!("{} is missing: the catalog families are measured there", catalog.display());
    }
    for (family, files) in families(&catalog)? {
        for w in files.windows(2) {
            pairs.push((family.clone(), w[0].clone(), w[1].clone(), "strict"));
        }
    }
    eprintln!("{} pairs", pairs.len());
    let mut runs = Vec::new();
    for (family, old, new, policy) in &pairs {
        let name = |p: &Path| p.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_owned();
        let mut command = Command::new(&schemac);
        command.arg("diff").arg(old).arg(new).args(["--format", "json", "--policy", policy]);
        if family != "goal" {
            command.arg("--map").arg(format!("{CATALOG_URL}={}", catalog.display()));
        }
        let bytes = fs::metadata(old)?.len().max(fs::metadata(new)?.len());
        let (time, result) = timed(&mut command)?;
        let outcome = result.and_then(|out| outcome(&out));
        let run = Run { family: family.clone(), pair: format!("{} → {}", name(old), name(new)), policy, bytes, time, outcome };
        eprintln!(
            "{:>8.2} s  {} {} ({policy}): {}",
            time.as_secs_f64(),
            run.family,
            run.pair,
            match &run.outcome {
                Ok(o) => format!(
                    "readers {}, writers {}, {} of {} breaking witnessed, {} unknown",
                    o.readers, o.writers, o.witnessed, o.breaking, o.unknown
                ),
                Err(e) => e.clone(),
            }
        );
        runs.push(run);
    }
    let report = report(&runs);
    fs::write(work.join("REPORT.md"), &report)?;
    println!("{report}");
    Ok(())
}

/// The families of the catalog with several versions: `NAME-VERSION.json`, versions in order.
fn families(dir: &Path) -> Result<BTreeMap<String, Vec<PathBuf>>> {
    let mut found: BTreeMap<String, Vec<(Vec<u64>, PathBuf)>> = BTreeMap::new();
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        let Some(stem) = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".json")) else { continue };
        // The version is the last `-` part made of dot-separated numbers.
        let Some((family, version)) = stem.rsplit_once('-') else { continue };
        let numbers: Option<Vec<u64>> = version.split('.').map(|p| p.parse().ok()).collect();
        if let Some(numbers) = numbers {
            found.entry(family.to_owned()).or_default().push((numbers, path));
        }
    }
    Ok(found
        .into_iter()
        .filter(|(_, v)| v.len() > 1)
        .map(|(family, mut v)| {
            v.sort();
            (family, v.into_iter().map(|(_, p)| p).collect())
        })
        .collect())
}

/// Runs `command`, stopping it at [`TIMEOUT`]: the time and its stdout, or why it failed.
fn timed(command: &mut Command) -> Result<(Duration, Result<String, String>)> {
    let start = Instant::now();
    let out_file = tempfile_path("stdout");
    let err_file = tempfile_path("stderr");
    let mut child = command
        .stdout(Stdio::from(fs::File::create(&out_file)?))
        .stderr(Stdio::from(fs::File::create(&err_file)?))
        .spawn()
        .context("cannot start schemac")?;
    loop {
        if let Some(status) = child.try_wait()? {
            let time = start.elapsed();
            let stdout = fs::read_to_string(&out_file).unwrap_or_default();
            let stderr = fs::read_to_string(&err_file).unwrap_or_default();
            // 0, 1 and 2 are verdicts; anything else (or no report) is a failure.
            return Ok((
                time,
                match status.code() {
                    Some(0..=2) if !stdout.is_empty() => Ok(stdout),
                    _ => Err(format!("failed ({status}): {}", stderr.lines().next().unwrap_or_default())),
                },
            ));
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return Ok((start.elapsed(), Err(format!("stopped after {} s", TIMEOUT.as_secs()))));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

fn tempfile_path(what: &str) -> PathBuf {
    std::env::temp_dir().join(format!("schemac-bench-diff-{}-{what}", std::process::id()))
}

/// The worst verdicts, breaking verdicts with their witnesses and unknowns of a JSON report.
fn outcome(json: &str) -> Result<Outcome, String> {
    let report: Value = serde_json::from_str(json).map_err(|e| format!("not a JSON report: {e}"))?;
    let changes = report["changes"].as_array().ok_or("no changes in the report")?;
    let worst = |role: &str| {
        let verdicts: Vec<&str> = changes.iter().filter_map(|c| c[role].as_str()).collect();
        if verdicts.contains(&"breaking") {
            "breaking"
        } else if verdicts.contains(&"unknown") {
            "unknown"
        } else {
            "compatible"
        }
    };
    let (mut breaking, mut witnessed, mut unknown) = (0, 0, 0);
    for change in changes {
        for role in ["readers", "writers"] {
            match change[role].as_str() {
                Some("breaking") => {
                    breaking += 1;
                    witnessed += usize::from(!change["witnesses"][role].is_null());
                }
                Some("unknown") => unknown += 1,
                _ => {}
            }
        }
    }
    Ok(Outcome { readers: worst("readers"), writers: worst("writers"), breaking, witnessed, unknown })
}

fn report(runs: &[Run]) -> String {
    let mut out = String::from("# `schemac diff` on real schema histories\n\n");
    type Keep = fn(&Run) -> bool;
    let groups: [(&str, Keep); 3] = [
        ("goal history, strict", |r| r.family == "goal" && r.policy == "strict"),
        ("goal history, lenient", |r| r.family == "goal" && r.policy == "lenient"),
        ("catalog families", |r| r.family != "goal"),
    ];
    for (title, keep) in groups {
        let group: Vec<&Run> = runs.iter().filter(|r| keep(r)).collect();
        let mut times: Vec<f64> = group.iter().map(|r| r.time.as_secs_f64()).collect();
        times.sort_by(f64::total_cmp);
        let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
        let max = times.last().copied().unwrap_or(0.0);
        let mut verdicts: BTreeMap<(&str, &str), usize> = BTreeMap::new();
        let (mut breaking, mut witnessed, mut unknown, mut failed) = (0, 0, 0, 0);
        for run in &group {
            match &run.outcome {
                Ok(o) => {
                    *verdicts.entry(("readers", o.readers)).or_default() += 1;
                    *verdicts.entry(("writers", o.writers)).or_default() += 1;
                    breaking += o.breaking;
                    witnessed += o.witnessed;
                    unknown += o.unknown;
                }
                Err(_) => failed += 1,
            }
        }
        let _ = writeln!(out, "## {title}: {} pairs\n", group.len());
        let _ = writeln!(out, "- time per pair: median {median:.2} s, max {max:.2} s");
        for role in ["readers", "writers"] {
            let counts: Vec<String> = ["compatible", "breaking", "unknown"]
                .iter()
                .map(|v| format!("{v} {}", verdicts.get(&(role, *v)).copied().unwrap_or(0)))
                .collect();
            let _ = writeln!(out, "- pairs for {role}: {}", counts.join(", "));
        }
        let _ = writeln!(out, "- breaking verdicts (changes × roles): {breaking}, with a confirmed witness: {witnessed}");
        let _ = writeln!(out, "- unknown verdicts (changes × roles): {unknown}");
        let _ = writeln!(out, "- pairs that failed or were stopped: {failed}\n");
        let _ = writeln!(
            out,
            "| pair | largest file | time | readers | writers | breaking (witnessed) | unknown |\n|---|---|---|---|---|---|---|"
        );
        for run in &group {
            let (r, w, b, u) = match &run.outcome {
                Ok(o) => (o.readers.to_owned(), o.writers.to_owned(), format!("{} ({})", o.breaking, o.witnessed), o.unknown.to_string()),
                Err(e) => (e.clone(), String::new(), String::new(), String::new()),
            };
            let family = if run.family == "goal" { String::new() } else { format!("{}: ", run.family) };
            let _ = writeln!(
                out,
                "| {family}{} | {} KB | {:.2} s | {r} | {w} | {b} | {u} |",
                run.pair,
                run.bytes / 1024,
                run.time.as_secs_f64()
            );
        }
        out.push('\n');
    }
    out
}
