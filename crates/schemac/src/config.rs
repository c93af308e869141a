//! How to compile: the settings of the generated code ([`Config`]) and of single types
//! ([`TypeSettings`]).

use crate::Draft;
use crate::ir::DefKind;

/// How to compile: [`Config::default()`], then a setter per setting, each returning the
/// config (`Config::default().assert_formats(true).derives(["Eq", "Hash"])`). The fields are
/// private so that a new setting is not a breaking change.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Config {
    /// The draft of schemas without `$schema`.
    pub(crate) default_draft: Draft,
    /// The command named in each generated file's header.
    pub(crate) regenerate_command: String,
    /// Assert `format` (date-time, email, uri, uuid, ...) instead of only annotating it. The
    /// generated code then needs `schemac-runtime`'s `formats` feature.
    pub(crate) assert_formats: bool,
    /// Report warnings as errors (`--deny-warnings`, `deny-warnings = true`).
    pub(crate) deny_warnings: bool,
    /// Read an `integer` without bounds or `multipleOf` as `schemac_runtime::BigInt`, exact at
    /// any size, instead of an `i64` that refuses what it cannot hold. The generated code then
    /// needs the runtime's `bignum` feature.
    pub(crate) big_integers: bool,
    /// Read `number` as `f64` and an `integer` without both bounds as `i64`/`u64`, which refuse
    /// (naming the value) what they cannot hold exactly, instead of `schemac_runtime::Number`
    /// and `schemac_runtime::Integer`, which hold every JSON number exactly. Off by default
    /// (`--primitive-numbers`, `[schemas] primitive-numbers = true`).
    pub(crate) primitive_numbers: bool,
    /// Let a `pattern` that neither `regex` nor `fancy-regex` can run exactly run on `regress`,
    /// whose backtracking has no step limit, so a hostile value can make a read take
    /// exponential time. Off by default: such a pattern is an `unbounded-pattern` error
    /// (`--allow-unbounded-patterns`, `allow-unbounded-patterns = true` turn it on).
    pub(crate) unbounded_patterns: bool,
    /// Emit a builder for every struct (`Goal::builder()`, see `emit/builder.rs`): required
    /// properties checked at compile time, the value by `build()`. On by default.
    pub(crate) builders: bool,
    /// Mark generated structs with public fields, string enums and unions `#[non_exhaustive]`
    /// (`Config::is_non_exhaustive` says which), so that a new optional property or enum value is a minor
    /// change of the types crate; downstream code then builds values with the builders.
    pub(crate) non_exhaustive: bool,
    /// Give every string enum an `Other(String)` variant that keeps a value the schema does
    /// not list (see `emit/open_enum.rs`): a reader-side tolerance, off by default.
    pub(crate) open_enums: bool,
    /// Per schema (by `SchemaSource::display`), whether its string enums are open, instead of
    /// `open_enums`.
    pub(crate) open_enums_by_schema: std::collections::BTreeMap<String, bool>,
    /// Derives added to every generated type (`["Eq", "Hash"]`); `Eq`, `Hash`, `PartialOrd`
    /// and `Ord` are checked to fit each type before emission (an error names the field).
    pub(crate) derives: Vec<String>,
    /// Outer attributes added to every generated type (`#[cfg_attr(feature = "x", derive(Y))]`).
    pub(crate) attributes: Vec<String>,
    /// One type per shape: string enums of a module with the same values (and `default`),
    /// and structs with the same fields, are one type, the others `type` aliases of it
    /// (`emit/dedup.rs`). On by default.
    pub(crate) dedup: bool,
    /// Settings for single types: by schema (`SchemaSource::display`), then by the JSON
    /// pointer of the type's schema in it (`/definitions/task`).
    pub(crate) types: std::collections::BTreeMap<String, std::collections::BTreeMap<String, TypeSettings>>,
}

/// What [`Config::type_settings`] sets for one type: [`TypeSettings::default()`], then a
/// setter per setting.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct TypeSettings {
    /// The user's Rust type that replaces the generated one everywhere (`my_crate::Task`); the
    /// generated code asserts it implements `schemac_runtime::Conforms` for the node.
    pub(crate) rust_type: Option<String>,
    /// Derives added to this type, beside [`Config::derives`], checked as those are.
    pub(crate) derives: Vec<String>,
    /// Outer attributes added to this type, beside [`Config::attributes`].
    pub(crate) attributes: Vec<String>,
}

impl TypeSettings {
    /// The user's Rust type that replaces the generated one everywhere (`my_crate::Task`); the
    /// generated code asserts it implements `schemac_runtime::Conforms` for the node.
    pub fn rust_type(mut self, path: impl Into<String>) -> TypeSettings {
        self.rust_type = Some(path.into());
        self
    }

    /// Derives added to this type, beside [`Config::derives`], checked as those are.
    pub fn derives<S: Into<String>>(mut self, derives: impl IntoIterator<Item = S>) -> TypeSettings {
        self.derives = derives.into_iter().map(Into::into).collect();
        self
    }

    /// Outer attributes added to this type (`#[doc(alias = "b")]`), beside [`Config::attributes`].
    pub fn attributes<S: Into<String>>(mut self, attributes: impl IntoIterator<Item = S>) -> TypeSettings {
        self.attributes = attributes.into_iter().map(Into::into).collect();
        self
    }
}

impl Config {
    /// The draft of schemas without `$schema` (default: 2020-12).
    pub fn default_draft(mut self, draft: Draft) -> Config {
        self.default_draft = draft;
        self
    }

    /// The command named in each generated file's header (default: `cargo xtask codegen`).
    pub fn regenerate_command(mut self, command: impl Into<String>) -> Config {
        self.regenerate_command = command.into();
        self
    }

    /// Assert `format` (date-time, email, uri, uuid, ...) instead of only annotating it; the
    /// generated code then needs `schemac-runtime`'s `formats` feature. Off by default.
    pub fn assert_formats(mut self, on: bool) -> Config {
        self.assert_formats = on;
        self
    }

    /// Report warnings as errors. Off by default.
    pub fn deny_warnings(mut self, on: bool) -> Config {
        self.deny_warnings = on;
        self
    }

    /// Read an `integer` without bounds or `multipleOf` as `schemac_runtime::BigInt`, exact at
    /// any size; the generated code then needs the runtime's `bignum` feature. Off by default.
    pub fn big_integers(mut self, on: bool) -> Config {
        self.big_integers = on;
        self
    }

    /// Read `number` as `f64` and an `integer` without both bounds as `i64`/`u64` (which refuse
    /// what they cannot hold exactly) instead of the exact `schemac_runtime::Number` and
    /// `Integer`. Off by default.
    pub fn primitive_numbers(mut self, on: bool) -> Config {
        self.primitive_numbers = on;
        self
    }

    /// Accept, with a warning, a `pattern` that only `regress` can run exactly (no step limit:
    /// a hostile value can make a read take exponential time). Off by default: such a pattern
    /// is an `unbounded-pattern` error.
    pub fn unbounded_patterns(mut self, on: bool) -> Config {
        self.unbounded_patterns = on;
        self
    }

    /// A builder for every struct (`Goal::builder()`). On by default.
    pub fn builders(mut self, on: bool) -> Config {
        self.builders = on;
        self
    }

    /// Structs with public fields, string enums and unions are `#[non_exhaustive]`, so that a
    /// new optional property or enum value is a minor change of the types crate. Off by default.
    pub fn non_exhaustive(mut self, on: bool) -> Config {
        self.non_exhaustive = on;
        self
    }

    /// Every string enum gets an `Other(String)` variant that keeps a value the schema does not
    /// list. Off by default.
    pub fn open_enums(mut self, on: bool) -> Config {
        self.open_enums = on;
        self
    }

    /// Whether the string enums of one schema (by [`SchemaSource::display`](crate::SchemaSource))
    /// are open, instead of [`open_enums`](Config::open_enums).
    pub fn open_enums_of(mut self, schema: impl Into<String>, open: bool) -> Config {
        self.open_enums_by_schema.insert(schema.into(), open);
        self
    }

    /// Derives added to every generated type (`["Eq", "Hash"]`); `Eq`, `Hash`, `PartialOrd` and
    /// `Ord` are checked to fit each type before emission (an error names the field).
    pub fn derives<S: Into<String>>(mut self, derives: impl IntoIterator<Item = S>) -> Config {
        self.derives = derives.into_iter().map(Into::into).collect();
        self
    }

    /// Outer attributes added to every generated type (`#[cfg_attr(feature = "x", derive(Y))]`).
    pub fn attributes<S: Into<String>>(mut self, attributes: impl IntoIterator<Item = S>) -> Config {
        self.attributes = attributes.into_iter().map(Into::into).collect();
        self
    }

    /// One type per shape: string enums of a module with the same values, and structs with the
    /// same fields, are one type, the others `type` aliases of it. On by default.
    pub fn dedup(mut self, on: bool) -> Config {
        self.dedup = on;
        self
    }

    /// Settings for one type: the schema's at `pointer` (`/definitions/task`) in the schema
    /// `schema` (by [`SchemaSource::display`](crate::SchemaSource)).
    pub fn type_settings(mut self, schema: impl Into<String>, pointer: impl Into<String>, settings: TypeSettings) -> Config {
        self.types.entry(schema.into()).or_default().insert(pointer.into(), settings);
        self
    }
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
