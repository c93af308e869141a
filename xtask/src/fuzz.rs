//! `cargo xtask fuzz --seconds N`: runs each cargo-fuzz target of `fuzz/` for N seconds, one
//! after the other, one process each (`-jobs` is never more than one: the machine is shared).
//!
//! - `compile`: the compiler on arbitrary bytes as a schema file, seeded with every schema in
//!   `tests/fixtures`, `tests/bad` and `schemas`, and a dictionary of keywords.
//! - `deserialize`: the bundled schemas' generated types on arbitrary bytes, seeded with the
//!   generated round-trip instances (valid and invalid).
//!
//! New inputs go to `fuzz/corpus/<target>/` (not committed); a crash, leak, timeout or
//! out-of-memory input to `fuzz/artifacts/<target>/`, and the run fails. cargo-fuzz runs on
//! the stable toolchain with `RUSTC_BOOTSTRAP=1` (its sanitizer flags are nightly flags).
//!
//! By default the targets are optimized and built with AddressSanitizer, for long runs.
//! `--smoke` (what CI runs) builds them unoptimized and without a sanitizer: on this 2-core
//! machine that build took 168 s of CPU against 716 s, and `compile` then ran 396 inputs in
//! 21 s (every seed, then mutations) where the optimized build ran 5,266.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use serde_json::Value;

/// The targets, in the order they run.
const TARGETS: [&str; 2] = ["compile", "deserialize"];

const USAGE: &str = "usage: cargo xtask fuzz --seconds N [--target compile|deserialize] [--smoke]";

/// The arguments after `fuzz`: `--seconds N` (per target), optionally `--target NAME` and
/// `--smoke` (an unoptimized build without a sanitizer).
pub fn run(root: &Path, args: &[&str]) -> Result<()> {
    let mut seconds = None;
    let mut only = None;
    let mut smoke = false;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match *arg {
            "--seconds" => seconds = Some(rest.next().context("--seconds takes a number")?.parse::<u64>().context("--seconds N")?),
            "--target" => only = Some(*rest.next().context("--target takes a name")?),
            "--smoke" => smoke = true,
            other => bail!("unknown argument {other:?}: {USAGE}"),
        }
    }
    let seconds = seconds.context(USAGE)?;
    let targets: Vec<&str> = match only {
        Some(name) if TARGETS.contains(&name) => vec![name],
        Some(name) => bail!("no fuzz target {name:?}; the targets are {}", TARGETS.join(", ")),
        None => TARGETS.to_vec(),
    };
    let fuzz = root.join("fuzz");
    seed_deserialize(root)?;
    for target in targets {
        let corpus = fuzz.join("corpus").join(target);
        let artifacts = fuzz.join("artifacts").join(target);
        std::fs::create_dir_all(&corpus).with_context(|| format!("cannot create {}", corpus.display()))?;
        std::fs::create_dir_all(&artifacts).with_context(|| format!("cannot create {}", artifacts.display()))?;
        let mut command = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
        command.env("RUSTC_BOOTSTRAP", "1").current_dir(&fuzz).args(["fuzz", "run"]);
        command.args(if smoke { &["--dev", "--sanitizer", "none"][..] } else { &["--release"][..] });
        command.arg(target).arg(&corpus);
        command.args(seeds(root, target));
        command.arg("--");
        command.arg(format!("-max_total_time={seconds}"));
        command.arg(format!("-artifact_prefix={}/", artifacts.display()));
        // A hang is any input taking 10 s; memory is bounded at 2 GiB.
        command.args(["-timeout=10", "-rss_limit_mb=2048", "-max_len=65536", "-print_final_stats=1"]);
        if target == "compile" {
            command.arg(format!("-dict={}", fuzz.join("compile.dict").display()));
        }
        eprintln!("==> fuzz {target} for {seconds}s");
        let status = command.status().context("cannot run `cargo fuzz` (install it: cargo install cargo-fuzz --locked)")?;
        if !status.success() {
            bail!("fuzz target {target} failed ({status}); the input is in {}", artifacts.display());
        }
        eprintln!("==> fuzz {target}: corpus of {} inputs in {}", count(&corpus), corpus.display());
    }
    Ok(())
}

/// The read-only seed directories of a target (libFuzzer reads them, writes to the first).
fn seeds(root: &Path, target: &str) -> Vec<PathBuf> {
    match target {
        "compile" => vec![root.join("tests/fixtures"), root.join("tests/bad"), root.join("schemas")],
        _ => vec![root.join("target/fuzz-seeds/deserialize")],
    }
}

/// Writes every instance of the generated round-trip data (`generated/tests/data/*/*/*.json`,
/// arrays of cases) as one seed file each, under `target/`.
fn seed_deserialize(root: &Path) -> Result<()> {
    let out = root.join("target/fuzz-seeds/deserialize");
    std::fs::create_dir_all(&out).with_context(|| format!("cannot create {}", out.display()))?;
    let data = root.join("generated/tests/data");
    let mut n = 0;
    for group in std::fs::read_dir(&data).with_context(|| format!("cannot read {}", data.display()))? {
        // Beside the groups' directories are files such as COVERAGE.md.
        let group = group?.path();
        if !group.is_dir() {
            continue;
        }
        for schema in std::fs::read_dir(&group)? {
            for file in ["valid.json", "invalid.json"] {
                let path = schema.as_ref().map_err(|e| anyhow::anyhow!("{e}"))?.path().join(file);
                let Ok(text) = std::fs::read_to_string(&path) else { continue };
                let cases: Vec<Value> = serde_json::from_str(&text).with_context(|| format!("{} is not JSON", path.display()))?;
                for case in cases {
                    if let Some(instance) = case.get("instance") {
                        std::fs::write(out.join(format!("seed-{n}.json")), serde_json::to_vec(instance)?)?;
                        n += 1;
                    }
                }
            }
        }
    }
    Ok(())
}

fn count(dir: &Path) -> usize {
    std::fs::read_dir(dir).map(|entries| entries.count()).unwrap_or(0)
}
