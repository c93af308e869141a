//! schemac compiles JSON Schemas into Rust types that agree with them: what the schema rejects,
//! deserialization rejects; what it accepts round-trips losslessly.
//!
//! The pipeline is one function, [`compile`]: the [front end](front) (the schema model of
//! `schemac-model`: load → resolve → the typed [`schema`] model, with each document's Rust
//! module), then lower (to [`ir`]) → name → emit.

//!
//! The API: [`compile`] (or [`front`], then [`Front::compile`]) of an [`Input`] with a
//! [`Config`], to an [`Output`] or the [`Diagnostics`]; [`Builder`] for build scripts; the
//! readers of the model, [`docs`] (reference pages) and [`diff`] (what changed between two
//! versions of a schema, and what it breaks); [`write`](mod@write) (writing output without overwriting
//! an input); and the model itself, read-only, as [`model`] (the crate `schemac-model`, which
//! [`Front`] dereferences to).

mod builder;
pub mod codes;
mod config;
pub mod diff;
pub mod docs;
// Hidden modules: public only because another crate of this workspace generates or checks
// code that must match what the compiler writes. Not an API: they change with the compiler.
// Emission's building blocks: `#[derive(Conforms)]` writes the same impls
// (`validate_impl_in`, `pattern_static_in`, `edits_tokens`, `defs_key`), the project's
// round-trip tests visit the nullable branches of unions (`nullable_branches`, `Visit`) and
// the contract test reads the runtime contract (`RUNTIME_CONTRACT`, `RUNTIME_API`).
#[doc(hidden)]
pub mod emit;
pub(crate) mod extensions;
mod front;
// Rust names from JSON names, as the compiler makes them: the project, the CLI and the
// conformance harness name modules, and the derive variants, the same way.
#[doc(hidden)]
pub mod ident;
mod input;
// The IR: what `#[derive(Conforms)]` checks a hand-written type against and what the
// synthesizer reads the lowered types from.
#[doc(hidden)]
pub mod ir;
pub(crate) mod lower;
mod modules;
pub(crate) mod name;
mod output;
// ECMA-262 patterns on Rust's engines: the synthesizer makes strings with the engine the
// generated code uses.
#[doc(hidden)]
pub mod pattern;
pub(crate) mod rust_type;
mod sources;
mod stack;
pub mod write;

/// This schemac's version: what generated code and a release's baseline name as their generator.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

pub use builder::{BuildError, Builder, Compiled, includable};
pub use config::{Config, TypeSettings};
pub use front::{Front, compile, compile_reading, front};
pub use input::{DEFAULT_MAX_FILE_SIZE, Input, SchemaSource, UrlMap};
pub use output::{Module, Output, TypeSummary};
/// The schema model, read-only: what [`Front`] dereferences to and [`docs`] and [`diff`] read.
pub use schemac_model as model;
pub use schemac_model::{Diagnostic, Diagnostics, Draft, Severity};
pub(crate) use schemac_model::{diag, load, resolve, schema};
