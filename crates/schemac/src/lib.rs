//! schemac compiles JSON Schemas into Rust types that agree with them: what the schema rejects,
//! deserialization rejects; what it accepts round-trips losslessly.
//!
//! The pipeline is one function, [`compile`]: load → resolve → lower (to [`ir`]) → name → emit.

mod builder;
pub mod diag;
pub mod emit;
pub mod ident;
pub mod ir;
pub mod load;
pub mod locate;
pub mod lower;
mod metaschemas;
pub mod name;
pub mod pattern;
#[cfg(feature = "project")]
pub mod project;
pub mod resolve;
pub mod syntax;
pub mod synth;

use std::path::PathBuf;

pub use builder::{BuildError, Builder, Compiled, includable};
pub use diag::{Diagnostic, Diagnostics};
pub use synth::synthesize_for;

/// JSON Schema drafts. Only the spelling of a few keywords differs between the older ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Draft {
    Draft4,
    Draft6,
    Draft7,
    Draft2019_09,
    Draft2020_12,
}

impl Draft {
    /// Parses the value of `$schema` (with or without a trailing `#`, http or https).
    pub fn from_schema_uri(uri: &str) -> Option<Draft> {
        let uri = uri.trim_end_matches('#').trim_start_matches("https://").trim_start_matches("http://");
        Some(match uri {
            "json-schema.org/draft-04/schema" => Draft::Draft4,
            "json-schema.org/draft-06/schema" => Draft::Draft6,
            "json-schema.org/draft-07/schema" => Draft::Draft7,
            "json-schema.org/draft/2019-09/schema" => Draft::Draft2019_09,
            "json-schema.org/draft/2020-12/schema" => Draft::Draft2020_12,
            _ => return None,
        })
    }

    /// Parses the CLI spelling: `2020-12`, `2019-09`, `7`, `6`, `4`.
    pub fn from_name(name: &str) -> Option<Draft> {
        Some(match name.trim_start_matches("draft").trim_start_matches('-') {
            "4" | "04" => Draft::Draft4,
            "6" | "06" => Draft::Draft6,
            "7" | "07" => Draft::Draft7,
            "2019-09" => Draft::Draft2019_09,
            "2020-12" => Draft::Draft2020_12,
            _ => return None,
        })
    }

    /// The name of the same variant of `schemac_runtime::bundle::Draft`, for generated code.
    pub fn runtime_variant(self) -> &'static str {
        match self {
            Draft::Draft4 => "Draft4",
            Draft::Draft6 => "Draft6",
            Draft::Draft7 => "Draft7",
            Draft::Draft2019_09 => "Draft2019_09",
            Draft::Draft2020_12 => "Draft2020_12",
        }
    }
}

/// What to compile.
#[derive(Clone, Debug, Default)]
pub struct Input {
    /// The schemas to compile; each becomes a module.
    pub schemas: Vec<SchemaSource>,
    /// Directories whose schemas join the catalog (by `$id`) so refs can reach them.
    pub catalog_dirs: Vec<PathBuf>,
    /// Refs under a URL prefix resolve to files under a directory; nothing is fetched.
    pub maps: Vec<UrlMap>,
}

/// One schema file to compile.
#[derive(Clone, Debug)]
pub struct SchemaSource {
    /// Where to read it.
    pub path: PathBuf,
    /// How to name it in errors and generated headers (e.g. `schemas/madoo/attempts-report.v1.json`).
    pub display: String,
    /// The module its types go into, e.g. `["madoo", "attempts_report_v1"]`.
    pub module: Vec<String>,
    /// The name of its root type; otherwise taken from `title` or the file name.
    pub root_name: Option<String>,
}

/// `--map URL_PREFIX=DIR`.
#[derive(Clone, Debug)]
pub struct UrlMap {
    pub prefix: String,
    pub dir: PathBuf,
}

/// How to compile.
#[derive(Clone, Debug)]
pub struct Config {
    /// The draft of schemas without `$schema`.
    pub default_draft: Draft,
    /// The command named in each generated file's header.
    pub regenerate_command: String,
    /// Assert `format` (date-time, email, uri, uuid, ...) instead of only annotating it. The
    /// generated code then needs `schemac-runtime`'s `formats` feature.
    pub assert_formats: bool,
    /// Emit the same shapes with plain `#[derive(Deserialize, Serialize)]` and no checks
    /// instead (see `emit/plain.rs`): only a reference point for benchmarks.
    pub plain_serde: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            default_draft: Draft::Draft2020_12,
            regenerate_command: "cargo xtask codegen".to_owned(),
            assert_formats: false,
            plain_serde: false,
        }
    }
}

/// The generated code, one module per document that has types.
#[derive(Clone, Debug, Default)]
pub struct Output {
    pub modules: Vec<Module>,
}

/// The Rust source of one module.
#[derive(Clone, Debug)]
pub struct Module {
    /// e.g. `["madoo", "attempts_report_v1"]`.
    pub path: Vec<String>,
    /// The schema file, as displayed (e.g. `schemas/madoo/attempts-report.v1.json`).
    pub source: String,
    /// The `$id` of the schema document; `source` when it has none.
    pub id: String,
    pub sha256: String,
    /// The name of the root type, for input schemas.
    pub root: Option<String>,
    /// Whether the root type is a type of its own (not a plain `type` alias), which then
    /// implements `SchemaBound` and `JsonSchema`.
    pub root_nominal: bool,
    /// Every type in the module with the first line of its docs, in output order.
    pub types: Vec<TypeSummary>,
    /// Formatted Rust source, `@generated` header included.
    pub code: String,
}

impl Output {
    /// All modules as one self-contained Rust file (for `schemac compile -o OUT.rs`): the module
    /// whose path is empty at the top level, the others nested as inline `pub mod`s.
    pub fn single_file(&self) -> String {
        emit::single_file(self)
    }
}

#[derive(Clone, Debug)]
pub struct TypeSummary {
    pub name: String,
    pub summary: String,
    /// True for the checked `serde_json::Value` fallback (no precise Rust shape).
    pub fallback: bool,
}

/// Compiles the input schemas to Rust modules, reporting every schema error found.
pub fn compile(input: &Input, config: &Config) -> Result<Output, Diagnostics> {
    compile_reading(input, config).map(|(output, _)| output)
}

/// [`compile`], also returning every file it read (the inputs and what the catalog and refs
/// reached), for a build's rerun-if-changed.
pub fn compile_reading(input: &Input, config: &Config) -> Result<(Output, Vec<PathBuf>), Diagnostics> {
    let docs = load::load(input, config.default_draft).map_err(Diagnostics)?;
    let read = builder::files_read(&docs);
    let registry = resolve::Registry::new(docs).map_err(Diagnostics)?;
    let mut ir = lower::lower(&registry, config)?;
    name::name(&mut ir, &registry);
    Ok((emit::emit(&ir, &registry, config), read))
}
