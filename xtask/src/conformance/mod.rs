//! `cargo xtask conformance`: schemac against the official JSON-Schema-Test-Suite.
//!
//! Obtain the suite (`suite`) → read its groups (`cases`) → compile each group's schema
//! (`compile`) → build them into one crate with a driver (`krate`) → run every test through
//! it (`driver`) → write `tests/conformance/REPORT.md` (`report`) → compare the passing cases
//! with `tests/conformance/baseline.json` (`baseline`), or rewrite it with `--bless`.

pub(crate) mod baseline;
pub(crate) mod cases;
pub(crate) mod compile;
pub(crate) mod driver;
mod known;
mod report;
pub(crate) mod suite;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};

use crate::harness::krate;
use compile::Compiled;
use report::{CaseResult, GroupResult, Verdict};

const REPORT: &str = "tests/conformance/REPORT.md";
const BASELINE: &str = "tests/conformance/baseline.json";

/// Whether to hold the run to the baseline or make the baseline what the run passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Check,
    Bless,
}

/// Runs the whole suite, writes the report, and checks (or blesses) the baseline.
pub fn run(root: &Path, mode: Mode) -> Result<()> {
    let start = Instant::now();
    let work = root.join("target/conformance");
    fs::create_dir_all(&work).with_context(|| format!("cannot create {}", work.display()))?;
    let suite = suite::obtain(&work)?;
    let groups = cases::load(&suite.tests)?;

    let compiled = compile_all(&groups, &work, &suite.remotes)?;
    eprintln!("conformance: compiled {} groups in {:.1}s", groups.len(), start.elapsed().as_secs_f64());

    let build_start = Instant::now();
    let krate = krate::Krate { spec: &driver::SPEC, dir: work.join("crate"), target_dir: target_dir(root), root: root.to_path_buf() };
    let members: Vec<krate::Member> = groups
        .iter()
        .zip(&compiled)
        .filter_map(|(group, compiled)| match compiled {
            Compiled::Code { code, .. } => Some(krate::Member { id: group.id(), module: group.module(), code: code.clone() }),
            Compiled::Rejected(_) => None,
        })
        .collect();
    let built = krate.build(&members)?;
    let not_built = built.failed;
    eprintln!("conformance: built the driver in {:.1}s", build_start.elapsed().as_secs_f64());

    let run_start = Instant::now();
    let reasons = failure_reasons(&groups, &compiled, &not_built);
    let inputs: Vec<driver::Input<'_>> = groups
        .iter()
        .filter(|g| !reasons.contains_key(&g.id()))
        .flat_map(|g| g.tests.iter().map(move |t| driver::Input { id: g.case_id(t.index), group: g.id(), data: &t.data }))
        .collect();
    // One shard: every group that builds has the same driver.
    let observed = match built.drivers.values().next() {
        Some(program) => crate::harness::driver::run(program, &work, &inputs, driver::Observed::crashed)?,
        None => BTreeMap::new(),
    };
    eprintln!("conformance: ran {} cases in {:.1}s", inputs.len(), run_start.elapsed().as_secs_f64());

    let results = assemble(&groups, &compiled, &reasons, observed);

    let source = format!(
        "From the JSON-Schema-Test-Suite shipped in the `{}` sdist on PyPI (SHA-256 `{}`). Compiled with the defaults but \
             `allow-unbounded-patterns` (the suite's patterns are trusted; by default a pattern only `regress` runs is refused).",
        suite::PACKAGE,
        suite::SDIST_SHA256
    );
    let report_path = root.join(REPORT);
    write(&report_path, &report::render(&results, &source))?;
    print_totals(&results);
    eprintln!("conformance: wrote {REPORT} ({:.1}s in all)", start.elapsed().as_secs_f64());

    let passing: Vec<String> =
        results.iter().flat_map(|g| &g.cases).filter(|c| c.verdict() == Verdict::Pass).map(|c| c.id.clone()).collect();
    ratchet(root, mode, &passing)
}

/// Each group with the verdict material of its cases: what the driver observed, or why the
/// group has no type to test.
fn assemble(
    groups: &[cases::Group],
    compiled: &[Compiled],
    reasons: &BTreeMap<String, String>,
    mut observed: BTreeMap<String, driver::Observed>,
) -> Vec<GroupResult> {
    let mut results = Vec::new();
    for (group, compiled) in groups.iter().zip(compiled) {
        let reason = reasons.get(&group.id());
        let cases = group
            .tests
            .iter()
            .map(|test| {
                let id = group.case_id(test.index);
                let got = match reason {
                    Some(reason) => Err(reason.clone()),
                    None => observed.remove(&id).ok_or_else(|| "the driver reported nothing".to_owned()),
                };
                CaseResult { id, description: test.description.clone(), valid: test.valid, got }
            })
            .collect();
        results.push(GroupResult {
            draft: group.draft.clone(),
            file: group.file.clone(),
            description: group.description.clone(),
            typed: reason.is_none() && matches!(compiled, Compiled::Code { typed: true, .. }),
            cases,
        });
    }
    results
}

/// Compiles every group, on as many threads as there are cores: each group is its own input,
/// so they are independent; results keep the groups' order.
fn compile_all(groups: &[cases::Group], work: &Path, remotes: &Path) -> Result<Vec<Compiled>> {
    let schema_dir = work.join("schemas");
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let chunk = groups.len().div_ceil(threads).max(1);
    let compile = |group: &cases::Group| {
        compile::compile(group, &schema_dir, remotes).with_context(|| format!("cannot compile group {}", group.id()))
    };
    let chunks: Vec<Result<Vec<Compiled>>> = compile::quietly(|| {
        std::thread::scope(|scope| {
            let handles: Vec<_> = groups.chunks(chunk).map(|part| scope.spawn(move || part.iter().map(compile).collect())).collect();
            handles.into_iter().map(|h| h.join().unwrap_or_else(|payload| std::panic::resume_unwind(payload))).collect()
        })
    });
    let mut out = Vec::with_capacity(groups.len());
    for chunk in chunks {
        out.extend(chunk?);
    }
    Ok(out)
}

/// Why each group that has no type to test has none, by group id.
fn failure_reasons(groups: &[cases::Group], compiled: &[Compiled], not_built: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    let mut reasons = not_built.clone();
    for (group, compiled) in groups.iter().zip(compiled) {
        if let Compiled::Rejected(reason) = compiled {
            reasons.insert(group.id(), reason.clone());
        }
    }
    reasons
}

/// Where cargo puts artifacts: `CARGO_TARGET_DIR` when set, else the workspace's `target/`.
pub(crate) fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|d| if d.is_absolute() { d } else { root.join(d) })
        .unwrap_or_else(|| root.join("target"))
}

fn write(path: &Path, text: &str) -> Result<()> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
    }
    fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

fn print_totals(results: &[GroupResult]) {
    let (by_part, overall) = report::part_tallies(results);
    let rows = by_part.into_iter().map(|((draft, part), t)| (format!("{draft}, {part}"), t));
    for (label, t) in rows.chain(overall.into_iter().map(|(part, t)| (format!("all drafts, {part}"), t))) {
        println!(
            "{label}: {} groups, {} cases, agreement {} ({} pass), {} false accepts, {} false rejects, {} round-trip failures, \
             {} not compiled, {} panics, typed coverage {}",
            t.groups,
            t.cases,
            report::percent(t.passed, t.cases),
            t.passed,
            t.false_accepts,
            t.false_rejects,
            t.round_trip,
            t.not_compiled,
            t.panics,
            report::percent(t.typed_groups, t.groups)
        );
    }
}

/// Fails on a regression against the baseline; in [`Mode::Bless`] rewrites it instead.
fn ratchet(root: &Path, mode: Mode, passing: &[String]) -> Result<()> {
    let path = root.join(BASELINE);
    let baseline = baseline::load(&path)?;
    let diff = baseline::diff(baseline.as_deref().unwrap_or_default(), passing);
    if mode == Mode::Bless {
        for id in &diff.improved {
            println!("+ {id}");
        }
        for id in &diff.regressed {
            println!("- {id}");
        }
        write(&path, &baseline::render(passing))?;
        println!("blessed {BASELINE}: {} passing cases ({} added, {} removed)", passing.len(), diff.improved.len(), diff.regressed.len());
        if !diff.regressed.is_empty() {
            eprintln!("warning: the baseline lost {} cases that used to pass; make sure that is intended", diff.regressed.len());
        }
        return Ok(());
    }
    if baseline.is_none() {
        bail!("{BASELINE} does not exist; run `cargo xtask conformance --bless` and commit it");
    }
    if !diff.improved.is_empty() {
        println!(
            "{} cases pass that {BASELINE} does not list yet; run `cargo xtask conformance --bless` and commit to lock them in",
            diff.improved.len()
        );
    }
    if !diff.regressed.is_empty() {
        for id in &diff.regressed {
            eprintln!("regressed: {id}");
        }
        bail!("{} cases of {BASELINE} no longer pass (listed above; see {REPORT} for why)", diff.regressed.len());
    }
    println!("conformance: all {} baseline cases still pass", baseline.map_or(0, |b| b.len()));
    Ok(())
}
