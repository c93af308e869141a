//! `schemac init`, `schemac codegen` and `schemac check`: a repository's types crate from its
//! `schemac.toml`, through `schemac_project` (the same code as `cargo xtask codegen|check`).
//!
//! Exit codes: 0 on success; 1 when a schema has errors, `check` finds drift, or a file cannot
//! be read or written; 2 on a usage error or a missing or invalid `schemac.toml`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use schemac_project::{self, Project};

/// `schemac init`.
#[derive(Debug, Args)]
#[command(after_long_help = "\
Creates, where missing: schemac.toml, schemas/order.json (an example, unless schemas/ has a
schema), an xtask crate (xtask/) with the `cargo xtask` alias in .cargo/config.toml, a CI
workflow running `cargo xtask check` (.github/workflows/schemas.yml), and a workspace Cargo.toml
(an existing workspace gains the `xtask` member). A file that exists is never overwritten:
each one left alone is listed. Running it twice changes nothing.

Examples:
  Set up the current directory, then generate the crate:
    schemac init && cargo xtask codegen
  Set up another directory:
    schemac init path/to/repo")]
pub struct Init {
    /// The repository's directory (created if missing).
    #[arg(value_name = "DIR", default_value = ".")]
    pub dir: PathBuf,
}

/// `schemac codegen` and `schemac check`.
#[derive(Debug, Args)]
#[command(after_long_help = "\
Paths in the config are relative to its directory. `codegen` writes each crate whose files
changed, building it beside its directory and swapping it in, so a failure leaves the old crate.
A crate whose inputs (every file under its schema roots, the files their refs reach,
schemac.toml and schemac itself) did not change since the last run is taken from
target/schemac-cache/ instead of compiled; --no-cache compiles it anyway.
`check` writes nothing: it prints a unified diff of every file that differs (changed, missing or
stale) and exits 1.

Examples:
  schemac codegen
  schemac check --config services/api/schemac.toml
  schemac codegen --no-cache")]
pub struct ProjectArgs {
    /// The project's config file.
    #[arg(long, value_name = "FILE", default_value = "schemac.toml")]
    pub config: PathBuf,

    /// Compile every schema, ignoring the cache of the last run (target/schemac-cache/).
    #[arg(long)]
    pub no_cache: bool,
}

/// `schemac release`.
#[derive(Debug, Args)]
#[command(after_long_help = "\
Compares the schemas with the baseline of the last release (schemac.baseline.toml, beside
schemac.toml) and computes the version bump: the larger of each change's wire class for the
crate's role (crate.role: reader, writer or both) and its Rust API class; before 1.0.0 a
breaking change bumps the minor version. Then sets crate.version and the registry version of
each changed schema that has one (schema.\"PATH\".version) in schemac.toml, adds an entry to
the generated crate's CHANGELOG.md (breaking changes first, each with its place), refreshes
the baseline, regenerates the crate, and runs `cargo package` for it and the crates it depends
on by path. With no change since the last release it does nothing. Without a baseline, it
records the first one at crate.version.

Examples:
  schemac release --dry-run
  schemac release
  schemac release --no-package")]
pub struct ReleaseArgs {
    /// The project's config file.
    #[arg(long, value_name = "FILE", default_value = "schemac.toml")]
    pub config: PathBuf,

    /// Print what would be done; change nothing.
    #[arg(long)]
    pub dry_run: bool,

    /// Do not run `cargo package`.
    #[arg(long)]
    pub no_package: bool,

    /// Run `cargo package --no-verify` (pack without building each package).
    #[arg(long)]
    pub no_verify: bool,
}

pub fn release(args: &ReleaseArgs) -> ExitCode {
    let options =
        schemac_project::release::ReleaseOptions { dry_run: args.dry_run, no_package: args.no_package, no_verify: args.no_verify };
    report(Project::load(&args.config).and_then(|p| schemac_project::release::release(&p, &options)))
}

pub fn init(args: &Init) -> ExitCode {
    match schemac_project::init::init(&args.dir) {
        Ok(done) => {
            for line in &done {
                println!("{line}");
            }
            println!("next: add schemas under schemas/, then run `cargo xtask codegen` (or `schemac codegen`)");
            ExitCode::SUCCESS
        }
        Err(error) => fail(&error),
    }
}

pub fn codegen(args: &ProjectArgs) -> ExitCode {
    report(Project::load(&args.config).and_then(|p| schemac_project::codegen(&p.cache(!args.no_cache))))
}

pub fn check(args: &ProjectArgs) -> ExitCode {
    report(
        Project::load(&args.config)
            .and_then(|p| schemac_project::check(&p.cache(!args.no_cache), "`schemac codegen` (or `cargo xtask codegen`)")),
    )
}

fn report(result: Result<String, schemac_project::Error>) -> ExitCode {
    match result {
        Ok(report) => {
            println!("{report}");
            ExitCode::SUCCESS
        }
        Err(error) => fail(&error),
    }
}

pub(crate) fn fail(error: &schemac_project::Error) -> ExitCode {
    // Schema errors print as they are (each already says `error[...]`).
    match error.diagnostics() {
        Some(diagnostics) => eprintln!("{diagnostics}"),
        None => eprintln!("error: {error}"),
    }
    if error.is_config() { ExitCode::from(2) } else { ExitCode::FAILURE }
}
