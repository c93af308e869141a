//! schemac compiles JSON Schemas into Rust types that agree with them: what the schema rejects,
//! deserialization rejects; what it accepts round-trips losslessly.
//!
//! The pipeline is one function, [`compile`]: the [front end](front) (load → resolve → the
//! typed [`schema`] model), then lower (to [`ir`]) → name → emit.

mod builder;
pub mod diag;

/// This schemac's version: what generated code and a release's baseline name as their generator.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
pub mod diff;
pub mod docs;
pub mod emit;
pub(crate) mod extensions;
pub mod ident;
pub mod ir;
pub mod load;
pub(crate) mod locate;
pub(crate) mod lower;
mod metaschemas;
pub(crate) mod name;
pub mod pattern;
pub mod resolve;
pub(crate) mod rust_type;
pub mod schema;
pub mod syntax;
pub mod write;

use std::path::PathBuf;

pub use builder::{BuildError, Builder, Compiled, includable};
pub use diag::{Diagnostic, Diagnostics, Severity};

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
}

/// What to compile.
///
/// Files are read only from the roots: the directory of each input schema (and below),
/// `catalog_dirs`, the directories of `maps`, and `allowed_roots`, each with its symlinks
/// resolved. A ref to any other file is an error, as is a file that is not a regular file or is
/// larger than `max_file_size`.
#[derive(Clone, Debug)]
pub struct Input {
    /// The schemas to compile; each becomes a module.
    pub schemas: Vec<SchemaSource>,
    /// Directories whose schemas join the catalog (by `$id`) so refs can reach them.
    pub catalog_dirs: Vec<PathBuf>,
    /// Refs under a URL prefix resolve to files under a directory; nothing is fetched.
    pub maps: Vec<UrlMap>,
    /// More directories whose files refs may read (`--allow-root`, a project's schema roots).
    pub allowed_roots: Vec<PathBuf>,
    /// The largest schema file read, in bytes; a larger one is an error.
    pub max_file_size: u64,
}

/// The default [`Input::max_file_size`]: 64 MiB.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 64 << 20;

impl Default for Input {
    fn default() -> Self {
        Input {
            schemas: Vec::new(),
            catalog_dirs: Vec::new(),
            maps: Vec::new(),
            allowed_roots: Vec::new(),
            max_file_size: DEFAULT_MAX_FILE_SIZE,
        }
    }
}

/// One schema file to compile.
#[derive(Clone, Debug, Default)]
pub struct SchemaSource {
    /// Where to read it.
    pub path: PathBuf,
    /// How to name it in errors and generated headers (e.g. `schemas/madoo/attempts-report.v1.json`).
    pub display: String,
    /// The module its types go into, e.g. `["madoo", "attempts_report_v1"]`.
    pub module: Vec<String>,
    /// The name of its root type; otherwise taken from `title` or the file name.
    pub root_name: Option<String>,
    /// The JSON pointer of the schema in the file that is the root (`""`, the usual: the file's
    /// schema itself). Only what that schema reaches is compiled.
    pub pointer: String,
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
    /// Report warnings as errors (`--deny-warnings`, `deny-warnings = true`).
    pub deny_warnings: bool,
    /// Read an `integer` without bounds or `multipleOf` as `schemac_runtime::BigInt`, exact at
    /// any size, instead of an `i64` that refuses what it cannot hold. The generated code then
    /// needs the runtime's `bignum` feature.
    pub big_integers: bool,
    /// Read `number` as `f64` and an `integer` without both bounds as `i64`/`u64`, which refuse
    /// (naming the value) what they cannot hold exactly, instead of `schemac_runtime::Number`
    /// and `schemac_runtime::Integer`, which hold every JSON number exactly. Off by default
    /// (`--primitive-numbers`, `[schemas] primitive-numbers = true`).
    pub primitive_numbers: bool,
    /// Let a `pattern` that neither `regex` nor `fancy-regex` can run exactly run on `regress`,
    /// whose backtracking has no step limit, so a hostile value can make a read take
    /// exponential time. Off by default: such a pattern is an `unbounded-pattern` error
    /// (`--allow-unbounded-patterns`, `allow-unbounded-patterns = true` turn it on).
    pub unbounded_patterns: bool,
    /// Emit a builder for every struct (`Goal::builder()`, see `emit/builder.rs`): required
    /// properties checked at compile time, the value by `build()`. On by default.
    pub builders: bool,
    /// Mark generated structs with public fields, string enums and unions `#[non_exhaustive]`
    /// (`emit::is_non_exhaustive` says which), so that a new optional property or enum value is a minor
    /// change of the types crate; downstream code then builds values with the builders.
    pub non_exhaustive: bool,
    /// Give every string enum an `Other(String)` variant that keeps a value the schema does
    /// not list (see `emit/open_enum.rs`): a reader-side tolerance, off by default.
    pub open_enums: bool,
    /// Per schema (by `SchemaSource::display`), whether its string enums are open, instead of
    /// `open_enums`.
    pub open_enums_by_schema: std::collections::BTreeMap<String, bool>,
    /// Derives added to every generated type (`["Eq", "Hash"]`); `Eq`, `Hash`, `PartialOrd`
    /// and `Ord` are checked to fit each type before emission (an error names the field).
    pub derives: Vec<String>,
    /// Outer attributes added to every generated type (`#[cfg_attr(feature = "x", derive(Y))]`).
    pub attributes: Vec<String>,
    /// One type per shape: string enums of a module with the same values (and `default`),
    /// and structs with the same fields, are one type, the others `type` aliases of it
    /// (`emit/dedup.rs`). On by default.
    pub dedup: bool,
    /// Settings for single types: by schema (`SchemaSource::display`), then by the JSON
    /// pointer of the type's schema in it (`/definitions/task`).
    pub types: std::collections::BTreeMap<String, std::collections::BTreeMap<String, TypeSettings>>,
}

/// What [`Config::types`] sets for one type.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TypeSettings {
    /// The user's Rust type that replaces the generated one everywhere (`my_crate::Task`); the
    /// generated code asserts it implements `schemac_runtime::Conforms` for the node.
    pub rust_type: Option<String>,
    /// Derives added to this type, beside [`Config::derives`], checked as those are.
    pub derives: Vec<String>,
    /// Outer attributes added to this type, beside [`Config::attributes`].
    pub attributes: Vec<String>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            default_draft: Draft::Draft2020_12,
            regenerate_command: "cargo xtask codegen".to_owned(),
            assert_formats: false,
            plain_serde: false,
            deny_warnings: false,
            big_integers: false,
            unbounded_patterns: false,
            primitive_numbers: false,
            builders: true,
            non_exhaustive: false,
            open_enums: false,
            open_enums_by_schema: std::collections::BTreeMap::new(),
            derives: Vec::new(),
            attributes: Vec::new(),
            dedup: true,
            types: std::collections::BTreeMap::new(),
        }
    }
}

/// The generated code, one module per document that has types.
#[derive(Clone, Debug, Default)]
pub struct Output {
    pub modules: Vec<Module>,
    /// Every file the compiler read from disk (the input schemas and each file loaded to
    /// resolve refs), so that a writer can refuse to overwrite one:
    /// [`write::ensure_not_input`].
    pub sources: Vec<write::SourceFile>,
    /// What compiled but deserves attention (`Severity::Warning`), e.g. a `pattern` that
    /// runs on a backtracking engine; the CLI prints them to stderr.
    pub warnings: Vec<Diagnostic>,
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
        on_deep_stack(|| emit::single_file(self))
    }
}

#[derive(Clone, Debug)]
pub struct TypeSummary {
    pub name: String,
    pub summary: String,
    /// True for the checked `serde_json::Value` fallback (no precise Rust shape).
    pub fallback: bool,
    /// The most bytes `size_of` of this type takes on a 64-bit target: [`emit::MAX_TYPE_SIZE`],
    /// or more for a struct that passes it with every field of a generated type boxed (see
    /// `emit/layout.rs`). The generated crate's `tests/sizes.rs` checks it.
    pub size_bound: usize,
    /// Whether this is an open string enum (`Other(String)`): a reader-side tolerance, which
    /// the drift check reports.
    pub open: bool,
    /// The user's type that this one is an alias of (`rust-type`, `x-rust-type`): its size is
    /// the user's business.
    pub replaced_by: Option<String>,
}

/// What the front end makes of the inputs: the loaded documents with their identifiers, and
/// the typed model of every schema they reach. Synthesis, the derive, the diff and the
/// reference pages read schemas through it; [`compile`] lowers it to Rust.
#[derive(Debug)]
pub struct Front {
    pub registry: resolve::Registry,
    pub model: schema::Model,
    /// Every file read, with its identity (for writers that must not overwrite an input).
    pub sources: Vec<write::SourceFile>,
    /// What the front end accepted leniently, as validators do (annotations of the wrong
    /// shape, definitions that are not schemas), each with a hint.
    pub warnings: Vec<Diagnostic>,
}

/// The front end: load the inputs (and the files they refer to), resolve identifiers, build
/// the schema model. Each phase reports every error it finds; a phase runs only when the ones
/// before it found none (a model of documents that did not load would only repeat their
/// errors).
pub fn front(input: &Input, config: &Config) -> Result<Front, Diagnostics> {
    let loaded = load::load_with_sources(input, config.default_draft).map_err(Diagnostics)?;
    let registry = resolve::Registry::new(loaded.docs).map_err(Diagnostics)?;
    let (model, diagnostics) = schema::build(&registry);
    let (mut warnings, errors): (Vec<Diagnostic>, Vec<Diagnostic>) =
        diagnostics.into_iter().partition(|d| d.severity == diag::Severity::Warning);
    warnings.splice(0..0, registry.warnings.iter().cloned());
    Diagnostics(errors).into_result(Front { registry, model, sources: loaded.sources, warnings })
}

impl Front {
    /// Lowers the model to the IR, every type named: what [`compile`] emits, and what the
    /// derive checks hand-written types against.
    pub fn lower(&self, config: &Config) -> Result<ir::Ir, Diagnostics> {
        let mut ir = lower::lower(&self.registry, &self.model, config)?;
        name::name(&mut ir, &self.registry);
        schema::bundle::attach(&self.registry, &mut ir);
        extensions::mark_open_enums(&self.model, &mut ir);
        Diagnostics(rust_type::attach(&self.model, config, &mut ir)).into_result(ir)
    }

    /// Every file the front end read (the inputs and what the catalog and refs reached), for a
    /// build's rerun-if-changed.
    pub fn files_read(&self) -> Vec<PathBuf> {
        builder::files_read(&self.registry.docs)
    }

    /// Lowers and emits: what [`compile`] returns for the inputs this front end read. A caller
    /// that also renders reference pages ([`docs::page`]) reads the schemas once this way.
    pub fn compile(&self, config: &Config) -> Result<Output, Diagnostics> {
        on_deep_stack(|| self.compile_here(config))
    }

    fn compile_here(&self, config: &Config) -> Result<Output, Diagnostics> {
        let ir = self.lower(config)?;
        let impossible = emit::check_derives(&ir, config);
        if !impossible.is_empty() {
            return Err(Diagnostics(impossible));
        }
        let mut output = emit::emit(&ir, config);
        // What emission refuses (a pattern no bounded engine runs exactly), located now that
        // the registry can say where.
        let (refused, emitted): (Vec<Diagnostic>, Vec<Diagnostic>) =
            output.warnings.drain(..).partition(|d| d.severity == diag::Severity::Error);
        if !refused.is_empty() {
            return Err(Diagnostics(refused.into_iter().map(|d| self.registry.locate(d)).collect()));
        }
        output.warnings = emitted;
        let mut warnings = self.warnings.clone();
        warnings.extend(ir.warnings.iter().cloned());
        warnings.append(&mut output.warnings);
        if config.deny_warnings && !warnings.is_empty() {
            let denied = warnings.into_iter().map(|w| Diagnostic { severity: diag::Severity::Error, ..w }).collect();
            return Err(Diagnostics(denied));
        }
        Ok(Output { sources: self.sources.clone(), warnings, ..output })
    }
}

/// The stack the back end runs on. Lowering nests at most `lower::MAX_DEPTH` schemas deep,
/// but its types nest as deep, and `syn` parses (and `prettyplease` prints) a type nested
/// 256 deep with more stack than a caller's thread may have (the 8 MiB of a main thread is
/// not enough in a debug build). Only what is used is committed.
const BACK_END_STACK: usize = 256 << 20;

/// Runs `work` on a thread with [`BACK_END_STACK`] of stack, or here if no thread can start.
pub(crate) fn on_deep_stack<T: Send>(work: impl Fn() -> T + Sync) -> T {
    let spawned = std::thread::scope(|scope| {
        let thread = std::thread::Builder::new().name("schemac-back-end".to_owned()).stack_size(BACK_END_STACK);
        let handle = thread.spawn_scoped(scope, &work).ok()?;
        Some(handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    });
    spawned.unwrap_or_else(work)
}

/// Compiles the input schemas to Rust modules, reporting every schema error found.
pub fn compile(input: &Input, config: &Config) -> Result<Output, Diagnostics> {
    compile_reading(input, config).map(|(output, _)| output)
}

/// [`compile`], also returning every file it read (the inputs and what the catalog and refs
/// reached), for a build's rerun-if-changed.
pub fn compile_reading(input: &Input, config: &Config) -> Result<(Output, Vec<PathBuf>), Diagnostics> {
    let front = front(input, config)?;
    let read = front.files_read();
    Ok((front.compile(config)?, read))
}
