//! ECMA-262 patterns at run time: the `pattern` check behind generated validation.
//!
//! schemac translates each pattern at build time to the `regex` crate's syntax when that
//! has exactly the same meaning. A pattern `regex` cannot run (lookaround, backreferences) is
//! translated for `fancy-regex`, a backtracking engine given a step limit
//! ([`BACKTRACK_LIMIT`]): a value that needs more steps is rejected with a [`PatternError`],
//! never accepted. The rest is left to `regress`, an ECMA-262 backtracking engine run with
//! the `u` flag, which has no such limit (schemac warns about those patterns). Either way a
//! pattern is compiled once, on first use, so that a `static` can hold it. The commonest shape, an anchored run of
//! character classes such as `^run_[0-9a-f]{32}$`, is recognised at build time too and
//! emitted as [`Part`]s, which are matched without an automaton, eight bytes at a time where
//! a class is a few ASCII ranges: that was most of the cost of checking an ID.

use std::fmt;
use std::sync::OnceLock;

/// A JSON Schema `pattern`, searched unanchored as JSON Schema requires.
pub struct Pattern {
    source: &'static str,
    translated: Option<&'static str>,
    /// Its equivalent in `fancy-regex` syntax, when it has one and no `regex` translation.
    bounded: Option<&'static str>,
    /// The anchored run the build found, matched without compiling anything.
    anchored: Option<Anchored>,
    /// The error is kept as a message so that every later call can report it again.
    engine: OnceLock<Result<Engine, String>>,
}

enum Engine {
    Regex(regex::Regex),
    Bounded(fancy_regex::Regex),
    Ecma(regress::Regex),
}

/// How many backtracking steps `fancy-regex` may take on one value (its own default; schemac's
/// `pattern::BACKTRACK_LIMIT`, which names it in its warnings, is the same number): about
/// 30-60 ms of a pathological pattern on this project's machines.
pub const BACKTRACK_LIMIT: usize = 1_000_000;

#[derive(Clone, Copy)]
struct Anchored {
    parts: &'static [Part],
    to_end: bool,
}

impl Pattern {
    /// `source` is the ECMA-262 pattern from the schema; `translated` its exact equivalent
    /// in `regex` syntax, if it has one.
    pub const fn new(source: &'static str, translated: Option<&'static str>) -> Self {
        Self { source, translated, bounded: None, anchored: None, engine: OnceLock::new() }
    }

    /// A pattern `regex` cannot run, with `bounded` its exact equivalent in `fancy-regex`
    /// syntax: matched with at most [`BACKTRACK_LIMIT`] backtracking steps per value.
    pub const fn bounded(source: &'static str, bounded: &'static str) -> Self {
        Self { source, translated: None, bounded: Some(bounded), anchored: None, engine: OnceLock::new() }
    }

    /// A pattern that is `^`, then `parts` (in order, each taken greedily), then `$` when
    /// `to_end`: schemac emits this for such patterns (`^run_[0-9a-f]{32}$`) once it has
    /// checked at build time that taking each part greedily decides the match exactly.
    pub const fn anchored(source: &'static str, parts: &'static [Part], to_end: bool) -> Self {
        Self { source, translated: None, bounded: None, anchored: Some(Anchored { parts, to_end }), engine: OnceLock::new() }
    }

    /// The pattern as written in the schema.
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// Whether `text` contains a match. Fails if the pattern does not compile, or if deciding
    /// would take more than [`BACKTRACK_LIMIT`] steps: then the value is not known to match.
    pub fn is_match(&self, text: &str) -> Result<bool, PatternError> {
        if let Some(anchored) = &self.anchored {
            return Ok(anchored.is_match(text.as_bytes()));
        }
        match self.engine.get_or_init(|| self.compile()) {
            Ok(Engine::Regex(re)) => Ok(re.is_match(text)),
            Ok(Engine::Bounded(re)) => re.is_match(text).map_err(|e| PatternError {
                source: self.source,
                message: match e {
                    fancy_regex::Error::RuntimeError(fancy_regex::RuntimeError::BacktrackLimitExceeded) => format!(
                        "gave up on this value after {BACKTRACK_LIMIT} backtracking steps, so the value is rejected \
                         (the limit keeps a pattern that backtracks from taking exponential time)"
                    ),
                    other => format!("gave up on this value: {other}"),
                },
            }),
            Ok(Engine::Ecma(re)) => Ok(re.find(text).is_some()),
            Err(message) => Err(PatternError { source: self.source, message: format!("does not compile: {message}") }),
        }
    }

    fn compile(&self) -> Result<Engine, String> {
        // The translation only makes `source` faster; should this build's `regex` reject it,
        // `regress` still gives the same answers.
        if let Some(translated) = self.translated
            && let Ok(re) = regex::Regex::new(translated)
        {
            return Ok(Engine::Regex(re));
        }
        if let Some(bounded) = self.bounded
            && let Ok(re) = fancy_regex::RegexBuilder::new(bounded).backtrack_limit(BACKTRACK_LIMIT).build()
        {
            return Ok(Engine::Bounded(re));
        }
        regress::Regex::with_flags(self.source, "u").map(Engine::Ecma).map_err(|e| e.to_string())
    }
}

impl fmt::Debug for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut f = f.debug_struct("Pattern");
        f.field("source", &self.source);
        match &self.anchored {
            Some(anchored) => f.field("parts", &anchored.parts).field("to_end", &anchored.to_end),
            None => f.field("translated", &self.translated).field("bounded", &self.bounded),
        };
        f.finish_non_exhaustive()
    }
}

impl Anchored {
    fn is_match(&self, text: &[u8]) -> bool {
        let mut rest = text;
        for part in self.parts {
            rest = match part {
                Part::Literal(literal) => match rest.strip_prefix(*literal) {
                    Some(after) => after,
                    None => return false,
                },
                Part::Run(run) => match run.take(rest) {
                    Some(after) => after,
                    None => return false,
                },
            };
        }
        !self.to_end || rest.is_empty()
    }
}

/// What the text of an anchored pattern must go on with: bytes as they are (`run_`), or a
/// run of bytes of a set.
// A pattern has a handful of parts, in a `static`; boxing `Run` would cost a load per match.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy)]
pub enum Part {
    Literal(&'static [u8]),
    Run(Run),
}

impl fmt::Debug for Part {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Part::Literal(bytes) => f.debug_tuple("Literal").field(&String::from_utf8_lossy(bytes)).finish(),
            Part::Run(run) => run.fmt(f),
        }
    }
}

/// From `min` to `max` bytes, each in a set of ASCII bytes, taken greedily.
#[derive(Clone, Copy)]
pub struct Run {
    bytes: [bool; 256],
    min: usize,
    max: usize,
    /// `bytes` as a few ranges, when they are, to test eight bytes at a time.
    ranges: Option<Ranges>,
}

impl fmt::Debug for Run {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let max = (self.max != usize::MAX).then_some(self.max);
        f.debug_struct("Run").field("min", &self.min).field("max", &max).finish_non_exhaustive()
    }
}

impl Run {
    /// From `min` to `max` bytes, each in one of `ranges` (inclusive, ASCII). Evaluated when
    /// the generated crate is compiled: a range outside ASCII is a compile error there.
    pub const fn new(ranges: &[(u8, u8)], min: usize, max: usize) -> Run {
        let mut bytes = [false; 256];
        let mut i = 0;
        while i < ranges.len() {
            let (start, end) = ranges[i];
            assert!(start <= end && end < 0x80, "a run's ranges are ASCII");
            let mut b = start as usize;
            while b <= end as usize {
                bytes[b] = true;
                b += 1;
            }
            i += 1;
        }
        Run { bytes, min, max, ranges: Ranges::of(&bytes) }
    }

    /// At least `min` bytes, each in one of `ranges`, with no limit.
    pub const fn at_least(ranges: &[(u8, u8)], min: usize) -> Run {
        Run::new(ranges, min, usize::MAX)
    }

    /// What follows the run's greedy take at the start of `text`, `None` if it is too short.
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

    /// Whether every byte of `text` is one of the run's.
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
    /// The maximal ranges of `bytes`, `None` if there are more than four or any byte is not
    /// ASCII. `const`, so that it runs when the generated crate is compiled.
    const fn of(bytes: &[bool; 256]) -> Option<Ranges> {
        let mut b = 0x80;
        while b < 256 {
            if bytes[b] {
                return None;
            }
            b += 1;
        }
        let mut ranges = Ranges { count: 0, from: [0; 4], past: [0; 4] };
        let mut start: Option<u8> = None;
        let mut b: u8 = 0;
        loop {
            let inside = b < 0x80 && bytes[b as usize];
            match (start, inside) {
                (None, true) => start = Some(b),
                (Some(first), false) => {
                    let i = ranges.count;
                    if i == 4 {
                        return None;
                    }
                    ranges.from[i] = (0x80 - first) as u64 * LOW_BYTES;
                    ranges.past[i] = (0x7f - (b - 1)) as u64 * LOW_BYTES;
                    ranges.count += 1;
                    start = None;
                }
                _ => {}
            }
            if b == 0x80 {
                return Some(ranges);
            }
            b += 1;
        }
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

/// A pattern that failed to compile at run time (schemac validates patterns at build time,
/// so this means the generated code was edited or built against a different engine), or that
/// gave up on a value after [`BACKTRACK_LIMIT`] steps.
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
        write!(f, "pattern `{}` {}", self.source, self.message)
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
        const DIGITS: Run = Run::new(&[(b'0', b'9')], 14, 14);
        const SUFFIX: Run = Run::new(&[(b'0', b'9'), (b'a', b'z')], 6, 6);
        static ID: Pattern = Pattern::anchored(r"^\d{14}-[a-z0-9]{6}$", &[Part::Run(DIGITS), Part::Literal(b"-"), Part::Run(SUFFIX)], true);
        check(&ID, "20260101000001-abc123", true);
        check(&ID, "20260101000001-abc12", false);
        check(&ID, "20260101000001-abc1234", false);
        check(&ID, "2026010100000-abc1234", false);
        check(&ID, "20260101000001-abc12é", false);
        assert!(ID.engine.get().is_none(), "nothing compiled");

        static OPEN: Pattern = Pattern::anchored("^x[a-c]*", &[Part::Literal(b"x"), Part::Run(Run::at_least(&[(b'a', b'c')], 0))], false);
        check(&OPEN, "x", true);
        check(&OPEN, "xabcabcz", true);
        check(&OPEN, "ax", false);
        assert_eq!(
            format!("{OPEN:?}"),
            r#"Pattern { source: "^x[a-c]*", parts: [Literal("x"), Run { min: 0, max: None, .. }], to_end: false, .. }"#
        );
    }

    /// Eight bytes at a time: every byte value at every place of a chunk of bytes the run
    /// takes, for ranges at the edges of ASCII and for more ranges than the SWAR test holds.
    #[test]
    fn ranges_agree_with_the_byte_table() {
        let classes: [&[(u8, u8)]; 7] = [
            &[(b'0', b'9'), (b'a', b'f')],
            &[(0x00, 0x7f)],
            &[(b'!', b'~')],
            &[(0x00, 0x00), (b'a', b'a'), (0x7f, 0x7f)],
            &[(b'a', b'b'), (b'd', b'e'), (b'g', b'h'), (b'j', b'k')],
            &[(b'a', b'b'), (b'd', b'e'), (b'g', b'h'), (b'j', b'k'), (b'm', b'm')],
            &[(b'x', b'x')],
        ];
        let mut tested = 0;
        for class in classes {
            let run = Run::new(class, 8, 8);
            let Some(ranges) = run.ranges else { continue };
            tested += 1;
            let valid = class[0].0;
            for place in 0..8 {
                for b in 0..=255u8 {
                    let mut chunk = [valid; 8];
                    chunk[place] = b;
                    assert_eq!(ranges.contain_all(std::iter::once(&chunk[..])), run.bytes[usize::from(b)], "{class:?}: {b:#x} at {place}");
                }
            }
        }
        assert_eq!(tested, 6, "every class but the one of five ranges");
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
