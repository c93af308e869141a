//! What one generated crate is: a [`CrateSpec`] (from `schemac.toml`, or set up by a tool for
//! crates of its own) and its [`Unit`]s, the schema roots compiled with the same options.

use std::collections::BTreeMap;

use super::config::{self, Config};

/// The command that regenerates a crate, named in its files when the caller names no other.
pub const REGENERATE_COMMAND: &str = "cargo xtask codegen";

/// One crate to generate: what [`super::Project`] makes of `schemac.toml`, or what a tool sets
/// up itself for crates of its own (this repository's fixture and benchmark crates).
#[derive(Clone, Debug)]
pub struct CrateSpec {
    /// Its directory, relative to the project root, with `/`.
    pub dir: String,
    pub name: String,
    pub version: String,
    pub description: String,
    pub publish: bool,
    /// The schemas, by directory, and how to compile each group.
    pub units: Vec<Unit>,
    /// Root type names by the schema's root-relative path.
    pub root_names: BTreeMap<String, String>,
    /// Configured references (`SCHEMAS` names) by the schema's root-relative path.
    pub references: BTreeMap<String, String>,
    /// Configured versions by the schema's root-relative path.
    pub versions: BTreeMap<String, String>,
    /// Whether a missing schema root is an error (it is for a configured crate).
    pub roots_required: bool,
    /// Whether the crate gets synthesized round-trip tests.
    pub round_trips: bool,
    /// The draft of schemas without `$schema`.
    pub default_draft: schemac::Draft,
    /// The `schemac-runtime` crate's directory relative to the project root, for a dependency
    /// by path as well as version; `None`: by version only.
    pub runtime_path: Option<String>,
    /// The command named in every generated file's header.
    pub regenerate_command: String,
    /// The configuration file, as named in headers and errors (`schemac.toml`).
    pub config_file: String,
    /// Schemas under these path prefixes must be covered completely by the synthesized
    /// instances: an uncovered target stops generation instead of being listed.
    pub require_coverage: Vec<String>,
    /// Whether each schema of the first checked unit gets a reference page, `docs/<path>.md`,
    /// which is also the rustdoc of its module.
    pub pages: bool,
    /// What the pages say beyond the schemas, by the schema's root-relative path.
    pub page_notes: BTreeMap<String, PageNotes>,
    /// Where schemas without notes of their own are served (`{reference}` standing for theirs).
    pub served_at: Vec<String>,
    /// The API options of the generated types (`[schemas]` keys such as `builders`).
    pub types: config::TypeOptions,
    /// More dependencies of the crate, by name, each its TOML value as written in
    /// `[crate.dependencies]` (the crates the `rust-type`s come from).
    pub dependencies: BTreeMap<String, String>,
}

/// What a schema's reference page says that the schema does not (see [`schemac::docs::Header`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PageNotes {
    pub summary: Option<String>,
    /// `None`: the crate's [`CrateSpec::served_at`].
    pub served_at: Option<Vec<String>>,
    pub appears: Vec<String>,
}

/// Directories of schemas compiled with the same options.
#[derive(Clone, Debug)]
pub struct Unit {
    /// Searched recursively for schemas, relative to the project root; a root may also be one
    /// schema file.
    pub roots: Vec<String>,
    pub assert_formats: bool,
    pub plain_serde: bool,
}

impl CrateSpec {
    /// An unpublished crate `name` at `dir` with no schemas yet: add [`Unit`]s. Version
    /// `0.0.0`, round-trip tests on, drafts default to 2020-12, the runtime by version.
    pub fn new(dir: &str, name: &str, description: &str) -> CrateSpec {
        CrateSpec {
            dir: dir.to_owned(),
            name: name.to_owned(),
            version: "0.0.0".to_owned(),
            description: description.to_owned(),
            publish: false,
            units: Vec::new(),
            root_names: BTreeMap::new(),
            references: BTreeMap::new(),
            versions: BTreeMap::new(),
            roots_required: false,
            round_trips: true,
            default_draft: schemac::Draft::Draft2020_12,
            runtime_path: None,
            regenerate_command: REGENERATE_COMMAND.to_owned(),
            config_file: config::FILE_NAME.to_owned(),
            require_coverage: Vec::new(),
            pages: false,
            page_notes: BTreeMap::new(),
            served_at: Vec::new(),
            types: config::TypeOptions::default(),
            dependencies: BTreeMap::new(),
        }
    }

    /// The crate `schemac.toml` describes.
    pub fn from_config(config: &Config) -> CrateSpec {
        let settings = |field: fn(&config::SchemaConfig) -> Option<&String>| {
            config.schema.iter().filter_map(|(path, schema)| Some((path.clone(), field(schema)?.clone()))).collect()
        };
        CrateSpec {
            dir: config.krate.output.clone(),
            name: config.krate.name.clone(),
            version: config.krate.version.clone(),
            description: config.krate.description.clone(),
            publish: true,
            units: vec![Unit { roots: config.schemas.roots.clone(), assert_formats: config.schemas.assert_formats, plain_serde: false }],
            root_names: settings(|s| s.root_name.as_ref()),
            references: settings(|s| s.reference.as_ref()),
            versions: settings(|s| s.version.as_ref()),
            roots_required: true,
            round_trips: true,
            default_draft: config.schemas.default_draft,
            runtime_path: config.krate.runtime_path.clone(),
            regenerate_command: REGENERATE_COMMAND.to_owned(),
            config_file: config.file_name.clone(),
            require_coverage: Vec::new(),
            pages: config.krate.pages,
            page_notes: config
                .schema
                .iter()
                .map(|(path, schema)| {
                    let notes =
                        PageNotes { summary: schema.summary.clone(), served_at: schema.served_at.clone(), appears: schema.appears.clone() };
                    (path.clone(), notes)
                })
                .filter(|(_, notes)| *notes != PageNotes::default())
                .collect(),
            served_at: config.krate.served_at.clone(),
            types: config.schemas.types.clone(),
            dependencies: config.krate.dependencies.clone(),
        }
    }

    pub(crate) fn roots(&self) -> Vec<&str> {
        self.units.iter().flat_map(|u| u.roots.iter().map(String::as_str)).collect()
    }
}
