//! What the registry serves: the schemas, each by reference and version with its exact text,
//! ETag and rendered page, and the shared, replaceable handle ([`Registry`]) the HTTP routes
//! and the MCP server read.
//!
//! Everything a response needs is computed once, when a catalog is built: a request only
//! looks up an entry and clones reference-counted bytes.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

use axum::body::Bytes;
use axum::http::HeaderValue;
use schemac_runtime::SchemaEntry;
use sha2::{Digest, Sha256};
use tokio::sync::watch;

use crate::page;

/// The longest reference served, in bytes; a longer one is refused before any lookup.
pub const MAX_REFERENCE_LEN: usize = 256;

/// One registered schema, as a client receives it.
#[derive(Clone, Debug)]
pub struct Schema {
    /// The name it is published under, e.g. `madoo.attempts-report/v1`.
    pub reference: String,
    /// Its version, e.g. `1.0.0`.
    pub version: String,
    /// The document's `$id` (its source path when it has none).
    pub id: String,
    /// The schema file it was generated from (`schemas/madoo/attempts-report.v1.json`).
    pub source_path: String,
    /// Lowercase hex SHA-256 of the source file.
    pub sha256: String,
    /// The source text, byte for byte: the only body the schema routes send.
    pub json: Bytes,
    /// The reference page, Markdown, when the crate has pages.
    pub page: Option<String>,
    /// `"sha256-<hex>"`, quoted as the `ETag` header has it.
    pub(crate) etag: HeaderValue,
    /// The page rendered to HTML, once.
    pub(crate) html: Option<Rendered>,
}

/// A page rendered once, with its `ETag` (of the HTML: a page also changes with its notes).
#[derive(Clone, Debug)]
pub(crate) struct Rendered {
    pub(crate) body: Bytes,
    pub(crate) etag: HeaderValue,
}

impl Schema {
    /// A schema from its parts. `sha256` is the source file's, as the generated crate records
    /// it (the ETag is derived from it, so two texts never share one).
    pub fn new(
        reference: impl Into<String>,
        version: impl Into<String>,
        id: impl Into<String>,
        source_path: impl Into<String>,
        sha256: impl Into<String>,
        json: impl Into<Bytes>,
        page: Option<String>,
    ) -> Schema {
        let sha256: String = sha256.into();
        let etag = HeaderValue::from_str(&format!("\"sha256-{sha256}\"")).unwrap_or_else(|_| HeaderValue::from_static("\"invalid\""));
        let mut schema = Schema {
            reference: reference.into(),
            version: version.into(),
            id: id.into(),
            source_path: source_path.into(),
            sha256,
            json: json.into(),
            page,
            etag,
            html: None,
        };
        schema.html = schema.page.as_deref().map(|markdown| {
            let html = page::render(&schema.reference, &schema.version, markdown);
            Rendered { etag: etag_of(html.as_bytes(), "page"), body: Bytes::from(html) }
        });
        schema
    }

    /// The schema a generated crate's `SCHEMAS` lists (its text is served from the binary,
    /// not copied).
    pub fn from_entry(entry: &SchemaEntry) -> Schema {
        Schema::new(
            entry.reference,
            entry.version,
            entry.id,
            entry.source_path,
            entry.sha256,
            Bytes::from_static(entry.json.as_bytes()),
            entry.page.map(str::to_owned),
        )
    }

    /// The `ETag` of the schema text: `"sha256-<hex>"`.
    pub fn etag(&self) -> &str {
        self.etag.to_str().unwrap_or_default()
    }

    /// The MCP resource URI of this schema: `schema://{reference}`.
    pub fn uri(&self) -> String {
        format!("schema://{}", self.reference)
    }

    /// The schema text (sources are UTF-8: the compiler read them as JSON).
    pub fn text(&self) -> &str {
        std::str::from_utf8(&self.json).unwrap_or_default()
    }
}

/// Why a set of schemas cannot be a catalog.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CatalogError {
    /// A reference that is not `/`-separated segments of letters, digits, `-`, `.`, `_`, `~`.
    InvalidReference { reference: String, reason: &'static str },
    /// Two schemas with the same reference and version.
    Duplicate { reference: String, version: String },
}

impl fmt::Display for CatalogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CatalogError::InvalidReference { reference, reason } => write!(f, "reference {reference:?} cannot be served: {reason}"),
            CatalogError::Duplicate { reference, version } => {
                write!(f, "{reference:?} version {version} is registered twice; each reference and version is one schema")
            }
        }
    }
}

impl std::error::Error for CatalogError {}

/// A quoted `ETag` of `bytes`: `"{kind}-sha256-<hex>"`.
pub(crate) fn etag_of(bytes: &[u8], kind: &str) -> HeaderValue {
    let hex: String = Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect();
    HeaderValue::from_str(&format!("\"{kind}-sha256-{hex}\"")).unwrap_or_else(|_| HeaderValue::from_static("\"invalid\""))
}

/// The schemas a registry serves, by reference, each reference's versions oldest first.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    by_reference: BTreeMap<String, Vec<Schema>>,
    /// The lists (JSON and HTML) of this catalog, built on first use.
    pub(crate) listing: OnceLock<Listing>,
}

/// The lists of a catalog, JSON and HTML, as `http` builds them on first use (they are the
/// same for every request to it).
#[derive(Clone, Debug)]
pub(crate) struct Listing {
    pub(crate) json: Bytes,
    pub(crate) json_etag: HeaderValue,
    pub(crate) html: Bytes,
    pub(crate) html_etag: HeaderValue,
}

/// What a lookup found instead of a schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Missing {
    /// No schema has this reference; the known ones, sorted.
    Reference { known: Vec<String> },
    /// The reference exists, not in this version; its versions, oldest first.
    Version { known: Vec<String> },
}

impl Catalog {
    /// A catalog of `schemas`. Every reference must be a valid one (the `schemac.toml` grammar)
    /// and each reference and version appear once.
    pub fn new(schemas: impl IntoIterator<Item = Schema>) -> Result<Catalog, CatalogError> {
        let mut by_reference: BTreeMap<String, Vec<Schema>> = BTreeMap::new();
        for schema in schemas {
            if let Err(reason) = check_reference(&schema.reference) {
                return Err(CatalogError::InvalidReference { reference: schema.reference, reason });
            }
            let versions = by_reference.entry(schema.reference.clone()).or_default();
            if versions.iter().any(|v| v.version == schema.version) {
                return Err(CatalogError::Duplicate { reference: schema.reference, version: schema.version });
            }
            versions.push(schema);
        }
        for versions in by_reference.values_mut() {
            versions.sort_by(|a, b| version_key(&a.version).cmp(&version_key(&b.version)));
        }
        Ok(Catalog { by_reference, listing: Default::default() })
    }

    /// The catalog of a generated crate's `SCHEMAS` (several crates' entries may be chained).
    pub fn from_entries<'a>(entries: impl IntoIterator<Item = &'a SchemaEntry>) -> Result<Catalog, CatalogError> {
        Catalog::new(entries.into_iter().map(Schema::from_entry))
    }

    /// The schema `reference` in `version`, or its latest version.
    pub fn get(&self, reference: &str, version: Option<&str>) -> Result<&Schema, Missing> {
        let Some(versions) = self.by_reference.get(reference) else {
            return Err(Missing::Reference { known: self.references().map(str::to_owned).collect() });
        };
        let found = match version {
            Some(version) => versions.iter().find(|schema| schema.version == version),
            None => versions.last(),
        };
        found.ok_or_else(|| Missing::Version { known: versions.iter().map(|schema| schema.version.clone()).collect() })
    }

    /// Every reference, sorted.
    pub fn references(&self) -> impl Iterator<Item = &str> {
        self.by_reference.keys().map(String::as_str)
    }

    /// The latest version of each reference, by reference.
    pub fn latest(&self) -> impl Iterator<Item = &Schema> {
        self.by_reference.values().filter_map(|versions| versions.last())
    }

    /// Every schema: by reference, then version, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &Schema> {
        self.by_reference.values().flatten()
    }

    /// The versions of `reference`, oldest first (empty when it is unknown).
    pub fn versions(&self, reference: &str) -> impl Iterator<Item = &str> {
        self.by_reference.get(reference).into_iter().flatten().map(|schema| schema.version.as_str())
    }

    /// How many schemas (reference and version pairs) there are.
    pub fn len(&self) -> usize {
        self.by_reference.values().map(Vec::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.by_reference.is_empty()
    }
}

/// A reference that can be served: 1 to [`MAX_REFERENCE_LEN`] bytes of `/`-separated segments,
/// each of letters, digits, `-`, `.`, `_`, `~` (RFC 3986's unreserved characters, so a reference
/// is its own URL path), none empty, `.` or `..`.
pub fn check_reference(reference: &str) -> Result<(), &'static str> {
    if reference.is_empty() {
        return Err("it is empty");
    }
    if reference.len() > MAX_REFERENCE_LEN {
        return Err("it is longer than 256 bytes");
    }
    for segment in reference.split('/') {
        match segment {
            "" => return Err("it has an empty segment"),
            "." | ".." => return Err("it has a `.` or `..` segment"),
            _ => {}
        }
        if !segment.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')) {
            return Err("a segment holds a character other than letters, digits, `-`, `.`, `_`, `~`");
        }
    }
    Ok(())
}

/// Orders versions as semantic versions where they are `MAJOR.MINOR.PATCH` (with an optional
/// pre-release, which sorts before its release), after any that are not, by text.
fn version_key(version: &str) -> (bool, [u64; 3], bool, &str) {
    let (core, pre) = match version.split_once('-') {
        Some((core, pre)) => (core, Some(pre)),
        None => (version.split('+').next().unwrap_or(version), None),
    };
    let mut numbers = [0u64; 3];
    let mut parts = core.split('.');
    let semantic =
        numbers.iter_mut().all(|n| parts.next().and_then(|p| p.parse().ok()).map(|v| *n = v).is_some()) && parts.next().is_none();
    (semantic, numbers, pre.is_none(), pre.unwrap_or(version))
}

/// The catalog being served, shared by the HTTP routes and the MCP server and replaced whole
/// when the schemas change (`schemac serve` reloads): a request reads one consistent snapshot.
#[derive(Clone, Debug)]
pub struct Registry {
    current: Arc<watch::Sender<Arc<Catalog>>>,
}

impl Registry {
    pub fn new(catalog: Catalog) -> Registry {
        Registry { current: Arc::new(watch::Sender::new(Arc::new(catalog))) }
    }

    /// A registry of a generated crate's `SCHEMAS`.
    pub fn from_entries<'a>(entries: impl IntoIterator<Item = &'a SchemaEntry>) -> Result<Registry, CatalogError> {
        Ok(Registry::new(Catalog::from_entries(entries)?))
    }

    /// The catalog now.
    pub fn snapshot(&self) -> Arc<Catalog> {
        self.current.borrow().clone()
    }

    /// Serves `catalog` from now on; requests in flight finish on the one they started with.
    pub fn replace(&self, catalog: Catalog) {
        self.current.send_replace(Arc::new(catalog));
    }

    /// Notified on each [`replace`](Registry::replace) (what the MCP server tells its clients).
    pub fn subscribe(&self) -> watch::Receiver<Arc<Catalog>> {
        self.current.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema(reference: &str, version: &str) -> Schema {
        Schema::new(reference, version, "urn:x", "schemas/x.json", "ab".repeat(32), format!("{{\"v\":\"{version}\"}}"), None)
    }

    #[test]
    fn references() {
        for ok in ["a", "madoo.attempts-report/v1", "pi-glla/goal", "a~b/c_d/e.f"] {
            assert_eq!(check_reference(ok), Ok(()), "{ok}");
        }
        let long = "a".repeat(MAX_REFERENCE_LEN + 1);
        for (bad, reason) in [
            ("", "it is empty"),
            ("a//b", "it has an empty segment"),
            ("/a", "it has an empty segment"),
            ("a/", "it has an empty segment"),
            ("a/../b", "it has a `.` or `..` segment"),
            ("./a", "it has a `.` or `..` segment"),
            ("a\0b", "a segment holds a character other than letters, digits, `-`, `.`, `_`, `~`"),
            ("a%2Fb", "a segment holds a character other than letters, digits, `-`, `.`, `_`, `~`"),
            ("a\\b", "a segment holds a character other than letters, digits, `-`, `.`, `_`, `~`"),
            ("é", "a segment holds a character other than letters, digits, `-`, `.`, `_`, `~`"),
            (&long, "it is longer than 256 bytes"),
        ] {
            assert_eq!(check_reference(bad), Err(reason), "{bad:?}");
        }
    }

    #[test]
    fn versions_latest_first_by_semver() {
        let catalog = Catalog::new(["1.10.0", "1.2.0", "2.0.0-rc.1", "1.9.9", "0.1.0"].map(|v| schema("a", v))).unwrap();
        assert_eq!(catalog.versions("a").collect::<Vec<_>>(), ["0.1.0", "1.2.0", "1.9.9", "1.10.0", "2.0.0-rc.1"]);
        let release = Catalog::new(["2.0.0", "2.0.0-rc.1"].map(|v| schema("a", v))).unwrap();
        assert_eq!(release.get("a", None).unwrap().version, "2.0.0");
        assert_eq!(catalog.get("a", Some("1.2.0")).unwrap().version, "1.2.0");
        assert_eq!(
            catalog.get("a", Some("3.0.0")).unwrap_err(),
            Missing::Version { known: ["0.1.0", "1.2.0", "1.9.9", "1.10.0", "2.0.0-rc.1"].map(str::to_owned).to_vec() }
        );
        assert_eq!(catalog.get("b", None).unwrap_err(), Missing::Reference { known: vec!["a".to_owned()] });
        assert_eq!(catalog.len(), 5);
    }

    #[test]
    fn rejects_duplicates_and_bad_references() {
        let err = Catalog::new([schema("a", "1.0.0"), schema("a", "1.0.0")]).unwrap_err();
        assert_eq!(err.to_string(), "\"a\" version 1.0.0 is registered twice; each reference and version is one schema");
        let err = Catalog::new([schema("../etc", "1.0.0")]).unwrap_err();
        assert_eq!(err.to_string(), "reference \"../etc\" cannot be served: it has a `.` or `..` segment");
    }

    #[test]
    fn replace_is_seen_by_snapshots_and_subscribers() {
        let registry = Registry::new(Catalog::new([schema("a", "1.0.0")]).unwrap());
        let mut changes = registry.subscribe();
        let before = registry.snapshot();
        registry.replace(Catalog::new([schema("a", "1.0.0"), schema("b", "1.0.0")]).unwrap());
        assert_eq!(before.len(), 1);
        assert_eq!(registry.snapshot().len(), 2);
        assert!(changes.has_changed().unwrap());
        assert_eq!(changes.borrow_and_update().len(), 2);
    }
}
