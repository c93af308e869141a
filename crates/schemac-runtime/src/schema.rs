//! What a type generated from (or checked against) a JSON Schema knows about that schema.

/// Implemented by every generated root type (and by hand-written types checked with the
/// derive macro): where its schema comes from, and the schema itself.
pub trait SchemaBound {
    /// The `$id` of the schema document; its source path when it has none.
    const SCHEMA_ID: &'static str;
    /// The schema file as it was named when compiled (e.g. `schemas/pi-glla/goal.json`).
    const SOURCE_PATH: &'static str;
    /// Lowercase hex SHA-256 of the source file.
    const SOURCE_SHA256: &'static str;
    /// JSON pointer of this type's schema within the document (`""` for the document root).
    const POINTER: &'static str;

    /// This type's (sub)schema, exactly as in the source file.
    fn schema() -> &'static serde_json::Value;
}
