//! The project pipeline (the `schemac-project` crate, above the compiler and the synthesizer): `schemac.toml` → every file of a generated types crate (manifest,
//! `lib.rs` with the registry, one module per schema, README, round-trip tests and their data),
//! in memory; then written whole or checked against the disk.
//!
//! ```no_run
//! let project = schemac_project::Project::load("schemac.toml")?;
//! let files = project.generate()?;
//! let drift = files.check(project.root())?; // what `check` reports
//! files.write(project.root())?;             // what `codegen` does
//! # Ok::<(), schemac_project::Error>(())
//! ```
//!
//! `cargo xtask codegen|check` of a repository made by `schemac init`, `schemac codegen|check`
//! and this repository's own xtask are thin callers of this module.

pub mod api;
mod cache;
pub mod config;
mod drift;
pub(crate) mod error;
pub mod files;
pub mod included;
pub mod init;
pub mod krate;
pub mod release;
mod roundtrip;
mod schemas;
pub mod served;
mod sizes;
mod spec;

use std::path::{Path, PathBuf};

pub use config::{Config, ConfigError};
pub use error::{Error, ErrorKind};
pub use files::{Change, CrateFiles, Drift, Files};
pub use krate::{CrateSpec, REGENERATE_COMMAND, Unit, generate_crate};
pub use served::ServedSchema;

use error::Context as _;

/// A `schemac.toml` and the crates it describes.
#[derive(Debug)]
pub struct Project {
    /// The directory of `schemac.toml`; its paths are relative to it.
    root: PathBuf,
    config: Config,
    /// The configured crate first, then any a caller added ([`Project::with_crate`]).
    crates: Vec<CrateSpec>,
    /// Whether to reuse the output of an earlier run whose inputs did not change.
    cache: bool,
}

impl Project {
    /// Reads and validates `schemac.toml` at `path` (errors give file, key, line:column and a
    /// hint). Paths in it are relative to its directory.
    pub fn load(path: impl AsRef<Path>) -> Result<Project, Error> {
        let path = path.as_ref();
        let config = Config::load(path)?;
        let root = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let spec = CrateSpec::from_config(&config);
        ensure_output_apart(&config, &spec)?;
        Ok(Project { root, config, crates: vec![spec], cache: true })
    }

    /// The directory the configured paths are relative to.
    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The command named in generated headers (default [`REGENERATE_COMMAND`]).
    pub fn regenerate_command(mut self, command: &str) -> Project {
        for spec in &mut self.crates {
            spec.regenerate_command = command.to_owned();
        }
        self
    }

    /// Schemas of the configured crate whose paths start with `prefix` must be covered
    /// completely by synthesized instances: a gap stops generation.
    pub fn require_coverage(mut self, prefix: &str) -> Project {
        self.crates[0].require_coverage.push(prefix.to_owned());
        self
    }

    /// Whether [`generate`](Project::generate) reuses, for a crate whose inputs (its schemas,
    /// everything under its roots, its settings and the generator itself) did not change, the
    /// files of the last run, kept under `target/schemac-cache/` (default: yes).
    pub fn cache(mut self, cache: bool) -> Project {
        self.cache = cache;
        self
    }

    /// Whether the configured crate gets its synthesized round-trip tests (default: yes).
    pub fn round_trips(mut self, round_trips: bool) -> Project {
        self.crates[0].round_trips = round_trips;
        self
    }

    /// Generates another crate alongside (its paths relative to the same root).
    pub fn with_crate(mut self, spec: CrateSpec) -> Project {
        self.crates.push(spec);
        self
    }

    /// The crate `schemac.toml` describes, as [`generate`](Project::generate) will build it.
    pub fn spec(&self) -> &CrateSpec {
        &self.crates[0]
    }

    /// Compiles every schema and produces every file of every crate, in memory.
    pub fn generate(&self) -> Result<Files, Error> {
        self.check_schema_tables()?;
        use rayon::prelude::*;
        let cache_dir = self.root.join(cache::CACHE_DIR);
        // Crates are generated in parallel and kept in their order.
        let crates: Vec<Result<CrateFiles, Error>> = self
            .crates
            .par_iter()
            .map(|spec| {
                if self.cache
                    && let Some(cached) = cache::load(&cache_dir, &self.root, spec)
                {
                    return Ok(cached);
                }
                let krate = generate_crate(&self.root, spec)?;
                if self.cache {
                    cache::store(&cache_dir, &self.root, spec, &krate);
                }
                Ok(krate)
            })
            .collect();
        let mut files = Files::default();
        for krate in crates {
            files.push(krate?);
        }
        Ok(files)
    }
}

impl Project {
    /// Every `[schema."PATH"]` table names a schema under a root; found before compiling, so
    /// the error points at the table.
    fn check_schema_tables(&self) -> Result<(), Error> {
        let spec = self.spec();
        let roots: Vec<String> = spec.units.iter().flat_map(|u| u.roots.iter().cloned()).collect();
        let found = schemas::find_schemas(&self.root, &roots, spec.roots_required, &spec.config_file)?;
        for path in self.config.schema.keys() {
            if !found.iter().any(|f| &f.display == path) {
                let message = format!("names a schema that is not under schemas.roots {roots:?}");
                let hint = "write the schema's path relative to schemac.toml's directory, with `/`, as under a root".to_owned();
                return Err(self.config.schema_error(path, message, hint).into());
            }
        }
        Ok(())
    }
}

/// `codegen`: generates every crate and writes those that changed. Returns the report to
/// print: a line per file updated, created or deleted, then a summary.
pub fn codegen(project: &Project) -> Result<String, Error> {
    let files = project.generate()?;
    let drift = files.write(project.root())?;
    let mut report = String::new();
    for change in drift.iter() {
        let verb = match change {
            Change::Changed { .. } => "updated",
            Change::Missing { .. } => "created",
            Change::Stale { .. } => "deleted",
        };
        report.push_str(&format!("{verb} {}\n", change.path()));
    }
    report.push_str(&files.summary(drift.len()));
    Ok(report)
}

/// `check`: generates every crate in memory and compares it with the disk. Up to date, the
/// report to print; otherwise an error whose text is each file's unified diff and what to run
/// (`regenerate`, as printed: "`schemac codegen` (or `cargo xtask codegen`)").
pub fn check(project: &Project, regenerate: &str) -> Result<String, Error> {
    let files = project.generate()?;
    let drift = files.check(project.root())?;
    if !drift.is_empty() {
        return Err(Error::drift(drift, regenerate.to_owned()));
    }
    let mut report = format!("generated code is up to date ({})", files.summary(0));
    // Open enums read values their schema rejects: a tolerance the reader of CI logs should see.
    let open = files.open_enums();
    if !open.is_empty() {
        report.push_str(&format!(
            "\nopen enums ({}), a reader-side tolerance: they keep a value the schema does not list as `Other`, \
             accepting documents the schema rejects (`validate()` reports them): {}",
            open.len(),
            open.join(", ")
        ));
    }
    // With a baseline of the last release, the version must cover the changes since.
    if let Some(version) = release::check_version(project, Some(&files))? {
        report.push_str(&format!("\n{version}"));
    }
    Ok(report)
}

/// The generated crate's directory is replaced whole on every write, so it must hold none of
/// the inputs: not `schemac.toml`, not a schema root.
fn ensure_output_apart(config: &Config, spec: &CrateSpec) -> Result<(), Error> {
    let output = format!("{}/", spec.dir);
    for root in &config.schemas.roots {
        let (a, b) = (format!("{root}/"), output.as_str());
        if a.starts_with(b) || b.starts_with(&a) {
            return Err(ConfigError {
                file: config.file.clone(),
                key: Some("crate.output".to_owned()),
                position: None,
                message: format!("{:?} overlaps the schema root {root:?}", spec.dir),
                hint: Some(
                    "codegen replaces the output directory whole: put the crate in a directory of its own, e.g. \"generated\"".to_owned(),
                ),
            })
            .context("the generated crate would overwrite the schemas");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
