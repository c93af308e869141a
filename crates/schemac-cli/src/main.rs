//! The `schemac` command: parses arguments, calls [`schemac::compile`] (or `schemac_project` for
//! `init`, `codegen`, `check`; [`schemac::diff`] for `diff`; [`schemac::docs`] for `docs`;
//! `schemac_registry` for `serve`),
//! writes the result.
//!
//! Exit codes: 0 on success, 1 when a schema has errors (or the output cannot be written),
//! 2 on a usage error (also an output that would overwrite a schema that was read).

mod args;
mod diff;
mod project;
mod serve;
mod values;

use std::fs::File;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use clap::Parser;

use args::{Cli, Command, Compile, Docs};

fn main() -> ExitCode {
    // Usage errors exit with 2, `--help` and `--version` with 0; clap decides which.
    let cli = Cli::parse();
    match cli.command {
        Command::Compile(args) => report(run_compile(args)),
        Command::Init(args) => project::init(&args),
        Command::Codegen(args) => project::codegen(&args),
        Command::Check(args) => project::check(&args),
        Command::Release(args) => project::release(&args),
        Command::Diff(args) => diff::run(&args),
        Command::Docs(args) => report(run_docs(args)),
        Command::Serve(args) => serve::serve(&args),
    }
}

/// The exit code of a command's result, its error printed.
fn report(result: Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("{}", render_error(&err));
            exit_code(&err)
        }
    }
}

/// 2 for a usage error found after parsing the arguments (an output that is an input, flags that
/// do not go together), else 1.
fn exit_code(err: &anyhow::Error) -> ExitCode {
    if err.downcast_ref::<schemac::write::Clobber>().is_some() || err.downcast_ref::<Usage>().is_some() {
        ExitCode::from(2)
    } else {
        ExitCode::FAILURE
    }
}

fn run_compile(args: Compile) -> Result<()> {
    let input = args.reading.input(&args.schema, args.root_name);
    let config = schemac::Config::default()
        .default_draft(args.reading.default_draft)
        .regenerate_command(regenerate_command())
        .assert_formats(args.assert_formats)
        .deny_warnings(args.deny_warnings)
        .big_integers(args.big_integers)
        .builders(!args.no_builders)
        .unbounded_patterns(args.allow_unbounded_patterns)
        .primitive_numbers(args.primitive_numbers);
    let output = schemac::compile(&input, &config)?;
    for warning in &output.warnings {
        eprintln!("{warning}");
    }
    write_output(args.out.as_deref(), &output.single_file(), &output.sources)
}

/// `schemac docs`: the schema's reference page.
fn run_docs(args: Docs) -> Result<()> {
    let one = args.schemas.len() == 1;
    if !one {
        let single = [
            ("--reference", args.reference.is_some()),
            ("--summary", args.summary.is_some()),
            ("--schema-version", args.schema_version.is_some()),
            ("--appears", !args.appears.is_empty()),
        ];
        if let Some((flag, _)) = single.iter().find(|(_, given)| *given) {
            return Err(Usage(format!("{flag} describes one schema, and {} were given\n  hint: run `schemac docs` once per schema with its own {flag}, or set it per schema in schemac.toml and run `schemac codegen`", args.schemas.len())).into());
        }
    }
    let into_dir = match &args.out {
        Some(out) => !one || out.is_dir() || out.as_os_str().to_string_lossy().ends_with('/'),
        None if one => false,
        None => {
            return Err(Usage(format!(
                "{} schemas make {0} pages\n  hint: name a directory to write them into with -o DIR",
                args.schemas.len()
            ))
            .into());
        }
    };
    // Every page's file, decided before any is written.
    let mut outs: Vec<Option<PathBuf>> = Vec::new();
    for schema in &args.schemas {
        let out = match &args.out {
            Some(dir) if into_dir => {
                let file = dir.join(page_name(schema));
                if let Some(other) = outs.iter().position(|out| out.as_ref() == Some(&file)) {
                    let other = args.schemas[other].display();
                    return Err(Usage(format!(
                        "{other} and {} would both be written to {}\n  hint: run `schemac docs` for each into its own directory",
                        schema.display(),
                        file.display()
                    ))
                    .into());
                }
                Some(file)
            }
            out => out.clone(),
        };
        outs.push(out);
    }
    for (schema, out) in args.schemas.iter().zip(outs) {
        let input = args.reading.input(schema, None);
        let config = schemac::Config::default().default_draft(args.reading.default_draft);
        let front = schemac::front(&input, &config)?;
        for warning in &front.warnings {
            eprintln!("{warning}");
        }
        let header = schemac::docs::Header {
            reference: args.reference.clone(),
            summary: args.summary.clone(),
            version: args.schema_version.clone(),
            served_at: args.served_at.clone(),
            appears: args.appears.clone(),
        };
        // The input is the first document loaded.
        let page = schemac::docs::page(&front, schemac::model::DocId(0), &header);
        write_output(out.as_deref(), &page, &front.sources)?;
    }
    Ok(())
}

/// The file name of a schema's page: its own, `.json`, `.yaml` or `.yml` replaced by `.md`.
fn page_name(schema: &Path) -> String {
    let name = schema.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_else(|| "schema".to_owned());
    let stem = [".json", ".yaml", ".yml"].iter().find_map(|ext| name.strip_suffix(ext)).unwrap_or(&name);
    format!("{stem}.md")
}

/// A usage error found after parsing the arguments (exit 2, like clap's own).
#[derive(Debug)]
struct Usage(String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// Writes `text` to `out` (atomically, never over a schema that was read), else to stdout.
fn write_output(out: Option<&Path>, text: &str, sources: &[schemac::write::SourceFile]) -> Result<()> {
    match out {
        Some(path) => {
            schemac::write::ensure_not_input(path, sources)?;
            schemac::write::write_atomic(path, text.as_bytes()).map_err(|err| OutputError::new(&path.display().to_string(), err))?;
            Ok(())
        }
        None => write_stdout(text, sources),
    }
}

/// Writes to stdout, unless it is redirected to (or appends to) a schema that was read. A
/// closed stdout (`>&-`) and a full disk are errors; a reader that stops early
/// (`schemac compile x.json | head`) is not.
fn write_stdout(text: &str, sources: &[schemac::write::SourceFile]) -> Result<()> {
    let mut stdout = stdout_file().map_err(|err| OutputError::new("to stdout", err))?;
    if let Some(file) = &stdout.file
        && let Ok(id) = schemac::write::FileId::of_open_file(file)
    {
        schemac::write::ensure_not_input_id(Path::new("stdout"), &id, sources)?;
    }
    match stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
        Err(err) if err.kind() != io::ErrorKind::BrokenPipe => Err(OutputError::new("to stdout", err).into()),
        _ => Ok(()),
    }
}

/// The output cannot be written: what, why, and what to do about it.
#[derive(Debug)]
struct OutputError {
    target: String,
    err: io::Error,
}

impl OutputError {
    fn new(target: &str, err: io::Error) -> OutputError {
        OutputError { target: target.to_owned(), err }
    }

    fn hint(&self) -> &'static str {
        match self.err.kind() {
            io::ErrorKind::NotFound => "the directory must exist: schemac creates the file, not its directory",
            io::ErrorKind::IsADirectory => "name a file to write, not a directory",
            io::ErrorKind::PermissionDenied => "check the permissions of the file and of its directory",
            io::ErrorKind::StorageFull => "the disk is full: free some space, or write elsewhere",
            io::ErrorKind::BrokenPipe => "redirect stdout to a file, or write the code with -o OUT.rs",
            _ => "check the path, and that the disk is writable",
        }
    }
}

impl std::fmt::Display for OutputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot write {}: {}\n  hint: {}", self.target, self.err, self.hint())
    }
}

impl std::error::Error for OutputError {}

/// Stdout, as a file of its own where the platform allows: the standard library's handle
/// reports a closed stdout as a successful write, and hides which file it is.
struct Stdout {
    file: Option<File>,
}

#[cfg(unix)]
fn stdout_file() -> io::Result<Stdout> {
    use std::os::fd::AsFd as _;
    let file = File::from(io::stdout().as_fd().try_clone_to_owned()?);
    if stdout_was_closed(&file) {
        return Err(io::Error::new(io::ErrorKind::BrokenPipe, "it is closed (`>&-`)"));
    }
    Ok(Stdout { file: Some(file) })
}

/// Whether stdout was closed when schemac started. The standard library then puts `/dev/null`
/// in its place, opened read-write, so every write would vanish without an error; a shell's
/// `>/dev/null` opens it write-only, which this tells apart (on Linux, through
/// `/proc/self/fdinfo`).
#[cfg(unix)]
fn stdout_was_closed(file: &File) -> bool {
    let is_dev_null = match (schemac::write::FileId::of_open_file(file), schemac::write::FileId::of(Path::new("/dev/null"))) {
        (Ok(stdout), Ok(null)) => stdout.is_same_file(&null),
        _ => false,
    };
    let flags = std::fs::read_to_string("/proc/self/fdinfo/1").ok().and_then(|info| {
        let flags = info.lines().find_map(|line| line.strip_prefix("flags:"))?;
        u32::from_str_radix(flags.trim(), 8).ok()
    });
    // O_ACCMODE is 3 and O_RDWR 2 on Linux.
    is_dev_null && flags.is_some_and(|flags| flags & 3 == 2)
}

#[cfg(not(unix))]
fn stdout_file() -> io::Result<Stdout> {
    Ok(Stdout { file: None })
}

impl io::Write for Stdout {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        match &mut self.file {
            Some(file) => file.write(bytes),
            None => io::stdout().write(bytes),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.file {
            Some(file) => file.flush(),
            None => io::stdout().flush(),
        }
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
