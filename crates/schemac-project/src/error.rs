//! The project pipeline's error: what went wrong, the steps it happened in, and a hint.

use std::fmt;

use schemac::Diagnostics;

use super::config::ConfigError;
use super::drift::Drift;

/// Why a project could not be loaded, generated, written or checked.
#[derive(Debug)]
pub struct Error(Box<Inner>);

#[derive(Debug)]
struct Inner {
    kind: ErrorKind,
    /// What was being done, outermost first (`cannot generate `generated``, ...).
    context: Vec<String>,
}

/// The kinds of [`Error`], for callers that react differently (a CLI's exit code, a build
/// script's messages).
#[derive(Debug)]
pub enum ErrorKind {
    /// `schemac.toml` is missing, is not TOML, or has an unknown key or a bad value.
    Config(ConfigError),
    /// The schemas have errors; every one found.
    Schemas(Diagnostics),
    /// `check` found generated files that differ from the disk; `command` regenerates them.
    Drift { drift: Drift, command: String },
    /// Anything else: a file that cannot be read or written, two schemas that become one
    /// module, a synthesizer bug. The message says what and, where one helps, how to fix it.
    Other(String),
}

impl Error {
    pub(crate) fn other(message: impl Into<String>) -> Error {
        Error(Box::new(Inner { kind: ErrorKind::Other(message.into()), context: Vec::new() }))
    }

    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    /// The schema errors, when that is what this is.
    pub fn diagnostics(&self) -> Option<&Diagnostics> {
        match &self.0.kind {
            ErrorKind::Schemas(diagnostics) => Some(diagnostics),
            _ => None,
        }
    }

    /// True when `schemac.toml` itself is at fault (missing, not TOML, a bad key or value).
    pub fn is_config(&self) -> bool {
        matches!(self.0.kind, ErrorKind::Config(_))
    }

    pub(crate) fn drift(drift: Drift, command: String) -> Error {
        Error(Box::new(Inner { kind: ErrorKind::Drift { drift, command }, context: Vec::new() }))
    }

    /// The drift, when `check` failed on it.
    pub fn drift_found(&self) -> Option<&Drift> {
        match &self.0.kind {
            ErrorKind::Drift { drift, .. } => Some(drift),
            _ => None,
        }
    }

    fn with(mut self, context: String) -> Error {
        self.0.context.insert(0, context);
        self
    }
}

impl fmt::Display for Error {
    /// The steps, outermost first, then the cause: `cannot generate `generated`: two schemas ...`.
    /// Schema errors follow on their own lines, as `Diagnostics` prints them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for context in &self.0.context {
            write!(f, "{context}: ")?;
        }
        match &self.0.kind {
            ErrorKind::Config(error) => write!(f, "{error}"),
            ErrorKind::Schemas(diagnostics) => write!(f, "schema errors\n{diagnostics}"),
            ErrorKind::Drift { drift, command } => {
                let n = drift.len();
                write!(f, "{drift}{n} generated file{} out of date; run {command} and commit", if n == 1 { " is" } else { "s are" })
            }
            ErrorKind::Other(message) => write!(f, "{message}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<ConfigError> for Error {
    fn from(error: ConfigError) -> Error {
        Error(Box::new(Inner { kind: ErrorKind::Config(error), context: Vec::new() }))
    }
}

impl From<Diagnostics> for Error {
    fn from(diagnostics: Diagnostics) -> Error {
        Error(Box::new(Inner { kind: ErrorKind::Schemas(diagnostics), context: Vec::new() }))
    }
}

/// `anyhow`-style context on results, so each step says what it was doing.
pub(crate) trait Context<T> {
    fn context(self, context: impl fmt::Display) -> Result<T, Error>;
    fn with_context<C: fmt::Display>(self, context: impl FnOnce() -> C) -> Result<T, Error>;
}

impl<T, E: Into<Error>> Context<T> for Result<T, E> {
    fn context(self, context: impl fmt::Display) -> Result<T, Error> {
        self.map_err(|e| e.into().with(context.to_string()))
    }

    fn with_context<C: fmt::Display>(self, context: impl FnOnce() -> C) -> Result<T, Error> {
        self.map_err(|e| e.into().with(context().to_string()))
    }
}

impl<T> Context<T> for Option<T> {
    fn context(self, context: impl fmt::Display) -> Result<T, Error> {
        self.ok_or_else(|| Error::other(context.to_string()))
    }

    fn with_context<C: fmt::Display>(self, context: impl FnOnce() -> C) -> Result<T, Error> {
        self.ok_or_else(|| Error::other(context().to_string()))
    }
}

impl From<std::io::Error> for Error {
    fn from(error: std::io::Error) -> Error {
        Error::other(error.to_string())
    }
}

impl From<serde_json::Error> for Error {
    fn from(error: serde_json::Error) -> Error {
        Error::other(error.to_string())
    }
}

/// `bail!` for [`Error`]: returns an `Error::other` built with `format!`.
macro_rules! bail {
    ($($arg:tt)*) => {
        return Err($crate::error::Error::other(format!($($arg)*)))
    };
}
pub(crate) use bail;
