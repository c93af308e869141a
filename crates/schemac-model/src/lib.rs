//! The schema model: JSON Schema documents read into one typed, resolved model that every
//! reader shares. It knows JSON Schema (drafts 4 to 2020-12, their vocabularies and
//! metaschemas) and nothing of Rust.
//!
//! Its [`Front`] is the whole of it (`schemac::front` makes one): [`load`] the input schemas
//! and every file their references reach (the only IO, confined to the roots the input gives),
//! index and [`resolve`] identifiers, anchors and references, and build the [`schema`] model:
//! every subschema reached, its keywords typed, its references resolved. Problems are [`diag`]nostics with the
//! file, JSON pointer, line:column and a hint, collected across a phase.
//!
//! Layers, each using only those above it: [`draft`](Draft), [`diag`], `uri` and
//! [`syntax`]; the keyword table and pre-model reads ([`schema::Keyword`], `schema::scan`);
//! [`doc`] (documents and locations), `locate`, [`source`]; `metaschemas`, `index`; [`load`];
//! [`resolve`]; the model ([`schema`]); `front`.

pub mod diag;
pub mod doc;
mod draft;
mod front;
mod index;
mod input;
pub mod load;
mod locate;
mod metaschemas;
pub mod pattern;
pub mod resolve;
pub mod schema;
pub mod source;
pub mod syntax;
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod testing;
mod uri;

pub use diag::{Diagnostic, Diagnostics, Severity};
pub use doc::{DocId, Document, Loc};
pub use draft::Draft;
pub use front::Front;
pub use input::{DEFAULT_MAX_FILE_SIZE, UrlMap};
// Hidden: the public API has one input type, the compiler's `schemac::Input` (with the Rust
// module and root name of each schema), and one entry point, `schemac::front`; they convert to
// these and call this. The model's own front end is public only for that crate.
#[doc(hidden)]
pub use front::front;
#[doc(hidden)]
pub use input::{Input, SchemaSource};
