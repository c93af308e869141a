//! `cargo xtask codegen` and `check`: this repository's crates, through `schemac::project`.
//!
//! `schemac.toml` describes the published crate; this repository adds crates of its own to the
//! same run: the fixtures (to prove their code builds), the plain-serde benchmark baseline, and
//! the goal schema's history.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use schemac::project::{CrateSpec, Files, Project, REGENERATE_COMMAND, Unit};

/// The snapshot tests' fixture schemas, and those compiled with `format` asserted.
const FIXTURE_ROOT: &str = "tests/fixtures";
const FIXTURE_FORMATS_ROOT: &str = "tests/fixtures-formats";
const FIXTURE_CRATE_DIR: &str = "tests/fixture-types";

/// Every published version of the goal schema (`tests/tests/history.rs`).
const HISTORY_ROOT: &str = "tests/history";
const HISTORY_CRATE_DIR: &str = "tests/history-types";

/// The configured schemas with plain serde derives and no checks, for the benchmark's baseline.
const PLAIN_CRATE_DIR: &str = "bench/plain-types";

/// The product's own schemas: every target must be covered by a synthesized instance.
const BUNDLED: &str = "schemas/";

/// Every crate this repository generates, in memory.
pub fn generate(root: &Path) -> Result<Files> {
    let project = Project::load(root.join(schemac::project::config::FILE_NAME))?.require_coverage(BUNDLED);
    let published = project.spec().clone();
    let project =
        project.with_crate(fixture_spec(&published)).with_crate(plain_spec(&published)).with_crate(history_spec(root, &published)?);
    Ok(project.generate()?)
}

/// `cargo xtask codegen`: writes the crates whose files changed.
pub fn codegen(root: &Path) -> Result<()> {
    let files = generate(root)?;
    let drift = files.write(root)?;
    for change in drift.iter() {
        let verb = match change {
            schemac::project::Change::Changed { .. } => "updated",
            schemac::project::Change::Missing { .. } => "created",
            schemac::project::Change::Stale { .. } => "deleted",
        };
        println!("{verb} {}", change.path());
    }
    println!("{}", files.summary(drift.len()));
    Ok(())
}

/// `cargo xtask check`: fails, showing where, if the files on disk are not what codegen writes.
pub fn check(root: &Path) -> Result<()> {
    let files = generate(root)?;
    let drift = files.check(root)?;
    if drift.is_empty() {
        println!("generated code is up to date ({})", files.summary(0));
        return Ok(());
    }
    eprint!("{drift}");
    let n = drift.len();
    bail!("{n} generated file{} out of date; run `{REGENERATE_COMMAND}` and commit", if n == 1 { " is" } else { "s are" })
}

/// The configured schemas again, as plain serde structs (see `schemac::Config::plain_serde`).
fn plain_spec(published: &CrateSpec) -> CrateSpec {
    CrateSpec {
        dir: PLAIN_CRATE_DIR.to_owned(),
        name: "plain-types".to_owned(),
        version: "0.0.0".to_owned(),
        description: format!("The schemas of `{}` as plain serde derives with no checks: the benchmark's baseline", published.config_file),
        publish: false,
        units: published.units.iter().map(|u| Unit { roots: u.roots.clone(), assert_formats: false, plain_serde: true }).collect(),
        require_coverage: Vec::new(),
        ..published.clone()
    }
}

fn fixture_spec(published: &CrateSpec) -> CrateSpec {
    CrateSpec {
        dir: FIXTURE_CRATE_DIR.to_owned(),
        name: "fixture-types".to_owned(),
        version: "0.0.0".to_owned(),
        description: format!("The snapshot-test fixtures under `{FIXTURE_ROOT}/`, compiled to prove their code builds"),
        publish: false,
        units: vec![
            Unit { roots: vec![FIXTURE_ROOT.to_owned()], assert_formats: false, plain_serde: false },
            Unit { roots: vec![FIXTURE_FORMATS_ROOT.to_owned()], assert_formats: true, plain_serde: false },
        ],
        root_names: Default::default(),
        references: Default::default(),
        versions: Default::default(),
        roots_required: false,
        round_trips: true,
        require_coverage: Vec::new(),
        ..published.clone()
    }
}

/// The goal schema's history, a unit per version (they share one `$id`), each a module of its
/// own. Tested by instance tests of their own: the synthesized round trips of 31 versions of
/// one schema would add little but build time.
fn history_spec(root: &Path, published: &CrateSpec) -> Result<CrateSpec> {
    // As with the fixtures, none (a scratch repository) gives an empty crate.
    let versions = schemac::project::krate::schema_paths(root, &[HISTORY_ROOT.to_owned()])?;
    let units: Vec<Unit> =
        versions.iter().map(|path| Unit { roots: vec![path.clone()], assert_formats: false, plain_serde: false }).collect();
    // The title changed over time; the root keeps one name so the tests read alike.
    let root_names = versions.iter().map(|path| (path.clone(), "Goal".to_owned())).collect();
    Ok(CrateSpec {
        dir: HISTORY_CRATE_DIR.to_owned(),
        name: "history-types".to_owned(),
        description: format!("Every published version of the goal schema, under `{HISTORY_ROOT}/`, compiled for the history tests"),
        units,
        root_names,
        round_trips: false,
        ..fixture_spec(published)
    })
}

/// The repository root, where `schemac.toml` is.
pub fn project_root() -> PathBuf {
    let xtask = Path::new(env!("CARGO_MANIFEST_DIR"));
    xtask.parent().unwrap_or(xtask).to_path_buf()
}
