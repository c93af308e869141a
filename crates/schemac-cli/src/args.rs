//! Command-line arguments: what `schemac --help` documents.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::values::{parse_draft, parse_map, parse_size};

/// Compile JSON Schemas into Rust types that reject what the schema rejects.
#[derive(Debug, Parser)]
#[command(name = "schemac", version, propagate_version = true)]
#[command(after_long_help = "\
Commands and their flags (details: schemac compile --help):
  schemac compile SCHEMA [--root-name NAME] [--default-draft 2020-12|2019-09|7|6|4]
                  [--schema-dir DIR]... [--map URL_PREFIX=DIR]... [--allow-root DIR]...
                  [--max-file-size BYTES] [--assert-formats] [--big-integers] [--deny-warnings]
                  [--allow-unbounded-patterns] [--primitive-numbers]
                  [-o OUT.rs]
  schemac init [DIR]
  schemac codegen [--config FILE]
  schemac check [--config FILE]
  schemac release [--config FILE] [--dry-run] [--no-package] [--no-verify]
  schemac diff OLD NEW [--role reader|writer|both] [--policy strict|lenient] [--format text|json]
               [--schema-dir DIR]... [--map URL_PREFIX=DIR]... [--default-draft DRAFT]
  schemac docs SCHEMA [--reference NAME] [--summary TEXT] [--schema-version VERSION]
               [--served-at WHERE]... [--appears WHERE]... [-o OUT.md]
  schemac serve [--config FILE] [--addr ADDR] [--mcp-stdio] [--mcp-allowed-host HOST]... [--no-watch]

Examples:
  schemac compile schemas/goal.json -o src/goal.rs
  schemac compile goal.json --root-name Goal --default-draft 7
  schemac compile api/order.json --schema-dir api/common --map https://example.com/schemas/=api
  schemac init && cargo xtask codegen
  schemac check
  schemac docs schemas/goal.json -o docs/goal.md
  schemac serve --addr 127.0.0.1:8080

Exit status: 0 on success, 1 on schema errors (printed to stderr), drift (check) or when the
output cannot be written, 2 on usage errors (also an output that would overwrite a schema, and a
missing or invalid schemac.toml).")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compile one JSON Schema (and the schemas it references) into one Rust file.
    Compile(Compile),
    /// Set up a repository: schemac.toml, schemas/, an xtask crate and a CI check.
    Init(crate::project::Init),
    /// Generate the types crate that schemac.toml describes.
    Codegen(crate::project::ProjectArgs),
    /// Fail, showing the diff, if the generated crate on disk is not what codegen writes.
    Check(crate::project::ProjectArgs),
    /// Bump the crate's version as the schema changes since the last release require, and package it.
    Release(crate::project::ReleaseArgs),
    /// Classify every change between two versions of a schema for readers and writers.
    Diff(crate::diff::Diff),
    /// Write a schema's reference page: every field, its rules in words, the complete schema.
    Docs(Docs),
    /// Serve the schemas over HTTP and MCP as their pages say, reloading when one changes.
    Serve(crate::serve::ServeArgs),
}

/// `schemac compile`.
#[derive(Debug, Args)]
#[command(after_long_help = "\
The output is one self-contained Rust file: the schema's types at its top level, the types of
referenced schemas in nested modules. It needs serde, serde_json and schemac-runtime.

Refs read files only below the schema's directory, the --schema-dir and --map directories and
each --allow-root (symlinks resolved), only regular files, and none over --max-file-size. The
output never overwrites a schema that was read, and is written atomically.

Examples:
  Write the types of a schema to a file:
    schemac compile schemas/goal.json -o src/goal.rs
  Name the root type, and read schemas without $schema as draft 7:
    schemac compile goal.json --root-name Goal --default-draft 7
  Resolve refs by $id from a directory, and https://example.com/schemas/... from ./api:
    schemac compile api/order.json --schema-dir api/common --map https://example.com/schemas/=api")]
pub struct Compile {
    /// The JSON Schema file to compile.
    #[arg(value_name = "SCHEMA")]
    pub schema: PathBuf,

    /// The name of the root type (default: from the schema's `title`, else its file name).
    #[arg(long, value_name = "NAME")]
    pub root_name: Option<String>,

    #[command(flatten)]
    pub reading: Reading,

    /// Assert `format` (date-time, email, uri, uuid, ...) instead of only annotating it.
    #[arg(
        long,
        long_help = "Assert `format` instead of treating it as an annotation: date-time, date, time, duration, \
                     email, idn-email, hostname, idn-hostname, ipv4, ipv6, uri, uri-reference, iri, iri-reference, \
                     uri-template, uuid, regex, json-pointer and relative-json-pointer strings are \
                     checked while deserializing. The code then needs schemac-runtime's `formats` feature."
    )]
    pub assert_formats: bool,

    /// Read an unbounded `integer` as an exact big integer (needs the runtime's `bignum` feature).
    #[arg(
        long,
        long_help = "An `integer` without minimum, maximum or multipleOf becomes schemac_runtime::BigInt, which \
                     holds every integer exactly, instead of an i64 that refuses what it cannot hold. The code \
                     then needs schemac-runtime's `bignum` feature."
    )]
    pub big_integers: bool,

    /// Leave out the builders (`Type::builder()`), as `schemas.builders = false` does.
    #[arg(long)]
    pub no_builders: bool,

    /// Run a `pattern` that only `regress` runs exactly, without a step limit.
    #[arg(
        long,
        long_help = "A `pattern` that neither the regex crate nor fancy-regex (with its step limit) can run exactly \
                     would run on regress, whose backtracking has no limit: a hostile value could make reading \
                     take exponential time. Such a pattern is an error (unbounded-pattern) unless this flag accepts \
                     it, with a warning."
    )]
    pub allow_unbounded_patterns: bool,

    /// Read `number` as `f64` and an `integer` with an open bound as `i64`/`u64`.
    #[arg(
        long,
        long_help = "By default a `number` is schemac_runtime::Number and an `integer` whose bounds no 64-bit Rust \
                     integer holds is schemac_runtime::Integer: both hold every JSON number exactly. With this flag \
                     they are f64 and i64/u64, which refuse (naming the value) what they cannot hold exactly."
    )]
    pub primitive_numbers: bool,

    /// Report warnings (schemas validators accept, such as a wrongly typed annotation) as
    /// errors.
    #[arg(long)]
    pub deny_warnings: bool,

    /// Write the Rust code to this file instead of stdout.
    #[arg(short, long, value_name = "OUT.rs")]
    pub out: Option<PathBuf>,
}

/// How the schema and the files its refs reach are read: shared by `compile` and `docs`.
#[derive(Debug, Args)]
pub struct Reading {
    /// The draft of schemas that have no `$schema`.
    #[arg(
        long,
        value_name = "DRAFT",
        default_value = "2020-12",
        value_parser = parse_draft,
        long_help = "The draft of schemas that have no `$schema`: 2020-12, 2019-09, 7, 6 or 4."
    )]
    pub default_draft: schemac::Draft,

    /// A directory whose schemas refs can reach by `$id` (repeatable).
    #[arg(long = "schema-dir", value_name = "DIR")]
    pub schema_dirs: Vec<PathBuf>,

    /// Resolve refs starting with URL_PREFIX to files under DIR; nothing is fetched (repeatable).
    #[arg(long = "map", value_name = "URL_PREFIX=DIR", value_parser = parse_map)]
    pub maps: Vec<schemac::UrlMap>,

    /// Let refs read files below DIR too (repeatable); by default only the schema's directory, the
    /// --schema-dir and --map directories are read.
    #[arg(long = "allow-root", value_name = "DIR")]
    pub allow_roots: Vec<PathBuf>,

    /// The largest schema file read, in bytes (a K, M or G suffix multiplies by 1024s).
    #[arg(long, value_name = "BYTES", default_value = "64M", value_parser = parse_size)]
    pub max_file_size: u64,
}

impl Reading {
    /// The compiler input for the one schema at `schema`.
    pub fn input(&self, schema: &std::path::Path, root_name: Option<String>) -> schemac::Input {
        let mut source = schemac::SchemaSource::new(schema);
        source.root_name = root_name;
        let mut input = schemac::Input::new([source]).max_file_size(self.max_file_size);
        input.catalog_dirs = self.schema_dirs.clone();
        input.maps = self.maps.clone();
        input.allowed_roots = self.allow_roots.clone();
        input
    }
}

/// `schemac docs`.
#[derive(Debug, Args)]
#[command(after_long_help = "\
The page is Markdown: the schema's name, id and version, where it is served and appears, a
table of every field (type, required, rules, description, constraints in words), a section per
definition, and the complete schema. `schemac codegen` writes the same page for every schema
of a crate into its docs/ directory, with these values from schemac.toml.

With several schemas, -o names a directory and each page is written there as the schema's file
name with .md (order.json -> order.md); --reference, --summary, --schema-version and --appears
describe one schema, so they take one.

Examples:
  schemac docs schemas/order.json -o docs/order.md
  schemac docs schemas/*.json -o docs/
  schemac docs report.json --reference acme.report/v1 --schema-version 1.0.0 \\
      --served-at 'GET /api/schemas/{reference}' --appears 'Returned by: GET /reports/{id}'")]
pub struct Docs {
    /// The JSON Schema files to describe.
    #[arg(value_name = "SCHEMA", required = true)]
    pub schemas: Vec<PathBuf>,

    /// The name the schema is published under: the page's heading (default: its title).
    #[arg(long, value_name = "NAME")]
    pub reference: Option<String>,

    /// One or two sentences for the top of the page, instead of the schema's description.
    #[arg(long, value_name = "TEXT")]
    pub summary: Option<String>,

    /// The schema's version.
    #[arg(long = "schema-version", value_name = "VERSION")]
    pub schema_version: Option<String>,

    /// Where the schema is served; `{reference}` stands for its reference (repeatable).
    #[arg(long = "served-at", value_name = "WHERE")]
    pub served_at: Vec<String>,

    /// Where documents of the schema appear, one line each (repeatable).
    #[arg(long = "appears", value_name = "WHERE")]
    pub appears: Vec<String>,

    #[command(flatten)]
    pub reading: Reading,

    /// Write the page to this file instead of stdout; with several schemas (or a directory that
    /// exists, or a path ending in `/`), into this directory.
    #[arg(short, long, value_name = "OUT.md|DIR")]
    pub out: Option<PathBuf>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
