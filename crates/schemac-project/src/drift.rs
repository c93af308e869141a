//! What `check` reports and `write` did: each file of a generated crate that differs from what
//! codegen produces (changed, missing or stale), with its diff.

use std::fmt;

/// Every difference between the generated crates and the disk, in path order per crate.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Drift {
    pub changes: Vec<Change>,
}

impl Drift {
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    pub fn len(&self) -> usize {
        self.changes.len()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Change> {
        self.changes.iter()
    }
}

impl fmt::Display for Drift {
    /// Each change with its unified diff (cut at `DIFF_LINES` lines per file).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for change in &self.changes {
            write!(f, "{change}")?;
        }
        Ok(())
    }
}

/// How one file on disk differs from what codegen produces.
#[derive(Debug, PartialEq, Eq)]
pub enum Change {
    /// The file exists with other contents; `diff` is a unified diff from disk to generated.
    Changed { path: String, diff: String },
    /// Codegen produces the file; it is not on disk.
    Missing { path: String },
    /// The file is on disk in a generated crate's `src/` (or generated part of `tests/`), but
    /// nothing generates it any more.
    Stale { path: String },
}

impl Change {
    pub fn path(&self) -> &str {
        match self {
            Change::Changed { path, .. } | Change::Missing { path } | Change::Stale { path } => path,
        }
    }
}

/// The lines of a diff shown per file; the rest is summarized.
const DIFF_LINES: usize = 40;

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::Changed { path, diff } => {
                writeln!(f, "{path}: differs from what the schemas generate")?;
                let lines: Vec<&str> = diff.lines().collect();
                for line in lines.iter().take(DIFF_LINES) {
                    writeln!(f, "    {line}")?;
                }
                if lines.len() > DIFF_LINES {
                    writeln!(f, "    ... {} more diff lines", lines.len() - DIFF_LINES)?;
                }
                Ok(())
            }
            Change::Missing { path } => writeln!(f, "{path}: missing; codegen generates it"),
            Change::Stale { path } => writeln!(f, "{path}: stale; no schema generates it any more"),
        }
    }
}
