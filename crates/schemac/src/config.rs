//! How to compile: the settings of the generated code ([`Config`]) and of single types
//! ([`TypeSettings`]).

use crate::Draft;
use crate::ir::DefKind;

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
    /// (`Config::is_non_exhaustive` says which), so that a new optional property or enum value is a minor
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

impl Config {
    /// Whether a def of `kind` is `#[non_exhaustive]`: with [`Config::non_exhaustive`], the
    /// shapes that can grow by an additive schema change (a struct's properties, a string
    /// enum's values, a union's branches). Newtypes, constants and tuples cannot, and marking a
    /// unit struct would stop downstream code from writing its value. Emit writes the attribute
    /// and the diff reads the API through this one rule.
    pub(crate) fn is_non_exhaustive(&self, kind: &DefKind) -> bool {
        self.non_exhaustive && matches!(kind, DefKind::Struct(_) | DefKind::StringEnum(_) | DefKind::Union(_))
    }
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
