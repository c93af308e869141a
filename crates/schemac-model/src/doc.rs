//! A loaded document and the places in documents: [`DocId`] numbers the documents, [`Loc`]
//! names a (sub)schema as a document and a JSON pointer, [`Document`] is one file as read.

use std::path::PathBuf;

use serde_json::Value;

use crate::draft::Draft;
use crate::schema::keyword::Keyword;
use crate::schema::scan;
use crate::uri::escape;

/// Index of a loaded document (one schema file) in [`Registry::docs`](crate::resolve::Registry).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DocId(pub usize);

/// A location of a (sub)schema: a document and a JSON pointer into it ("" is the root).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Loc {
    pub doc: DocId,
    pub pointer: String,
}

impl Loc {
    /// The location of `self`'s child at `token` (unescaped; it is escaped here).
    pub fn child(&self, token: &str) -> Loc {
        Loc { doc: self.doc, pointer: format!("{}/{}", self.pointer, escape(token)) }
    }
}

/// One loaded schema file.
#[derive(Clone, Debug)]
pub struct Document {
    pub id: DocId,
    /// Where it was read from.
    pub path: PathBuf,
    /// How errors and generated headers name it (e.g. `schemas/madoo/attempts-report.v1.json`).
    pub display: String,
    /// The file's text (without a byte order mark), for line:column lookups.
    pub text: String,
    /// Lowercase hex SHA-256 of the file's bytes.
    pub sha256: String,
    /// The parsed text. Two changes: a document loaded through `--map` that has no `$id` gets
    /// the URL it was mapped from as its `$id`, because that URL is its base URI; and where its
    /// `$schema` is a metaschema that leaves out a vocabulary, that vocabulary's keywords are
    /// removed, as they are only annotations there.
    pub json: Value,
    /// From `$schema`, else the configured default.
    pub draft: Draft,
    /// True for the input schemas (whose root gets a type even when nothing refers to it).
    pub is_input: bool,
    /// The JSON pointer of the schema that is the root (`""`: the document itself).
    pub root_pointer: String,
    /// Other URIs the document answers to: the URL it was loaded for (through `--map`, or as an
    /// embedded metaschema) when that is not its `$id`.
    pub aliases: Vec<String>,
}

impl Document {
    /// The string the document's root declares under `keyword`, as written (`title`,
    /// `description`): what a generated module's header cites.
    pub fn root_string(&self, keyword: Keyword) -> Option<&str> {
        self.json.get(keyword.name()).and_then(Value::as_str)
    }

    /// The root's identifier as written under its draft's keyword (`$id`; draft 4: `id`),
    /// whatever else the root holds.
    pub fn root_id(&self) -> Option<&str> {
        self.root_string(scan::id_keyword(self.draft))
    }
}
