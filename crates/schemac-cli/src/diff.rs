//! `schemac diff OLD NEW`: every change between two versions of a schema (or of a directory of
//! schemas), its verdict for readers and writers, a witness document for each breaking one, and
//! the semver bump of the generated crate that follows.
//!
//! Exit codes: 0 when nothing is breaking for the role, 1 when something is, 2 when something
//! is undecided and nothing breaking (and on usage errors).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use schemac::diff::{Options, Policy, Role};

use crate::values::{parse_draft, parse_map};

/// `schemac diff`.
#[derive(Debug, Args)]
#[command(after_long_help = "\
Readers: code built on the NEW types must read every document written under OLD (old ⊆ new,
Confluent's BACKWARD). Writers: documents written under NEW must still be read by code built
on the OLD types (new ⊆ old, FORWARD). Both: FULL. The verdicts are set inclusions, proved by
rules (listed in the output) or shown false by a witness: a document one version accepts and
the other rejects, built from the schemas and confirmed by the jsonschema crate. Where neither
is found, the verdict is unknown, with the reason; never breaking without a witness.

--policy lenient counts a property added to or removed from an open object (no
additionalProperties) as compatible: producers send only the properties the schema declares
(Confluent's COMPATIBLE_CHANGES_LENIENT). The output says which verdicts that decided.

OLD and NEW are schema files, or directories whose schemas are matched by `$id`, then by path.
Refs to other files resolve as in `schemac compile` (--schema-dir, --map; both versions).

Examples:
  schemac diff v1/order.json v2/order.json
  schemac diff --role reader old-schemas/ schemas/
  schemac diff --policy lenient --format json a.json b.json
  schemac diff v1/app.json v2/app.json --map https://example.com/schemas/=common

Exit status: 0 nothing breaking for the role, 1 something breaking, 2 something unknown and
nothing breaking (also usage errors).")]
pub struct Diff {
    /// The old version: a schema file or a directory of them.
    #[arg(value_name = "OLD")]
    pub old: PathBuf,
    /// The new version.
    #[arg(value_name = "NEW")]
    pub new: PathBuf,
    /// Whose compatibility decides the exit status and the bump.
    #[arg(long, value_enum, default_value = "both")]
    pub role: RoleArg,
    /// `text` (grouped, one line per change) or `json`.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// What undeclared properties of open objects mean: `strict` (any name, any value) or
    /// `lenient` (only the declared ones are sent).
    #[arg(long, value_enum, default_value = "strict")]
    pub policy: PolicyArg,
    /// Skip confirming witnesses (faster; every failing place is then unknown).
    #[arg(long)]
    pub no_witnesses: bool,
    /// Also search counterexamples to the compatible verdicts among documents synthesized from
    /// both versions (a check of the proofs from outside; slow on large schemas).
    #[arg(long)]
    pub counterexamples: bool,
    /// The draft of schemas that have no `$schema` (both versions).
    #[arg(long, value_name = "DRAFT", default_value = "2020-12", value_parser = parse_draft)]
    pub default_draft: schemac::Draft,
    /// A directory whose schemas refs can reach by `$id`, for both versions (repeatable).
    #[arg(long = "schema-dir", value_name = "DIR")]
    pub schema_dirs: Vec<PathBuf>,
    /// Resolve refs starting with URL_PREFIX to files under DIR, for both versions; nothing is
    /// fetched (repeatable).
    #[arg(long = "map", value_name = "URL_PREFIX=DIR", value_parser = parse_map)]
    pub maps: Vec<schemac::UrlMap>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum PolicyArg {
    Strict,
    Lenient,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum RoleArg {
    Reader,
    Writer,
    Both,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

pub fn run(args: &Diff) -> ExitCode {
    match report(args) {
        Ok(code) => code,
        Err(err) => {
            match err.downcast_ref::<schemac::Diagnostics>() {
                Some(diagnostics) => eprintln!("{diagnostics}"),
                None => eprintln!("error: {err:#}"),
            }
            ExitCode::FAILURE
        }
    }
}

fn report(args: &Diff) -> Result<ExitCode> {
    let role = match args.role {
        RoleArg::Reader => Role::Reader,
        RoleArg::Writer => Role::Writer,
        RoleArg::Both => Role::Both,
    };
    let (old, new) = (front(&args.old, args)?, front(&args.new, args)?);
    let policy = match args.policy {
        PolicyArg::Strict => Policy::Strict,
        PolicyArg::Lenient => Policy::Lenient,
    };
    let config = schemac::Config::default().default_draft(args.default_draft);
    let options = Options { config, policy };
    let report = if args.no_witnesses { schemac::diff::diff(&old, &new, &options)? } else { schemac_synth::diff(&old, &new, &options)? };
    let search = if args.counterexamples {
        Some(schemac_synth::witnesses(&report, &old, &new, &schemac_synth::SynthConfig::default(), COUNTEREXAMPLE_BUDGET)?)
    } else {
        None
    };
    let mut out = String::new();
    match args.format {
        Format::Text => {
            out.push_str(&report.to_text(role));
            if let Some(search) = &search {
                out.push_str(&format!(
                    "counterexample search: {} synthesized documents tried; {} of {} breaking verdicts have a witness\n",
                    search.candidates, search.witnessed, search.breaking
                ));
                for counterexample in &search.counterexamples {
                    out.push_str(&format!("counterexample (the diff is wrong here; please report it): {counterexample:?}\n"));
                }
            }
        }
        Format::Json => {
            out.push_str(&serde_json::to_string_pretty(&report.to_json(role))?);
            out.push('\n');
        }
    }
    // A reader that stops early (`| head`) is no error.
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(out.as_bytes()).and_then(|()| stdout.flush()) {
        Err(err) if err.kind() != std::io::ErrorKind::BrokenPipe => return Err(err).context("cannot write to stdout"),
        _ => {}
    }
    Ok(if report.breaking(role) {
        ExitCode::FAILURE
    } else if report.unknown(role) {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

/// The most documents the counterexample search judges.
const COUNTEREXAMPLE_BUDGET: usize = 5_000;

/// The front end of a schema file, or of every schema in a directory (displayed by their
/// paths below it, so the two versions' files match by path).
fn front(path: &Path, args: &Diff) -> Result<schemac::Front> {
    let meta = std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut files = Vec::new();
    if meta.is_dir() {
        let mut todo = vec![path.to_path_buf()];
        while let Some(dir) = todo.pop() {
            for entry in std::fs::read_dir(&dir).with_context(|| format!("cannot list {}", dir.display()))? {
                let file = entry?.path();
                if file.is_dir() {
                    todo.push(file);
                } else if schemac::model::syntax::is_schema_file(&file) {
                    files.push(file);
                }
            }
        }
        files.sort();
        if files.is_empty() {
            bail!("{} holds no schema files (*.json, *.yaml, *.yml)", path.display());
        }
    } else {
        files.push(path.to_path_buf());
    }
    let base = if meta.is_dir() { path } else { path.parent().unwrap_or(Path::new("")) };
    let schemas: Vec<schemac::SchemaSource> = files
        .iter()
        .map(|file| {
            let display = file.strip_prefix(base).unwrap_or(file).display().to_string();
            // One file against one: the same module and root name on both sides, so the Rust
            // API compares type by type; in directories, the path names the module.
            let (module, root_name) = if meta.is_dir() {
                (vec![schemac::ident::module_name(&display)], None)
            } else {
                (vec!["schema".to_owned()], Some("Root".to_owned()))
            };
            let mut source = schemac::SchemaSource::new(file).display(display).module(module);
            source.root_name = root_name;
            source
        })
        .collect();
    let mut catalog_dirs = if meta.is_dir() { vec![path.to_path_buf()] } else { Vec::new() };
    catalog_dirs.extend(args.schema_dirs.iter().cloned());
    let mut input = schemac::Input::new(schemas);
    input.catalog_dirs = catalog_dirs;
    input.maps = args.maps.clone();
    let config = schemac::Config::default().default_draft(args.default_draft);
    Ok(schemac::front(&input, &config)?)
}
