//! Schema errors (and warnings): collected across phases and reported together, each with its
//! file, JSON pointer, line:column, what was expected, and a hint.

use std::fmt;

/// Whether a diagnostic stops compilation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Severity {
    #[default]
    Error,
    /// Compiled anyway; `Output::warnings` carries it.
    Warning,
}

/// One problem with the input schemas.
#[derive(Clone, Debug, PartialEq, Eq)]
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
}

impl Diagnostic {
    pub fn new(code: &'static str, file: impl Into<String>, pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Error,
            code,
            file: file.into(),
            pointer: pointer.into(),
            position: None,
            message: message.into(),
            hint: None,
        }
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
    /// `warning[...]`) followed by an indented `hint:` line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let severity = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "{severity}[{}]: {}", self.code, self.file)?;
        if let Some((line, column)) = self.position {
            write!(f, ":{line}:{column}")?;
        }
        let pointer = if self.pointer.is_empty() { "(document root)" } else { &self.pointer };
        write!(f, " at {pointer}: {}", self.message)?;
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
