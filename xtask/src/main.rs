//! `cargo xtask`: this repository's automation, in Rust so it runs wherever cargo does.
//!
//! - `codegen`: regenerate the schema crates from `schemac.toml` and the schemas.
//! - `check`: fail if the generated files on disk are not what `codegen` would write, or if
//!   the version is lower than the schema changes since the last release require, or if the
//!   last release's crate is not frozen under `tests/released/`.
//! - `release`: bump, changelog, baseline, regenerate and `cargo package` (`schemac release`),
//!   then freeze the released crate under `tests/released/`.
//! - `api [--bless]`: hold each library crate's public API (from rustdoc) to its snapshot.
//! - `ci`: fmt, clippy, check, tests and conformance, in order, stopping at the first failure.
//! - `conformance`: run the JSON-Schema-Test-Suite, write its report, hold it to the baseline.
//! - `corpus`: the same for real schemas and their documents (`../shared/corpus/schemastore`).
//! - `bench`: the deserialization benchmark, and its ratios for BENCHMARKS.md; `bench codegen`:
//!   code generation at catalog scale and against cargo-typify; `bench rustc`: the rustc time
//!   of the generated code against cargo-typify's; `bench diff`: `schemac diff`
//!   over real schema histories.
//! - `fuzz --seconds N`: the cargo-fuzz targets of `fuzz/`, N seconds each.

mod api;
mod bench;
mod bench_codegen;
mod bench_diff;
mod ci;
mod codegen;
mod conformance;
mod corpus;
mod fuzz;
mod harness;
mod released;
mod snapshots;

use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <command>

commands:
  codegen   regenerate the crates in schemac.toml's output dir and tests/fixture-types
  check     fail if a generated file differs from what codegen would write, or if the last
            release's crate is not frozen under tests/released/
  release [--dry-run] [--no-package] [--no-verify]
            bump the crate's version as the schema changes since schemac.baseline.toml require,
            write generated/CHANGELOG.md, refresh the baseline, regenerate, cargo package, and
            freeze the released crate under tests/released/ (built against later runtimes)
  api [--bless]
            build the docs as CI does and fail if a library crate's public API (its items, their
            declarations, impls and methods) differs from crates/<crate>/api.txt; --bless rewrites them
  ci        run cargo fmt --check, clippy -D warnings, check, cargo test and conformance, in order
  conformance [--bless]
            compile the JSON-Schema-Test-Suite's groups (drafts 4 to 2020-12, optional files too), run every test,
            write tests/conformance/REPORT.md and fail if a case of tests/conformance/baseline.json
            no longer passes; --bless rewrites the baseline to the cases that pass now
  corpus [--bless | --smoke | --only NAME,..]
            compile every schema of ../shared/corpus/schemastore (real catalog schemas), build the generated
            modules, read every test document with the generated types and referee it with jsonschema;
            write tests/corpus/REPORT.md and fail if an id of tests/corpus/baseline.json no longer passes
            (about an hour on two cores); --smoke: only the targets with documents and at most 3,000
            generated lines, held to their ids of the baseline (what `cargo xtask ci` runs); --only A,B:
            those targets, held to their ids (the report in target/corpus/ONLY.md)
  bench     run the deserialization benchmark (criterion) and print the ratios for BENCHMARKS.md
            (arguments after `bench` go to criterion)
  fuzz --seconds N [--target compile|deserialize]
            run the cargo-fuzz targets in fuzz/ (the compiler on arbitrary schemas, the generated
            deserializers on arbitrary bytes) for N seconds each; needs `cargo install cargo-fuzz --locked`
  bench codegen [corpus [--rounds N]|suite]
            schemac compile against the cargo-typify 0.8.0 binary (installed under
            target/bench-codegen/), whole processes taking turns, builders on both sides and off on
            both: corpus: every ../shared/corpus/schemastore target (totals, per-schema speed-ups,
            every schema where schemac is slower; target/bench-codegen/REPORT.md); suite: a
            1,000-schema catalog of the suite's schemas (also the project's no-cache and unchanged
            runs); with neither word, both
  bench rustc [--limit N] [--rounds N] [--largest]
            rustc's CPU time on schemac's generated code against cargo-typify's, for N of the
            ../shared/corpus/schemastore targets both compile (default 40, spread over their sizes;
            --largest: the N largest), builders on both sides and off on both, dev and release
            profiles (dependencies prebuilt, the tools taking turns, median of N rounds, default 1);
            write target/bench-rustc/REPORT.md and rustc.tsv
  bench diff
            time `schemac diff` (release build) per pair over the goal schema's history (both policies)
            and the versioned families of ../shared/corpus/schemastore; report verdicts, witnesses,
            unknowns, median and max time; write target/bench-diff/REPORT.md
";

/// `bench rustc [--limit N] [--rounds N] [--largest]`.
fn bench_rustc(root: &std::path::Path, flags: &[&str]) -> anyhow::Result<()> {
    let (mut limit, mut rounds, mut largest) = (bench_codegen::RUSTC_LIMIT, bench_codegen::RUSTC_ROUNDS, false);
    let mut rest = flags.iter();
    while let Some(flag) = rest.next() {
        if *flag == "--largest" {
            largest = true;
            continue;
        }
        let value = rest.next().ok_or_else(|| anyhow::anyhow!("{flag} takes a number"))?;
        let number = value.parse().map_err(|_| anyhow::anyhow!("{flag} takes a number, not '{value}'"))?;
        match *flag {
            "--limit" => limit = number,
            "--rounds" => rounds = number,
            _ => anyhow::bail!("bench rustc takes --limit N, --rounds N and --largest, not '{flag}'"),
        }
    }
    bench_codegen::run_rustc(root, limit, rounds, largest)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let root = codegen::project_root();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["codegen"] => codegen::codegen(&root),
        ["check"] => codegen::check(&root),
        ["release", flags @ ..] => codegen::release(&root, flags),
        ["api"] => api::run(&root, conformance::Mode::Check),
        ["api", "--bless"] => api::run(&root, conformance::Mode::Bless),
        ["ci"] => ci::run(&root),
        ["conformance"] => conformance::run(&root, conformance::Mode::Check),
        ["conformance", "--bless"] => conformance::run(&root, conformance::Mode::Bless),
        ["corpus"] => corpus::run(&root, conformance::Mode::Check, corpus::Scope::Full),
        ["corpus", "--bless"] => corpus::run(&root, conformance::Mode::Bless, corpus::Scope::Full),
        ["corpus", "--smoke"] => corpus::run(&root, conformance::Mode::Check, corpus::Scope::Smoke),
        ["corpus", "--only", names] => {
            corpus::run(&root, conformance::Mode::Check, corpus::Scope::Only(names.split(',').map(str::to_owned).collect()))
        }
        ["fuzz", rest @ ..] => fuzz::run(&root, rest),
        ["bench", "codegen"] => bench_codegen::run(&root, bench_codegen::Scope::All),
        ["bench", "codegen", "corpus"] => bench_codegen::run(&root, bench_codegen::Scope::Corpus { rounds: bench_codegen::ROUNDS }),
        ["bench", "codegen", "corpus", "--rounds", n] => match n.parse() {
            Ok(rounds) => bench_codegen::run(&root, bench_codegen::Scope::Corpus { rounds }),
            Err(_) => Err(anyhow::anyhow!("--rounds takes a number of runs per schema, tool and side, not '{n}'")),
        },
        ["bench", "codegen", "suite"] => bench_codegen::run(&root, bench_codegen::Scope::Suite),
        ["bench", "diff"] => bench_diff::run(&root),
        ["bench", "rustc", flags @ ..] => bench_rustc(&root, flags),
        ["bench", rest @ ..] => bench::run(&root, &rest.iter().map(|s| s.to_string()).collect::<Vec<_>>()),
        ["help" | "--help" | "-h"] => {
            print!("{USAGE}");
            Ok(())
        }
        _ => {
            eprint!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // Not `{err:?}`: that prints a backtrace whenever RUST_BACKTRACE is set.
            eprintln!("error: {err}");
            for cause in err.chain().skip(1) {
                eprintln!("caused by: {cause}");
            }
            ExitCode::FAILURE
        }
    }
}
