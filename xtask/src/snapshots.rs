//! Snapshot hygiene without the cargo-insta binary: CI fails on pending snapshots
//! (`*.snap.new`, `*.pending-snap`) and on `.snap` files nothing produces any more — a snapshot
//! whose test file or `input_file` is gone (what `cargo insta test --unreferenced=reject` does).

use std::fs;
use std::path::Path;

use anyhow::{Context, Result, bail};

/// Where the snapshot tests live, relative to the repository root.
const TESTS_DIR: &str = "tests";

/// The `cargo xtask ci` step.
pub fn check(root: &Path) -> Result<()> {
    let mut files = Vec::new();
    walk(&root.join(TESTS_DIR), &mut files)?;
    let mut problems = Vec::new();
    let mut snapshots = 0;
    for path in &files {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let shown = path.strip_prefix(root).unwrap_or(path).display().to_string();
        if name.ends_with(".snap.new") || name.ends_with(".pending-snap") {
            problems.push(format!("{shown}: pending snapshot; review it (accept by renaming to .snap, or delete it)"));
        } else if name.ends_with(".snap") {
            snapshots += 1;
            let text = fs::read_to_string(path).with_context(|| format!("cannot read {shown}"))?;
            problems.extend(unreferenced(root, &shown, &text));
        }
    }
    if !problems.is_empty() {
        bail!("{} snapshot problem(s):\n{}", problems.len(), problems.join("\n"));
    }
    println!("{snapshots} snapshots, none pending or unreferenced");
    Ok(())
}

/// Why the snapshot `shown` (with contents `text`) is unreferenced, if it is: its header's
/// `source:` test file or `input_file:` is missing.
fn unreferenced(root: &Path, shown: &str, text: &str) -> Vec<String> {
    let header: Vec<&str> = text.lines().skip(1).take_while(|line| *line != "---").collect();
    let field = |key: &str| header.iter().find_map(|line| line.strip_prefix(key)).map(str::trim);
    let mut out = Vec::new();
    for key in ["source:", "input_file:"] {
        match field(key) {
            Some(file) if !root.join(file).is_file() => out.push(format!("{shown}: unreferenced; its {key} {file} does not exist")),
            None if key == "source:" => out.push(format!("{shown}: no `source:` in its header")),
            _ => {}
        }
    }
    out
}

/// Every file under `dir`, skipping build output.
fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) -> Result<()> {
    let Ok(entries) = fs::read_dir(dir) else { return Ok(()) };
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
        let path = entry.path();
        if entry.file_type().with_context(|| format!("cannot stat {}", path.display()))?.is_dir() {
            if path.file_name().is_some_and(|n| n == "target") {
                continue;
            }
            walk(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_whose_input_is_gone_is_unreferenced() {
        let root = crate::codegen::project_root();
        let text = "---\nsource: tests/tests/snapshots.rs\ninput_file: tests/fixtures/gone.json\n---\ncode\n";
        let problems = unreferenced(&root, "x.snap", text);
        assert_eq!(problems, ["x.snap: unreferenced; its input_file: tests/fixtures/gone.json does not exist"]);
        let text = "---\nsource: tests/tests/snapshots.rs\ninput_file: tests/fixtures/anchor.json\n---\ncode\n";
        assert!(unreferenced(&root, "y.snap", text).is_empty());
    }
}
