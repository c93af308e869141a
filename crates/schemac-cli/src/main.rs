//! The `schemac` command: parses arguments, calls [`schemac::compile`] (or `schemac::project` for
//! `init`, `codegen`, `check`), writes the result.
//!
//! Exit codes: 0 on success, 1 when a schema has errors (or the output cannot be written),
//! 2 on a usage error.

mod args;
mod project;

use std::fs;
use std::io::{self, Write as _};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Parser;

use args::{Cli, Command, Compile};

fn main() -> ExitCode {
    // Usage errors exit with 2, `--help` and `--version` with 0; clap decides which.
    let cli = Cli::parse();
    let compile = match cli.command {
        Command::Compile(compile) => compile,
        Command::Init(args) => return project::init(&args),
        Command::Codegen(args) => return project::codegen(&args),
        Command::Check(args) => return project::check(&args),
    };
    match try_main(compile) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("{}", render_error(&err));
            ExitCode::FAILURE
        }
    }
}

fn try_main(compile: Compile) -> Result<()> {
    run_compile(compile)
}

fn run_compile(args: Compile) -> Result<()> {
    let input = schemac::Input {
        schemas: vec![schemac::SchemaSource {
            display: args.schema.display().to_string(),
            path: args.schema,
            module: Vec::new(),
            root_name: args.root_name,
        }],
        catalog_dirs: args.schema_dirs,
        maps: args.maps,
    };
    let config = schemac::Config {
        default_draft: args.default_draft,
        regenerate_command: regenerate_command(),
        assert_formats: args.assert_formats,
        ..schemac::Config::default()
    };
    let output = schemac::compile(&input, &config)?;
    let code = output.single_file();
    match &args.out {
        Some(path) => fs::write(path, code).with_context(|| format!("cannot write {}", path.display()))?,
        None => write_stdout(&code)?,
    }
    Ok(())
}

/// Like `print!`, without its panic when stdout is closed early (`schemac compile x.json | head`).
fn write_stdout(text: &str) -> Result<()> {
    let mut stdout = io::stdout().lock();
    match stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
        Err(err) if err.kind() != io::ErrorKind::BrokenPipe => Err(err).context("cannot write to stdout"),
        _ => Ok(()),
    }
}

/// The command line as typed, for the generated header: rerunning it regenerates the file.
fn regenerate_command() -> String {
    let mut words = vec!["schemac".to_owned()];
    words.extend(std::env::args().skip(1));
    words.join(" ")
}

/// Schema errors print as they are (each already says `error[...]`); other errors get the
/// usual `error:` prefix and their causes.
fn render_error(err: &anyhow::Error) -> String {
    match err.downcast_ref::<schemac::Diagnostics>() {
        Some(diagnostics) => diagnostics.to_string(),
        None => format!("error: {err:#}"),
    }
}
