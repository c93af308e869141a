//! `cargo xtask corpus`: schemac on real schemas nobody here wrote, the SchemaStore catalog
//! part in `../shared/corpus/schemastore/` (its README says what it holds).
//!
//! Compile every target with the defaults (`compile`) → build all generated modules in one
//! crate with a driver (`harness::krate`) → read every test document of the catalog into JSON
//! (`documents`) → referee it with `jsonschema` (`referee`) → read it with the generated type,
//! from JSON and from its own format, and write it back (the driver) → write
//! `tests/corpus/REPORT.md` (`report`) → hold what passes to `tests/corpus/baseline.json`, as
//! the conformance ratchet does, or rewrite it with `--bless`.

mod compile;
mod documents;
mod driver;
mod known;
mod metaschema;
mod referee;
mod report;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, bail};

use crate::conformance::Mode;
use crate::harness::krate;
use compile::Compiled;
use report::{DocResult, TargetResult};

const REPORT: &str = "tests/corpus/REPORT.md";
const BASELINE: &str = "tests/corpus/baseline.json";
/// The smoke's targets, one a line: those with documents whose generated code is at most
/// [`SMOKE_LINES`] lines, as the last full run with `--bless` found them. Listing them keeps
/// CI from generating the large targets only to leave them out.
const SMOKE: &str = "tests/corpus/smoke.txt";
/// Where the corpus is, beside the checkout.
pub(crate) const CORPUS: &str = "../shared/corpus/schemastore";

/// How much of the corpus a run covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Every target and document: `tests/corpus/REPORT.md` and the whole baseline.
    Full,
    /// CI's smoke: the targets of `tests/corpus/smoke.txt` (those that have documents and
    /// whose generated code is at most [`SMOKE_LINES`] lines), built as one crate; the
    /// baseline's ids of those targets are held (the full build of every target takes an hour
    /// on two cores), and the report goes to `target/corpus/SMOKE.md`.
    Smoke,
    /// The targets named (`--only a,b`), while working on them: their ids of the baseline are
    /// held and the report goes to `target/corpus/ONLY.md`.
    Only(Vec<String>),
}

/// The most lines of generated code a target of the smoke has.
const SMOKE_LINES: usize = 3_000;

/// Runs the corpus, writes the report, and checks (or blesses) the baseline. Without the
/// corpus beside the checkout it says so and does nothing.
pub fn run(root: &Path, mode: Mode, scope: Scope) -> Result<()> {
    if scope != Scope::Full && mode == Mode::Bless {
        bail!("this run covers part of the corpus: bless the baseline with a full run (`cargo xtask corpus --bless`)");
    }
    let corpus = root.join(CORPUS);
    if !corpus.join("targets.txt").is_file() {
        println!("corpus: skipped: no corpus at ../shared/corpus (expected {})", corpus.display());
        return Ok(());
    }
    let start = Instant::now();
    let work = root.join("target/corpus");
    fs::create_dir_all(&work).with_context(|| format!("cannot create {}", work.display()))?;
    let mut targets = read_targets(&corpus)?;
    targets.extend(metaschema::TARGETS.iter().map(|(name, ..)| (*name).to_owned()));
    let schema_dir = corpus.join("schemas/json");
    match &scope {
        Scope::Full => {}
        Scope::Smoke => {
            let path = root.join(SMOKE);
            let text = fs::read_to_string(&path)
                .with_context(|| format!("cannot read {} (a full run with `cargo xtask corpus --bless` writes it)", path.display()))?;
            let smoke: BTreeSet<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
            if let Some(unknown) = smoke.iter().find(|name| !targets.iter().any(|t| t == *name)) {
                bail!("{SMOKE} names '{unknown}', which is not a target of {}", corpus.join("targets.txt").display());
            }
            targets.retain(|name| smoke.contains(name.as_str()));
        }
        Scope::Only(names) => {
            if let Some(unknown) = names.iter().find(|name| !targets.contains(name)) {
                bail!("'{unknown}' is not a target of {}", corpus.join("targets.txt").display());
            }
            targets.retain(|name| names.contains(name));
        }
    }

    let compiled = compile_all(root, &schema_dir, &targets);
    if scope == Scope::Smoke {
        eprintln!("corpus: the smoke: the {} targets of {SMOKE}", targets.len());
    }
    let generated = compiled.iter().filter(|c| matches!(c, Compiled::Code { .. })).count();
    eprintln!("corpus: generated {generated} of {} targets in {:.1}s", targets.len(), start.elapsed().as_secs_f64());

    let build_start = Instant::now();
    let krate = krate::Krate {
        spec: &driver::SPEC,
        dir: work.join("crate"),
        target_dir: crate::conformance::target_dir(root),
        root: root.to_path_buf(),
    };
    let mut taken = BTreeSet::new();
    let modules: Vec<String> = targets.iter().enumerate().map(|(i, name)| compile::module_name(name, i, &mut taken)).collect();
    let members: Vec<krate::Member> = targets
        .iter()
        .zip(&compiled)
        .zip(&modules)
        .filter_map(|((name, compiled), module)| match compiled {
            Compiled::Code { code, .. } => Some(krate::Member { id: name.clone(), module: module.clone(), code: code.clone() }),
            Compiled::Rejected { .. } => None,
        })
        .collect();
    let built = krate.build(&members)?;
    let not_built = &built.failed;
    eprintln!("corpus: built {} modules in {:.1}s", built.drivers.len(), build_start.elapsed().as_secs_f64());

    let run_start = Instant::now();
    let docs = documents::load(&corpus, &targets)?;
    let referees = referee_all(root, &schema_dir, &targets);
    let outside = read_outside_refs(&corpus)?;
    // The documents by the driver of their target's shard.
    let mut inputs: BTreeMap<&Path, Vec<driver::Input<'_>>> = BTreeMap::new();
    for doc in &docs {
        let (Some(program), Ok(value)) = (built.drivers.get(&doc.schema), &doc.value) else { continue };
        let json = serde_json::to_string(value).context("cannot write a document as JSON")?;
        inputs.entry(program).or_default().push(driver::Input {
            id: &doc.id,
            target: &doc.schema,
            json,
            format: doc.format,
            text: &doc.text,
            part: doc.part,
        });
    }
    let mut observed = BTreeMap::new();
    for (program, cases) in &inputs {
        observed.append(&mut crate::harness::driver::run(program, &work, cases, driver::Observed::crashed)?);
    }
    let read = inputs.values().map(Vec::len).sum::<usize>();
    eprintln!("corpus: read {read} documents in {:.1}s", run_start.elapsed().as_secs_f64());

    let target_results: Vec<TargetResult> = targets
        .iter()
        .zip(compiled)
        .map(|(name, compiled)| TargetResult {
            built: match &compiled {
                Compiled::Code { .. } => Some(not_built.get(name).cloned().map_or(Ok(()), Err)),
                Compiled::Rejected { .. } => None,
            },
            referee: referees.get(name).and_then(|r| r.problem().map(str::to_owned)),
            outside: outside.get(name).cloned(),
            name: name.clone(),
            compiled,
        })
        .collect();
    let by_target: BTreeMap<&str, &TargetResult> = target_results.iter().map(|t| (t.name.as_str(), t)).collect();
    let doc_results: Vec<DocResult> = docs
        .iter()
        .map(|doc| {
            let verdict =
                referees.get(&doc.schema).map_or_else(|| referee::Verdict::None("no referee".to_owned()), |r| r.judge(&doc.value));
            let got = match by_target.get(doc.schema.as_str()).map(|t| t.not_run_reason()) {
                Some(Some(reason)) => Err(reason),
                _ => observed.remove(&doc.id).ok_or_else(|| match &doc.value {
                    Err(why) => format!("the document has no JSON form: {why}"),
                    Ok(_) => "the driver reported nothing".to_owned(),
                }),
            };
            DocResult { id: doc.id.clone(), label: doc.label, format: doc.format, verdict, got }
        })
        .collect();

    let source = "From the SchemaStore catalog part in `../shared/corpus/schemastore/` (its README: commit 3b6446ad8a07).";
    let report_path = match &scope {
        Scope::Full => root.join(REPORT),
        Scope::Smoke => work.join("SMOKE.md"),
        Scope::Only(_) => work.join("ONLY.md"),
    };
    write(&report_path, &report::render(&target_results, &doc_results, source))?;
    let totals = report::Totals::of(&target_results, &doc_results);
    println!("{}", totals.summary());
    eprintln!("corpus: wrote {} ({:.1}s in all)", report_path.display(), start.elapsed().as_secs_f64());

    if scope == Scope::Full && mode == Mode::Bless {
        let has_documents = |name: &str| {
            metaschema::file(root, name).is_some() || ["test", "negative_test"].iter().any(|folder| corpus.join(folder).join(name).is_dir())
        };
        let smoke: Vec<&str> = target_results
            .iter()
            .filter(|t| matches!(t.compiled, Compiled::Code { lines, .. } if lines <= SMOKE_LINES) && has_documents(&t.name))
            .map(|t| t.name.as_str())
            .collect();
        write(&root.join(SMOKE), &format!("{}\n", smoke.join("\n")))?;
        println!("corpus: wrote {SMOKE}: {} targets", smoke.len());
    }
    let passing = passing_ids(&target_results, &doc_results);
    let covered: BTreeSet<&str> = targets.iter().map(String::as_str).collect();
    let in_scope = |id: &str| scope == Scope::Full || target_of(id).is_some_and(|t| covered.contains(t));
    ratchet(root, mode, &passing, in_scope)
}

pub(crate) fn read_targets(corpus: &Path) -> Result<Vec<String>> {
    let path = corpus.join("targets.txt");
    let text = fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let targets: Vec<String> = text.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_owned).collect();
    if targets.is_empty() {
        bail!("{} lists no schema", path.display());
    }
    Ok(targets)
}

/// The targets that refer to a URL outside the corpus, with the URL (`outside-refs.tsv`).
fn read_outside_refs(corpus: &Path) -> Result<BTreeMap<String, String>> {
    let path = corpus.join("outside-refs.tsv");
    let text = fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
    Ok(text.lines().filter_map(|line| line.split_once('\t')).map(|(name, url)| (name.trim().to_owned(), url.trim().to_owned())).collect())
}

/// Compiles every target on as many threads as there are cores, the next target to whichever
/// thread is free (their sizes differ by four orders of magnitude); results in target order.
fn compile_all(root: &Path, schema_dir: &Path, targets: &[String]) -> Vec<Compiled> {
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Compiled>>> = Mutex::new(vec![None; targets.len()]);
    crate::conformance::compile::quietly(|| {
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(name) = targets.get(i) else { break };
                        let compiled = compile::compile(root, schema_dir, name);
                        results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(compiled);
                    }
                });
            }
        });
    });
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.into_iter().map(|r| r.unwrap_or(Compiled::Rejected { reason: "not compiled".to_owned(), panicked: false })).collect()
}

/// A referee for every target that has documents.
fn referee_all(root: &Path, schema_dir: &Path, targets: &[String]) -> BTreeMap<String, referee::Referee> {
    targets.iter().map(|name| (name.clone(), referee::Referee::new(root, schema_dir, name))).collect()
}

/// The ids the ratchet holds: each target generated (`generated/NAME`), each whose module
/// builds (`built/NAME`), each document whose reading agrees with the referee and round-trips
/// (`agrees/test/NAME/FILE`).
fn passing_ids(targets: &[TargetResult], docs: &[DocResult]) -> Vec<String> {
    let mut ids = Vec::new();
    for target in targets {
        if matches!(target.compiled, Compiled::Code { .. }) {
            ids.push(format!("generated/{}", target.name));
        }
        if matches!(target.built, Some(Ok(()))) {
            ids.push(format!("built/{}", target.name));
        }
    }
    ids.extend(docs.iter().filter(|d| d.outcome() == report::Outcome::Agrees).map(|d| format!("agrees/{}", d.id)));
    ids
}

/// The target an id of the baseline is about: `generated/NAME`, `built/NAME`,
/// `agrees/test/NAME/FILE`, `agrees/negative_test/NAME/FILE`.
fn target_of(id: &str) -> Option<&str> {
    let mut parts = id.split('/');
    match parts.next()? {
        "generated" | "built" => parts.next(),
        "agrees" => parts.nth(1),
        _ => None,
    }
}

/// Fails on a regression against the baseline (its ids `in_scope`); in [`Mode::Bless`]
/// rewrites it instead.
fn ratchet(root: &Path, mode: Mode, passing: &[String], in_scope: impl Fn(&str) -> bool) -> Result<()> {
    let path = root.join(BASELINE);
    let baseline = crate::conformance::baseline::load(&path)?.map(|ids| ids.into_iter().filter(|id| in_scope(id)).collect::<Vec<_>>());
    let diff = crate::conformance::baseline::diff(baseline.as_deref().unwrap_or_default(), passing);
    if mode == Mode::Bless {
        for id in &diff.improved {
            println!("+ {id}");
        }
        for id in &diff.regressed {
            println!("- {id}");
        }
        write(&path, &crate::conformance::baseline::render(passing))?;
        // `passing` is every target's: a bless is a full run.
        println!("corpus: blessed {BASELINE}: {} passing ({} new, {} dropped)", passing.len(), diff.improved.len(), diff.regressed.len());
        return Ok(());
    }
    if baseline.is_none() {
        bail!("{BASELINE} does not exist: run `cargo xtask corpus --bless` to create it");
    }
    if !diff.improved.is_empty() {
        println!("corpus: {} more pass than {BASELINE} holds; `cargo xtask corpus --bless` records them", diff.improved.len());
    }
    if !diff.regressed.is_empty() {
        for id in &diff.regressed {
            println!("regressed: {id}");
        }
        bail!("{} of the baseline's passing ids no longer pass (see {REPORT})", diff.regressed.len());
    }
    println!("corpus: all {} ids of {BASELINE} in this run still pass", baseline.map_or(0, |b| b.len()));
    Ok(())
}

fn write(path: &Path, text: &str) -> Result<()> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
    }
    fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn baseline_ids_name_their_target() {
        assert_eq!(target_of("generated/cargo"), Some("cargo"));
        assert_eq!(target_of("built/base-04"), Some("base-04"));
        assert_eq!(target_of("agrees/test/cargo/a.toml"), Some("cargo"));
        assert_eq!(target_of("agrees/negative_test/x/b.yaml"), Some("x"));
        assert_eq!(target_of("other/x"), None);
    }
}
