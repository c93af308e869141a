//! Running a driver binary over the cases and reading back what it observed. A case that
//! takes the process down (a stack overflow cannot be caught) is recorded as crashed and the
//! driver restarted after it.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result, bail};
use serde::Serialize;
use serde::de::DeserializeOwned;

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

/// Runs every case through `driver`; `scratch` is where the case files go. The driver prints
/// one line `{"id": .., <O's fields>}` per case, in order; a case it dies on gets
/// `crashed(why)`.
pub fn run<C: Case, O: DeserializeOwned>(
    driver: &Path,
    scratch: &Path,
    cases: &[C],
    crashed: impl Fn(String) -> O,
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
        let output = Command::new(driver).arg(&file).output().with_context(|| format!("cannot run {}", driver.display()))?;
        let stdout = String::from_utf8_lossy(&output.stdout);
        let mut done = 0;
        for line in stdout.lines() {
            let record: Record<O> = serde_json::from_str(line).with_context(|| format!("the driver printed a bad line: {line}"))?;
            results.insert(record.id, record.observed);
            done += 1;
        }
        if output.status.success() {
            if done != rest.len() {
                bail!("the driver reported {done} of {} cases and exited successfully", rest.len());
            }
            break;
        }
        let stderr = String::from_utf8_lossy(&output.stderr);
        let Some(dead) = rest.get(done) else {
            bail!("the driver exited with {} after reporting every case: {}", output.status, stderr.trim());
        };
        let last = stderr.lines().rfind(|l| !l.trim().is_empty()).unwrap_or_default().trim();
        results.insert(dead.id().to_owned(), crashed(format!("crashed the driver ({}): {last}", output.status)));
        rest = &rest[done + 1..];
    }
    Ok(results)
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
    echo "{\"id\":\"$id\",\"accepted\":true,\"round_trip\":true,\"error\":null,\"panicked\":false}"
done < "$1"
"#;

    #[test]
    fn a_crash_is_blamed_on_its_case_and_the_rest_still_run() {
        let dir = std::env::temp_dir().join(format!("xtask-conformance-driver-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let driver = dir.join("driver.sh");
        fs::write(&driver, FAKE).unwrap();
        fs::set_permissions(&driver, fs::Permissions::from_mode(0o755)).unwrap();
        let data = Value::Null;
        let cases: Vec<Input<'_>> =
            ["a", "boom", "b", "boom", "c"].iter().map(|id| Input { id: id.to_string(), group: "g".to_owned(), data: &data }).collect();
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
}
