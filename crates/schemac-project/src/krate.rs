//! One generated crate in memory: schemas → the text of its every file (manifest, `lib.rs` with
//! the module tree and the registry, one module per schema, README, round-trip tests).
//!
//! Nothing here touches the crate on disk; [`super::files`] compares and writes.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use super::config::{self, Config};
use super::error::{Context, Error, bail};
use super::files::CrateFiles;

/// The command that regenerates a crate, named in its files when the caller names no other.
pub const REGENERATE_COMMAND: &str = "cargo xtask codegen";

/// The version of `schemac-runtime` generated crates depend on: this library's own.
const RUNTIME_VERSION: &str = env!("CARGO_PKG_VERSION");

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
        }
    }

    fn roots(&self) -> Vec<&str> {
        self.units.iter().flat_map(|u| u.roots.iter().map(String::as_str)).collect()
    }
}

/// How a schema is listed in the generated crate's `SCHEMAS`.
#[derive(Clone, Debug, PartialEq)]
struct Published {
    /// `reference` from `schemac.toml`, else the path below its root without `.json`.
    reference: String,
    /// `version` from `schemac.toml`, else the crate's version.
    version: String,
}

/// A schema found under a root.
#[derive(Debug)]
pub(crate) struct Found {
    /// Root-relative path with `/`, e.g. `schemas/madoo/attempts-report.v1.json`.
    pub(crate) display: String,
    /// Path segments below the root, the last without its extension.
    pub(crate) segments: Vec<String>,
}

/// Generates, in memory, every file of the crate `spec` describes, its paths relative to
/// `root` (the project root, where the schema roots are).
pub fn generate_crate(root: &Path, spec: &CrateSpec) -> Result<CrateFiles, Error> {
    use rayon::prelude::*;
    // Units compile in parallel; their results are merged in the order of `spec.units`, so
    // the output does not depend on which finishes first.
    let compiled: Vec<Result<CompiledUnit, Error>> = spec.units.par_iter().map(|unit| compile_unit(root, spec, unit)).collect();
    let mut found_all = Vec::new();
    let mut output = schemac::Output::default();
    let mut read = Vec::new();
    let mut round_trip = None;
    for (unit, compiled) in spec.units.iter().zip(compiled) {
        let compiled = compiled?;
        output.modules.extend(compiled.output.modules);
        read.extend(compiled.read);
        // Round-trip tests come from the crate's first unit: the plain-serde baseline checks
        // nothing, and the format-assertion unit has hand-written instance tests of its own.
        if round_trip.is_none() && !unit.plain_serde && spec.round_trips {
            round_trip = Some((compiled.input, compiled.config));
        }
        found_all.extend(compiled.found);
    }
    for path in spec.root_names.keys().chain(spec.references.keys()).chain(spec.versions.keys()) {
        if !found_all.iter().any(|f| &f.display == path) {
            bail!("{}: [schema.\"{path}\"] names a schema that is not under schemas.roots {:?}", spec.config_file, spec.roots());
        }
    }
    let mut krate = render_crate(spec, &output, &published(spec, &found_all)?)?;
    if let Some((input, config)) = round_trip {
        super::roundtrip::add(root, spec, &input, &config, &mut krate.files)?;
    }
    read.sort();
    read.dedup();
    krate.read = read;
    Ok(krate)
}

/// One unit, compiled.
struct CompiledUnit {
    found: Vec<Found>,
    input: schemac::Input,
    config: schemac::Config,
    output: schemac::Output,
    /// Every file the compile read.
    read: Vec<std::path::PathBuf>,
}

/// The compiler input and options of one unit.
fn unit_input(root: &Path, spec: &CrateSpec, unit: &Unit, found: &[Found]) -> Result<(schemac::Input, schemac::Config), Error> {
    let input = schemac::Input {
        schemas: found
            .iter()
            .map(|f| schemac::SchemaSource {
                path: root.join(&f.display),
                display: f.display.clone(),
                module: module_path(&f.segments),
                root_name: spec.root_names.get(&f.display).cloned(),
                pointer: String::new(),
            })
            .collect(),
        // The unit's schema roots: refs between its schemas may cross their directories.
        allowed_roots: unit.roots.iter().map(|r| root.join(r)).collect(),
        ..schemac::Input::default()
    };
    check_module_paths(&input.schemas)?;
    let config = schemac::Config {
        default_draft: spec.default_draft,
        regenerate_command: spec.regenerate_command.clone(),
        assert_formats: unit.assert_formats,
        plain_serde: unit.plain_serde,
        ..schemac::Config::default()
    };
    Ok((input, config))
}

/// Finds and compiles the schemas of one unit.
fn compile_unit(root: &Path, spec: &CrateSpec, unit: &Unit) -> Result<CompiledUnit, Error> {
    let found = find_schemas(root, &unit.roots, spec.roots_required, &spec.config_file)?;
    let (input, config) = unit_input(root, spec, unit, &found)?;
    // No schemas yet is normal; the crate is then empty rather than an error.
    let (output, read) = if input.schemas.is_empty() {
        (schemac::Output::default(), Vec::new())
    } else {
        schemac::compile_reading(&input, &config).with_context(|| format!("cannot generate `{}`", spec.dir))?
    };
    Ok(CompiledUnit { found, input, config, output, read })
}

/// The reference and version of every schema, by its root-relative path. References must be
/// unique: a service finds a schema by its reference alone.
fn published(spec: &CrateSpec, found: &[Found]) -> Result<BTreeMap<String, Published>, Error> {
    let mut by_reference: BTreeMap<String, &str> = BTreeMap::new();
    let mut out = BTreeMap::new();
    for f in found {
        let reference = match spec.references.get(&f.display) {
            Some(reference) => reference.clone(),
            None => {
                let reference = f.segments.join("/");
                if let Err((message, hint)) = config::check_reference(&reference) {
                    bail!(
                        "the default reference of {}: {message} ({hint}); set `reference` in [schema.\"{}\"] of {}",
                        f.display,
                        f.display,
                        spec.config_file
                    );
                }
                reference
            }
        };
        if let Some(other) = by_reference.insert(reference.clone(), &f.display) {
            bail!("{other} and {} are both published as reference {reference:?}; set a distinct `reference` for one", f.display);
        }
        let version = spec.versions.get(&f.display).unwrap_or(&spec.version).clone();
        out.insert(f.display.clone(), Published { reference, version });
    }
    Ok(out)
}

/// The paths (relative to `root`, with `/`) of the schemas under `roots`, sorted: what a
/// [`Unit`] with those roots compiles. Missing roots have none.
pub fn schema_paths(root: &Path, roots: &[String]) -> Result<Vec<String>, Error> {
    Ok(find_schemas(root, roots, false, "")?.into_iter().map(|found| found.display).collect())
}

/// Every schema under the roots, sorted by path so the output does not depend on the order a
/// file system lists directories in.
pub(crate) fn find_schemas(root: &Path, roots: &[String], required: bool, config_file: &str) -> Result<Vec<Found>, Error> {
    let mut found = Vec::new();
    for schema_root in roots {
        let dir = root.join(schema_root);
        // A root may also be one schema file.
        if let Some(stem) = strip_schema_extension(schema_root).filter(|_| dir.is_file()) {
            let stem = stem.rsplit('/').next().unwrap_or(stem);
            found.push(Found { display: schema_root.clone(), segments: vec![stem.to_owned()] });
            continue;
        }
        if !dir.is_dir() {
            if required {
                bail!("{config_file}: schema root `{schema_root}` is not a directory");
            }
            continue;
        }
        let mut relative = Vec::new();
        walk_json(&dir, &mut Vec::new(), &mut relative)?;
        found.extend(relative.into_iter().map(|mut segments| {
            let display = format!("{schema_root}/{}", segments.join("/"));
            if let Some(last) = segments.last_mut() {
                *last = strip_schema_extension(last).unwrap_or(last).to_owned();
            }
            Found { display, segments }
        }));
    }
    found.sort_by(|a, b| a.display.cmp(&b.display));
    Ok(found)
}

/// Collects the paths (as segments below the walk's start) of the schema files (`*.json`,
/// `*.yaml`, `*.yml`) under `dir`.
fn walk_json(dir: &Path, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) -> Result<(), Error> {
    let entries = fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
        let path = entry.path();
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            bail!("{}: file names must be UTF-8", path.display());
        };
        let file_type = entry.file_type().with_context(|| format!("cannot stat {}", path.display()))?;
        prefix.push(name);
        // `<schema>.examples/` holds a schema's instance fixtures, not schemas.
        if file_type.is_dir() && !prefix.last().is_some_and(|n| n.ends_with(".examples")) {
            walk_json(&path, prefix, out)?;
        } else if prefix.last().is_some_and(|n| strip_schema_extension(n).is_some()) {
            out.push(prefix.clone());
        }
        prefix.pop();
    }
    Ok(())
}

/// `name` without its schema extension (`.json`, `.yaml`, `.yml`); `None` if it has none.
pub(crate) fn strip_schema_extension(name: &str) -> Option<&str> {
    schemac::syntax::EXTENSIONS.iter().find_map(|ext| name.strip_suffix(ext)?.strip_suffix('.'))
}

fn module_path(segments: &[String]) -> Vec<String> {
    segments.iter().map(|s| schemac::ident::module_name(s)).collect()
}

/// Checks the input schemas' modules before compiling, so a clash is reported with both files.
fn check_module_paths(schemas: &[schemac::SchemaSource]) -> Result<(), Error> {
    let mut tree = ModuleTree::default();
    for schema in schemas {
        tree.insert(&schema.module, &schema.display)?;
    }
    Ok(())
}

fn render_crate(spec: &CrateSpec, output: &schemac::Output, published: &BTreeMap<String, Published>) -> Result<CrateFiles, Error> {
    let mut modules: Vec<&schemac::Module> = output.modules.iter().collect();
    modules.sort_by(|a, b| a.path.cmp(&b.path));
    let mut tree = ModuleTree::default();
    let mut files = BTreeMap::new();
    for module in &modules {
        tree.insert(&module.path, &module.source)?;
        let file = format!("{}/src/{}.rs", spec.dir, module.path.join("/"));
        files.insert(file, module.code.clone());
    }
    files.insert(format!("{}/Cargo.toml", spec.dir), cargo_toml(spec));
    files.insert(format!("{}/README.md", spec.dir), readme(spec, &modules, published));
    files.insert(format!("{}/src/lib.rs", spec.dir), lib_rs(spec, &modules, &tree, published));
    Ok(CrateFiles { dir: spec.dir.clone(), files, read: Vec::new() })
}

/// The crate's manifest, built with `toml_edit`. It does not inherit from a workspace, so the
/// crate can be published as it is.
fn cargo_toml(spec: &CrateSpec) -> String {
    use toml_edit::{Array, DocumentMut, InlineTable, Item, Table, value};
    let mut package = Table::new();
    package
        .decor_mut()
        .set_prefix(format!("# @generated by `{}` from {}. Do not edit by hand.\n", spec.regenerate_command, spec.config_file));
    for (key, text) in [
        ("name", spec.name.as_str()),
        ("version", &spec.version),
        ("edition", "2024"),
        ("description", &spec.description),
        ("license", "MIT OR Apache-2.0"),
        ("readme", "README.md"),
    ] {
        package[key] = value(text);
    }
    if !spec.publish {
        package["publish"] = value(false);
    }
    let mut runtime = InlineTable::new();
    runtime.insert("version", RUNTIME_VERSION.into());
    if let Some(path) = &spec.runtime_path {
        runtime.insert("path", format!("{}{path}", "../".repeat(spec.dir.split('/').count())).into());
    }
    // Asserted formats are checked by code behind the runtime's `formats` feature.
    if spec.units.iter().any(|u| u.assert_formats) {
        runtime.insert("features", Array::from_iter(["formats"]).into());
    }
    let mut dependencies = Table::new();
    dependencies["schemac-runtime"] = value(runtime);
    let mut serde = InlineTable::new();
    serde.insert("version", "1".into());
    serde.insert("features", Array::from_iter(["derive"]).into());
    dependencies["serde"] = value(serde);
    dependencies["serde_json"] = value("1");
    let mut manifest = DocumentMut::new();
    manifest["package"] = Item::Table(package);
    manifest["dependencies"] = Item::Table(dependencies);
    super::roundtrip::manifest(&mut manifest);
    manifest.to_string()
}

/// The crate root: docs, and `pub mod` declarations mirroring the module tree. The module files
/// are formatted by schemac (prettyplease), so `#[rustfmt::skip]` keeps `cargo fmt` off them.
fn lib_rs(spec: &CrateSpec, modules: &[&schemac::Module], tree: &ModuleTree, published: &BTreeMap<String, Published>) -> String {
    let mut out = String::new();
    let (command, file) = (&spec.regenerate_command, &spec.config_file);
    let _ = writeln!(out, "// @generated by `{command}` from {file}. Do not edit by hand:");
    let _ = writeln!(out, "// change the schemas or {file}, then run `{command}`.");
    out.push('\n');
    let _ = writeln!(out, "//! {}", one_line(&spec.description));
    out.push_str("//!\n");
    if modules.is_empty() {
        out.push_str("//! No schemas yet.\n");
    } else {
        out.push_str("//! Each JSON Schema is one module; its root type is what a whole document deserializes to.\n");
        out.push_str("//! [`SCHEMAS`] lists them as a service publishes them; [`find`] looks one up by reference.\n");
        out.push_str("//!\n//! | Schema | Reference | Module | Root type |\n//! |---|---|---|---|\n");
        for module in modules {
            let path = module.path.join("::");
            let root = match &module.root {
                Some(root) => format!("[`{root}`]({path}::{root})"),
                None => "—".to_owned(),
            };
            let reference = published.get(&module.source).map_or_else(|| "—".to_owned(), |p| format!("`{}`", p.reference));
            let _ = writeln!(out, "//! | `{}` | {reference} | [`{path}`] | {root} |", module.source);
        }
    }
    out.push_str("\n#![forbid(unsafe_code)]\n");

    if !tree.children.is_empty() {
        out.push('\n');
    }
    tree.render(0, &mut out);
    // The plain-serde baseline has no `SchemaBound` impls to register.
    if !spec.units.iter().all(|u| u.plain_serde) {
        registry(modules, published, &mut out);
    }
    out
}

/// `SCHEMAS` and `find`: every input schema (a module with a root type), in path order. The
/// entries are `#[rustfmt::skip]` like the modules, so their layout is schemac's.
fn registry(modules: &[&schemac::Module], published: &BTreeMap<String, Published>, out: &mut String) {
    out.push_str("\n/// Every schema of this crate, in path order, as a service publishes them.\n#[rustfmt::skip]\n");
    out.push_str("pub static SCHEMAS: &[schemac_runtime::SchemaEntry] = &[\n");
    for module in modules {
        let (Some(root), Some(published)) = (&module.root, published.get(&module.source)) else { continue };
        let path = module.path.join("::");
        let (reference, version) = (rust_string(&published.reference), rust_string(&published.version));
        if module.root_nominal {
            let _ = writeln!(out, "    schemac_runtime::SchemaEntry::of::<{path}::{root}>({reference}, {version}, {path}::SCHEMA_JSON),");
        } else {
            // A root that is a plain `type` alias has no impls of its own; the entry says the rest.
            let _ = writeln!(out, "    schemac_runtime::SchemaEntry {{");
            for (field, value) in [
                ("reference", reference),
                ("version", version),
                ("id", rust_string(&module.id)),
                ("source_path", rust_string(&module.source)),
                ("sha256", rust_string(&module.sha256)),
                ("json", format!("{path}::SCHEMA_JSON")),
                ("schema", format!("{path}::schema")),
                ("root_schema", "None".to_owned()),
            ] {
                let _ = writeln!(out, "        {field}: {value},");
            }
            out.push_str("    },\n");
        }
    }
    out.push_str("];\n\n");
    out.push_str("/// The schema published as `reference` (e.g. for `GET /api/v1/json-schemas/{reference}`).\n");
    out.push_str("pub fn find(reference: &str) -> Option<&'static schemac_runtime::SchemaEntry> {\n");
    out.push_str("    SCHEMAS.iter().find(|entry| entry.reference == reference)\n}\n");
}

/// A Rust string literal.
fn rust_string(value: &str) -> String {
    format!("{value:?}")
}

/// The nesting of the generated modules: inner nodes are inline `pub mod a { .. }`, leaves are
/// files at `src/a/b.rs`. Each module is one file, so a module cannot also hold others.
#[derive(Debug, Default)]
struct ModuleTree {
    children: BTreeMap<String, ModuleTree>,
    /// The schema whose module this is, for a leaf.
    source: Option<String>,
}

impl ModuleTree {
    fn insert(&mut self, path: &[String], source: &str) -> Result<(), Error> {
        if path.is_empty() {
            bail!("{source}: has no module path; each schema needs its own module");
        }
        let mut node = self;
        for (depth, segment) in path.iter().enumerate() {
            node = node.children.entry(segment.clone()).or_default();
            if let Some(file) = &node.source {
                let module = path[..=depth].join("::");
                if depth + 1 == path.len() {
                    bail!("{file} and {source} both become module `{module}`; rename one of them");
                }
                bail!("{file} becomes module `{module}`, which also holds {source}'s module; move or rename one");
            }
        }
        if let Some(inner) = node.first_source() {
            let module = path.join("::");
            bail!("{source} becomes module `{module}`, which also holds {inner}'s module; move or rename one");
        }
        node.source = Some(source.to_owned());
        Ok(())
    }

    /// The source of some module inside this one.
    fn first_source(&self) -> Option<&str> {
        self.children.values().find_map(|child| child.source.as_deref().or_else(|| child.first_source()))
    }

    fn render(&self, depth: usize, out: &mut String) {
        let indent = "    ".repeat(depth);
        for (name, child) in &self.children {
            if child.source.is_some() {
                let _ = writeln!(out, "{indent}#[rustfmt::skip]\n{indent}pub mod {name};");
            } else {
                let _ = writeln!(out, "{indent}pub mod {name} {{");
                child.render(depth + 1, out);
                let _ = writeln!(out, "{indent}}}");
            }
        }
    }
}

fn readme(spec: &CrateSpec, modules: &[&schemac::Module], published: &BTreeMap<String, Published>) -> String {
    let krate = spec.name.replace('-', "_");
    let (command, file) = (&spec.regenerate_command, &spec.config_file);
    let mut out = format!("<!-- @generated by `{command}` from {file}. Do not edit by hand. -->\n\n");
    let _ = writeln!(out, "# {}\n\n{}\n", spec.name, one_line(&spec.description));
    let _ = writeln!(out, "Generated by schemac: change the schemas or `{file}`, then run `{command}`.\n");
    out.push_str("## Schemas\n");
    if modules.is_empty() {
        out.push_str("\nNo schemas yet.\n");
    }
    for module in modules {
        let _ = writeln!(out, "\n### `{}`\n", module.source);
        let _ = write!(out, "Module `{krate}::{}`", module.path.join("::"));
        match &module.root {
            Some(root) => {
                let _ = writeln!(out, ", root type `{root}`.");
            }
            None => out.push_str(".\n"),
        }
        if let Some(published) = published.get(&module.source) {
            let _ = writeln!(out, "\nPublished as `{}`, version {}, `$id` `{}`.", published.reference, published.version, module.id);
        }
        if !module.types.is_empty() {
            out.push_str("\n| Type | Summary |\n|---|---|\n");
            for ty in &module.types {
                let _ = writeln!(out, "| `{}` | {} |", ty.name, one_line(&ty.summary).replace('|', "\\|"));
            }
        }
    }
    out
}

/// Text for a single Markdown or comment line.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(path: &[&str], root: Option<&str>, types: &[(&str, &str)]) -> schemac::Module {
        schemac::Module {
            path: path.iter().map(|s| s.to_string()).collect(),
            source: format!("schemas/{}.json", path.join("/")),
            id: format!("urn:{}", path.join(":")),
            sha256: "0".repeat(64),
            root: root.map(str::to_owned),
            // `top` stands for a schema whose root is a plain `type` alias.
            root_nominal: root.is_some() && path != ["top"],
            types: types
                .iter()
                .map(|(name, summary)| schemac::TypeSummary { name: name.to_string(), summary: summary.to_string(), fallback: false })
                .collect(),
            code: format!("// @generated {}\n", path.join("::")),
        }
    }

    fn spec() -> CrateSpec {
        CrateSpec {
            dir: "generated".to_owned(),
            name: "schema-types".to_owned(),
            version: "0.1.0".to_owned(),
            description: "Types \"quoted\"".to_owned(),
            publish: true,
            units: vec![Unit { roots: vec!["schemas".to_owned()], assert_formats: false, plain_serde: false }],
            root_names: BTreeMap::new(),
            references: BTreeMap::new(),
            versions: BTreeMap::new(),
            roots_required: true,
            round_trips: true,
            default_draft: schemac::Draft::Draft2020_12,
            runtime_path: Some("crates/schemac-runtime".to_owned()),
            regenerate_command: REGENERATE_COMMAND.to_owned(),
            config_file: config::FILE_NAME.to_owned(),
            require_coverage: Vec::new(),
        }
    }

    /// What `published` makes of the test modules' paths, with `goal` configured.
    fn published_for(output: &schemac::Output) -> BTreeMap<String, Published> {
        output
            .modules
            .iter()
            .map(|m| {
                let (reference, version) = match m.path.last().map(String::as_str) {
                    Some("goal") => ("pi-glla.goal/v1".to_owned(), "2.0.0".to_owned()),
                    _ => (m.path.join("/"), "0.1.0".to_owned()),
                };
                (m.source.clone(), Published { reference, version })
            })
            .collect()
    }

    #[test]
    fn lays_out_modules_as_nested_files() {
        let output = schemac::Output {
            modules: vec![
                module(&["pi_glla", "goal"], Some("Goal"), &[("Goal", "A goal | state")]),
                module(&["madoo", "attempts_report_v1"], Some("AttemptsReport"), &[]),
                module(&["top"], Some("Top"), &[]),
            ],
            ..schemac::Output::default()
        };
        let krate = render_crate(&spec(), &output, &published_for(&output)).unwrap();
        let names: Vec<&str> = krate.files.keys().map(String::as_str).collect();
        assert_eq!(
            names,
            [
                "generated/Cargo.toml",
                "generated/README.md",
                "generated/src/lib.rs",
                "generated/src/madoo/attempts_report_v1.rs",
                "generated/src/pi_glla/goal.rs",
                "generated/src/top.rs",
            ]
        );
        let lib = &krate.files["generated/src/lib.rs"];
        assert!(lib.starts_with("// @generated by `cargo xtask codegen`"), "{lib}");
        assert!(lib.contains("#![forbid(unsafe_code)]"), "{lib}");
        assert!(
            lib.contains(
                "pub mod madoo {\n    #[rustfmt::skip]\n    pub mod attempts_report_v1;\n}\n\
                 pub mod pi_glla {\n    #[rustfmt::skip]\n    pub mod goal;\n}\n\
                 #[rustfmt::skip]\npub mod top;\n"
            ),
            "{lib}"
        );
        assert!(lib.contains("| `schemas/pi_glla/goal.json` | `pi-glla.goal/v1` | [`pi_glla::goal`] | [`Goal`](pi_glla::goal::Goal) |"));
        assert!(
            lib.contains(
                "pub static SCHEMAS: &[schemac_runtime::SchemaEntry] = &[\n\
                 \x20   schemac_runtime::SchemaEntry::of::<madoo::attempts_report_v1::AttemptsReport>(\"madoo/attempts_report_v1\", \"0.1.0\", \
                 madoo::attempts_report_v1::SCHEMA_JSON),\n\
                 \x20   schemac_runtime::SchemaEntry::of::<pi_glla::goal::Goal>(\"pi-glla.goal/v1\", \"2.0.0\", pi_glla::goal::SCHEMA_JSON),\n\
                 \x20   schemac_runtime::SchemaEntry {\n"
            ),
            "{lib}"
        );
        assert!(lib.contains("        id: \"urn:top\",\n"), "{lib}");
        assert!(lib.contains("        root_schema: None,\n    },\n];\n"), "{lib}");
        assert!(lib.ends_with("SCHEMAS.iter().find(|entry| entry.reference == reference)\n}\n"), "{lib}");
        let readme = &krate.files["generated/README.md"];
        assert!(readme.contains("Module `schema_types::pi_glla::goal`, root type `Goal`."), "{readme}");
        assert!(readme.contains("Published as `pi-glla.goal/v1`, version 2.0.0, `$id` `urn:pi_glla:goal`."), "{readme}");
        assert!(readme.contains("| `Goal` | A goal \\| state |"), "{readme}");
        assert_eq!(krate.files["generated/src/top.rs"], "// @generated top\n");
    }

    #[test]
    fn cargo_toml_is_standalone() {
        let toml = cargo_toml(&spec());
        assert!(toml.contains("description = 'Types \"quoted\"'\n"), "{toml}");
        assert!(toml.contains("schemac-runtime = { version = \"0.1.0\", path = \"../crates/schemac-runtime\" }\n"));
        assert!(!toml.contains("workspace"), "{toml}");
        assert!(!toml.contains("publish"), "{toml}");
        let nested = CrateSpec { dir: "tests/fixture-types".to_owned(), publish: false, ..spec() };
        let fixture = cargo_toml(&nested);
        assert!(fixture.contains("publish = false\n"), "{fixture}");
        assert!(fixture.contains("path = \"../../crates/schemac-runtime\""), "{fixture}");
        // Elsewhere the runtime is a dependency by version, as a published crate has it.
        let by_version = cargo_toml(&CrateSpec { runtime_path: None, ..spec() });
        assert!(by_version.contains("schemac-runtime = { version = \"0.1.0\" }\n"), "{by_version}");
    }

    #[test]
    fn runtime_version_is_the_workspace_version() {
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.toml");
        let manifest = fs::read_to_string(workspace).unwrap();
        let manifest: toml::Table = toml::from_str(&manifest).unwrap();
        assert_eq!(manifest["workspace"]["package"]["version"].as_str(), Some(RUNTIME_VERSION));
    }

    #[test]
    fn rejects_a_module_that_is_also_a_directory_in_the_output() {
        let output =
            schemac::Output { modules: vec![module(&["a"], None, &[]), module(&["a", "b"], None, &[])], ..schemac::Output::default() };
        let err = render_crate(&spec(), &output, &published_for(&output)).unwrap_err().to_string();
        assert_eq!(
            err,
            "schemas/a.json becomes module `a`, which also holds schemas/a/b.json's module; \
             move or rename one"
        );
    }

    fn found(display: &str, segments: &[&str]) -> Found {
        Found { display: display.to_owned(), segments: segments.iter().map(|s| s.to_string()).collect() }
    }

    /// A root may be one schema file (the history's units, whose versions share one `$id`).
    #[test]
    fn a_root_may_be_one_file() {
        let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let file = "tests/history/goal/v01-2026-07-20-b6125db8.json".to_owned();
        let found = find_schemas(&repo, std::slice::from_ref(&file), true, config::FILE_NAME).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(
            (found[0].display.as_str(), found[0].segments.as_slice()),
            (file.as_str(), ["v01-2026-07-20-b6125db8".to_owned()].as_slice())
        );
        let versions = schema_paths(&repo, &["tests/history".to_owned()]).unwrap();
        assert_eq!(versions.len(), 31);
        assert!(versions.iter().all(|path| path.starts_with("tests/history/goal/v") && path.ends_with(".json")), "{versions:?}");
    }

    #[test]
    fn published_defaults_and_duplicates() {
        let mut spec = spec();
        spec.references.insert("schemas/a.v1.json".to_owned(), "a/v1".to_owned());
        spec.versions.insert("schemas/a.v1.json".to_owned(), "1.0.0".to_owned());
        let map = published(&spec, &[found("schemas/a.v1.json", &["a.v1"]), found("schemas/b/c.json", &["b", "c"])]).unwrap();
        assert_eq!(map["schemas/a.v1.json"], Published { reference: "a/v1".to_owned(), version: "1.0.0".to_owned() });
        assert_eq!(map["schemas/b/c.json"], Published { reference: "b/c".to_owned(), version: "0.1.0".to_owned() });

        let err = published(&spec, &[found("schemas/a.v1.json", &["a.v1"]), found("schemas/a/v1.json", &["a", "v1"])]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "schemas/a.v1.json and schemas/a/v1.json are both published as reference \"a/v1\"; set a distinct `reference` for one"
        );
        let err = published(&spec, &[found("schemas/a b.json", &["a b"])]).unwrap_err();
        assert!(format!("{err:#}").contains("set `reference` in [schema.\"schemas/a b.json\"]"), "{err:#}");
    }

    /// Inserts `(file, module path)` pairs in order; the error, if any, must contain `expected`.
    fn check_modules(schemas: &[(&str, &[&str])], expected: Option<&str>) {
        let sources: Vec<schemac::SchemaSource> = schemas
            .iter()
            .map(|(display, module)| schemac::SchemaSource {
                path: std::path::PathBuf::from(display),
                display: display.to_string(),
                module: module.iter().map(|s| s.to_string()).collect(),
                ..schemac::SchemaSource::default()
            })
            .collect();
        match (check_module_paths(&sources), expected) {
            (Ok(()), None) => {}
            (Err(err), Some(expected)) => assert!(err.to_string().contains(expected), "{err}"),
            (result, _) => panic!("{schemas:?}: expected {expected:?}, got {result:?}"),
        }
    }

    #[test]
    fn module_paths() {
        check_modules(&[("s/a.json", &["a"]), ("s/b/a.json", &["b", "a"])], None);
        check_modules(
            &[("s/a-b.json", &["a_b"]), ("s/a_b.json", &["a_b"])],
            Some("s/a-b.json and s/a_b.json both become module `a_b`; rename one of them"),
        );
        check_modules(
            &[("s/a.json", &["a"]), ("s/a/b.json", &["a", "b"])],
            Some("s/a.json becomes module `a`, which also holds s/a/b.json's module"),
        );
        check_modules(
            &[("s/a/b/c.json", &["a", "b", "c"]), ("s/a.json", &["a"])],
            Some("s/a.json becomes module `a`, which also holds s/a/b/c.json's module"),
        );
        check_modules(&[("s/.json", &[])], Some("s/.json: has no module path"));
    }
}
