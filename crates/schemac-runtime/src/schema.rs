//! What a type generated from (or checked against) a JSON Schema knows about that schema, and
//! the registry entry through which a generated crate publishes each of its schemas.

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::Value;

/// Implemented by every generated root type (and by hand-written types checked with the
/// derive macro): where its schema comes from, and the schema itself.
///
/// ```
/// use schemac_runtime::SchemaBound;
///
/// fn describe<T: SchemaBound>() -> String {
///     format!("{} ({}#{}, sha256 {})", T::SCHEMA_ID, T::SOURCE_PATH, T::POINTER, T::SOURCE_SHA256)
/// }
/// ```
pub trait SchemaBound {
    /// The `$id` of the schema document; its source path when it has none.
    const SCHEMA_ID: &'static str;
    /// The schema file as it was named when compiled (e.g. `schemas/pi-glla/goal.json`).
    const SOURCE_PATH: &'static str;
    /// Lowercase hex SHA-256 of the source file.
    const SOURCE_SHA256: &'static str;
    /// JSON pointer of this type's schema within the document (`""` for the document root).
    const POINTER: &'static str;

    /// This type's (sub)schema, exactly as in the source file (parsed once, on first use).
    fn schema() -> &'static Value;
}

/// One schema a generated crate publishes: how a service finds it (`reference`, `id`), what
/// it serves (`json`, byte for byte the source file) and where it comes from. A generated
/// crate lists its schemas in `SCHEMAS` and looks one up with `find(reference)`:
///
/// ```
/// fn serve(entries: &[schemac_runtime::SchemaEntry], reference: &str) -> Option<(&'static str, String)> {
///     let entry = entries.iter().find(|e| e.reference == reference)?;
///     Some((entry.json, format!("\"sha256:{}\"", entry.sha256))) // body and ETag
/// }
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SchemaEntry {
    /// The name the schema is published under, e.g. `madoo.attempts-report/v1`: the last part
    /// of `GET /api/v1/json-schemas/{reference}`.
    pub reference: &'static str,
    /// The schema's version, e.g. `1.0.0`.
    pub version: &'static str,
    /// The `$id` of the schema document; its source path when it has none.
    pub id: &'static str,
    /// The schema file as it was named when compiled (e.g. `schemas/pi-glla/goal.json`).
    pub source_path: &'static str,
    /// Lowercase hex SHA-256 of `json`.
    pub sha256: &'static str,
    /// The source file's text, byte for byte: what to serve.
    pub json: &'static str,
    /// `json`, parsed once.
    pub schema: fn() -> &'static Value,
    /// `SchemaGenerator::root_schema_for::<Root>`, when the root type is a type of its own (a
    /// root that is a plain `type` alias has the aliased type's impls, not this schema's).
    pub root_schema: Option<fn(&mut SchemaGenerator) -> Schema>,
    /// The schema's reference page (Markdown, the crate's `docs/<path>.md`), when the crate has
    /// pages: what a registry renders at `GET /json-schemas/{reference}`.
    pub page: Option<&'static str>,
}

impl SchemaEntry {
    /// The entry for root type `T`, whose document's text is `json`.
    pub const fn of<T: SchemaBound + JsonSchema>(reference: &'static str, version: &'static str, json: &'static str) -> SchemaEntry {
        SchemaEntry {
            reference,
            version,
            id: T::SCHEMA_ID,
            source_path: T::SOURCE_PATH,
            sha256: T::SOURCE_SHA256,
            json,
            schema: T::schema,
            root_schema: Some(SchemaGenerator::root_schema_for::<T>),
            page: None,
        }
    }

    /// This entry with `page` as its reference page.
    pub const fn with_page(self, page: &'static str) -> SchemaEntry {
        SchemaEntry { page: Some(page), ..self }
    }

    /// The root type's `schemars` schema from `generator` (`SchemaGenerator::default()` is
    /// what `schema_for!` uses): the source with its references bundled into `$defs`. `None`
    /// when the root type is a plain `type` alias.
    pub fn json_schema(&self, generator: &mut SchemaGenerator) -> Option<Schema> {
        self.root_schema.map(|root_schema| root_schema(generator))
    }
}
