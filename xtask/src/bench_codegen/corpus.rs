//! The codegen benchmark on real schemas: every target of the SchemaStore corpus beside the
//! checkout, compiled by `schemac compile` (release) and by the `cargo-typify` binary called
//! directly (no cargo dispatch), whole process per run, the two taking turns.
//!
//! Each schema is run `rounds` times (three by default) per tool and side, the tool that goes first swapping
//! every round, so that a shared machine's load falls on both alike; a schema's time is its
//! median. Wall times are of the processes run directly; CPU times (user + system, what a
//! loaded machine distorts least) are of the same commands run once more per round under
//! `perf stat -e task-clock`, which counts the command's own time only. Two sides: builders on both (`schemac compile`, `cargo typify`) and builders off on
//! both (`--no-builders`, `--no-builder`). A schema counts on a side when both tools compile
//! it on every run of that side and typify's output declares a type: on some schemas (no
//! `definitions`, an untitled root) `cargo typify` succeeds with nothing but its error
//! module, which is no translation to compare with. Every
//! schema's figures also go to `corpus.tsv` beside the report.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::corpus::{CORPUS, read_targets};
use crate::harness::driver::CASE_LIMIT;

/// Runs per schema, tool and side, unless told otherwise.
pub const ROUNDS: usize = 3;
/// Catalog URL prefixes, mapped to the corpus's schema directory as a user would map them.
const CATALOG_URLS: [&str; 2] = ["https://json.schemastore.org/", "https://www.schemastore.org/"];

/// One side of the comparison: the flags each tool gets.
pub(super) struct Side {
    pub(super) title: &'static str,
    schemac: &'static [&'static str],
    typify: &'static [&'static str],
}

pub(super) const SIDES: [Side; 2] = [
    Side { title: "builders on both sides", schemac: &[], typify: &[] },
    Side { title: "no builders on either side", schemac: &["--no-builders"], typify: &["--no-builder"] },
];

/// One schema measured on one side: median wall and CPU times and the lines each tool wrote.
struct Measured {
    name: String,
    bytes: u64,
    schemac: Duration,
    typify: Duration,
    schemac_cpu: Duration,
    typify_cpu: Duration,
    schemac_lines: usize,
    typify_lines: usize,
}

impl Measured {
    /// How many times faster schemac is on this schema (above 1: faster).
    fn speedup(&self) -> f64 {
        self.typify.as_secs_f64() / self.schemac.as_secs_f64().max(1e-9)
    }

    /// The same in CPU time.
    fn cpu_speedup(&self) -> f64 {
        self.typify_cpu.as_secs_f64() / self.schemac_cpu.as_secs_f64().max(1e-9)
    }
}

/// What became of the targets on one side.
#[derive(Default)]
struct Outcome {
    both: Vec<Measured>,
    schemac_only: usize,
    typify_only: usize,
    neither: usize,
    /// Both compiled, but typify's output declares no type.
    typify_empty: usize,
}

/// Measures every corpus target and returns the report (Markdown). Without the corpus it
/// fails: the caller asked for it.
pub fn run(root: &Path, schemac: &Path, typify: &Path, work: &Path, rounds: usize) -> Result<String> {
    let corpus = root.join(CORPUS);
    if !corpus.join("targets.txt").is_file() {
        bail!("no corpus at {} (the benchmark of real schemas needs it beside the checkout)", corpus.display());
    }
    let schema_dir = corpus.join("schemas/json");
    let targets = read_targets(&corpus)?;
    let out = work.join("corpus-out");
    fs::create_dir_all(&out)?;
    let mut outcomes = Vec::new();
    for side in &SIDES {
        eprintln!("bench codegen: {} targets, {}", targets.len(), side.title);
        let mut outcome = Outcome::default();
        for (index, name) in targets.iter().enumerate() {
            let path = schema_dir.join(format!("{name}.json"));
            let schemac_run = |out_file: &Path| schemac_command(schemac, &path, &schema_dir, side, out_file);
            let typify_run = |out_file: &Path| typify_command(typify, &path, side, out_file);
            let (s_file, t_file) = (out.join("schemac.rs"), out.join("typify.rs"));
            let (mut s_times, mut t_times, mut s_cpu, mut t_cpu) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            let (mut s_ok, mut t_ok) = (true, true);
            for round in 0..rounds.max(1) {
                let mut turn = |first: bool| -> Result<()> {
                    if first {
                        let (time, ok) = timed(&mut schemac_run(&s_file))?;
                        let (cpu, cpu_ok) = cpu_time(&schemac_run(&s_file), work)?;
                        s_ok &= ok && cpu_ok;
                        s_times.push(time);
                        s_cpu.push(cpu);
                    } else {
                        let (time, ok) = timed(&mut typify_run(&t_file))?;
                        let (cpu, cpu_ok) = cpu_time(&typify_run(&t_file), work)?;
                        t_ok &= ok && cpu_ok;
                        t_times.push(time);
                        t_cpu.push(cpu);
                    }
                    Ok(())
                };
                let schemac_first = round % 2 == 0;
                turn(schemac_first)?;
                turn(!schemac_first)?;
                if !(s_ok && t_ok) {
                    break;
                }
            }
            match (s_ok, t_ok) {
                (true, true) if !declares_a_type(&fs::read_to_string(&t_file)?) => outcome.typify_empty += 1,
                (true, true) => outcome.both.push(Measured {
                    name: name.clone(),
                    bytes: fs::metadata(&path).map(|m| m.len()).unwrap_or(0),
                    schemac: median(&mut s_times),
                    typify: median(&mut t_times),
                    schemac_cpu: median(&mut s_cpu),
                    typify_cpu: median(&mut t_cpu),
                    schemac_lines: line_count(&s_file)?,
                    typify_lines: line_count(&t_file)?,
                }),
                (true, false) => outcome.schemac_only += 1,
                (false, true) => outcome.typify_only += 1,
                (false, false) => outcome.neither += 1,
            }
            if (index + 1) % 50 == 0 {
                eprintln!("  {} of {}", index + 1, targets.len());
            }
        }
        outcomes.push(outcome);
    }
    fs::write(work.join("corpus.tsv"), tsv(&outcomes))?;
    Ok(report(targets.len(), &outcomes))
}

/// `schemac compile` of `path` on `side`, writing `out_file`, with the catalog's URLs mapped
/// to the corpus's schema directory `schema_dir`.
pub(super) fn schemac_command(schemac: &Path, path: &Path, schema_dir: &Path, side: &Side, out_file: &Path) -> Command {
    let mut command = Command::new(schemac);
    command.arg("compile").arg(path).args(side.schemac).arg("-o").arg(out_file);
    for prefix in CATALOG_URLS {
        command.arg("--map").arg(format!("{prefix}={}", schema_dir.display()));
    }
    command
}

/// `cargo-typify` (called directly) on `path` on `side`, writing `out_file`.
pub(super) fn typify_command(typify: &Path, path: &Path, side: &Side, out_file: &Path) -> Command {
    let mut command = Command::new(typify);
    command.arg("typify").arg(path).args(side.typify).arg("-o").arg(out_file);
    command
}

/// Whether typify's output declares a type of the schema (its `error` module aside).
pub(super) fn declares_a_type(code: &str) -> bool {
    code.lines().map(str::trim_start).any(|line| {
        ["pub struct ", "pub enum ", "pub type "].iter().any(|item| line.starts_with(item))
            && !line.starts_with("pub struct ConversionError")
    })
}

/// Every measured schema, one line each: side, name, bytes, wall and CPU milliseconds of each
/// tool, lines of each.
fn tsv(outcomes: &[Outcome]) -> String {
    let mut text = String::from("side\tschema\tbytes\tschemac_ms\ttypify_ms\tschemac_cpu_ms\ttypify_cpu_ms\tschemac_lines\ttypify_lines\n");
    for (side, outcome) in SIDES.iter().zip(outcomes) {
        for m in &outcome.both {
            let _ = writeln!(
                text,
                "{}\t{}\t{}\t{:.1}\t{:.1}\t{:.1}\t{:.1}\t{}\t{}",
                side.title,
                m.name,
                m.bytes,
                ms(m.schemac),
                ms(m.typify),
                ms(m.schemac_cpu),
                ms(m.typify_cpu),
                m.schemac_lines,
                m.typify_lines
            );
        }
    }
    text
}

/// The Markdown report: one column per side, then the schemas where schemac is slower.
fn report(targets: usize, outcomes: &[Outcome]) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "### Real schemas: the SchemaStore corpus ({targets} targets), `schemac compile` against the `cargo-typify` binary\n"
    );
    let _ = write!(text, "| Measure |");
    for side in &SIDES {
        let _ = write!(text, " {} |", side.title);
    }
    let _ = write!(text, "\n|---|");
    for _ in &SIDES {
        let _ = write!(text, "---:|");
    }
    text.push('\n');
    let row = |text: &mut String, title: &str, cell: &dyn Fn(&Outcome) -> String| {
        let _ = write!(text, "| {title} |");
        for outcome in outcomes {
            let _ = write!(text, " {} |", cell(outcome));
        }
        text.push('\n');
    };
    row(&mut text, "schemas both tools compile (typify declaring a type)", &|o| o.both.len().to_string());
    row(&mut text, "both compile, typify declares no type (left out)", &|o| o.typify_empty.to_string());
    row(&mut text, "only schemac compiles / only typify / neither", &|o| format!("{} / {} / {}", o.schemac_only, o.typify_only, o.neither));
    row(&mut text, "schemac total (sum of medians)", &|o| seconds(o.both.iter().map(|m| m.schemac).sum()));
    row(&mut text, "typify total (sum of medians)", &|o| seconds(o.both.iter().map(|m| m.typify).sum()));
    row(&mut text, "**speed-up in total** (typify time / schemac time)", &|o| {
        let (s, t): (Duration, Duration) = (o.both.iter().map(|m| m.schemac).sum(), o.both.iter().map(|m| m.typify).sum());
        format!("**{:.2}×**", t.as_secs_f64() / s.as_secs_f64().max(1e-9))
    });
    for (title, q) in [("min", 0.0), ("10th percentile", 0.1), ("median", 0.5), ("90th percentile", 0.9), ("max", 1.0)] {
        row(&mut text, &format!("per-schema speed-up, {title}"), &|o| format!("{:.2}×", quantile(o, q, Measured::speedup)));
    }
    row(&mut text, "schemas where schemac is slower", &|o| o.both.iter().filter(|m| m.speedup() < 1.0).count().to_string());
    row(&mut text, "CPU time, schemac / typify", &|o| {
        let (s, t): (Duration, Duration) = (o.both.iter().map(|m| m.schemac_cpu).sum(), o.both.iter().map(|m| m.typify_cpu).sum());
        format!("{} / {} (**{:.2}×** faster)", seconds(s), seconds(t), t.as_secs_f64() / s.as_secs_f64().max(1e-9))
    });
    row(&mut text, "per-schema CPU speed-up, min / median", &|o| {
        format!("{:.2}× / {:.2}×", quantile(o, 0.0, Measured::cpu_speedup), quantile(o, 0.5, Measured::cpu_speedup))
    });
    row(&mut text, "schemas where schemac takes more CPU", &|o| o.both.iter().filter(|m| m.cpu_speedup() < 1.0).count().to_string());
    row(&mut text, "lines written, schemac / typify", &|o| {
        let (s, t): (usize, usize) = (o.both.iter().map(|m| m.schemac_lines).sum(), o.both.iter().map(|m| m.typify_lines).sum());
        format!("{s} / {t} ({:.2}×)", s as f64 / t.max(1) as f64)
    });
    for (side, outcome) in SIDES.iter().zip(outcomes) {
        let mut slower: Vec<&Measured> = outcome.both.iter().filter(|m| m.speedup() < 1.0 || m.cpu_speedup() < 1.0).collect();
        slower.sort_by(|a, b| a.cpu_speedup().total_cmp(&b.cpu_speedup()));
        let _ = writeln!(text, "\nSlower than typify in wall or CPU time, {} ({}):", side.title, slower.len());
        for m in slower {
            let _ = writeln!(
                text,
                "- `{}` ({}): wall {:.1} ms vs {:.1} ms ({:.2}×), CPU {:.1} ms vs {:.1} ms ({:.2}×), {} lines vs {}",
                m.name,
                size(m.bytes),
                ms(m.schemac),
                ms(m.typify),
                m.speedup(),
                ms(m.schemac_cpu),
                ms(m.typify_cpu),
                m.cpu_speedup(),
                m.schemac_lines,
                m.typify_lines
            );
        }
    }
    text
}

/// The per-schema speed-up (`speedup` of each) at quantile `q` (nearest rank), or 0 when
/// nothing was measured.
fn quantile(outcome: &Outcome, q: f64, speedup: fn(&Measured) -> f64) -> f64 {
    quantile_of(outcome.both.iter().map(speedup).collect(), q)
}

/// The quantile `q` of `values` (nearest rank), or 0 when there is none.
pub(super) fn quantile_of(mut values: Vec<f64>, q: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let rank = ((values.len() - 1) as f64 * q).round() as usize;
    values[rank]
}

pub(super) fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

pub(super) fn line_count(path: &Path) -> Result<usize> {
    Ok(fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?.lines().count())
}

pub(super) fn size(bytes: u64) -> String {
    if bytes < 1024 { format!("{bytes} B") } else { format!("{:.0} KB", bytes as f64 / 1024.0) }
}

pub(super) fn ms(time: Duration) -> f64 {
    time.as_secs_f64() * 1000.0
}

pub(super) fn seconds(time: Duration) -> String {
    format!("{:.2} s", time.as_secs_f64())
}

/// Runs `command` under `perf stat -e task-clock` (its stdout and stderr discarded): the CPU
/// time it took and whether it succeeded.
fn cpu_time(command: &Command, work: &Path) -> Result<(Duration, bool)> {
    let counts = work.join("perf-stat.txt");
    let mut perf = Command::new("perf");
    perf.args(["stat", "-x,", "-e", "task-clock", "-o"]).arg(&counts).arg("--").arg(command.get_program()).args(command.get_args());
    let (_, ok) = timed(&mut perf).context("cannot run perf (the CPU times need `perf stat`; Debian: linux-perf)")?;
    Ok((task_clock(&counts)?, ok))
}

/// The CPU time in the file of `perf stat -x, -e task-clock -o FILE`.
pub(super) fn task_clock(counts: &Path) -> Result<Duration> {
    let text = fs::read_to_string(counts).with_context(|| format!("perf wrote no {}", counts.display()))?;
    let msec = text
        .lines()
        .find_map(|line| line.split_once(",msec,task-clock").and_then(|(value, _)| value.parse::<f64>().ok()))
        .with_context(|| format!("no task-clock count in {}:\n{text}", counts.display()))?;
    Ok(Duration::from_secs_f64(msec / 1000.0))
}

/// Runs `command` to its end (killed past [`CASE_LIMIT`], which counts as a failure), its
/// output discarded: the wall time and whether it succeeded.
pub(super) fn timed(command: &mut Command) -> Result<(Duration, bool)> {
    let start = Instant::now();
    let mut child = command
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("cannot run {}", PathBuf::from(command.get_program()).display()))?;
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok((start.elapsed(), status.success()));
        }
        if start.elapsed() > CASE_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Ok((start.elapsed(), false));
        }
        std::thread::sleep(Duration::from_micros(200));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measured(name: &str, schemac_ms: u64, typify_ms: u64) -> Measured {
        Measured {
            name: name.to_owned(),
            bytes: 2048,
            schemac: Duration::from_millis(schemac_ms),
            typify: Duration::from_millis(typify_ms),
            schemac_cpu: Duration::from_millis(schemac_ms),
            typify_cpu: Duration::from_millis(typify_ms),
            schemac_lines: 10,
            typify_lines: 5,
        }
    }

    #[test]
    fn the_report_names_every_schema_where_schemac_is_slower_and_the_quantiles_come_from_the_ratios() {
        let outcome = Outcome {
            both: vec![measured("fast", 10, 40), measured("slow", 30, 10), measured("even", 20, 20)],
            schemac_only: 1,
            typify_only: 2,
            neither: 3,
            typify_empty: 4,
        };
        let quantiles = [0.0, 0.5, 1.0].map(|q| format!("{:.3}", quantile(&outcome, q, Measured::speedup)));
        assert_eq!(quantiles, ["0.333", "1.000", "4.000"]);
        let text = report(9, &[outcome, Outcome::default()]);
        assert!(text.contains("| schemas both tools compile (typify declaring a type) | 3 | 0 |"), "{text}");
        assert!(text.contains("| both compile, typify declares no type (left out) | 4 | 0 |"), "{text}");
        assert!(text.contains("| **speed-up in total** (typify time / schemac time) | **1.17×** |"), "{text}");
        assert!(text.contains("- `slow` (2 KB): wall 30.0 ms vs 10.0 ms (0.33×), CPU 30.0 ms vs 10.0 ms (0.33×), 10 lines vs 5"), "{text}");
        assert!(!text.contains("`even`") && !text.contains("`fast`"), "{text}");
    }

    #[test]
    fn typify_output_with_only_its_error_module_declares_no_type() {
        let empty = "pub mod error {\n    pub struct ConversionError(::std::borrow::Cow<'static, str>);\n}\n";
        assert!(!declares_a_type(empty));
        assert!(declares_a_type(&format!("{empty}pub struct Config {{\n    pub name: String,\n}}\n")));
        assert!(declares_a_type(&format!("{empty}    pub enum Mode {{\n        A,\n    }}\n")));
    }

    #[test]
    fn a_failing_process_is_a_failure_and_its_time_is_still_taken() {
        let (_, ok) = timed(&mut Command::new("false")).unwrap();
        assert!(!ok);
        let (_, ok) = timed(&mut Command::new("true")).unwrap();
        assert!(ok);
    }
}
