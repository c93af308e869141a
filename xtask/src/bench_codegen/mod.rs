//! `cargo xtask bench codegen`: code generation against cargo-typify, on real schemas
//! ([`corpus`]: the SchemaStore corpus beside the checkout) and on the suite's catalog.
//!
//! The suite's catalog: every group schema of the official suite's draft7 and draft2020-12 files that
//! schemac compiles on its own and that has no `$id` (ids repeat across groups), and the
//! keyword fixtures, copied until there are at least [`CATALOG_SIZE`] files. Measured:
//! `schemac_project` generating the catalog's crate (the types; no round-trip tests) with no
//! cache and again with nothing changed, in this process; then, whole process per schema,
//! `schemac compile` (release build) against `cargo typify` (0.8.0, installed by this command
//! under `target/bench-codegen/typify/`) on the schemas both compile, with the lines each
//! writes: as run (builders included), and without builders (`--no-builders` against
//! typify's `--no-builder`, counted from untimed runs), in all and without the embedded
//! source schema (`schema_source!`, the file's text, which typify does not embed). Not part of
//! `ci`. `bench rustc` ([`rustc`]) times rustc on both tools' output of the real schemas.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::conformance;

mod corpus;
mod rustc;

pub use corpus::ROUNDS;
pub use rustc::run as run_rustc;
pub use rustc::{LIMIT as RUSTC_LIMIT, ROUNDS as RUSTC_ROUNDS};

/// What `bench codegen` measures.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Both tables: the real schemas, then the suite's catalog.
    All,
    /// The real schemas of the corpus only (`bench codegen corpus [--rounds N]`), each run
    /// that many times per tool and side.
    Corpus { rounds: usize },
    /// The suite's catalog only (`bench codegen suite`).
    Suite,
}

/// The smallest catalog measured.
const CATALOG_SIZE: usize = 1000;
/// The cargo-typify version compared with, installed by `cargo install --locked`.
const TYPIFY_VERSION: &str = "0.8.0";

/// Runs the tables of `scope`, printing each and writing the real schemas' table to
/// `target/bench-codegen/REPORT.md`.
pub fn run(root: &Path, scope: Scope) -> Result<()> {
    let work = root.join("target/bench-codegen");
    let typify = install_typify(root, &work)?;
    let schemac = build_schemac(root)?;
    if scope != Scope::Suite {
        let rounds = if let Scope::Corpus { rounds } = scope { rounds } else { corpus::ROUNDS };
        let report = corpus::run(root, &schemac, &typify, &work, rounds)?;
        fs::write(work.join("REPORT.md"), &report)?;
        println!("{report}");
    }
    if !matches!(scope, Scope::Corpus { .. }) {
        suite(root, &work, &schemac, &typify)?;
    }
    Ok(())
}

/// The suite's catalog: the project's generation at scale, then schemac against typify per
/// schema.
fn suite(root: &Path, work: &Path, schemac: &Path, typify: &Path) -> Result<()> {
    let catalog = write_catalog(root, work)?;
    eprintln!("catalog: {} schemas in {}", catalog.len(), work.join("catalog").display());

    let config = work.join("catalog/schemac.toml");
    let run = |cache: bool| -> Result<Duration> {
        let start = Instant::now();
        let project = schemac_project::Project::load(&config)?.round_trips(false).cache(cache);
        project.generate()?.write(project.root())?;
        Ok(start.elapsed())
    };
    let _ = fs::remove_dir_all(work.join("catalog/target"));
    let _ = fs::remove_dir_all(work.join("catalog/out"));
    let cold = run(false)?;
    run(true)?;
    let unchanged = run(true)?;

    let (mut schemac_total, mut typify_total) = (Duration::ZERO, Duration::ZERO);
    let (mut schemac_lines, mut typify_lines, mut both, mut slower) = (0, 0, 0, Vec::new());
    // Without builders: (schemac, schemac without the embedded source, typify).
    let (mut bare, mut bare_code, mut typify_bare) = (0, 0, 0);
    let out = work.join("out");
    fs::create_dir_all(&out)?;
    for path in &catalog {
        let (s_time, s_ok) = timed(Command::new(schemac).arg("compile").arg(path).arg("-o").arg(out.join("schemac.rs")))?;
        let (t_time, t_ok) = timed(Command::new(typify).arg("typify").arg(path).arg("-o").arg(out.join("typify.rs")))?;
        if !(s_ok && t_ok) {
            continue;
        }
        both += 1;
        schemac_total += s_time;
        typify_total += t_time;
        schemac_lines += fs::read_to_string(out.join("schemac.rs"))?.lines().count();
        typify_lines += fs::read_to_string(out.join("typify.rs"))?.lines().count();
        let (_, s_ok) = timed(Command::new(schemac).arg("compile").arg(path).arg("--no-builders").arg("-o").arg(out.join("bare.rs")))?;
        let (_, t_ok) = timed(Command::new(typify).arg("typify").arg(path).arg("--no-builder").arg("-o").arg(out.join("typify-bare.rs")))?;
        if s_ok && t_ok {
            let text = fs::read_to_string(out.join("bare.rs"))?;
            bare += text.lines().count();
            bare_code += code_lines(&text);
            typify_bare += fs::read_to_string(out.join("typify-bare.rs"))?.lines().count();
        }
        if s_time > t_time {
            slower.push(format!("{} ({:.0} ms vs {:.0} ms)", path.display(), ms(s_time), ms(t_time)));
        }
    }
    println!("| Measure | Value |\n|---|---:|");
    println!("| catalog schemas | {} |", catalog.len());
    println!("| `schemac_project` generate + write, no cache | {:.2} s |", cold.as_secs_f64());
    println!("| the same, nothing changed (cache) | {:.2} s |", unchanged.as_secs_f64());
    println!("| schemas both `schemac compile` and `cargo typify` compile | {both} |");
    println!(
        "| `schemac compile`, whole process, total | {:.2} s ({:.1} ms per schema) |",
        schemac_total.as_secs_f64(),
        ms(schemac_total) / both.max(1) as f64
    );
    println!(
        "| `cargo typify` {TYPIFY_VERSION}, whole process, total | {:.2} s ({:.1} ms per schema) |",
        typify_total.as_secs_f64(),
        ms(typify_total) / both.max(1) as f64
    );
    println!("| speed ratio (typify time / schemac time) | {:.2}× |", typify_total.as_secs_f64() / schemac_total.as_secs_f64().max(1e-9));
    println!(
        "| lines written: schemac / typify | {schemac_lines} / {typify_lines} ({:.2}×) |",
        schemac_lines as f64 / typify_lines.max(1) as f64
    );
    println!(
        "| lines without builders (`--no-builders` / `--no-builder`) | {bare} / {typify_bare} ({:.2}×) |",
        bare as f64 / typify_bare.max(1) as f64
    );
    println!(
        "| the same without the embedded source schema | {bare_code} / {typify_bare} ({:.2}×) |",
        bare_code as f64 / typify_bare.max(1) as f64
    );
    println!("| schemas where schemac is slower | {} |", slower.len());
    for line in slower.iter().take(10) {
        println!("  - {line}");
    }
    Ok(())
}

/// The lines of a generated file outside its `schema_source!` call (the source file's text).
fn code_lines(text: &str) -> usize {
    let mut inside = false;
    let mut count = 0;
    for line in text.lines() {
        let line = line.trim();
        inside |= line.starts_with("::schemac_runtime::schema_source!(");
        if !inside {
            count += 1;
        } else if line == ");" {
            inside = false;
        }
    }
    count
}

fn ms(time: Duration) -> f64 {
    time.as_secs_f64() * 1000.0
}

/// Runs `command`, discarding its output: its wall time and whether it succeeded.
fn timed(command: &mut Command) -> Result<(Duration, bool)> {
    let start = Instant::now();
    let output = command.output().context("cannot run a compiler under test")?;
    Ok((start.elapsed(), output.status.success()))
}

fn install_typify(root: &Path, work: &Path) -> Result<PathBuf> {
    let install = work.join("typify");
    let binary = install.join("bin/cargo-typify");
    if !binary.is_file() {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let status = Command::new(cargo)
            .args(["install", "cargo-typify", "--version", TYPIFY_VERSION, "--locked", "--root"])
            .arg(&install)
            .current_dir(root)
            .status()
            .context("cannot run cargo install")?;
        if !status.success() {
            bail!("cargo install cargo-typify --version {TYPIFY_VERSION} failed ({status})");
        }
    }
    Ok(binary)
}

/// Builds the `schemac` binary (release) and returns its path; the benchmarks time it.
pub(crate) fn build_schemac(root: &Path) -> Result<PathBuf> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo).args(["build", "--release", "-p", "schemac-cli"]).current_dir(root).status()?;
    if !status.success() {
        bail!("cargo build --release -p schemac-cli failed ({status})");
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    Ok(target.join("release/schemac"))
}

/// Writes the catalog under `work/catalog/` (with its `schemac.toml`), returning the files.
fn write_catalog(root: &Path, work: &Path) -> Result<Vec<PathBuf>> {
    let suite = conformance::suite::obtain(&root.join("target/conformance"))?;
    let mut schemas: Vec<(String, serde_json::Value, schemac::Draft)> = conformance::cases::load(&suite.tests)?
        .into_iter()
        .map(|group| (format!("{}-{}-{}", group.draft, group.file, group.index), group.schema, group.default_draft))
        .collect();
    for entry in fs::read_dir(root.join("tests/fixtures"))? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "json") {
            let value = serde_json::from_str(&fs::read_to_string(&path)?)?;
            schemas.push((
                format!("fixture-{}", path.file_stem().unwrap_or_default().to_string_lossy()),
                value,
                schemac::Draft::Draft2020_12,
            ));
        }
    }
    let scratch = work.join("scratch.json");
    let mut kept = Vec::new();
    for (name, mut schema, draft) in schemas {
        let text = schema.to_string();
        if text.contains("\"$id\"") || text.contains("\"id\"") || !schema.is_object() {
            continue;
        }
        if let (Some(map), schemac::Draft::Draft7) = (schema.as_object_mut(), draft) {
            map.entry(schemac::model::schema::Keyword::Schema.name()).or_insert("http://json-schema.org/draft-07/schema#".into());
        }
        let text = serde_json::to_string_pretty(&schema)?;
        fs::create_dir_all(work)?;
        fs::write(&scratch, &text)?;
        let input = schemac::Input::new([schemac::SchemaSource::new(scratch.clone()).display(name.clone())]);
        if schemac::compile(&input, &schemac::Config::default()).is_ok() {
            kept.push((name.replace(['.', ' '], "-"), text));
        }
    }
    if kept.is_empty() {
        bail!("no suite schema compiles on its own");
    }
    let dir = work.join("catalog");
    let _ = fs::remove_dir_all(dir.join("schemas"));
    let mut files = Vec::new();
    let mut copy = 0;
    while files.len() < CATALOG_SIZE {
        for (name, text) in &kept {
            let path = dir.join(format!("schemas/copy{copy}/{name}.json"));
            fs::create_dir_all(path.parent().unwrap_or(&dir))?;
            fs::write(&path, text)?;
            files.push(path);
        }
        copy += 1;
    }
    fs::write(
        dir.join("schemac.toml"),
        "[crate]\nname = \"catalog-types\"\nversion = \"0.0.0\"\ndescription = \"The codegen benchmark's catalog\"\noutput = \"out\"\n\n[schemas]\nroots = [\"schemas\"]\n",
    )?;
    Ok(files)
}
