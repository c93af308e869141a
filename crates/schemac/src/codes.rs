//! The compiler's diagnostic kinds: what it reports beyond the model's `diag::KINDS` (Rust
//! derives and types, `x-` extensions, lowering limits, patterns), each with the hint it gets
//! unless a sharper one is given. The model owns the codes of reading, resolving and checking
//! schemas, and the compiler reuses those where it finds the same problem.

use schemac_model::diag::Kind;

/// A configured derive that a field's type does not have (`emit/derives.rs`).
pub const IMPOSSIBLE_DERIVE: Kind =
    Kind::new("impossible-derive", false, "derive it only where it fits (every field's type must have it), or change the field's schema");
/// A configured derive or attribute that is no path or attribute (`emit/derives.rs`).
pub const BAD_DERIVE: Kind =
    Kind::new("bad-derive", false, "write a derive as a path (`Eq`, `utoipa::ToSchema`) and an attribute as `#[...]`");
/// A `types` entry whose pointer names no type of its own (`rust_type.rs`).
pub const UNKNOWN_TYPE_POINTER: Kind = Kind::new(
    "unknown-type-pointer",
    false,
    "name the JSON pointer of a schema that has a type of its own (a `$defs` entry, an object, an enum)",
);
/// A user's type that is no Rust path, or cannot stand where it is named (`rust_type.rs`).
pub const BAD_RUST_TYPE: Kind =
    Kind::new("bad-rust-type", true, "write the Rust type as a path, e.g. `my_crate::Task`, or `x-rust-type` as typify does");
/// An `x-schemac-` extension of the wrong shape (`extensions.rs`).
pub const BAD_EXTENSION: Kind =
    Kind::new("bad-extension", true, "give the `x-schemac-` extension the value its documentation names (`true` or `false`)");
/// `$ref`, `allOf` or nesting past `lower::MAX_DEPTH` (`lower/`).
pub const SCHEMA_TOO_DEEP: Kind = Kind::new(
    "schema-too-deep",
    true,
    "schemac follows `$ref`, `allOf` and nested subschemas at most 256 levels deep (which keeps its stack bounded); \
     shorten the chain, or name an intermediate schema in `$defs` once instead of chaining references to it",
);
/// A type with no finite instance (`lower/infinite.rs`).
pub const INFINITE_TYPE: Kind =
    Kind::new("infinite-type", true, "give the recursion a way out, e.g. make the property that recurses optional");
/// A pattern no engine runs in bounded time (`emit/mod.rs`).
pub const UNBOUNDED_PATTERN: Kind = Kind::new(
    "unbounded-pattern",
    true,
    "avoid nested quantifiers over what a backreference reads, `\\B`, `\\p{..}` beside lookaround and inline modifiers; \
     or accept the risk with --allow-unbounded-patterns (`allow-unbounded-patterns = true`)",
);
/// A pattern that needs a backtracking engine (a warning; `emit/mod.rs`).
pub const BACKTRACKING_PATTERN: Kind =
    Kind::new("backtracking-pattern", true, "a pattern without lookaround and backreferences runs in linear time");
/// A state the compiler should never reach (`lower/dynamic.rs`).
pub const INTERNAL: Kind = Kind::new("internal", true, "this is a bug in schemac; please report it with the schema");

/// Every kind of diagnostic the compiler adds to the model's.
pub const KINDS: &[Kind] = &[
    IMPOSSIBLE_DERIVE,
    BAD_DERIVE,
    UNKNOWN_TYPE_POINTER,
    BAD_RUST_TYPE,
    BAD_EXTENSION,
    SCHEMA_TOO_DEEP,
    INFINITE_TYPE,
    UNBOUNDED_PATTERN,
    BACKTRACKING_PATTERN,
    INTERNAL,
];

/// The kind of `code`, among the compiler's and the model's: every code `compile` reports.
pub fn kind_of(code: &str) -> Option<&'static Kind> {
    KINDS.iter().find(|kind| kind.code == code).or_else(|| schemac_model::diag::kind_of(code))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_code_is_listed_once_among_the_compilers_and_the_models() {
        let all: Vec<&Kind> = KINDS.iter().chain(schemac_model::diag::KINDS).collect();
        for (i, kind) in all.iter().enumerate() {
            assert!(!kind.hint.is_empty(), "{}", kind.code);
            assert!(all[..i].iter().all(|other| other.code != kind.code), "{} is listed twice", kind.code);
        }
        assert_eq!(kind_of("bad-derive").map(|k| k.code), Some("bad-derive"));
        assert_eq!(kind_of("io").map(|k| k.code), Some("io"));
        assert!(kind_of("no-such-code").is_none());
    }
}
