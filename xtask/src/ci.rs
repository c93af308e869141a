//! `cargo xtask ci`: every check CI runs, in order, stopping at the first failure.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::{codegen, conformance};

/// One CI step: a cargo command, or a check that runs inside this process.
#[derive(Debug)]
enum Step {
    Cargo(&'static [&'static str]),
    /// A cargo command with environment variables set.
    CargoWith(&'static [(&'static str, &'static str)], &'static [&'static str]),
    InProcess(&'static str, fn(&Path) -> Result<()>),
}

const STEPS: [Step; 10] = [
    Step::Cargo(&["fmt", "--all", "--", "--check"]),
    Step::Cargo(&["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]),
    Step::InProcess("cargo xtask check", codegen::check),
    // Every crate's rustdoc, the generated crate's reference pages included, without a warning
    // (a broken intra-doc link, a bare URL from a schema's description).
    Step::CargoWith(&[("RUSTDOCFLAGS", "-D warnings")], &["doc", "--workspace", "--no-deps"]),
    // The public API of each library crate against its snapshot, read from those docs (the same
    // command again, which cargo finds fresh).
    Step::InProcess("cargo xtask api", crate::api::check),
    // Every test, the generated property tests among them (`proptest`: a bounded number of cases
    // each): the generated crates' feature only adds their `Arbitrary` impls (and the runtime's
    // strategies). One build: as a step of its own (`cargo test -p schema-types -p fixture-types
    // --features proptest`) it resolved features for those two packages alone and so compiled
    // 37 units again, the compiler, its model and serde_json among them.
    Step::Cargo(&["test", "--workspace", "--features", "schema-types/proptest,fixture-types/proptest"]),
    // After the tests, so that snapshots they leave pending are caught.
    Step::InProcess("snapshot hygiene", crate::snapshots::check),
    Step::InProcess("cargo xtask conformance", conformance_check),
    // Real schemas: the corpus's smoke (the full run, an hour on two cores, is by hand).
    Step::InProcess("cargo xtask corpus --smoke", |root| crate::corpus::run(root, conformance::Mode::Check, crate::corpus::Scope::Smoke)),
    // A fuzz smoke: both cargo-fuzz targets, 10 seconds each (CI is held under 25 minutes on two
    // cores; it took 27 with 30 s each), built unoptimized and without a
    // sanitizer, which builds in a quarter of the CPU time (the long runs are by hand).
    Step::InProcess("cargo xtask fuzz --seconds 10 --smoke", |root| crate::fuzz::run(root, &["--seconds", "10", "--smoke"])),
];

/// The conformance ratchet, after the tests: it is the slowest step and needs them green.
fn conformance_check(root: &Path) -> Result<()> {
    conformance::run(root, conformance::Mode::Check)
}

impl Step {
    fn name(&self) -> String {
        match self {
            Step::Cargo(args) => format!("cargo {}", args.join(" ")),
            Step::CargoWith(env, args) => {
                let env: Vec<String> = env.iter().map(|(key, value)| format!("{key}={value:?}")).collect();
                format!("{} cargo {}", env.join(" "), args.join(" "))
            }
            Step::InProcess(name, _) => (*name).to_owned(),
        }
    }

    fn run(&self, root: &Path) -> Result<()> {
        match self {
            Step::Cargo(args) => Step::CargoWith(&[], args).run(root),
            Step::CargoWith(env, args) => {
                // The cargo that runs xtask, so CI uses the same toolchain throughout.
                let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
                let status = Command::new(&cargo)
                    .args(*args)
                    .envs(env.iter().copied())
                    .current_dir(root)
                    .status()
                    .with_context(|| format!("cannot run {}", cargo.to_string_lossy()))?;
                if !status.success() {
                    bail!("{} exited with {status}", self.name());
                }
                Ok(())
            }
            Step::InProcess(_, check) => check(root),
        }
    }
}

/// One step's cost: wall time, and CPU time (user + system) where the platform reports it.
struct Timing {
    name: String,
    wall: Duration,
    cpu: Option<f64>,
}

/// Runs every step at `root`, printing a banner before each and the timings at the end.
pub fn run(root: &Path) -> Result<()> {
    let start = Instant::now();
    let cpu_start = cpu_seconds();
    let mut timings: Vec<Timing> = Vec::new();
    for (i, step) in STEPS.iter().enumerate() {
        let name = step.name();
        eprintln!("\n==> ci [{}/{}] {name}", i + 1, STEPS.len());
        let (step_start, step_cpu) = (Instant::now(), cpu_seconds());
        let result = step.run(root);
        let cpu = step_cpu.zip(cpu_seconds()).map(|(before, after)| after - before);
        timings.push(Timing { name: name.clone(), wall: step_start.elapsed(), cpu });
        if let Err(err) = result {
            print_timings(&timings);
            return Err(err.context(format!("ci failed at step {}/{}: {name}", i + 1, STEPS.len())));
        }
    }
    print_timings(&timings);
    let cpu = cpu_start.zip(cpu_seconds()).map_or_else(String::new, |(before, after)| format!(", {:.1}s of CPU", after - before));
    eprintln!("==> ci passed: {} steps in {:.1}s{cpu}", STEPS.len(), start.elapsed().as_secs_f64());
    Ok(())
}

fn print_timings(timings: &[Timing]) {
    // CPU time is the figure to compare between runs on a shared machine: wall time depends on
    // what else runs, CPU time far less.
    eprintln!("\n==> ci timings (wall, CPU = user + system of this process and every process it waited for)");
    for Timing { name, wall, cpu } in timings {
        let cpu = cpu.map_or_else(|| "       ?".to_owned(), |cpu| format!("{cpu:>7.1}s"));
        eprintln!("{:>8.1}s {cpu}  {name}", wall.as_secs_f64());
    }
}

/// User and system CPU seconds of this process and of its waited-for descendants (cargo waits
/// for rustc, tests for what they spawn), from `/proc/self/stat`; `None` off Linux.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces, so split after its `)`): utime,
    // stime, cutime and cstime are fields 14 to 17 of proc(5), in clock ticks.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11..15)?.iter().map(|f| f.parse::<u64>().ok()).sum::<Option<u64>>()?;
    Some(ticks as f64 / CLOCK_TICKS_PER_SECOND)
}

/// `sysconf(_SC_CLK_TCK)`: 100 on every Linux target Rust supports (the kernel's `USER_HZ`).
const CLOCK_TICKS_PER_SECOND: f64 = 100.0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_os = "linux")]
    fn cpu_time_is_read_and_counts_waited_for_children() {
        let before = cpu_seconds().expect("/proc/self/stat is readable on Linux");
        // A child that spends CPU: its time joins this process's cutime/cstime once waited for.
        let status = Command::new("sh").args(["-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"]).status().expect("sh runs");
        assert!(status.success());
        let after = cpu_seconds().expect("/proc/self/stat is readable on Linux");
        assert!(after > before, "the child's CPU time is counted: {before} -> {after}");
    }
}
