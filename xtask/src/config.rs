//! `schemac.toml`: which schemas become which crate.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use anyhow::{Context, Result, bail};
use serde::Deserialize;

/// The file name, at the repository root.
pub const FILE_NAME: &str = "schemac.toml";

/// The whole of `schemac.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    #[serde(rename = "crate")]
    pub krate: CrateConfig,
    pub schemas: SchemasConfig,
    /// Per-schema settings, keyed by the schema's repo-relative path with `/`.
    #[serde(default)]
    pub schema: BTreeMap<String, SchemaConfig>,
}

/// `[crate]`: the generated crate's manifest.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CrateConfig {
    pub name: String,
    pub version: String,
    pub description: String,
    /// The crate's directory, relative to the repository root.
    pub output: String,
}

/// `[schemas]`: where the schemas are and how to read them.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SchemasConfig {
    /// Directories, relative to the repository root, searched recursively for `*.json`.
    pub roots: Vec<String>,
    /// The draft of schemas without `$schema`: `2020-12`, `2019-09`, `7`, `6` or `4`.
    #[serde(default = "default_draft_name")]
    pub default_draft: String,
    /// Assert `format` (date-time, email, uri, ...) instead of only annotating it; the crate
    /// then enables `schemac-runtime`'s `formats` feature.
    #[serde(default)]
    pub assert_formats: bool,
}

/// `[schema."<path>"]`: settings for one schema.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct SchemaConfig {
    /// The name of the schema's root type, instead of one derived from `title` or the file name.
    pub root_name: Option<String>,
    /// The name the schema is published under in the generated crate's `SCHEMAS` (e.g.
    /// `madoo.attempts-report/v1`); default: its path below its root, without `.json`.
    pub reference: Option<String>,
    /// The schema's version in `SCHEMAS` (e.g. `1.0.0`); default: the crate's version.
    pub version: Option<String>,
}

fn default_draft_name() -> String {
    "2020-12".to_owned()
}

impl Config {
    /// Reads and validates `schemac.toml` at `root`.
    pub fn load(root: &Path) -> Result<Config> {
        let path = root.join(FILE_NAME);
        let text = fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
        Config::parse(&text).with_context(|| format!("invalid {FILE_NAME}"))
    }

    /// Parses and validates the text of `schemac.toml`.
    pub fn parse(text: &str) -> Result<Config> {
        let config: Config = toml::from_str(text)?;
        config.validate()?;
        Ok(config)
    }

    /// The draft named by `default-draft`, which [`Config::parse`] has checked.
    pub fn default_draft(&self) -> schemac::Draft {
        schemac::Draft::from_name(&self.schemas.default_draft).unwrap_or(schemac::Draft::Draft2020_12)
    }

    fn validate(&self) -> Result<()> {
        let k = &self.krate;
        if k.name.is_empty() || !k.name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            bail!("crate.name {:?} is not a valid crate name (letters, digits, `-`, `_`)", k.name);
        }
        check_version("crate.version", &k.version)?;
        check_relative("crate.output", &k.output)?;
        if self.schemas.roots.is_empty() {
            bail!("schemas.roots is empty; name at least one directory, e.g. roots = [\"schemas\"]");
        }
        for root in &self.schemas.roots {
            check_relative("schemas.roots", root)?;
        }
        if schemac::Draft::from_name(&self.schemas.default_draft).is_none() {
            bail!(
                "schemas.default-draft {:?} is not a draft; use \"2020-12\", \"2019-09\", \"7\", \"6\" or \"4\"",
                self.schemas.default_draft
            );
        }
        for (path, schema) in &self.schema {
            if schema.root_name.as_deref() == Some("") {
                bail!("schema.\"{path}\".root-name is empty");
            }
            if let Some(reference) = &schema.reference {
                check_reference(&format!("schema.\"{path}\".reference"), reference)?;
            }
            if let Some(version) = &schema.version {
                check_version(&format!("schema.\"{path}\".version"), version)?;
            }
        }
        Ok(())
    }
}

/// Versions are `MAJOR.MINOR.PATCH`, as in `Cargo.toml`.
fn check_version(key: &str, version: &str) -> Result<()> {
    if version.split('.').count() != 3 || version.split('.').any(|p| p.is_empty()) {
        bail!("{key} {version:?} is not a semver version like \"0.1.0\"");
    }
    Ok(())
}

/// A reference is served as the tail of a URL path (`GET /api/v1/json-schemas/{reference}`),
/// so it is made of URL-safe segments: letters, digits, `-`, `.`, `_`, `~`, separated by `/`.
pub fn check_reference(key: &str, reference: &str) -> Result<()> {
    let url_safe = |c: char| c.is_ascii_alphanumeric() || "-._~".contains(c);
    let valid =
        reference.split('/').all(|segment| !segment.is_empty() && segment != "." && segment != ".." && segment.chars().all(url_safe));
    if !valid {
        bail!(
            "{key} {reference:?} is not a schema reference: use `/`-separated segments of letters, digits, `-`, `.`, `_` and `~`, \
             e.g. \"madoo.attempts-report/v1\""
        );
    }
    Ok(())
}

/// Paths in the config are relative to the repository root and stay inside it, with `/`.
fn check_relative(key: &str, path: &str) -> Result<()> {
    let inside = !path.is_empty()
        && !path.starts_with('/')
        && !path.contains('\\')
        && path.split('/').all(|segment| !segment.is_empty() && segment != "." && segment != "..");
    if !inside {
        bail!("{key}: {path:?} must be a relative path inside the repository, with `/` separators");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const VALID: &str = r#"
        [crate]
        name = "schema-types"
        version = "0.1.0"
        description = "d"
        output = "generated"

        [schemas]
        roots = ["schemas"]

        [schema."schemas/a.json"]
        root-name = "A"
    "#;

    fn check_err(text: &str, expected: &str) {
        let err = format!("{:#}", Config::parse(text).unwrap_err());
        assert!(err.contains(expected), "expected {expected:?} in error:\n{err}");
    }

    #[test]
    fn parses_the_repository_config() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
        let config = Config::load(root).unwrap();
        assert_eq!(config.krate.name, "schema-types");
        assert_eq!(config.schemas.roots, ["schemas"]);
        assert_eq!(config.schema["schemas/pi-glla/goal.json"].root_name.as_deref(), Some("Goal"));
        let report = &config.schema["schemas/madoo/attempts-report.v1.json"];
        assert_eq!(report.reference.as_deref(), Some("madoo.attempts-report/v1"));
        assert_eq!(report.version.as_deref(), Some("1.0.0"));
    }

    #[test]
    fn defaults() {
        let config = Config::parse(VALID).unwrap();
        assert_eq!(config.default_draft(), schemac::Draft::Draft2020_12);
        assert!(!config.schemas.assert_formats);
        let asserting = Config::parse(&VALID.replace("[schemas]", "[schemas]\nassert-formats = true")).unwrap();
        assert!(asserting.schemas.assert_formats);
        assert_eq!(config.schema["schemas/a.json"].root_name.as_deref(), Some("A"));
    }

    #[test]
    fn rejects_unknown_fields() {
        check_err(&VALID.replace("output =", "outptu ="), "unknown field `outptu`");
        check_err(&VALID.replace("root-name", "root_name"), "unknown field `root_name`");
        check_err(&VALID.replace("[schemas]", "[schemas]\nassert_formats = true"), "unknown field `assert_formats`");
    }

    #[test]
    fn rejects_bad_values() {
        check_err(&VALID.replace("[schemas]", "[schemas]\ndefault-draft = \"5\""), "is not a draft");
        check_err(&VALID.replace("\"generated\"", "\"../out\""), "crate.output");
        check_err(&VALID.replace("[\"schemas\"]", "[]"), "schemas.roots is empty");
        check_err(&VALID.replace("\"0.1.0\"", "\"1\""), "crate.version");
        check_err(&VALID.replace("\"schema-types\"", "\"schema types\""), "crate.name");
        check_err(&VALID.replace("root-name = \"A\"", "root-name = \"\""), "root-name is empty");
        check_err(&VALID.replace("root-name = \"A\"", "reference = \"a b\""), "is not a schema reference");
        check_err(&VALID.replace("root-name = \"A\"", "reference = \"a//b\""), "is not a schema reference");
        check_err(&VALID.replace("root-name = \"A\"", "reference = \"/a\""), "is not a schema reference");
        check_err(&VALID.replace("root-name = \"A\"", "version = \"1.0\""), "schema.\"schemas/a.json\".version");
    }

    #[test]
    fn rejects_missing_sections() {
        check_err("[schemas]\nroots = [\"s\"]\n", "missing field `crate`");
    }
}
