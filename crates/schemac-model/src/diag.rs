//! Schema errors (and warnings): collected across phases and reported together, each with its
//! file, JSON pointer, line:column, what was expected, and a hint.
//!
//! Every kind of diagnostic is listed in [`KINDS`] with the hint it gets when the code that
//! finds it has no sharper one, so none comes without a hint.

use std::fmt;

use serde_json::Value;

/// Whether a diagnostic stops compilation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Severity {
    #[default]
    Error,
    /// Compiled anyway; `Output::warnings` carries it.
    Warning,
}

/// One problem with the input schemas.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    pub severity: Severity,
    /// A short stable label, e.g. `invalid-json`, `unresolved-ref`.
    pub code: &'static str,
    /// The file as the user named it (relative path where possible).
    pub file: String,
    /// JSON pointer of the offending value within the file ("" for the whole document).
    pub pointer: String,
    /// 1-based line and column, when known.
    pub position: Option<(usize, usize)>,
    pub message: String,
    pub hint: Option<String>,
    /// Whether it is about a value in the document (see [`Kind::about_value`]).
    pub about_value: bool,
}

/// A kind of diagnostic: its code, the hint it gets unless a sharper one is given, and whether
/// it is about a value in the document (else about the file as a whole, e.g. it cannot be read
/// or parsed, and its pointer says nothing).
#[derive(Clone, Copy, Debug)]
pub struct Kind {
    pub code: &'static str,
    pub hint: &'static str,
    pub about_value: bool,
}

impl Kind {
    /// A kind: its code, whether it is about a value in the document, its default hint.
    pub const fn new(code: &'static str, about_value: bool, hint: &'static str) -> Kind {
        Kind { code, hint, about_value }
    }
}

const fn kind(code: &'static str, about_value: bool, hint: &'static str) -> Kind {
    Kind::new(code, about_value, hint)
}

/// Every kind of diagnostic the model reports (reading, parsing, resolving and checking
/// schemas); the crates on the model list their own (`schemac::codes::KINDS` for the compiler's
/// Rust types, derives, extensions and lowering limits) and build theirs with
/// [`Diagnostic::of`].
pub const KINDS: &[Kind] = &[
    // Reading files (`load.rs`).
    kind("io", false, "check that the file exists and is readable"),
    kind(
        "outside-roots",
        false,
        "schemac reads only files below the input schemas' directories and the --schema-dir and --map directories; \
         allow another directory with --allow-root DIR",
    ),
    kind("symlink-loop", false, "fix or remove the symlink loop"),
    kind("not-a-file", false, "schemac reads schemas only from regular files"),
    kind("file-too-large", false, "raise the limit with --max-file-size BYTES if the schema really is this large"),
    kind("duplicate-input", false, "list each schema once"),
    // Parsing JSON (`load.rs`).
    kind("invalid-yaml", false, "check the YAML's indentation and quoting; keys must be strings"),
    kind("invalid-json", false, "schemas must be strict JSON: no comments, no trailing commas, strings and keys in double quotes"),
    kind("number-out-of-range", false, "write a number within ±1.8e308, the range of a 64-bit float"),
    kind("too-deep", false, "move deep parts into `$defs` and refer to them with `$ref`"),
    kind("duplicate-key", true, "remove one of the two members, or merge them"),
    kind("not-a-schema", true, "a JSON Schema document is an object like `{\"type\": \"object\", ...}` (or `true`/`false`)"),
    kind("unknown-draft", true, "name a known draft in `$schema`, or remove it and pick the draft with --default-draft"),
    kind("unknown-vocabulary", true, "schemac knows the 2019-09 and 2020-12 vocabularies; list others only as optional (`false`)"),
    // Identifiers and references (`resolve.rs`, `lower/`).
    kind("invalid-id", true, "an `$id` is an absolute URI like `https://example.com/schemas/a.json`, or a relative one"),
    kind("duplicate-id", true, "every schema resource and anchor needs its own URI: change or remove one of them"),
    kind("invalid-anchor", true, "an anchor name starts with a letter and goes on with letters, digits, `-`, `_` and `.`"),
    kind("unresolved-ref", true, "schemac never fetches from the network: load the file with --schema-dir DIR or --map PREFIX=DIR"),
    kind("invalid-ref", true, "a `$ref` is a URI reference; its fragment is a JSON pointer (`#/$defs/Name`) or an anchor (`#Name`)"),
    kind("ref-cycle", true, "point one of the `$ref`s in the loop at a real schema"),
    // Keywords (`lower/`).
    kind("invalid-schema", true, "fix the keyword's value as the draft's metaschema describes it"),
    kind("invalid-pattern", true, "`pattern` is an ECMA-262 regular expression; escape `\\` as `\\\\` in JSON"),
    // Warnings: compiled anyway, as validators would.
    kind("ignored-annotation", true, "annotations of the wrong shape are ignored: fix the value's type"),
    kind("uninhabited", true, "the schema accepts no value; if that is meant, write `false`"),
    // The root given as a pointer into a file (`resolve.rs`).
    kind("missing-root", true, "the pointer must name a schema in the file"),
];

/// The entry of `code` in [`KINDS`].
pub fn kind_of(code: &str) -> Option<&'static Kind> {
    KINDS.iter().find(|kind| kind.code == code)
}

impl Diagnostic {
    /// A diagnostic with its kind's hint, which [`Diagnostic::with_hint`] replaces by a
    /// sharper one.
    pub fn new(code: &'static str, file: impl Into<String>, pointer: impl Into<String>, message: impl Into<String>) -> Self {
        let kind = kind_of(code);
        debug_assert!(kind.is_some(), "the diagnostic code `{code}` is not in diag::KINDS");
        let hint = kind.map(|kind| kind.hint.to_owned());
        let about_value = kind.is_none_or(|kind| kind.about_value);
        Self {
            severity: Severity::Error,
            code,
            file: file.into(),
            pointer: pointer.into(),
            position: None,
            message: message.into(),
            hint,
            about_value,
        }
    }

    /// An error of `kind` (a kind another crate lists), with its hint.
    pub fn of(kind: &Kind, file: impl Into<String>, pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Error,
            code: kind.code,
            file: file.into(),
            pointer: pointer.into(),
            position: None,
            message: message.into(),
            hint: Some(kind.hint.to_owned()),
            about_value: kind.about_value,
        }
    }

    /// The same diagnostic as a warning: compiled anyway.
    pub fn into_warning(self) -> Self {
        Self { severity: Severity::Warning, ..self }
    }

    /// A diagnostic that does not stop compilation.
    pub fn warning(code: &'static str, file: impl Into<String>, pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self { severity: Severity::Warning, ..Self::new(code, file, pointer, message) }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    pub fn at(mut self, line: usize, column: usize) -> Self {
        self.position = Some((line, column));
        self
    }
}

impl fmt::Display for Diagnostic {
    /// `error[unresolved-ref]: schemas/a.json:12:5 at /properties/x/$ref: message` (or
    /// `warning[...]`) followed by an indented `hint:` line. An error about the file as a whole
    /// (it cannot be read, it is not JSON) has no pointer: `error[io]: schemas/a.json: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let severity = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{severity}[{}]: {}", self.code, self.file)?;
        if let Some((line, column)) = self.position {
            write!(f, ":{line}:{column}")?;
        }
        match self.pointer.as_str() {
            "" if !self.about_value => {}
            "" => write!(f, " at (document root)")?,
            pointer => write!(f, " at {pointer}")?,
        }
        write!(f, ": {}", self.message)?;
        if let Some(hint) = &self.hint {
            write!(f, "\n  hint: {hint}")?;
        }
        Ok(())
    }
}

/// Every problem found; compilation failed when this is non-empty.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.0.push(diagnostic);
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter()
    }

    /// `Err(self)` when anything was reported, so a phase can end with `diags.into_result(value)`.
    pub fn into_result<T>(self, value: T) -> Result<T, Diagnostics> {
        if self.is_empty() { Ok(value) } else { Err(self) }
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.0 {
            writeln!(f, "{d}")?;
        }
        let n = self.0.len();
        write!(f, "{n} error{}", if n == 1 { "" } else { "s" })
    }
}

impl std::error::Error for Diagnostics {}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Self {
        Diagnostics(vec![d])
    }
}

/// "an array", "a string", ... for messages.
pub(crate) fn kind_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_a_hint_and_one_entry() {
        for (i, kind) in KINDS.iter().enumerate() {
            assert!(!kind.hint.is_empty(), "{}", kind.code);
            assert!(KINDS[..i].iter().all(|other| other.code != kind.code), "{} is listed twice", kind.code);
        }
        assert_eq!(Diagnostic::new("io", "a.json", "", "m").hint.as_deref(), Some("check that the file exists and is readable"));
        assert_eq!(Diagnostic::new("io", "a.json", "", "m").with_hint("sharper").hint.as_deref(), Some("sharper"));
    }

    #[test]
    fn file_errors_have_no_pointer_and_value_errors_say_root() {
        let shown = |code, pointer: &str, position| {
            let diagnostic = Diagnostic::new(code, "a.json", pointer, "m").with_hint("h");
            match position {
                Some((line, column)) => diagnostic.at(line, column).to_string(),
                None => diagnostic.to_string(),
            }
        };
        assert_eq!(shown("not-a-file", "", None), "error[not-a-file]: a.json: m\n  hint: h");
        assert_eq!(shown("invalid-json", "", Some((2, 3))), "error[invalid-json]: a.json:2:3: m\n  hint: h");
        assert_eq!(shown("not-a-schema", "", Some((1, 1))), "error[not-a-schema]: a.json:1:1 at (document root): m\n  hint: h");
        assert_eq!(shown("outside-roots", "/$ref", Some((1, 9))), "error[outside-roots]: a.json:1:9 at /$ref: m\n  hint: h");
    }
}
