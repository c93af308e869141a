//! What the corpus driver reads and prints: a case is a document (its JSON form, and its text
//! in its own format) and the target whose root type it is read as; the driver says what the
//! generated type did with it, read from JSON and read from its own format.

use serde::{Deserialize, Serialize};

use super::documents::Format;
use crate::harness::driver::Case;
use crate::harness::krate::Spec;

/// The corpus crate: one module per target, `corpus_check` in each. The runtime's default
/// features, as a generated crate with the default configuration has them.
pub static SPEC: Spec = Spec {
    package: "schemac-corpus",
    command: "cargo xtask corpus",
    main: include_str!("driver_main.rs.in"),
    entry: "corpus_check",
    dependencies: "serde = { version = \"1\", features = [\"derive\"] }\n\
                   serde_json = \"1\"\n\
                   serde_norway = \"0.9\"\n\
                   toml = \"1\"\n",
    runtime_features: &[],
    // About 2 GB of rustc memory a shard, two building at once on two cores.
    shard_lines: 150_000,
};

/// One document to read.
#[derive(Debug, Serialize)]
pub struct Input<'a> {
    pub id: &'a str,
    pub target: &'a str,
    /// The document's JSON form (compact), which `schemac_runtime::from_str` reads.
    pub json: String,
    pub format: Format,
    /// The file's text, which the format's own deserializer reads (not for JSON files).
    pub text: &'a str,
    /// Which YAML document of the text it is, for a text of several.
    pub part: Option<usize>,
}

impl Case for Input<'_> {
    fn id(&self) -> &str {
        self.id
    }
}

/// What the generated type did with a document read one way.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Reading {
    pub accepted: bool,
    /// For an accepted document: whether it is written back as the same JSON value, every
    /// number exactly and every string byte for byte.
    pub lossless: Option<bool>,
    /// The rejection, the first difference of the round trip, or the panic.
    pub error: Option<String>,
    pub panicked: bool,
}

/// What the driver observed of one document.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Observed {
    /// Read from its JSON form.
    pub json: Reading,
    /// Read from its own text with its format's deserializer (YAML and TOML documents).
    pub native: Option<Reading>,
}

impl Observed {
    /// A document that took the driver down.
    pub fn crashed(error: String) -> Observed {
        Observed { json: Reading { accepted: false, lossless: None, error: Some(error), panicked: true }, native: None }
    }
}
