//! The ratchet: `tests/conformance/baseline.json` lists the ids of the cases that passed when
//! it was last blessed. A run fails if any of them no longer passes.

use std::collections::BTreeSet;
use std::fs;
use std::io::ErrorKind;
use std::path::Path;

use anyhow::{Context, Result};

/// How the cases that pass now differ from the baseline.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Diff {
    /// In the baseline, not passing now: regressions.
    pub regressed: Vec<String>,
    /// Passing now, not in the baseline: progress to bless.
    pub improved: Vec<String>,
}

/// Compares in the order of `passing_now`'s ids (suite order), then the baseline's leftovers.
pub fn diff(baseline: &[String], passing_now: &[String]) -> Diff {
    let before: BTreeSet<&str> = baseline.iter().map(String::as_str).collect();
    let now: BTreeSet<&str> = passing_now.iter().map(String::as_str).collect();
    Diff {
        regressed: baseline.iter().filter(|id| !now.contains(id.as_str())).cloned().collect(),
        improved: passing_now.iter().filter(|id| !before.contains(id.as_str())).cloned().collect(),
    }
}

/// The baseline's ids; none when the file does not exist yet.
pub fn load(path: &Path) -> Result<Option<Vec<String>>> {
    match fs::read_to_string(path) {
        Ok(text) => {
            let ids: Vec<String> =
                serde_json::from_str(&text).with_context(|| format!("{} is not a JSON array of case ids", path.display()))?;
            Ok(Some(ids))
        }
        Err(err) if err.kind() == ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// The file's text: one id per line, in suite order, so a bless diffs line by line.
pub fn render(passing: &[String]) -> String {
    let mut text = String::from("[\n");
    for (i, id) in passing.iter().enumerate() {
        let comma = if i + 1 == passing.len() { "" } else { "," };
        text.push_str(&format!("  {}{comma}\n", serde_json::Value::String(id.clone())));
    }
    text.push_str("]\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn regressions_and_improvements() {
        let baseline = ids(&["draft7/type/0/0", "draft7/type/0/1", "draft7/type/1/0"]);
        let now = ids(&["draft7/type/0/0", "draft7/type/0/2", "draft7/type/1/0", "draft7/type/1/1"]);
        assert_eq!(
            diff(&baseline, &now),
            Diff { regressed: ids(&["draft7/type/0/1"]), improved: ids(&["draft7/type/0/2", "draft7/type/1/1"]) }
        );
        assert_eq!(diff(&now, &now), Diff::default());
    }

    #[test]
    fn ids_missing_from_the_run_are_regressions() {
        assert_eq!(diff(&ids(&["draft7/gone/0/0"]), &[]).regressed, ids(&["draft7/gone/0/0"]));
    }

    #[test]
    fn renders_one_id_per_line_and_reads_back() {
        let passing = ids(&["draft7/a/0/0", "draft2020-12/b/1/2"]);
        let text = render(&passing);
        assert_eq!(text, "[\n  \"draft7/a/0/0\",\n  \"draft2020-12/b/1/2\"\n]\n");
        assert_eq!(render(&[]), "[\n]\n");
        let path = std::env::temp_dir().join(format!("xtask-baseline-{}.json", std::process::id()));
        fs::write(&path, &text).unwrap();
        let loaded = load(&path).unwrap();
        let _ = fs::remove_file(&path);
        assert_eq!(loaded, Some(passing));
        assert_eq!(load(Path::new("/nonexistent/baseline.json")).unwrap(), None);
    }
}
