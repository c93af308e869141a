//! The front end in one call: load the inputs (and the files they refer to), resolve
//! identifiers, build the schema model.

use std::path::PathBuf;

use crate::diag::{Diagnostic, Diagnostics, Severity};
use crate::draft::Draft;
use crate::input::Input;
use crate::load;
use crate::metaschemas;
use crate::resolve::Registry;
use crate::schema::{self, Model};
use crate::source::SourceFile;

/// What the front end makes of the inputs: the loaded documents with their identifiers, and
/// the typed model of every schema they reach. Every reader (the compiler, synthesis, the
/// derive, the diff, the reference pages) reads schemas through it.
#[derive(Debug)]
pub struct Front {
    pub registry: Registry,
    pub model: Model,
    /// Every file read, with its identity (for writers that must not overwrite an input).
    pub sources: Vec<SourceFile>,
    /// What the front end accepted leniently, as validators do (annotations of the wrong
    /// shape, definitions that are not schemas), each with a hint.
    pub warnings: Vec<Diagnostic>,
}

/// The front end: load the inputs (and the files they refer to), resolve identifiers, build
/// the schema model. Each phase reports every error it finds; a phase runs only when the ones
/// before it found none (a model of documents that did not load would only repeat their
/// errors). `default_draft` is the draft of a schema without `$schema`.
pub fn front(input: &Input, default_draft: Draft) -> Result<Front, Diagnostics> {
    let loaded = load::load_with_sources(input, default_draft).map_err(Diagnostics)?;
    let registry = Registry::new(loaded.docs).map_err(Diagnostics)?;
    let (model, diagnostics) = schema::build(&registry);
    let (mut warnings, errors): (Vec<Diagnostic>, Vec<Diagnostic>) = diagnostics.into_iter().partition(|d| d.severity == Severity::Warning);
    warnings.splice(0..0, registry.warnings.iter().cloned());
    Diagnostics(errors).into_result(Front { registry, model, sources: loaded.sources, warnings })
}

impl Front {
    /// Every file the front end read (the inputs and what the catalog and refs reached; not
    /// the embedded metaschemas), canonical where possible: what a build reruns on.
    pub fn files_read(&self) -> Vec<PathBuf> {
        let embedded = metaschemas::dir();
        self.registry
            .docs
            .iter()
            .filter(|doc| !doc.path.starts_with(&embedded))
            .map(|doc| std::fs::canonicalize(&doc.path).unwrap_or_else(|_| doc.path.clone()))
            .collect()
    }
}
