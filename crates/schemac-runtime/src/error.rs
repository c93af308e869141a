//! Deserialization errors that say where: the JSON pointer of the offending value.

use std::fmt;

use serde::de::DeserializeOwned;
use serde_path_to_error::Segment;

/// How an integer the schema allows but the Rust integer cannot hold is reported.
pub(crate) const OUT_OF_RANGE: &str = " is out of range for ";

/// Marks a JSON pointer carried inside a serde error message, for values that had to be
/// buffered (unions) and were deserialized again from a `serde_json::Value`: the inner
/// pointer is spliced onto the outer one by [`Error`].
const NESTED: char = '\u{1d}';
/// Marks a JSON pointer written inside a message (a union's account of where each branch
/// failed), relative to the location of the error that carries the message; [`Error`] writes
/// it out absolute.
const AT: char = '\u{1e}';

/// A value that does not match its schema, with the JSON pointer of that value.
#[derive(Debug)]
pub struct Error {
    pointer: String,
    message: String,
    /// Line and column in the input text, when it was text.
    position: Option<(usize, usize)>,
}

impl Error {
    /// The JSON pointer of the value that was rejected (`""` for the document itself).
    pub fn pointer(&self) -> &str {
        &self.pointer
    }

    /// What was expected, without the location.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// 1-based line and column in the input, for text input.
    pub fn position(&self) -> Option<(usize, usize)> {
        self.position
    }

    fn from_tracked(error: serde_path_to_error::Error<serde_json::Error>) -> Error {
        let mut pointer = pointer_of(error.path());
        let inner = error.into_inner();
        let position = (inner.line() > 0).then(|| (inner.line(), inner.column()));
        let mut message = strip_position(&inner.to_string());
        if let Some((nested, rest)) = split_nested(&message) {
            pointer.push_str(&nested);
            message = rest;
        }
        let message = resolve_pointers(&message, &pointer);
        Error { pointer, message, position }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pointer = if self.pointer.is_empty() { "(root)" } else { &self.pointer };
        write!(f, "{pointer}: {}", self.message)
    }
}

impl std::error::Error for Error {}

/// A value built in Rust that breaks a constraint of its schema (from `TryFrom`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConstraintError {
    message: String,
}

impl ConstraintError {
    pub fn new(message: impl Into<String>) -> Self {
        ConstraintError { message: message.into() }
    }

    /// `text` is not a value of a type whose values are `expected` (`one of "a", "b"`).
    pub fn expected(text: &str, expected: &str) -> Self {
        ConstraintError { message: format!("{text:?} is not {expected}") }
    }
}

impl fmt::Display for ConstraintError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ConstraintError {}

/// Deserializes JSON text; errors carry the JSON pointer of the rejected value.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, Error> {
    // Not through `from_slice`: text known to be UTF-8 is read without checking it again.
    match serde_json::from_str(text) {
        Ok(value) => Ok(value),
        Err(_) => from_json(serde_json::Deserializer::from_str(text)),
    }
}

/// Deserializes JSON bytes; errors carry the JSON pointer of the rejected value.
///
/// Tracking the path costs as much as the deserialization itself, and only a failure needs
/// it: the input is read untracked first and read again, tracked, only when it is rejected.
pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Error> {
    match serde_json::from_slice(bytes) {
        Ok(value) => Ok(value),
        Err(_) => from_json(serde_json::Deserializer::from_slice(bytes)),
    }
}

/// Deserializes JSON from a reader; errors carry the JSON pointer of the rejected value. A
/// reader cannot be read twice, so the path is tracked all along (see [`from_slice`]).
pub fn from_reader<R: std::io::Read, T: DeserializeOwned>(reader: R) -> Result<T, Error> {
    from_json(serde_json::Deserializer::from_reader(reader))
}

/// Deserializes one JSON document (trailing characters are an error, as in `serde_json`).
fn from_json<'de, R: serde_json::de::Read<'de>, T: DeserializeOwned>(mut de: serde_json::Deserializer<R>) -> Result<T, Error> {
    let value = serde_path_to_error::deserialize(&mut de).map_err(Error::from_tracked)?;
    de.end().map_err(|e| Error {
        pointer: String::new(),
        message: strip_position(&e.to_string()),
        position: Some((e.line(), e.column())),
    })?;
    Ok(value)
}

/// Deserializes a `serde_json::Value`; errors carry the JSON pointer of the rejected value.
/// Like [`from_slice`], it tracks the path only to explain a rejection.
pub fn from_value<T: DeserializeOwned>(value: serde_json::Value) -> Result<T, Error> {
    match T::deserialize(&value) {
        Ok(parsed) => Ok(parsed),
        Err(_) => serde_path_to_error::deserialize(&value).map_err(Error::from_tracked),
    }
}

/// Deserializes a buffered value through `seed`, for generated unions and checks: on failure
/// the message carries the pointer inside `value`, which [`Error`] splices onto the outer one.
pub fn nested<'de, S: serde::de::DeserializeSeed<'de>, E: serde::de::Error>(seed: S, value: &'de serde_json::Value) -> Result<S::Value, E> {
    let mut track = serde_path_to_error::Track::new();
    let de = serde_path_to_error::Deserializer::new(value, &mut track);
    let result: Result<S::Value, serde_json::Error> = seed.deserialize(de);
    result.map_err(|error| {
        let (pointer, message) = split_error(pointer_of(&track.path()), &error.to_string());
        E::custom(mark_nested(&pointer, &message))
    })
}

/// `relative` (a pointer below the location of the error whose message it goes in), marked
/// for [`resolve_pointers`].
pub(crate) fn mark_pointer(relative: &str) -> String {
    format!("{AT}{relative}{AT}")
}

/// `message`, which belongs to an error at `relative` below the one it is quoted in, with its
/// marked pointers made relative to that outer error.
pub(crate) fn rebase_pointers(message: &str, relative: &str) -> String {
    map_pointers(message, |pointer| mark_pointer(&format!("{relative}{pointer}")))
}

/// `message` of an error at `pointer`, with its marked pointers written out absolute.
pub(crate) fn resolve_pointers(message: &str, pointer: &str) -> String {
    map_pointers(message, |relative| {
        let absolute = format!("{pointer}{relative}");
        if absolute.is_empty() { "(root)".to_owned() } else { absolute }
    })
}

/// Whether `message` has marked pointers: it is a union's account of its branches.
pub(crate) fn has_pointers(message: &str) -> bool {
    message.contains(AT)
}

/// How deep the deepest marked pointer in `message` goes (segments below the error's location).
pub(crate) fn deepest_pointer(message: &str) -> usize {
    message.split(AT).skip(1).step_by(2).map(|pointer| pointer.matches('/').count()).max().unwrap_or(0)
}

fn map_pointers(message: &str, mut f: impl FnMut(&str) -> String) -> String {
    let mut parts = message.split(AT);
    let mut out = parts.next().unwrap_or_default().to_owned();
    // Marks come in pairs: odd parts are pointers.
    while let Some(pointer) = parts.next() {
        out.push_str(&f(pointer));
        out.push_str(parts.next().unwrap_or_default());
    }
    out
}

/// Joins a pointer with a message that may carry a deeper nested pointer itself.
pub(crate) fn split_error(pointer: String, message: &str) -> (String, String) {
    match split_nested(message) {
        Some((deeper, rest)) => (pointer + &deeper, rest),
        None => (pointer, message.to_owned()),
    }
}

/// A message that carries the pointer of the failure inside a buffered value.
pub(crate) fn mark_nested(pointer: &str, message: &str) -> String {
    format!("{NESTED}{pointer}{NESTED}{message}")
}

fn split_nested(message: &str) -> Option<(String, String)> {
    let rest = message.strip_prefix(NESTED)?;
    let (pointer, message) = rest.split_once(NESTED)?;
    Some((pointer.to_owned(), message.to_owned()))
}

pub(crate) fn pointer_of(path: &serde_path_to_error::Path) -> String {
    let mut pointer = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => {
                pointer.push('/');
                pointer.push_str(&index.to_string());
            }
            Segment::Map { key } => {
                pointer.push('/');
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
            }
            Segment::Enum { .. } | Segment::Unknown => {}
        }
    }
    pointer
}

/// serde_json appends " at line L column C"; the position is kept separately.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) if message[i..].contains(" column ") => message[..i].to_owned(),
        _ => message.to_owned(),
    }
}
/// Why a value failed a check, and where inside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckError {
    pub(crate) pointer: String,
    pub(crate) message: String,
}

impl CheckError {
    pub fn new(message: impl Into<String>) -> Self {
        CheckError { pointer: String::new(), message: message.into() }
    }

    /// The same error, one level deeper (`segment` is a property name or an index).
    pub(crate) fn under(mut self, segment: &str) -> Self {
        let escaped = segment.replace('~', "~0").replace('/', "~1");
        self.pointer = format!("/{escaped}{}", self.pointer);
        self
    }

    pub fn pointer(&self) -> &str {
        &self.pointer
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    /// A serde error that carries the pointer, for `Deserialize` impls.
    pub fn into_de_error<E: serde::de::Error>(self) -> E {
        E::custom(mark_nested(&self.pointer, &self.message))
    }
}

impl std::fmt::Display for CheckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pointer = if self.pointer.is_empty() { "(root)" } else { &self.pointer };
        write!(f, "{pointer}: {}", resolve_pointers(&self.message, &self.pointer))
    }
}

impl std::error::Error for CheckError {}

/// What a JSON value is, for serde's "invalid type" errors.
pub(crate) fn unexpected(value: &serde_json::Value) -> serde::de::Unexpected<'_> {
    match value {
        serde_json::Value::Null => serde::de::Unexpected::Unit,
        serde_json::Value::Bool(b) => serde::de::Unexpected::Bool(*b),
        serde_json::Value::Number(_) => serde::de::Unexpected::Other("number"),
        serde_json::Value::String(s) => serde::de::Unexpected::Str(s),
        serde_json::Value::Array(_) => serde::de::Unexpected::Seq,
        serde_json::Value::Object(_) => serde::de::Unexpected::Map,
    }
}
