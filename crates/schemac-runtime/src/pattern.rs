//! ECMA-262 patterns at run time: the `pattern` check behind generated validation.
//!
//! schemac translates each pattern at build time to the `regex` crate's syntax when that
//! has exactly the same meaning, and otherwise leaves it to `regress`, an ECMA-262
//! backtracking engine run with the `u` flag. Either way a pattern is compiled once, on
//! first use, so that a `static` can hold it. The commonest shape, an anchored run of
//! character classes such as `^run_[0-9a-f]{32}$`, is matched without an automaton
//! ([`Steps`]), eight bytes at a time where the class is a few ASCII ranges: that was most of
//! the cost of checking an ID.

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
    parts: Vec<Part>,
    /// Whether the pattern ends with `$` (else any rest of the text is fine).
    to_end: bool,
}

/// What the text must go on with: bytes as they are (`run_`), or a run of a byte set.
// A pattern has a handful of parts, built once; boxing `Step` would cost a load per match.
#[allow(clippy::large_enum_variant)]
enum Part {
    Literal(Vec<u8>),
    Run(Step),
}

#[derive(Clone, Copy)]
struct Step {
    bytes: [bool; 256],
    min: usize,
    max: usize,
    /// `bytes` as a few ASCII ranges, when they are, to test eight bytes at a time.
    ranges: Option<Ranges>,
}

impl Step {
    fn new(bytes: [bool; 256], min: usize, max: usize) -> Step {
        Step { bytes, min, max, ranges: Ranges::of(&bytes) }
    }

    /// What follows the step's greedy run at the start of `text`, `None` if the run is too short.
    fn take<'t>(&self, text: &'t [u8]) -> Option<&'t [u8]> {
        let (mandatory, rest) = text.split_at_checked(self.min)?;
        if !self.takes_all(mandatory) {
            return None;
        }
        if self.max == self.min {
            return Some(rest);
        }
        let taken = rest.iter().take(self.max - self.min).take_while(|&&b| self.bytes[usize::from(b)]).count();
        Some(&rest[taken..])
    }

    /// Whether every byte of `text` is one of the step's.
    fn takes_all(&self, text: &[u8]) -> bool {
        let taken = |ok: bool, &b: &u8| ok & self.bytes[usize::from(b)];
        match &self.ranges {
            // A branch per eight bytes, not per byte: IDs are mostly valid.
            Some(ranges) => {
                let chunks = text.chunks_exact(8);
                let rest = chunks.remainder();
                ranges.contain_all(chunks) && rest.iter().fold(true, taken)
            }
            None => text.iter().fold(true, taken),
        }
    }
}

/// Up to four ranges of ASCII bytes, tested on eight bytes at once (SWAR): for a byte `b`
/// below 0x80, `b + (0x80 - start)` has its high bit set exactly when `b >= start`, and
/// `b + (0x7f - end)` exactly when `b > end`, and neither sum carries into the next byte.
#[derive(Clone, Copy)]
struct Ranges {
    count: usize,
    /// Per range, `0x80 - start` and `0x7f - end` in every byte.
    from: [u64; 4],
    past: [u64; 4],
}

const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
const LOW_BYTES: u64 = 0x0101_0101_0101_0101;

impl Ranges {
    fn of(bytes: &[bool; 256]) -> Option<Ranges> {
        if bytes[0x80..].iter().any(|&b| b) {
            return None;
        }
        let mut ranges = Ranges { count: 0, from: [0; 4], past: [0; 4] };
        let mut start = None;
        for b in 0..=0x80u8 {
            match (start, b < 0x80 && bytes[usize::from(b)]) {
                (None, true) => start = Some(b),
                (Some(first), false) => {
                    let i = ranges.count;
                    if i == 4 {
                        return None;
                    }
                    ranges.from[i] = u64::from(0x80 - first) * LOW_BYTES;
                    ranges.past[i] = u64::from(0x7f - (b - 1)) * LOW_BYTES;
                    ranges.count += 1;
                    start = None;
                }
                _ => {}
            }
        }
        Some(ranges)
    }

    /// Whether each of the eight bytes of `chunk` is in one of the ranges: its high bit in
    /// the result is set.
    #[inline]
    fn inside(&self, chunk: &[u8]) -> u64 {
        let word = u64::from_le_bytes(chunk.try_into().expect("chunks of eight bytes"));
        // The low seven bits of each byte: the additions below cannot carry.
        let low = word & !HIGH_BITS;
        let inside = self.from[..self.count]
            .iter()
            .zip(&self.past)
            .fold(0, |inside, (from, past)| inside | (low.wrapping_add(*from) & !low.wrapping_add(*past)));
        inside & !word
    }

    /// Whether every chunk of eight bytes of `chunks` is inside the ranges.
    fn contain_all<'t>(&self, chunks: impl Iterator<Item = &'t [u8]>) -> bool {
        chunks.fold(HIGH_BITS, |all, chunk| all & self.inside(chunk)) & HIGH_BITS == HIGH_BITS
    }
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
        Steps::greedy_is_exact(&steps).then(|| Steps { parts: Steps::parts(steps), to_end })
    }

    /// `steps` with each sequence of single bytes taken once merged into one literal, which
    /// is one comparison instead of a step per byte.
    fn parts(steps: Vec<Step>) -> Vec<Part> {
        let mut parts = Vec::new();
        for step in steps {
            let mut bytes = (0..=255u8).filter(|&b| step.bytes[usize::from(b)]);
            let single = match (bytes.next(), bytes.next()) {
                (Some(byte), None) if (step.min, step.max) == (1, 1) => Some(byte),
                _ => None,
            };
            match (single, parts.last_mut()) {
                (Some(byte), Some(Part::Literal(literal))) => literal.push(byte),
                (Some(byte), _) => parts.push(Part::Literal(vec![byte])),
                (None, _) => parts.push(Part::Run(step)),
            }
        }
        parts
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
        let mut rest = text;
        for part in &self.parts {
            rest = match part {
                Part::Literal(literal) => match rest.strip_prefix(literal.as_slice()) {
                    Some(after) => after,
                    None => return false,
                },
                Part::Run(step) => match step.take(rest) {
                    Some(after) => after,
                    None => return false,
                },
            };
        }
        !self.to_end || rest.is_empty()
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
                steps.push(Step::new(bytes, 1, 1));
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
            steps.push(Step::new(bytes, 1, 1));
        }
        HirKind::Repetition(repetition) => {
            let mut inner = Vec::new();
            push_steps(&repetition.sub, &mut inner)?;
            let min = usize::try_from(repetition.min).ok()?;
            let max = repetition.max.map_or(Some(usize::MAX), |max| usize::try_from(max).ok())?;
            match inner.as_slice() {
                [Step { bytes, min: 1, max: 1, .. }] => steps.push(Step::new(*bytes, min, max)),
                // A fixed sequence a fixed number of times (`(?:ab){2}`), kept small.
                fixed if min == max && fixed.iter().all(|step| step.min == step.max) && fixed.len().saturating_mul(min) <= 256 => {
                    for _ in 0..min {
                        steps.extend(fixed.iter().copied());
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

    /// Eight bytes at a time: every byte value at every place of a chunk of bytes the step
    /// takes, for ranges at the edges of ASCII and for more ranges than the SWAR test holds.
    #[test]
    fn ranges_agree_with_the_byte_table() {
        let classes = ["[0-9a-f]", "[\\x00-\\x7f]", "[!-~]", "[\\x00a\\x7f]", "[a-bd-eg-hj-k]", "[a-bd-eg-hj-km]", "x", "é"];
        let mut tested = 0;
        for class in classes {
            let steps = Steps::of(&format!("^{class}{{8}}")).expect(class);
            let step = match steps.parts.as_slice() {
                [Part::Run(step)] => step,
                // Two bytes eight times: one literal.
                _ => {
                    assert_eq!(class, "é");
                    continue;
                }
            };
            let Some(ranges) = step.ranges else { continue };
            tested += 1;
            let valid = (0..=255u8).find(|&b| step.bytes[usize::from(b)]).expect("a byte the step takes");
            for place in 0..8 {
                for b in 0..=255u8 {
                    let mut chunk = [valid; 8];
                    chunk[place] = b;
                    assert_eq!(ranges.contain_all(std::iter::once(&chunk[..])), step.bytes[usize::from(b)], "{class}: {b:#x} at {place}");
                }
            }
        }
        assert_eq!(tested, 6, "every class but the one of five ranges and the non-ASCII one");
    }

    /// Long runs (matched in chunks of eight bytes) against `regex`, on random texts whose
    /// bytes are mostly ones the pattern takes.
    #[test]
    fn long_runs_agree_with_regex() {
        let patterns = [
            ("^run_[0-9a-f]{32}$", "run_0123456789abcdef0123456789abcdef"),
            ("^[a-c0-9]{8,12}x?$", "abc0123456x"),
            ("^[!-~]{9,}$", "!~!~!~!~!~!~"),
            ("^[0-9]{14}-[a-z0-9]{6}$", "20260101000001-abc123"),
            ("^a{3}[a-bd-eg-hj-k]{16}", "aaaabdeghjkabdeghjk"),
        ];
        let alphabet: Vec<char> = "0123456789abcdefx-_runé~! \u{7f}\u{0}".chars().collect();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            usize::try_from(seed % n as u64).expect("small")
        };
        for (pattern, valid) in patterns {
            let re = regex::Regex::new(pattern).unwrap();
            let steps = Steps::of(pattern).expect(pattern);
            assert!(re.is_match(valid), "{pattern}");
            let mut matched = 0;
            for _ in 0..4000 {
                let text: String = if next(2) == 0 {
                    // A valid text with one character changed, to find the edges.
                    let mut chars: Vec<char> = valid.chars().collect();
                    let at = next(chars.len());
                    chars[at] = alphabet[next(alphabet.len())];
                    chars.into_iter().collect()
                } else {
                    (0..next(40)).map(|_| alphabet[next(alphabet.len())]).collect()
                };
                let expected = re.is_match(&text);
                matched += usize::from(expected);
                assert_eq!(steps.is_match(text.as_bytes()), expected, "{pattern} on {text:?}");
            }
            assert!(matched > 0, "{pattern}: some texts match");
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
