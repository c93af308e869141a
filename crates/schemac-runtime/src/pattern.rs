//! ECMA-262 patterns at run time: the `pattern` check behind generated validation.
//!
//! schemac translates each pattern at build time to the `regex` crate's syntax when that
//! has exactly the same meaning, and otherwise leaves it to `regress`, an ECMA-262
//! backtracking engine run with the `u` flag. Either way a pattern is compiled once, on
//! first use, so that a `static` can hold it.

use std::fmt;
use std::sync::OnceLock;

/// A JSON Schema `pattern`, searched unanchored as JSON Schema requires.
pub struct Pattern {
    source: &'static str,
    translated: Option<&'static str>,
    /// The error is kept as a message so that every later call can report it again.
    engine: OnceLock<Result<Engine, String>>,
}

enum Engine {
    Regex(regex::Regex),
    Ecma(regress::Regex),
}

impl Pattern {
    /// `source` is the ECMA-262 pattern from the schema; `translated` its exact equivalent
    /// in `regex` syntax, if it has one.
    pub const fn new(source: &'static str, translated: Option<&'static str>) -> Self {
        Self { source, translated, engine: OnceLock::new() }
    }

    /// The pattern as written in the schema.
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// Whether `text` contains a match. Fails only if the pattern does not compile.
    pub fn is_match(&self, text: &str) -> Result<bool, PatternError> {
        match self.engine.get_or_init(|| self.compile()) {
            Ok(Engine::Regex(re)) => Ok(re.is_match(text)),
            Ok(Engine::Ecma(re)) => Ok(re.find(text).is_some()),
            Err(message) => Err(PatternError { source: self.source, message: message.clone() }),
        }
    }

    fn compile(&self) -> Result<Engine, String> {
        // The translation only makes `source` faster; should this build's `regex` reject it,
        // `regress` still gives the same answers.
        if let Some(Ok(re)) = self.translated.map(regex::Regex::new) {
            return Ok(Engine::Regex(re));
        }
        regress::Regex::with_flags(self.source, "u").map(Engine::Ecma).map_err(|e| e.to_string())
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pattern").field("source", &self.source).field("translated", &self.translated).finish_non_exhaustive()
    }
}

/// A pattern that failed to compile at run time (schemac validates patterns at build time,
/// so this means the generated code was edited or built against a different engine).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternError {
    source: &'static str,
    message: String,
}

impl PatternError {
    /// The pattern as written in the schema.
    pub fn source(&self) -> &'static str {
        self.source
    }
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pattern `{}` does not compile: {}", self.source, self.message)
    }
}

impl std::error::Error for PatternError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(pattern: &Pattern, input: &str, expected: bool) {
        assert_eq!(pattern.is_match(input), Ok(expected), "{pattern:?} on {input:?}");
    }

    #[test]
    fn translated_patterns_run_on_regex() {
        static DIGITS: Pattern = Pattern::new(r"^\d+$", Some("^[0-9]+$"));
        check(&DIGITS, "2024", true);
        check(&DIGITS, "٣", false);
        check(&DIGITS, "", false);
        assert!(matches!(DIGITS.engine.get(), Some(Ok(Engine::Regex(_)))));
        assert_eq!(DIGITS.source(), r"^\d+$");
    }

    #[test]
    fn untranslated_patterns_run_on_regress() {
        static LOOKAHEAD: Pattern = Pattern::new(r"^(?=.*\d)\w+$", None);
        check(&LOOKAHEAD, "abc1", true);
        check(&LOOKAHEAD, "abc", false);
        check(&LOOKAHEAD, "é1", false);
        assert!(matches!(LOOKAHEAD.engine.get(), Some(Ok(Engine::Ecma(_)))));

        static BACKREFERENCE: Pattern = Pattern::new(r"^(a+)-\1$", None);
        check(&BACKREFERENCE, "aa-aa", true);
        check(&BACKREFERENCE, "aa-a", false);

        static LETTERS: Pattern = Pattern::new(r"^\p{L}+$", None);
        check(&LETTERS, "héllo", true);
        check(&LETTERS, "h3llo", false);
    }

    #[test]
    fn a_translation_regex_rejects_falls_back_to_regress() {
        static PATTERN: Pattern = Pattern::new(r"^a{2}$", Some("^a{2"));
        check(&PATTERN, "aa", true);
        check(&PATTERN, "a", false);
    }

    #[test]
    fn an_invalid_pattern_is_an_error_every_time() {
        static BROKEN: Pattern = Pattern::new("(", None);
        for _ in 0..2 {
            let err = BROKEN.is_match("(").unwrap_err();
            assert_eq!(err.source(), "(");
            assert!(err.to_string().starts_with("pattern `(` does not compile: "), "{err}");
        }
    }

    #[test]
    fn is_shareable_across_threads() {
        static WORD: Pattern = Pattern::new(r"\bab", Some(r"(?-u:\b)ab"));
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| check(&WORD, "x ab", true));
            }
        });
        check(&WORD, "xab", false);
    }
}
