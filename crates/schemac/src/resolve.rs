//! The catalog of loaded documents and `$ref` resolution: every document by its path and `$id`,
//! every embedded resource (`$id` in a subschema) and `$anchor`, and the base URI in scope at
//! any location.
//!
//! OWNER: front-end helper (load + resolve). The signatures below are the contract with
//! lowering; keep them (add, don't break).

use serde_json::Value;

use crate::Draft;
use crate::diag::Diagnostic;
use crate::ir::DocId;
use crate::load::Document;

/// A location of a (sub)schema: a document and a JSON pointer into it ("" is the root).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Loc {
    pub doc: DocId,
    pub pointer: String,
}

impl Loc {
    /// The location of `self`'s child at `token` (unescaped; it is escaped here).
    pub fn child(&self, token: &str) -> Loc {
        let escaped = token.replace('~', "~0").replace('/', "~1");
        Loc { doc: self.doc, pointer: format!("{}/{}", self.pointer, escaped) }
    }
}

/// All loaded documents, indexed for `$ref` resolution.
#[derive(Debug)]
pub struct Registry {
    pub docs: Vec<Document>,
}

impl Registry {
    /// Indexes the documents: `$id`s (root and embedded), anchors, URL mappings.
    pub fn new(docs: Vec<Document>) -> Result<Registry, Vec<Diagnostic>> {
        Ok(Registry { docs })
    }

    pub fn doc(&self, id: DocId) -> &Document {
        &self.docs[id.0]
    }

    /// The schema at `loc`; `None` when the pointer does not exist.
    pub fn get(&self, loc: &Loc) -> Option<&Value> {
        self.doc(loc.doc).json.pointer(&loc.pointer)
    }

    /// Resolves `reference` (the value of a `$ref` found in the schema at `from`) against the
    /// base URI in scope at `from`. Errors name the ref, the file and pointer, and a hint.
    pub fn resolve(&self, from: &Loc, reference: &str) -> Result<Loc, Diagnostic> {
        let _ = (from, reference);
        Err(Diagnostic::new("unresolved-ref", "", "", "not implemented yet"))
    }

    /// The draft in force at `loc` (a subresource may declare its own `$schema`).
    pub fn draft_at(&self, loc: &Loc) -> Draft {
        self.doc(loc.doc).draft
    }

    /// Builds a diagnostic for the value at `loc`, with its line:column filled in.
    pub fn error(&self, code: &'static str, loc: &Loc, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(code, self.doc(loc.doc).display.clone(), loc.pointer.clone(), message)
    }
}
