//! Running a driver binary over the cases and reading back what it observed. A case that
//! takes the process down (a stack overflow cannot be caught) is recorded as crashed and the
//! driver restarted after it; so is a case the driver spends longer than [`CASE_LIMIT`] on (a
//! read that does not end would otherwise hold CI until its own timeout).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// The longest a driver may take over one case before it is killed and the case blamed. Every
/// case reads one document or instance; the slowest seen takes well under a second.
pub const CASE_LIMIT: Duration = Duration::from_secs(30);

/// One case of the driver's input: serialized as one JSON line, `id` among its fields.
pub trait Case: Serialize {
    fn id(&self) -> &str;
}

#[derive(serde::Deserialize)]
struct Record<O> {
    id: String,
    #[serde(flatten)]
    observed: O,
}

/// How one run of the driver ended.
struct Run {
    /// The lines it printed, one per case done.
    lines: Vec<String>,
    /// `None` when it exited successfully.
    failure: Option<String>,
}

/// Runs every case through `driver`; `scratch` is where the case files go. The driver prints
/// one line `{"id": .., <O's fields>}` per case, in order; a case it dies on, or spends longer
/// than `limit` on, gets `crashed(why)`.
pub fn run<C: Case, O: DeserializeOwned>(
    driver: &Path,
    scratch: &Path,
    cases: &[C],
    crashed: impl Fn(String) -> O,
) -> Result<BTreeMap<String, O>> {
    run_with_limit(driver, scratch, cases, crashed, CASE_LIMIT)
}

fn run_with_limit<C: Case, O: DeserializeOwned>(
    driver: &Path,
    scratch: &Path,
    cases: &[C],
    crashed: impl Fn(String) -> O,
    limit: Duration,
) -> Result<BTreeMap<String, O>> {
    let mut results = BTreeMap::new();
    let mut rest = cases;
    while !rest.is_empty() {
        let file = scratch.join("cases.jsonl");
        let mut text = String::new();
        for case in rest {
            let line = serde_json::to_string(case).context("cannot serialize a case")?;
            let _ = writeln!(text, "{line}");
        }
        fs::write(&file, text).with_context(|| format!("cannot write {}", file.display()))?;
        let run = run_once(driver, &file, limit)?;
        let done = run.lines.len();
        for line in &run.lines {
            let record: Record<O> = serde_json::from_str(line).with_context(|| format!("the driver printed a bad line: {line}"))?;
            results.insert(record.id, record.observed);
        }
        let Some(failure) = run.failure else {
            if done != rest.len() {
                bail!("the driver reported {done} of {} cases and exited successfully", rest.len());
            }
            break;
        };
        let Some(dead) = rest.get(done) else {
            bail!("the driver failed after reporting every case: {failure}");
        };
        results.insert(dead.id().to_owned(), crashed(failure));
        rest = &rest[done + 1..];
    }
    Ok(results)
}

/// Runs the driver once over `file`, killing it when a case takes longer than `limit`.
fn run_once(driver: &Path, file: &Path, limit: Duration) -> Result<Run> {
    let mut child = Command::new(driver)
        .arg(file)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot run {}", driver.display()))?;
    let stdout = child.stdout.take().context("the driver's stdout")?;
    let mut stderr = child.stderr.take().context("the driver's stderr")?;
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let errors = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let mut lines = Vec::new();
    let mut timed_out = false;
    loop {
        match rx.recv_timeout(limit) {
            Ok(line) => lines.push(line),
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => {
                timed_out = true;
                let _ = child.kill();
                break;
            }
        }
    }
    let status = child.wait().with_context(|| format!("cannot wait for {}", driver.display()))?;
    let _ = reader.join();
    let stderr = errors.join().unwrap_or_default();
    let failure = if timed_out {
        Some(format!("took longer than {} s: the driver was killed", limit.as_secs()))
    } else if status.success() {
        None
    } else {
        let last = stderr.lines().rfind(|l| !l.trim().is_empty()).unwrap_or_default().trim();
        Some(format!("crashed the driver ({status}): {last}"))
    };
    Ok(Run { lines, failure })
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use serde_json::Value;

    use super::*;
    use crate::conformance::driver::{Input, Observed};

    /// A stand-in driver: accepts every case, and dies (as on a stack overflow) at id `boom`.
    const FAKE: &str = r#"#!/bin/sh
while IFS= read -r line; do
    id=$(printf '%s' "$line" | sed 's/.*"id":"\([^"]*\)".*/\1/')
    if [ "$id" = boom ]; then echo "thread 'main' has overflowed its stack" >&2; exit 134; fi
    if [ "$id" = hang ]; then exec sleep 60; fi
    echo "{\"id\":\"$id\",\"accepted\":true,\"round_trip\":true,\"error\":null,\"panicked\":false}"
done < "$1"
"#;

    /// A scratch directory holding [`FAKE`] as an executable `driver.sh`.
    fn fake_driver(name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("xtask-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let driver = dir.join("driver.sh");
        fs::write(&driver, FAKE).unwrap();
        fs::set_permissions(&driver, fs::Permissions::from_mode(0o755)).unwrap();
        (dir, driver)
    }

    fn inputs<'a>(ids: &[&str], data: &'a Value) -> Vec<Input<'a>> {
        ids.iter().map(|id| Input { id: id.to_string(), group: "g".to_owned(), data }).collect()
    }

    #[test]
    fn a_crash_is_blamed_on_its_case_and_the_rest_still_run() {
        let (dir, driver) = fake_driver("driver-crash");
        let data = Value::Null;
        let cases = inputs(&["a", "boom", "b", "boom", "c"], &data);
        let results = run(&driver, &dir, &cases, Observed::crashed);
        let _ = fs::remove_dir_all(&dir);
        let results = results.unwrap();
        assert_eq!(results.keys().collect::<Vec<_>>(), ["a", "b", "boom", "c"]);
        assert!(results["a"].accepted && !results["a"].panicked);
        let boom = &results["boom"];
        assert!(boom.panicked && !boom.accepted, "{boom:?}");
        let error = boom.error.as_deref().unwrap_or_default();
        assert!(error.contains("crashed the driver") && error.contains("overflowed its stack"), "{error}");
    }

    #[test]
    fn a_case_that_does_not_end_is_killed_blamed_and_the_rest_still_run() {
        let (dir, driver) = fake_driver("driver-hang");
        let data = Value::Null;
        let cases = inputs(&["a", "hang", "b"], &data);
        let results = run_with_limit(&driver, &dir, &cases, Observed::crashed, Duration::from_millis(500));
        let _ = fs::remove_dir_all(&dir);
        let results = results.unwrap();
        assert_eq!(results.keys().collect::<Vec<_>>(), ["a", "b", "hang"]);
        assert!(results["a"].accepted && results["b"].accepted);
        let hang = &results["hang"];
        assert!(hang.panicked && !hang.accepted, "{hang:?}");
        let error = hang.error.as_deref().unwrap_or_default();
        assert!(error.contains("the driver was killed"), "{error}");
        assert!(results["a"].accepted && results["b"].accepted);
        let hang = &results["hang"];
        assert!(hang.panicked && !hang.accepted, "{hang:?}");
        assert!(hang.error.as_deref().unwrap_or_default().contains("took longer than"), "{hang:?}");
    }
}
