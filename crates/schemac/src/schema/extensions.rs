//! The `x-` extensions schemac reads from a schema: `x-rust-type` (typify's shape: the Rust
//! type a node stands for) and `x-schemac-open-enum` (a string enum that keeps unknown values).
//! They stay in [`Schema::unknown`] as written; these accessors give them their meaning.

use serde_json::Value;

use super::Schema;

/// typify's extension naming the Rust type of a node: `{"crate": "my-crate", "version":
/// "1.2", "path": "my_crate::Task"}`.
pub const RUST_TYPE_EXTENSION: &str = "x-rust-type";

/// A string enum that keeps a value the schema does not list (`true`), or never does
/// (`false`), whatever `open-enums` says. typify's mk2 has no such extension, so this one is
/// schemac's own.
pub const OPEN_ENUM_EXTENSION: &str = "x-schemac-open-enum";

/// A parsed `x-rust-type`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RustTypeExtension {
    /// The crate the type comes from, as Cargo names it (`my-crate`).
    pub krate: String,
    /// The crate's version requirement (`1.2`).
    pub version: String,
    /// The type's path, its first segment the crate (`my_crate::Task`).
    pub path: String,
}

impl Schema {
    /// The value of the extension `name` (an `x-` member), as written.
    pub fn extension(&self, name: &str) -> Option<&Value> {
        self.unknown.iter().find(|(key, _)| key == name).map(|(_, value)| value)
    }

    /// `x-rust-type`, when present: the type, or what is wrong with the member (a message).
    pub fn rust_type_extension(&self) -> Option<Result<RustTypeExtension, String>> {
        let value = self.extension(RUST_TYPE_EXTENSION)?;
        let field = |name: &str| value.get(name).and_then(Value::as_str).map(str::to_owned);
        let parameters = value.get("parameters").and_then(Value::as_array).is_some_and(|p| !p.is_empty());
        Some(match (value.is_object(), field("crate"), field("version"), field("path")) {
            (true, Some(krate), Some(version), Some(path)) if !parameters => Ok(RustTypeExtension { krate, version, path }),
            (true, Some(_), Some(_), Some(_)) => Err(format!("`{RUST_TYPE_EXTENSION}` has `parameters`, which schemac does not support")),
            _ => Err(format!("`{RUST_TYPE_EXTENSION}` must be an object with the strings `crate`, `version` and `path`, not `{value}`")),
        })
    }
}
