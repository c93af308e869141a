//! schemac compiles JSON Schemas into Rust types that agree with them: what the schema rejects,
//! deserialization rejects; what it accepts round-trips losslessly.
//!
//! The pipeline is one function, [`compile`]: the [front end](front) (the schema model of
//! `schemac-model`: load → resolve → the typed [`schema`] model, with each document's Rust
//! module), then lower (to [`ir`]) → name → emit.

mod builder;
pub mod codes;
mod config;
pub mod diff;
pub mod docs;
pub mod emit;
pub(crate) mod extensions;
mod front;
pub mod ident;
mod input;
pub mod ir;
pub(crate) mod lower;
mod modules;
pub(crate) mod name;
mod output;
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
pub use schemac_model::{Diagnostic, Diagnostics, Severity};
/// The schema model's modules, as the compiler's readers (the docs, the diff) and the crates
/// built on it name them.
pub use schemac_model::{Draft, diag, load, resolve, schema, syntax};
