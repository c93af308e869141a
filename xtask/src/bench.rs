//! `cargo xtask bench`: runs the criterion benchmark of `bench/` and prints the table of
//! BENCHMARKS.md: each variant's median time and its ratio to plain serde measured in the
//! same run; then the interleaved benchmark, whose variants take turns so that a shared
//! machine's background load falls on all of them alike, and which prints its own table. Not
//! part of `ci` (it takes minutes and its numbers depend on the machine).

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

/// The payloads (criterion groups) in table order.
const GROUPS: [(&str, &str); 5] = [
    ("goal_small", "goal, one document"),
    ("goal_large", "goal ×1,000 (20 tasks, 20 audits each)"),
    ("goal_large_no_x", "the same without its `x-` properties"),
    ("attempts_small", "attempts report, one document"),
    ("attempts_large", "attempts report ×1,000"),
];

/// The variants (criterion functions) after the baseline, with their column titles.
const VARIANTS: [(&str, &str); 3] = [
    ("schemac", "schemac (`serde_json::from_str`)"),
    ("schemac_pointer_errors", "schemac (`schemac_runtime::from_str`)"),
    ("jsonschema_then_serde", "(b) jsonschema + `from_value`"),
];

const BASELINE: &str = "plain_serde";

/// Runs the benchmark (extra `args` go to criterion) and prints the ratios.
pub fn run(root: &Path, args: &[String]) -> Result<()> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(&cargo)
        .args(["bench", "-p", "schemac-bench", "--bench", "deserialize", "--"])
        .args(args)
        .current_dir(root)
        .status()
        .with_context(|| format!("cannot run {}", cargo.to_string_lossy()))?;
    if !status.success() {
        bail!("cargo bench exited with {status}");
    }
    print!("{}", table(&criterion_dir(root))?);
    let status = Command::new(&cargo)
        .args(["bench", "-p", "schemac-bench", "--bench", "interleaved"])
        .current_dir(root)
        .status()
        .with_context(|| format!("cannot run {}", cargo.to_string_lossy()))?;
    if !status.success() {
        bail!("cargo bench --bench interleaved exited with {status}");
    }
    Ok(())
}

/// Where criterion writes its estimates: under the cargo target directory.
fn criterion_dir(root: &Path) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    target.join("criterion")
}

/// The Markdown table of medians and ratios to the baseline.
fn table(dir: &Path) -> Result<String> {
    let mut out = String::from("| Payload | (a) plain serde |");
    for (_, title) in VARIANTS {
        out.push_str(&format!(" {title} |"));
    }
    out.push_str("\n|---|---:|");
    out.push_str(&"---:|".repeat(VARIANTS.len()));
    out.push('\n');
    for (group, title) in GROUPS {
        let baseline = median(dir, group, BASELINE)?;
        out.push_str(&format!("| {title} | {} |", duration(baseline)));
        for (variant, _) in VARIANTS {
            // Some payloads are measured with some variants only.
            let measured = dir.join(group).join(variant).exists();
            match median(dir, group, variant) {
                Ok(time) => out.push_str(&format!(" {} (**{:.2}×**) |", duration(time), time / baseline)),
                Err(err) if measured => return Err(err),
                Err(_) => out.push_str(" — |"),
            }
        }
        out.push('\n');
    }
    Ok(out)
}

/// The median time of one benchmark, in nanoseconds, from criterion's `estimates.json`.
fn median(dir: &Path, group: &str, function: &str) -> Result<f64> {
    let path = dir.join(group).join(function).join("new").join("estimates.json");
    let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}: did the benchmark run?", path.display()))?;
    let estimates: serde_json::Value = serde_json::from_str(&text).with_context(|| format!("{} is not JSON", path.display()))?;
    estimates
        .pointer("/median/point_estimate")
        .and_then(serde_json::Value::as_f64)
        .with_context(|| format!("{} has no median/point_estimate", path.display()))
}

fn duration(nanos: f64) -> String {
    match nanos {
        n if n >= 1e9 => format!("{:.2} s", n / 1e9),
        n if n >= 1e6 => format!("{:.2} ms", n / 1e6),
        n if n >= 1e3 => format!("{:.2} µs", n / 1e3),
        n => format!("{n:.0} ns"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_well() {
        assert_eq!(duration(850.0), "850 ns");
        assert_eq!(duration(12_345.0), "12.35 µs");
        assert_eq!(duration(81_200_000.0), "81.20 ms");
        assert_eq!(duration(2.5e9), "2.50 s");
    }
}
