//! `schemac.toml`: which schemas become which crate, read with every value's position so an
//! error names the file, the key, its line:column and a hint.

use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::ops::Range;
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

/// The usual file name, at the repository root.
pub const FILE_NAME: &str = "schemac.toml";

/// Where the keys are described, for hints.
const KEYS_HELP: &str = "see the `schemac.toml` chapter of schemac's user guide (docs/schemac-toml.md) for every key";

/// The whole of `schemac.toml`, validated.
#[derive(Debug)]
pub struct Config {
    pub krate: CrateConfig,
    pub schemas: SchemasConfig,
    /// Per-schema settings, keyed by the schema's path relative to the file's directory, with `/`.
    pub schema: BTreeMap<String, SchemaConfig>,
    /// Where each `[schema."PATH"]` table is, for errors found later (a path under no root).
    pub(crate) schema_spans: BTreeMap<String, (usize, usize)>,
    /// The file as displayed in errors.
    pub(crate) file: String,
    /// Its name alone, for the headers of generated files (`schemac.toml`).
    pub(crate) file_name: String,
}

/// `[crate]`: the generated crate's manifest.
#[derive(Debug)]
pub struct CrateConfig {
    pub name: String,
    pub version: String,
    pub description: String,
    /// The crate's directory, relative to the file's directory.
    pub output: String,
    /// The `schemac-runtime` crate's directory, relative to the file's directory, for a
    /// repository that builds it itself; `None`: a dependency by version only (crates.io, or
    /// the workspace's `[patch.crates-io]`).
    pub runtime_path: Option<String>,
    /// Whether every schema gets a reference page (`docs/<path>.md` in the crate, also the
    /// rustdoc of its module). Default: true.
    pub pages: bool,
    /// Where the crate's schemas are served, for their pages (`{reference}` stands for each
    /// one's reference), unless a schema sets its own.
    pub served_at: Vec<String>,
    /// Whose compatibility the crate's version promises (`role = "reader" | "writer" |
    /// "both"`, default both): the wire class of a schema change for it, with the Rust API
    /// class, gives the version bump `check` and `release` require.
    pub role: schemac::diff::Role,
    /// How a property added to or removed from an open object counts (`compat-policy =
    /// "strict" | "lenient"`, default strict): see `schemac diff --policy`.
    pub compat_policy: schemac::diff::Policy,
    /// `[crate.dependencies]`: more dependencies of the generated crate (the crates whose
    /// types `rust-type` names), each as its TOML value, copied into its `Cargo.toml`.
    pub dependencies: BTreeMap<String, String>,
}

/// `[schemas]`: where the schemas are and how to read them.
#[derive(Debug)]
pub struct SchemasConfig {
    /// Directories (or single files), relative to the file's directory, searched recursively
    /// for schemas.
    pub roots: Vec<String>,
    /// The draft of schemas without `$schema`.
    pub default_draft: schemac::Draft,
    /// Assert `format` (date-time, email, uri, ...) instead of only annotating it; the crate
    /// then enables `schemac-runtime`'s `formats` feature.
    pub assert_formats: bool,
    /// What the generated types offer beyond reading and writing (builders, ...).
    pub types: TypeOptions,
}

/// The `[schemas]` keys about the API of the generated types (`builders`, `non-exhaustive`,
/// `open-enums`, `derives`, `attributes`, `dedup`, `allow-unbounded-patterns`,
/// `primitive-numbers`, and the `[schema."PATH"]` `open-enums` and `types` tables), read
/// straight into the compiler's configuration: the settings and their defaults are
/// `schemac::Config`'s (one source), but for `non-exhaustive`, which a project turns on so that
/// a property, enum value or branch added to a schema is a minor version of its crate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeOptions {
    /// The compiler configuration these keys set; the crate-wide settings (draft, formats,
    /// header command) are the [`CrateSpec`](crate::CrateSpec)'s.
    config: schemac::Config,
    /// Where each `[schema."PATH".types."POINTER"]` table is (`file`, line:column), for the
    /// errors the compiler finds about them (a pointer without a type).
    type_spans: BTreeMap<(String, String), (String, (usize, usize))>,
}

impl Default for TypeOptions {
    fn default() -> Self {
        TypeOptions { config: schemac::Config::default().non_exhaustive(true), type_spans: BTreeMap::new() }
    }
}

impl TypeOptions {
    /// The compiler configuration these options make, every other setting at its default.
    pub fn config(&self) -> &schemac::Config {
        &self.config
    }

    /// Changes the options through the compiler's setters:
    /// `types.configure(|c| c.open_enums_of("schemas/a.json", true))`.
    pub fn configure(&mut self, change: impl FnOnce(schemac::Config) -> schemac::Config) {
        self.config = change(std::mem::take(&mut self.config));
    }

    /// A compiler error about a `[schema."PATH".types."POINTER"]` table (`unknown-type-pointer`)
    /// as the configuration error it is, at the table.
    pub(crate) fn type_error(&self, diagnostics: &schemac::Diagnostics) -> Option<ConfigError> {
        let d = diagnostics.iter().find(|d| d.code == "unknown-type-pointer")?;
        let (file, position) = self.type_spans.get(&(d.file.clone(), d.pointer.clone()))?;
        Some(ConfigError {
            file: file.clone(),
            key: Some(format!("schema.\"{}\".types.\"{}\"", d.file, d.pointer)),
            position: Some(*position),
            message: d.message.clone(),
            hint: d.hint.clone(),
        })
    }
}

/// `[schema."PATH".types."POINTER"]`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawType {
    rust_type: Option<String>,
    #[serde(default)]
    derives: Vec<String>,
    #[serde(default)]
    attributes: Vec<String>,
}

/// `[schema."<path>"]`: settings for one schema.
#[derive(Debug, Default)]
pub struct SchemaConfig {
    /// The name of the schema's root type, instead of one derived from `title` or the file name.
    pub root_name: Option<String>,
    /// The name the schema is published under in the generated crate's `SCHEMAS` (e.g.
    /// `madoo.attempts-report/v1`); default: its path below its root, without the extension.
    pub reference: Option<String>,
    /// The schema's version in `SCHEMAS` (e.g. `1.0.0`); default: the crate's version.
    pub version: Option<String>,
    /// One or two sentences for the top of the schema's reference page, when its description
    /// is longer than that.
    pub summary: Option<String>,
    /// Where the schema is served, for its page; default: `[crate] served-at`.
    pub served_at: Option<Vec<String>>,
    /// Where documents of the schema appear (`Produced by: workflow/repeat → report`), one line
    /// of its page each.
    pub appears: Vec<String>,
}

/// A problem with `schemac.toml`: the file, the key, where, what, and a hint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub file: String,
    /// The dotted key, e.g. `crate.version` or `schema."schemas/a.json".root-name`.
    pub key: Option<String>,
    /// 1-based line and column.
    pub position: Option<(usize, usize)>,
    pub message: String,
    pub hint: Option<String>,
}

impl fmt::Display for ConfigError {
    /// `schemac.toml:3:11: crate.version: "1" is not a semver version` and an indented hint.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some((line, column)) = self.position {
            write!(f, ":{line}:{column}")?;
        }
        write!(f, ": ")?;
        if let Some(key) = &self.key {
            write!(f, "{key}: ")?;
        }
        write!(f, "{}", self.message)?;
        if let Some(hint) = &self.hint {
            write!(f, "\n  hint: {hint}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigError {}

// The file as written: every value that is validated keeps its span.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(rename = "crate")]
    krate: RawCrate,
    schemas: RawSchemas,
    #[serde(default)]
    schema: BTreeMap<Spanned<String>, RawSchema>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawCrate {
    name: Spanned<String>,
    version: Spanned<String>,
    description: String,
    output: Spanned<String>,
    runtime_path: Option<Spanned<String>>,
    #[serde(default = "yes")]
    pages: bool,
    #[serde(default)]
    served_at: Vec<String>,
    role: Option<Spanned<String>>,
    compat_policy: Option<Spanned<String>>,
    #[serde(default)]
    dependencies: BTreeMap<String, toml::Value>,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawSchemas {
    roots: Spanned<Vec<Spanned<String>>>,
    default_draft: Option<Spanned<String>>,
    #[serde(default)]
    assert_formats: bool,
    // The type options: absent, each is `TypeOptions::default()`'s (the compiler's default).
    builders: Option<bool>,
    non_exhaustive: Option<bool>,
    open_enums: Option<bool>,
    derives: Option<Vec<String>>,
    attributes: Option<Vec<String>>,
    dedup: Option<bool>,
    allow_unbounded_patterns: Option<bool>,
    primitive_numbers: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct RawSchema {
    root_name: Option<Spanned<String>>,
    reference: Option<Spanned<String>>,
    version: Option<Spanned<String>>,
    summary: Option<String>,
    served_at: Option<Vec<String>>,
    #[serde(default)]
    appears: Vec<String>,
    open_enums: Option<bool>,
    #[serde(default)]
    types: BTreeMap<Spanned<String>, RawType>,
}

impl Config {
    /// Reads and validates the file at `path`; errors name it as `path` is written.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let file = path.display().to_string();
        let text = fs::read_to_string(path).map_err(|err| ConfigError {
            file: file.clone(),
            key: None,
            position: None,
            message: format!("cannot read it: {err}"),
            hint: Some(format!("create it with `schemac init`, or pass the right file with `--config FILE` ({KEYS_HELP})")),
        })?;
        Config::parse(&file, &text)
    }

    /// Parses and validates the text of a `schemac.toml` displayed as `file`.
    pub fn parse(file: &str, text: &str) -> Result<Config, ConfigError> {
        let raw: RawConfig = toml::from_str(text).map_err(|err| toml_error(file, text, &err))?;
        let checker = Checker { file, text };
        checker.check(raw)
    }

    /// The position of `[schema."PATH"]`, for errors about it found while generating.
    pub(crate) fn schema_error(&self, path: &str, message: String, hint: String) -> ConfigError {
        ConfigError {
            file: self.file.clone(),
            key: Some(format!("schema.\"{path}\"")),
            position: self.schema_spans.get(path).copied(),
            message,
            hint: Some(hint),
        }
    }
}

/// A `toml`/serde error (syntax, unknown key, wrong type, missing key) as a [`ConfigError`].
fn toml_error(file: &str, text: &str, err: &toml::de::Error) -> ConfigError {
    let message = err.message().trim().to_owned();
    let span = err.span();
    let key = span.as_ref().and_then(|span| key_at(text, span.start));
    let hint = if message.starts_with("unknown field") {
        format!("check the spelling (keys are kebab-case, like `root-name`); {KEYS_HELP}")
    } else if message.starts_with("missing field") {
        format!("add it; {KEYS_HELP}")
    } else if message.starts_with("invalid type") {
        format!("{KEYS_HELP}, with its type")
    } else {
        "the file must be TOML (https://toml.io)".to_owned()
    };
    ConfigError { file: file.to_owned(), key, position: span.map(|s| line_column(text, s.start)), message, hint: Some(hint) }
}

/// The dotted key whose line holds byte `offset`: the nearest `[table]` header above and the
/// key before `=` on the line, as a reader would name it.
fn key_at(text: &str, offset: usize) -> Option<String> {
    let before = &text[..offset.min(text.len())];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[line_start..].find('\n').map_or(text.len(), |i| line_start + i);
    let line = text[line_start..line_end].trim();
    if line.starts_with('[') {
        return Some(line.trim_matches(|c| c == '[' || c == ']').trim().to_owned());
    }
    let key = line.split_once('=').map(|(key, _)| key.trim().to_owned())?;
    let table = before[..line_start]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('['))
        .map(|l| l.trim_matches(|c| c == '[' || c == ']').trim().to_owned());
    Some(match table {
        Some(table) => format!("{table}.{key}"),
        None => key,
    })
}

/// 1-based line and column (in characters) of byte `offset` in `text`.
pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// Validation of the parsed file, each error at its value.
struct Checker<'a> {
    file: &'a str,
    text: &'a str,
}

impl Checker<'_> {
    fn error(&self, key: &str, span: Range<usize>, message: String, hint: &str) -> ConfigError {
        ConfigError {
            file: self.file.to_owned(),
            key: Some(key.to_owned()),
            position: Some(line_column(self.text, span.start)),
            message,
            hint: Some(hint.to_owned()),
        }
    }

    fn check(&self, raw: RawConfig) -> Result<Config, ConfigError> {
        let k = &raw.krate;
        let name = k.name.get_ref();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            return Err(self.error(
                "crate.name",
                k.name.span(),
                format!("{name:?} is not a valid crate name"),
                "use letters, digits, `-` and `_`, e.g. \"schema-types\"",
            ));
        }
        self.version("crate.version", &k.version)?;
        self.relative("crate.output", &k.output)?;
        if let Some(path) = &k.runtime_path {
            self.relative("crate.runtime-path", path)?;
        }
        if raw.schemas.roots.get_ref().is_empty() {
            return Err(self.error(
                "schemas.roots",
                raw.schemas.roots.span(),
                "is empty".to_owned(),
                "name at least one directory of schemas, e.g. roots = [\"schemas\"]",
            ));
        }
        for root in raw.schemas.roots.get_ref() {
            self.relative("schemas.roots", root)?;
        }
        let default_draft = match &raw.schemas.default_draft {
            None => schemac::Draft::Draft2020_12,
            Some(draft) => schemac::Draft::from_name(draft.get_ref()).ok_or_else(|| {
                self.error(
                    "schemas.default-draft",
                    draft.span(),
                    format!("{:?} is not a draft", draft.get_ref()),
                    "use \"2020-12\", \"2019-09\", \"7\", \"6\" or \"4\"",
                )
            })?,
        };
        let role = match &k.role {
            None => schemac::diff::Role::Both,
            Some(role) => match role.get_ref().as_str() {
                "reader" => schemac::diff::Role::Reader,
                "writer" => schemac::diff::Role::Writer,
                "both" => schemac::diff::Role::Both,
                other => {
                    return Err(self.error(
                        "crate.role",
                        role.span(),
                        format!("{other:?} is not a role"),
                        "use \"reader\" (the crate's users read documents others write), \"writer\" (they write documents others read) or \"both\"",
                    ));
                }
            },
        };
        let compat_policy = match &k.compat_policy {
            None => schemac::diff::Policy::Strict,
            Some(policy) => schemac::diff::Policy::from_name(policy.get_ref()).ok_or_else(|| {
                self.error(
                    "crate.compat-policy",
                    policy.span(),
                    format!("{:?} is not a compatibility policy", policy.get_ref()),
                    "use \"strict\" (an open object may carry any property) or \"lenient\" (producers send only the properties the schema declares)",
                )
            })?,
        };
        let mut schema = BTreeMap::new();
        let mut schema_spans = BTreeMap::new();
        let mut types = TypeOptions::default();
        let r = &raw.schemas;
        types.configure(|mut c| {
            let set = |c: schemac::Config, value: Option<bool>, f: fn(schemac::Config, bool) -> schemac::Config| match value {
                Some(on) => f(c, on),
                None => c,
            };
            c = set(c, r.builders, schemac::Config::builders);
            c = set(c, r.non_exhaustive, schemac::Config::non_exhaustive);
            c = set(c, r.open_enums, schemac::Config::open_enums);
            c = set(c, r.dedup, schemac::Config::dedup);
            c = set(c, r.allow_unbounded_patterns, schemac::Config::unbounded_patterns);
            c = set(c, r.primitive_numbers, schemac::Config::primitive_numbers);
            if let Some(derives) = &r.derives {
                c = c.derives(derives);
            }
            if let Some(attributes) = &r.attributes {
                c = c.attributes(attributes);
            }
            c
        });
        for (path, settings) in raw.schema {
            for (pointer, ty) in settings.types {
                let key = format!("schema.\"{}\".types.\"{}\"", path.get_ref(), pointer.get_ref());
                if !pointer.get_ref().is_empty() && !pointer.get_ref().starts_with('/') {
                    return Err(self.error(
                        &key,
                        pointer.span(),
                        format!("{:?} is not a JSON pointer", pointer.get_ref()),
                        "a JSON pointer starts with `/`, e.g. \"/definitions/task\" or \"/$defs/item\"",
                    ));
                }
                if let Some(rust_type) = ty.rust_type.as_ref().filter(|t| t.trim().is_empty()) {
                    return Err(self.error(
                        &key,
                        pointer.span(),
                        format!("`rust-type` is {rust_type:?}"),
                        "name a Rust type, e.g. \"my_crate::Task\"",
                    ));
                }
                types.type_spans.insert(
                    (path.get_ref().clone(), pointer.get_ref().clone()),
                    (self.file.to_owned(), line_column(self.text, pointer.span().start)),
                );
                let mut settings = schemac::TypeSettings::default().derives(ty.derives).attributes(ty.attributes);
                if let Some(rust_type) = ty.rust_type {
                    settings = settings.rust_type(rust_type);
                }
                types.configure(|c| c.type_settings(path.get_ref().clone(), pointer.into_inner(), settings));
            }
            if let Some(open) = settings.open_enums {
                types.configure(|c| c.open_enums_of(path.get_ref().clone(), open));
            }
            let key = format!("schema.\"{}\"", path.get_ref());
            if let Some(root_name) = settings.root_name.as_ref().filter(|n| n.get_ref().is_empty()) {
                return Err(self.error(
                    &format!("{key}.root-name"),
                    root_name.span(),
                    "is empty".to_owned(),
                    "name the root type, e.g. \"Order\", or leave the key out",
                ));
            }
            if let Some(reference) = &settings.reference {
                check_reference(reference.get_ref())
                    .map_err(|(message, hint)| self.error(&format!("{key}.reference"), reference.span(), message, hint))?;
            }
            if let Some(version) = &settings.version {
                self.version(&format!("{key}.version"), version)?;
            }
            schema_spans.insert(path.get_ref().clone(), line_column(self.text, path.span().start));
            schema.insert(
                path.into_inner(),
                SchemaConfig {
                    root_name: settings.root_name.map(Spanned::into_inner),
                    reference: settings.reference.map(Spanned::into_inner),
                    version: settings.version.map(Spanned::into_inner),
                    summary: settings.summary,
                    served_at: settings.served_at,
                    appears: settings.appears,
                },
            );
        }
        Ok(Config {
            krate: CrateConfig {
                name: raw.krate.name.into_inner(),
                version: raw.krate.version.into_inner(),
                description: raw.krate.description,
                output: raw.krate.output.into_inner(),
                runtime_path: raw.krate.runtime_path.map(Spanned::into_inner),
                pages: raw.krate.pages,
                served_at: raw.krate.served_at,
                role,
                compat_policy,
                dependencies: raw.krate.dependencies.iter().map(|(name, value)| (name.clone(), toml_value_text(value))).collect(),
            },
            schemas: SchemasConfig {
                roots: raw.schemas.roots.into_inner().into_iter().map(Spanned::into_inner).collect(),
                default_draft,
                assert_formats: raw.schemas.assert_formats,
                types,
            },
            schema,
            schema_spans,
            file: self.file.to_owned(),
            file_name: self.file.rsplit(['/', '\\']).next().unwrap_or(self.file).to_owned(),
        })
    }

    /// Versions are `MAJOR.MINOR.PATCH`, as in `Cargo.toml`.
    fn version(&self, key: &str, version: &Spanned<String>) -> Result<(), ConfigError> {
        let v = version.get_ref();
        if v.split('.').count() != 3 || v.split('.').any(|p| p.is_empty()) {
            return Err(self.error(key, version.span(), format!("{v:?} is not a semver version"), "use MAJOR.MINOR.PATCH, e.g. \"0.1.0\""));
        }
        Ok(())
    }

    /// Paths in the config are relative to its directory and stay inside it, with `/`.
    fn relative(&self, key: &str, path: &Spanned<String>) -> Result<(), ConfigError> {
        let p = path.get_ref();
        let inside = !p.is_empty()
            && !p.starts_with('/')
            && !p.contains('\\')
            && p.split('/').all(|segment| !segment.is_empty() && segment != "." && segment != "..");
        if !inside {
            return Err(self.error(
                key,
                path.span(),
                format!("{p:?} must be a relative path inside the repository"),
                "write it relative to the directory of schemac.toml, with `/` separators and no `..`",
            ));
        }
        Ok(())
    }
}

/// A TOML value as inline TOML text (`"1.2"`, `{ path = "../x" }`).
fn toml_value_text(value: &toml::Value) -> String {
    match value {
        toml::Value::Table(table) => {
            let members: Vec<String> = table.iter().map(|(key, value)| format!("{key} = {}", toml_value_text(value))).collect();
            format!("{{ {} }}", members.join(", "))
        }
        toml::Value::Array(items) => format!("[{}]", items.iter().map(toml_value_text).collect::<Vec<_>>().join(", ")),
        other => other.to_string(),
    }
}

/// A reference is served as the tail of a URL path (`GET /api/v1/json-schemas/{reference}`),
/// so it is made of URL-safe segments: letters, digits, `-`, `.`, `_`, `~`, separated by `/`.
/// The error is a message and a hint.
pub(crate) fn check_reference(reference: &str) -> Result<(), (String, &'static str)> {
    let url_safe = |c: char| c.is_ascii_alphanumeric() || "-._~".contains(c);
    let valid =
        reference.split('/').all(|segment| !segment.is_empty() && segment != "." && segment != ".." && segment.chars().all(url_safe));
    if !valid {
        return Err((
            format!("{reference:?} is not a schema reference"),
            "use `/`-separated segments of letters, digits, `-`, `.`, `_` and `~`, e.g. \"madoo.attempts-report/v1\"",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const VALID: &str = r#"[crate]
name = "schema-types"
version = "0.1.0"
description = "d"
output = "generated"

[schemas]
roots = ["schemas"]

[schema."schemas/a.json"]
root-name = "A"
"#;

    /// The error for `text`, displayed, must be `expected`.
    fn check_err(text: &str, expected: &str) {
        let err = Config::parse(FILE_NAME, text).unwrap_err().to_string();
        assert_eq!(err, expected);
    }

    #[test]
    fn parses_the_repository_config() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().and_then(Path::parent).unwrap();
        let config = Config::load(&root.join(FILE_NAME)).unwrap();
        assert_eq!(config.krate.name, "schema-types");
        assert_eq!(config.schemas.roots, ["schemas"]);
        assert_eq!(config.schema["schemas/pi-glla/goal.json"].root_name.as_deref(), Some("Goal"));
        let report = &config.schema["schemas/madoo/attempts-report.v1.json"];
        assert_eq!(report.reference.as_deref(), Some("madoo.attempts-report/v1"));
        assert_eq!(report.version.as_deref(), Some("1.0.0"));
    }

    #[test]
    fn defaults() {
        let config = Config::parse(FILE_NAME, VALID).unwrap();
        assert_eq!(config.schemas.default_draft, schemac::Draft::Draft2020_12);
        assert!(!config.schemas.assert_formats);
        assert_eq!(config.krate.runtime_path, None);
        assert_eq!(config.krate.role, schemac::diff::Role::Both);
        assert_eq!(config.krate.compat_policy, schemac::diff::Policy::Strict);
        let lenient = VALID.replace("output =", "compat-policy = \"lenient\"\noutput =");
        assert_eq!(Config::parse(FILE_NAME, &lenient).unwrap().krate.compat_policy, schemac::diff::Policy::Lenient);
        let bad = VALID.replace("output =", "compat-policy = \"loose\"\noutput =");
        let error = Config::parse(FILE_NAME, &bad).unwrap_err().to_string();
        assert!(
            error.contains("crate.compat-policy: \"loose\" is not a compatibility policy") && error.contains("hint: use \"strict\""),
            "{error}"
        );
        for (name, role) in [("reader", schemac::diff::Role::Reader), ("writer", schemac::diff::Role::Writer)] {
            let text = VALID.replace("output =", &format!("role = \"{name}\"\noutput ="));
            assert_eq!(Config::parse(FILE_NAME, &text).unwrap().krate.role, role);
        }
        let asserting = Config::parse(FILE_NAME, &VALID.replace("[schemas]", "[schemas]\nassert-formats = true")).unwrap();
        assert!(asserting.schemas.assert_formats);
        assert_eq!(config.schema["schemas/a.json"].root_name.as_deref(), Some("A"));
        // The type options are the compiler's settings, at its defaults but non-exhaustive.
        let options = |text: &str| Config::parse(FILE_NAME, text).unwrap().schemas.types.config().clone();
        let base = options(VALID);
        assert_eq!(base, schemac::Config::default().non_exhaustive(true));
        let with = |keys: &str| options(&VALID.replace("[schemas]", &format!("[schemas]\n{keys}")));
        assert_eq!(with("builders = false"), base.clone().builders(false));
        assert_eq!(with("non-exhaustive = false"), schemac::Config::default());
        assert_eq!(with("non-exhaustive = true"), base);
        assert_eq!(
            with("primitive-numbers = true\nallow-unbounded-patterns = true\ndedup = false\nopen-enums = true"),
            base.clone().primitive_numbers(true).unbounded_patterns(true).dedup(false).open_enums(true)
        );
        assert_eq!(options(&format!("{VALID}\nopen-enums = true\n")), base.clone().open_enums_of("schemas/a.json", true), "{VALID}");
        assert_eq!(
            with("derives = [\"Eq\"]\nattributes = [\"#[allow(dead_code)]\"]"),
            base.clone().derives(["Eq"]).attributes(["#[allow(dead_code)]"])
        );
    }

    /// The user guide's `schemac.toml` reference (`docs/schemac-toml.md`): its example parses,
    /// and every key its table lists is in the example.
    #[test]
    fn the_guide_example_has_every_key_and_parses() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().and_then(Path::parent).unwrap();
        let section = fs::read_to_string(root.join("docs/schemac-toml.md")).unwrap();
        let example = section.split("```toml").nth(1).and_then(|s| s.split_once('\n')).and_then(|(_, s)| s.split("```").next()).unwrap();
        let config = Config::parse("docs/schemac-toml.md", example).unwrap_or_else(|e| panic!("{e}"));
        assert!(config.schemas.types.config() != TypeOptions::default().config() && !config.schema.is_empty());
        let keys: Vec<&str> = section.lines().filter_map(|l| l.strip_prefix("| `")).filter_map(|l| l.split('`').next()).collect();
        assert!(keys.len() > 25, "{keys:?}");
        for key in keys {
            let name = key.rsplit('.').next().unwrap();
            let table = if let Some(rest) = key.strip_prefix("schema.\"PATH\".types.\"POINTER\".") {
                format!("{rest} = ")
            } else {
                format!("{name} = ")
            };
            assert!(example.lines().any(|l| l.starts_with(&table)), "`{key}` has no example in the guide's schemac.toml");
        }
    }

    #[test]
    fn reads_type_tables() {
        let text = format!(
            "{VALID}\n[schema.\"schemas/a.json\".types.\"/$defs/b\"]\nrust-type = \"my::B\"\nderives = [\"Eq\"]\nattributes = [\"#[doc(alias = \\\"b\\\")]\"]\n"
        );
        let config = Config::parse(FILE_NAME, &text).unwrap();
        let b = schemac::TypeSettings::default().rust_type("my::B").derives(["Eq"]).attributes(["#[doc(alias = \"b\")]"]);
        assert_eq!(config.schemas.types.config(), &TypeOptions::default().config().clone().type_settings("schemas/a.json", "/$defs/b", b));
        let key = |text: String| Config::parse(FILE_NAME, &text).unwrap_err().to_string();
        assert!(
            key(text.replace("\"/$defs/b\"", "\"$defs/b\""))
                .starts_with("schemac.toml:13:32: schema.\"schemas/a.json\".types.\"$defs/b\": \"$defs/b\" is not a JSON pointer"),
            "{}",
            key(text.replace("\"/$defs/b\"", "\"$defs/b\""))
        );
        assert!(
            key(text.replace("rust-type", "rust_type"))
                .contains("unknown field `rust_type`, expected one of `rust-type`, `derives`, `attributes`")
        );
    }

    #[test]
    fn rejects_unknown_keys_naming_the_known_ones() {
        check_err(
            &VALID.replace("output =", "outptu ="),
            "schemac.toml:5:1: crate.outptu: unknown field `outptu`, expected one of `name`, `version`, `description`, `output`, `runtime-path`, `pages`, `served-at`, `role`, `compat-policy`, `dependencies`\n  \
             hint: check the spelling (keys are kebab-case, like `root-name`); see the `schemac.toml` chapter of schemac's user guide (docs/schemac-toml.md) for every key",
        );
        let err = Config::parse(FILE_NAME, &VALID.replace("root-name", "root_name")).unwrap_err();
        assert_eq!((err.key.as_deref(), err.position), (Some("schema.\"schemas/a.json\".root_name"), Some((11, 1))));
        assert!(err.message.starts_with("unknown field `root_name`, expected one of `root-name`"), "{err}");
    }

    #[test]
    fn rejects_wrong_types_at_the_value() {
        check_err(
            &VALID.replace("roots = [\"schemas\"]", "roots = \"schemas\""),
            "schemac.toml:8:9: schemas.roots: invalid type: string \"schemas\", expected a sequence\n  \
             hint: see the `schemac.toml` chapter of schemac's user guide (docs/schemac-toml.md) for every key, with its type",
        );
        let err = Config::parse(FILE_NAME, "[crate\nname = 1").unwrap_err();
        assert_eq!(err.position.map(|p| p.0), Some(1), "{err}");
        assert_eq!(err.hint.as_deref(), Some("the file must be TOML (https://toml.io)"));
    }

    #[test]
    fn rejects_bad_values_at_the_value() {
        check_err(
            &VALID.replace("[schemas]", "[schemas]\ndefault-draft = \"5\""),
            "schemac.toml:8:17: schemas.default-draft: \"5\" is not a draft\n  hint: use \"2020-12\", \"2019-09\", \"7\", \"6\" or \"4\"",
        );
        check_err(
            &VALID.replace("output =", "role = \"readers\"\noutput ="),
            "schemac.toml:5:8: crate.role: \"readers\" is not a role\n  hint: use \"reader\" (the crate's users read documents \
             others write), \"writer\" (they write documents others read) or \"both\"",
        );
        check_err(
            &VALID.replace("\"0.1.0\"", "\"1\""),
            "schemac.toml:3:11: crate.version: \"1\" is not a semver version\n  hint: use MAJOR.MINOR.PATCH, e.g. \"0.1.0\"",
        );
        let key = |text: String| Config::parse(FILE_NAME, &text).unwrap_err().key.unwrap();
        assert_eq!(key(VALID.replace("\"generated\"", "\"../out\"")), "crate.output");
        assert_eq!(key(VALID.replace("[\"schemas\"]", "[]")), "schemas.roots");
        assert_eq!(key(VALID.replace("\"schema-types\"", "\"schema types\"")), "crate.name");
        assert_eq!(key(VALID.replace("root-name = \"A\"", "root-name = \"\"")), "schema.\"schemas/a.json\".root-name");
        for bad in ["a b", "a//b", "/a"] {
            assert_eq!(key(VALID.replace("root-name = \"A\"", &format!("reference = \"{bad}\""))), "schema.\"schemas/a.json\".reference");
        }
        assert_eq!(key(VALID.replace("root-name = \"A\"", "version = \"1.0\"")), "schema.\"schemas/a.json\".version");
    }

    #[test]
    fn rejects_missing_sections_and_files() {
        let err = Config::parse(FILE_NAME, "[schemas]\nroots = [\"s\"]\n").unwrap_err();
        assert!(err.message.contains("missing field `crate`"), "{err}");
        let err = Config::load(Path::new("/nonexistent/schemac.toml")).unwrap_err();
        assert!(err.to_string().starts_with("/nonexistent/schemac.toml: cannot read it: "), "{err}");
        assert!(err.hint.unwrap().contains("schemac init"));
    }
}
