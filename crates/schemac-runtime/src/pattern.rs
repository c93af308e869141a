//! ECMA-262 patterns at run time: the `pattern` check behind generated validation.
//!
//! schemac translates each pattern at build time to the `regex` crate's syntax when that
//! has exactly the same meaning, and otherwise leaves it to `regress`, an ECMA-262
//! backtracking engine run with the `u` flag. Either way a pattern is compiled once, on
//! first use, so that a `static` can hold it. The commonest shape, an anchored run of
//! character classes such as `^run_[0-9a-f]{32}$`, is matched byte by byte without an
//! automaton ([`Steps`]): that is most of the cost of checking an ID.

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
    Steps(Steps),
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
            Ok(Engine::Steps(steps)) => Ok(steps.is_match(text.as_bytes())),
            Ok(Engine::Regex(re)) => Ok(re.is_match(text)),
            Ok(Engine::Ecma(re)) => Ok(re.find(text).is_some()),
            Err(message) => Err(PatternError { source: self.source, message: message.clone() }),
        }
    }

    fn compile(&self) -> Result<Engine, String> {
        // The translation only makes `source` faster; should this build's `regex` reject it,
        // `regress` still gives the same answers.
        if let Some(translated) = self.translated
            && let Ok(re) = regex::Regex::new(translated)
        {
            return Ok(Steps::of(translated).map_or(Engine::Regex(re), Engine::Steps));
        }
        regress::Regex::with_flags(self.source, "u").map(Engine::Ecma).map_err(|e| e.to_string())
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Pattern").field("source", &self.source).field("translated", &self.translated).finish_non_exhaustive()
    }
}

/// A pattern in `regex` syntax that is `^`, then a sequence of single-byte sets each taken a
/// bounded number of times, then optionally `$` (`^[0-9]{14}-[a-z0-9]{6}$`). Taking each step
/// greedily decides the match exactly when no byte a variable step takes could also start
/// what follows it (checked in [`Steps::of`]), so no backtracking is needed.
struct Steps {
    steps: Vec<Step>,
    /// Whether the pattern ends with `$` (else any rest of the text is fine).
    to_end: bool,
}

struct Step {
    bytes: [bool; 256],
    min: usize,
    max: usize,
}

impl Steps {
    /// The steps of `pattern` (in `regex` syntax), `None` if it has another shape.
    fn of(pattern: &str) -> Option<Steps> {
        use regex_syntax::hir::{HirKind, Look};
        let hir = regex_syntax::Parser::new().parse(pattern).ok()?;
        let items = match hir.kind() {
            HirKind::Concat(items) => items.as_slice(),
            _ => return None,
        };
        let (first, rest) = items.split_first()?;
        if !matches!(first.kind(), HirKind::Look(Look::Start)) {
            return None;
        }
        let (rest, to_end) = match rest.split_last() {
            Some((last, init)) if matches!(last.kind(), HirKind::Look(Look::End)) => (init, true),
            _ => (rest, false),
        };
        let mut steps = Vec::new();
        for item in rest {
            push_steps(item, &mut steps)?;
        }
        steps.retain(|step| step.max > 0);
        Steps::greedy_is_exact(&steps).then_some(Steps { steps, to_end })
    }

    /// Whether every variable step's bytes are disjoint from those of each step that could
    /// take the byte after it: the following steps up to and including the first mandatory one.
    fn greedy_is_exact(steps: &[Step]) -> bool {
        steps.iter().enumerate().filter(|(_, step)| step.min < step.max).all(|(i, step)| {
            let after = &steps[i + 1..];
            let reach = after.iter().position(|next| next.min > 0).map_or(after.len(), |m| m + 1);
            after[..reach].iter().all(|next| (0..256).all(|b| !(step.bytes[b] && next.bytes[b])))
        })
    }

    fn is_match(&self, text: &[u8]) -> bool {
        let mut at = 0;
        for step in &self.steps {
            let taken = text[at..].iter().take(step.max).take_while(|&&b| step.bytes[usize::from(b)]).count();
            if taken < step.min {
                return false;
            }
            at += taken;
        }
        !self.to_end || at == text.len()
    }
}

/// Appends the steps of `hir`, a part of a concatenation; `None` if it is not a sequence of
/// single-byte sets.
fn push_steps(hir: &regex_syntax::hir::Hir, steps: &mut Vec<Step>) -> Option<()> {
    use regex_syntax::hir::{Class, HirKind};
    match hir.kind() {
        HirKind::Empty => {}
        // UTF-8 bytes one after the other: the text's bytes must be these.
        HirKind::Literal(literal) => {
            for &byte in literal.0.iter() {
                let mut bytes = [false; 256];
                bytes[usize::from(byte)] = true;
                steps.push(Step { bytes, min: 1, max: 1 });
            }
        }
        // Only ASCII classes: a byte is then a whole character.
        HirKind::Class(class) => {
            let mut bytes = [false; 256];
            match class {
                Class::Unicode(class) => {
                    for range in class.ranges() {
                        let (start, end) = (u8::try_from(range.start()).ok()?, u8::try_from(range.end()).ok()?);
                        if end > 0x7f {
                            return None;
                        }
                        bytes[usize::from(start)..=usize::from(end)].fill(true);
                    }
                }
                Class::Bytes(class) => {
                    for range in class.ranges() {
                        if range.end() > 0x7f {
                            return None;
                        }
                        bytes[usize::from(range.start())..=usize::from(range.end())].fill(true);
                    }
                }
            }
            steps.push(Step { bytes, min: 1, max: 1 });
        }
        HirKind::Repetition(repetition) => {
            let mut inner = Vec::new();
            push_steps(&repetition.sub, &mut inner)?;
            let min = usize::try_from(repetition.min).ok()?;
            let max = repetition.max.map_or(Some(usize::MAX), |max| usize::try_from(max).ok())?;
            match inner.as_slice() {
                [Step { bytes, min: 1, max: 1 }] => steps.push(Step { bytes: *bytes, min, max }),
                // A fixed sequence a fixed number of times (`(?:ab){2}`), kept small.
                fixed if min == max && fixed.iter().all(|step| step.min == step.max) && fixed.len().saturating_mul(min) <= 256 => {
                    for _ in 0..min {
                        steps.extend(fixed.iter().map(|step| Step { bytes: step.bytes, min: step.min, max: step.max }));
                    }
                }
                _ => return None,
            }
        }
        HirKind::Capture(capture) => push_steps(&capture.sub, steps)?,
        HirKind::Concat(items) => {
            for item in items {
                push_steps(item, steps)?;
            }
        }
        HirKind::Look(_) | HirKind::Alternation(_) => return None,
    }
    Some(())
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
        static DIGITS: Pattern = Pattern::new(r"(?:^|-)\d+$", Some(r"(?:^|\-)[0-9]+$"));
        check(&DIGITS, "2024", true);
        check(&DIGITS, "a-12", true);
        check(&DIGITS, "٣", false);
        check(&DIGITS, "", false);
        assert!(matches!(DIGITS.engine.get(), Some(Ok(Engine::Regex(_)))));
        assert_eq!(DIGITS.source(), r"(?:^|-)\d+$");
    }

    #[test]
    fn anchored_runs_of_classes_are_matched_step_by_step() {
        static ID: Pattern = Pattern::new(r"^\d{14}-[a-z0-9]{6}$", Some(r"^[0-9]{14}\-[a-z0-9]{6}$"));
        check(&ID, "20260101000001-abc123", true);
        check(&ID, "20260101000001-abc12", false);
        check(&ID, "20260101000001-abc1234", false);
        check(&ID, "2026010100000-abc1234", false);
        check(&ID, "20260101000001-abc12é", false);
        assert!(matches!(ID.engine.get(), Some(Ok(Engine::Steps(_)))));
    }

    /// The step matcher against `regex` on every short text over an alphabet that exercises
    /// each pattern, including the shapes it must leave to `regex`.
    #[test]
    fn steps_agree_with_regex() {
        let patterns = [
            ("^a{1,3}b?$", true),
            ("^[a-c]{2,}x[0-9]*$", true),
            ("^a{0,2}b{1,2}", true),
            ("^(?:ab){2}$", true),
            ("^(?:ab){1,2}$", false),
            ("^(?:a?b){2}$", false),
            ("^(x)[^\\x00-\\x60]$", false),
            ("^é+$", false),
            ("^a{1,3}a$", false),
            ("^a*b?a$", false),
            ("^a*(b|c)$", true),
            ("^a*(bc|d)$", false),
            ("a+$", false),
            ("^(?m)a$", false),
            ("^x?é$", true),
        ];
        let alphabet = ["a", "b", "c", "x", "0", "é", "\n"];
        let mut texts = vec![String::new()];
        for _ in 0..5 {
            let longer: Vec<String> = texts.iter().flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}"))).collect();
            texts.extend(longer);
        }
        texts.sort();
        texts.dedup();
        for (pattern, stepped) in patterns {
            let re = regex::Regex::new(pattern).unwrap();
            let steps = Steps::of(pattern);
            assert_eq!(steps.is_some(), stepped, "{pattern}");
            if let Some(steps) = steps {
                for text in &texts {
                    assert_eq!(steps.is_match(text.as_bytes()), re.is_match(text), "{pattern} on {text:?}");
                }
            }
        }
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
