//! ECMA-262 `pattern`s translated to the `regex` crate's syntax, and the engine each runs on.
//!
//! JSON Schema patterns are ECMA-262 regular expressions, which we read with the `u` flag
//! (the strict grammar, code points rather than UTF-16 units), searched unanchored. `regress`
//! implements exactly that and is the reference; the model validates every pattern with it
//! (`schemac_model::pattern::validate`). The `regex`
//! crate is a faster, non-backtracking engine, so where a pattern has an exact equivalent
//! in its syntax we emit that too, and the runtime prefers it.
//!
//! **Invariant:** a translation either matches exactly the same strings as `regress`, or is
//! `None`. Anything the translator is unsure about is `None`, never an approximation.
//!
//! The commonest shape of all, an anchored run of ASCII classes such as `^run_[0-9a-f]{32}$`,
//! is recognised here too ([`anchored`]) and emitted as data that the runtime matches without
//! an automaton, so the runtime never parses a pattern to find it.

pub use schemac_model::pattern::{PatternError, validate};

/// A `pattern`, checked to be a valid ECMA-262 regular expression ([`compile`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Pattern {
    /// The pattern as written in the schema.
    pub source: String,
    /// The equivalent in the `regex` crate's syntax, when it has one; `None` runs the
    /// pattern with an ECMA-262 backtracking engine.
    pub translated: Option<String>,
}

/// Validates `source` as an ECMA-262 (`u` flag) regular expression and translates it to the
/// `regex` crate's syntax when the two can agree on every input.
pub fn compile(source: &str) -> Result<Pattern, PatternError> {
    validate(source)?;
    // The final check keeps `regex`'s own limits (size, nesting) from turning a valid
    // pattern into a runtime error: such patterns simply run on `regress`.
    let translated = translate(source).filter(|t| regex::Regex::new(t).is_ok());
    Ok(Pattern { source: source.to_owned(), translated })
}

/// A translated pattern that is `^`, then a sequence of single-byte sets each taken a bounded
/// number of times, then optionally `$` (`^[0-9]{14}-[a-z0-9]{6}$`). Taking each run greedily
/// decides the match exactly when no byte a variable run takes could also start what follows
/// it ([`anchored`] checks that), so the runtime needs no backtracking and no automaton.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Anchored {
    pub parts: Vec<AnchoredPart>,
    /// Whether the pattern ends with `$` (else any rest of the text is fine).
    pub to_end: bool,
}

/// What the text must go on with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnchoredPart {
    /// These bytes, as they are (`run_`; a non-ASCII character is its UTF-8 bytes).
    Literal(Vec<u8>),
    /// From `min` to `max` (`None`: no limit) bytes, each in one of `ranges`: ASCII, sorted,
    /// inclusive, neither overlapping nor adjacent.
    Run { ranges: Vec<(u8, u8)>, min: u32, max: Option<u32> },
}

/// The anchored shape of `translated` (a pattern in `regex` syntax, as [`compile`] makes it),
/// `None` if it has another shape.
pub fn anchored(translated: &str) -> Option<Anchored> {
    use regex_syntax::hir::{HirKind, Look};
    let hir = regex_syntax::Parser::new().parse(translated).ok()?;
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
    steps.retain(|step| step.max != Some(0));
    greedy_is_exact(&steps).then(|| Anchored { parts: parts(&steps), to_end })
}

/// One single-byte set taken from `min` to `max` times, while [`anchored`] decides.
#[derive(Clone, Copy)]
struct Step {
    bytes: [bool; 256],
    min: u32,
    max: Option<u32>,
}

impl Step {
    fn byte(byte: u8) -> Step {
        let mut bytes = [false; 256];
        bytes[usize::from(byte)] = true;
        Step { bytes, min: 1, max: Some(1) }
    }

    fn is_fixed(&self) -> bool {
        self.max == Some(self.min)
    }
}

/// `steps` as parts: each sequence of single bytes taken once is one literal, which the
/// runtime compares at once instead of a step per byte.
fn parts(steps: &[Step]) -> Vec<AnchoredPart> {
    let mut parts = Vec::new();
    for step in steps {
        let mut bytes = (0..=255u8).filter(|&b| step.bytes[usize::from(b)]);
        let single = match (bytes.next(), bytes.next()) {
            (Some(byte), None) if (step.min, step.max) == (1, Some(1)) => Some(byte),
            _ => None,
        };
        match (single, parts.last_mut()) {
            (Some(byte), Some(AnchoredPart::Literal(literal))) => literal.push(byte),
            (Some(byte), _) => parts.push(AnchoredPart::Literal(vec![byte])),
            (None, _) => parts.push(AnchoredPart::Run { ranges: ranges(&step.bytes), min: step.min, max: step.max }),
        }
    }
    parts
}

/// The maximal ranges of the bytes in `bytes`.
fn ranges(bytes: &[bool; 256]) -> Vec<(u8, u8)> {
    let mut ranges: Vec<(u8, u8)> = Vec::new();
    for b in (0..=255u8).filter(|&b| bytes[usize::from(b)]) {
        match ranges.last_mut() {
            Some((_, end)) if end.checked_add(1) == Some(b) => *end = b,
            _ => ranges.push((b, b)),
        }
    }
    ranges
}

/// Whether every variable step's bytes are disjoint from those of each step that could take
/// the byte after it: the following steps up to and including the first mandatory one.
fn greedy_is_exact(steps: &[Step]) -> bool {
    steps.iter().enumerate().filter(|(_, step)| !step.is_fixed()).all(|(i, step)| {
        let after = &steps[i + 1..];
        let reach = after.iter().position(|next| next.min > 0).map_or(after.len(), |m| m + 1);
        after[..reach].iter().all(|next| (0..256).all(|b| !(step.bytes[b] && next.bytes[b])))
    })
}

/// Appends the steps of `hir`, a part of a concatenation; `None` if it is not a sequence of
/// single-byte sets.
fn push_steps(hir: &regex_syntax::hir::Hir, steps: &mut Vec<Step>) -> Option<()> {
    use regex_syntax::hir::{Class, HirKind};
    match hir.kind() {
        HirKind::Empty => {}
        // UTF-8 bytes one after the other: the text's bytes must be these.
        HirKind::Literal(literal) => steps.extend(literal.0.iter().map(|&byte| Step::byte(byte))),
        // Only ASCII classes: a byte is then a whole character.
        HirKind::Class(class) => {
            let mut bytes = [false; 256];
            let ranges: Vec<(u32, u32)> = match class {
                Class::Unicode(class) => class.ranges().iter().map(|r| (u32::from(r.start()), u32::from(r.end()))).collect(),
                Class::Bytes(class) => class.ranges().iter().map(|r| (u32::from(r.start()), u32::from(r.end()))).collect(),
            };
            for (start, end) in ranges {
                if end > 0x7f {
                    return None;
                }
                bytes[start as usize..=end as usize].fill(true);
            }
            steps.push(Step { bytes, min: 1, max: Some(1) });
        }
        HirKind::Repetition(repetition) => {
            let mut inner = Vec::new();
            push_steps(&repetition.sub, &mut inner)?;
            let (min, max) = (repetition.min, repetition.max);
            match inner.as_slice() {
                [Step { bytes, min: 1, max: Some(1) }] => steps.push(Step { bytes: *bytes, min, max }),
                // A fixed sequence a fixed number of times (`(?:ab){2}`), kept small.
                fixed if max == Some(min) && fixed.iter().all(Step::is_fixed) && fixed.len().saturating_mul(min as usize) <= 256 => {
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

/// ECMA's `\b` for fancy-regex, which cannot switch Unicode off inline: between an ASCII
/// word character and anything else.
const WORD_BOUNDARY: &str = r"(?:(?<=[0-9A-Za-z_])(?![0-9A-Za-z_])|(?<![0-9A-Za-z_])(?=[0-9A-Za-z_]))";

/// ECMA `.`: anything but a line terminator.
const DOT: &str = r"[^\n\r\x{2028}\x{2029}]";
/// ECMA `\s`: WhiteSpace (including every `Zs` character) and LineTerminator. Spelled out,
/// because `regex`'s `\s` is Unicode `White_Space`, which adds U+0085 and lacks U+FEFF.
const SPACE: &str = r"[\t\n\x0B\x0C\r \xA0\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]";
const NOT_SPACE: &str = r"[^\t\n\x0B\x0C\r \xA0\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}]";

/// The `regex` equivalent of `source`, or `None` when there is no exact one. `source` must
/// already be valid for `regress`, so this only has to recognise the valid grammar.
fn translate(source: &str) -> Option<String> {
    let mut t = Translator::new(source, false);
    t.pattern()?;
    Some(t.out)
}

/// The step limit `schemac_runtime::__private::pattern` gives the `fancy-regex` engine: a value that
/// needs more backtracking steps is rejected (a pathological pattern would otherwise take
/// exponential time). The same number as fancy-regex's default.
pub const BACKTRACK_LIMIT: usize = 1_000_000;

/// For a valid `source` that has no `regex` translation: its exact equivalent in the syntax
/// of `fancy-regex`, a backtracking engine with a step limit ([`BACKTRACK_LIMIT`]), or
/// `None`, which leaves `source` to `regress`, whose backtracking has no limit.
///
/// Lookahead, lookbehind and backreferences are what `regex` lacks. The two engines agree on
/// whether a string matches except where a backreference can see a capture differently:
/// ECMA resets the captures of a quantified group at each iteration, and a group that did
/// not take part matches the empty string (in fancy-regex it fails); and fancy-regex 0.20
/// does not backtrack into earlier iterations of a repeated group whose capture a reference
/// reads (`^(a+)+\1$` misses `aaa`). So every referenced group must have taken part whenever
/// the reference is reached: it closes before the reference, outside any lookaround and any
/// alternation (of the groups around it), and no quantifier around it (its own included) may
/// skip it or repeat a body whose length varies. The agreement tests hold the rest.
pub fn bounded(source: &str) -> Option<String> {
    let mut t = Translator::new(source, true);
    t.pattern()?;
    t.finish()?;
    fancy_regex::RegexBuilder::new(&t.out).backtrack_limit(BACKTRACK_LIMIT).build().ok()?;
    Some(t.out)
}

/// What an escape sequence stands for.
enum Escape {
    Char(char),
    /// A class such as `\d`, as a bracketed `regex` class (which nests inside `[...]`).
    Class(&'static str),
    /// `\b` outside a class.
    WordBoundary,
    /// `\1`, `\k<name>`: the number of the group referred to.
    Backreference(usize),
}

struct Translator {
    chars: Vec<char>,
    pos: usize,
    out: String,
    /// For [`bounded`]: captures, lookarounds and backreferences are kept.
    fancy: bool,
    /// The groups open around the current position, innermost last; the first is the
    /// pattern itself.
    frames: Vec<Frame>,
    /// Capture groups opened so far (ECMA numbers them by their opening parenthesis).
    captures: usize,
    names: Vec<(String, usize)>,
    closed: std::collections::BTreeSet<usize>,
    /// Captures that may not have taken part, or may hold another iteration's text, where a
    /// backreference sees them.
    unsure: std::collections::BTreeSet<usize>,
    references: Vec<usize>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum FrameKind {
    Group,
    Lookahead,
    Lookbehind,
}

/// A group being translated, for [`bounded`]'s rule on backreferences.
struct Frame {
    kind: FrameKind,
    /// Its own capture number, if it captures.
    own: Option<usize>,
    /// The captures opened inside it.
    nested: Vec<usize>,
    alternation: bool,
    /// Whether the current branch, so far, can match the empty string.
    branch_empty: bool,
    /// Whether some finished branch can.
    any_empty: bool,
    /// Whether every atom so far matches a fixed number of characters.
    fixed: bool,
    /// The last atom, until it is known whether a quantifier follows.
    last: Option<Atom>,
}

struct Atom {
    can_be_empty: bool,
    /// Whether it always matches the same number of characters.
    fixed: bool,
    /// The captures inside it (a group's own included).
    captures: Vec<usize>,
}

impl Frame {
    fn new(kind: FrameKind, own: Option<usize>) -> Frame {
        Frame { kind, own, nested: Vec::new(), alternation: false, branch_empty: true, any_empty: false, fixed: true, last: None }
    }

    fn commit(&mut self) {
        if let Some(atom) = self.last.take() {
            self.branch_empty &= atom.can_be_empty;
            self.fixed &= atom.fixed;
        }
    }
}

impl Translator {
    fn new(source: &str, fancy: bool) -> Translator {
        Translator {
            chars: source.chars().collect(),
            pos: 0,
            out: String::new(),
            fancy,
            frames: vec![Frame::new(FrameKind::Group, None)],
            captures: 0,
            names: Vec::new(),
            closed: Default::default(),
            unsure: Default::default(),
            references: Vec::new(),
        }
    }

    fn next(&mut self) -> Option<char> {
        let c = self.chars.get(self.pos).copied();
        self.pos += 1;
        c
    }

    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos + ahead).copied()
    }

    fn eat(&mut self, c: char) -> bool {
        let found = self.peek(0) == Some(c);
        if found {
            self.pos += 1;
        }
        found
    }

    fn frame(&mut self) -> &mut Frame {
        self.frames.last_mut().expect("the pattern's own frame")
    }

    /// A new atom in the current group.
    fn atom(&mut self, can_be_empty: bool, fixed: bool, captures: Vec<usize>) {
        let frame = self.frame();
        frame.commit();
        frame.last = Some(Atom { can_be_empty, fixed, captures });
    }

    /// A quantifier on the last atom.
    fn quantifier(&mut self, min: u32, max: Option<u32>) {
        let mut unsure = Vec::new();
        if let Some(atom) = &mut self.frame().last {
            if min == 0 || (max != Some(1) && (atom.can_be_empty || !atom.fixed)) {
                unsure.extend(atom.captures.iter().copied());
            }
            atom.can_be_empty |= min == 0;
            atom.fixed &= max == Some(min);
        }
        self.unsure.extend(unsure);
        // A lazy quantifier matches what the greedy one does, as far as matching goes.
        if self.eat('?') {
            self.out.push('?');
        }
    }

    /// After the pattern: whether every backreference sees what it would in ECMA.
    fn finish(&mut self) -> Option<()> {
        let frame = self.frame();
        frame.commit();
        if frame.alternation {
            let nested = frame.nested.clone();
            self.unsure.extend(nested);
        }
        self.references.iter().all(|n| !self.unsure.contains(n)).then_some(())
    }

    fn pattern(&mut self) -> Option<()> {
        while let Some(c) = self.next() {
            match c {
                '\\' => match self.escape(false)? {
                    Escape::Char(c) => {
                        push_literal(&mut self.out, c);
                        self.atom(false, true, Vec::new());
                    }
                    Escape::Class(class) => {
                        self.out.push_str(class);
                        self.atom(false, true, Vec::new());
                    }
                    // ECMA's `\b` is an ASCII word boundary (`u` without `i`). A non-ASCII
                    // byte is never a word byte, so this never fires inside a code point.
                    // fancy-regex cannot switch Unicode off inline: there it is spelled out.
                    Escape::WordBoundary => {
                        self.out.push_str(if self.fancy { WORD_BOUNDARY } else { r"(?-u:\b)" });
                        self.atom(true, true, Vec::new());
                    }
                    Escape::Backreference(n) => {
                        // A group not closed yet, or one inside a lookbehind (which ECMA reads
                        // backwards), may be seen differently.
                        if !self.closed.contains(&n) || self.frames.iter().any(|f| f.kind == FrameKind::Lookbehind) {
                            return None;
                        }
                        self.references.push(n);
                        self.out.push_str(&format!(r"(?:\{n})"));
                        self.atom(true, false, Vec::new());
                    }
                },
                '.' => {
                    self.out.push_str(DOT);
                    self.atom(false, true, Vec::new());
                }
                '[' => {
                    self.class()?;
                    self.atom(false, true, Vec::new());
                }
                '(' => self.group()?,
                ')' => {
                    self.out.push(')');
                    self.close()?;
                }
                '|' => {
                    self.out.push('|');
                    let frame = self.frame();
                    frame.commit();
                    frame.any_empty |= frame.branch_empty;
                    frame.branch_empty = true;
                    frame.alternation = true;
                }
                // Same meaning in both: `^`/`$` are input boundaries without the `m` flag.
                '^' | '$' => {
                    self.out.push(c);
                    self.atom(true, true, Vec::new());
                }
                '*' | '+' | '?' => {
                    self.out.push(c);
                    self.quantifier(u32::from(c == '+'), (c == '?').then_some(1));
                }
                // With `u`, a `{` always opens a quantifier `{n}`, `{n,}` or `{n,m}`.
                '{' => {
                    self.out.push('{');
                    let mut text = String::new();
                    loop {
                        match self.next()? {
                            '}' => break,
                            d @ ('0'..='9' | ',') => text.push(d),
                            _ => return None,
                        }
                    }
                    self.out.push_str(&text);
                    self.out.push('}');
                    let (min, max) = match text.split_once(',') {
                        Some((min, "")) => (min.parse().ok()?, None),
                        Some((min, max)) => (min.parse().ok()?, Some(max.parse().ok()?)),
                        None => (text.parse().ok()?, text.parse().ok()),
                    };
                    self.quantifier(min, max);
                }
                c => {
                    push_literal(&mut self.out, c);
                    self.atom(false, true, Vec::new());
                }
            }
        }
        Some(())
    }

    /// After `(`. Captures do not change whether a string matches, so for `regex` every
    /// group that only groups becomes non-capturing (which also avoids ECMA and `regex`
    /// group-name rules); for fancy-regex captures stay, numbered as in ECMA.
    fn group(&mut self) -> Option<()> {
        if !self.eat('?') {
            return self.open_capture(None);
        }
        match (self.next()?, self.peek(0)) {
            (':', _) => {
                self.out.push_str("(?:");
                self.frames.push(Frame::new(FrameKind::Group, None));
            }
            ('<', Some(c)) if c != '=' && c != '!' => {
                let mut name = String::new();
                loop {
                    match self.next()? {
                        '>' => break,
                        c => name.push(c),
                    }
                }
                return self.open_capture(Some(name));
            }
            ('=' | '!', _) if self.fancy => {
                self.out.push_str(if self.chars[self.pos - 1] == '=' { "(?=" } else { "(?!" });
                self.frames.push(Frame::new(FrameKind::Lookahead, None));
            }
            ('<', Some(c @ ('=' | '!'))) if self.fancy => {
                self.pos += 1;
                self.out.push_str(if c == '=' { "(?<=" } else { "(?<!" });
                self.frames.push(Frame::new(FrameKind::Lookbehind, None));
            }
            // Lookaround (for `regex`) and modifiers like `(?i:` have no equivalent.
            _ => return None,
        }
        Some(())
    }

    fn open_capture(&mut self, name: Option<String>) -> Option<()> {
        self.captures += 1;
        let n = self.captures;
        if let Some(name) = name {
            self.names.push((name, n));
        }
        self.out.push_str(if self.fancy { "(" } else { "(?:" });
        self.frames.push(Frame::new(FrameKind::Group, Some(n)));
        Some(())
    }

    /// After `)`: the group becomes an atom of the one around it.
    fn close(&mut self) -> Option<()> {
        if self.frames.len() < 2 {
            return None;
        }
        let mut frame = self.frames.pop()?;
        frame.commit();
        frame.any_empty |= frame.branch_empty;
        let lookaround = frame.kind != FrameKind::Group;
        if frame.alternation || lookaround {
            self.unsure.extend(frame.nested.iter().copied());
        }
        let mut captures = frame.nested;
        if let Some(own) = frame.own {
            self.closed.insert(own);
            captures.push(own);
        }
        self.frame().nested.extend(captures.iter().copied());
        self.atom(lookaround || frame.any_empty, lookaround || (frame.fixed && !frame.alternation), captures);
        Some(())
    }

    /// After `[`.
    fn class(&mut self) -> Option<()> {
        let negated = self.eat('^');
        if self.eat(']') {
            // `[]` matches nothing and `[^]` any character, line terminators included.
            self.out.push_str(if negated { r"[\x{0}-\x{10FFFF}]" } else { r"[^\x{0}-\x{10FFFF}]" });
            return Some(());
        }
        self.out.push_str(if negated { "[^" } else { "[" });
        while !self.eat(']') {
            let start = self.class_atom()?;
            if self.peek(0) == Some('-') && self.peek(1) != Some(']') {
                self.pos += 1;
                // `u` forbids a class escape as either end of a range.
                let (Escape::Char(lo), Escape::Char(hi)) = (start, self.class_atom()?) else {
                    return None;
                };
                push_literal(&mut self.out, lo);
                self.out.push('-');
                push_literal(&mut self.out, hi);
            } else {
                match start {
                    Escape::Char(c) => push_literal(&mut self.out, c),
                    Escape::Class(class) => self.out.push_str(class),
                    Escape::WordBoundary | Escape::Backreference(_) => return None,
                }
            }
        }
        self.out.push(']');
        Some(())
    }

    fn class_atom(&mut self) -> Option<Escape> {
        match self.next()? {
            '\\' => self.escape(true),
            c => Some(Escape::Char(c)),
        }
    }

    /// After `\`.
    fn escape(&mut self, in_class: bool) -> Option<Escape> {
        let c = match self.next()? {
            // ECMA's `\d` and `\w` are ASCII-only (`regex`'s are Unicode).
            'd' => return Some(Escape::Class("[0-9]")),
            'D' => return Some(Escape::Class("[^0-9]")),
            'w' => return Some(Escape::Class("[0-9A-Za-z_]")),
            'W' => return Some(Escape::Class("[^0-9A-Za-z_]")),
            's' => return Some(Escape::Class(SPACE)),
            'S' => return Some(Escape::Class(NOT_SPACE)),
            'b' if in_class => '\u{8}',
            'b' => return Some(Escape::WordBoundary),
            'f' => '\u{C}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'v' => '\u{B}',
            // `u` rejects `\0` before a digit, so this is always NUL.
            '0' => '\0',
            'c' => char::from_u32(u32::from(self.next()?) % 32)?,
            'x' => char::from_u32(self.hex(2)?)?,
            'u' => self.unicode_escape()?,
            // A backreference (`u` makes every `\N` one); only fancy-regex has them.
            d @ '1'..='9' if self.fancy && !in_class => {
                let mut n = d.to_digit(10)? as usize;
                while let Some(digit) = self.peek(0).and_then(|c| c.to_digit(10)) {
                    self.pos += 1;
                    n = n.checked_mul(10)?.checked_add(digit as usize)?;
                }
                return Some(Escape::Backreference(n));
            }
            'k' if self.fancy && !in_class && self.eat('<') => {
                let mut name = String::new();
                loop {
                    match self.next()? {
                        '>' => break,
                        c => name.push(c),
                    }
                }
                // A name used before its group (or not at all) is left to `regress`.
                let n = self.names.iter().find(|(n, _)| *n == name).map(|&(_, n)| n)?;
                return Some(Escape::Backreference(n));
            }
            // The identity escapes `u` allows: syntax characters, `/`, and `-` in a class.
            c @ ('^' | '$' | '\\' | '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|' | '/' | '-') => c,
            // `\B` would need `regex`'s ASCII `\B`, which can match between the bytes of
            // one code point. Backreferences (`\1`, `\k<..>`) have no equivalent. Property
            // escapes (`\p{..}`) do, but `regex` and `regress` ship different Unicode
            // versions, so they disagree on recently assigned characters.
            _ => return None,
        };
        Some(Escape::Char(c))
    }

    /// After `\u`: `{X...}`, or `XXXX` where a surrogate pair of two such escapes is one
    /// code point. A lone surrogate cannot occur in a Rust string, so it has no translation.
    fn unicode_escape(&mut self) -> Option<char> {
        if self.eat('{') {
            let mut value: u32 = 0;
            while !self.eat('}') {
                let digit = self.next()?.to_digit(16)?;
                value = value.checked_mul(16)?.checked_add(digit)?;
            }
            return char::from_u32(value);
        }
        let unit = self.hex(4)?;
        if (0xD800..0xDC00).contains(&unit) && self.peek(0) == Some('\\') && self.peek(1) == Some('u') {
            let rewind = self.pos;
            self.pos += 2;
            match self.hex(4) {
                Some(low @ 0xDC00..0xE000) => {
                    return char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00));
                }
                _ => self.pos = rewind,
            }
        }
        char::from_u32(unit)
    }

    fn hex(&mut self, digits: usize) -> Option<u32> {
        (0..digits).try_fold(0, |value, _| Some(value * 16 + self.next()?.to_digit(16)?))
    }
}

/// Appends `c` so that `regex` reads it as that literal character, in or outside a class.
fn push_literal(out: &mut String, c: char) {
    // `regex`'s meta characters, including the class-set operators `&`, `-` and `~`.
    if "\\.+*?()|[]{}^$#&-~".contains(c) {
        out.push('\\');
    }
    out.push(c);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `regress` and, when there is a translation, `regex` on `input`; both must
    /// report `expected`.
    #[track_caller]
    fn check(pattern: &str, input: &str, expected: bool) {
        let compiled = compile(pattern).unwrap_or_else(|e| panic!("{pattern}: {e}"));
        let ecma = regress::Regex::with_flags(pattern, "u").unwrap();
        assert_eq!(ecma.find(input).is_some(), expected, "regress: /{pattern}/u on {input:?}");
        if let Some(translated) = &compiled.translated {
            let re = regex::Regex::new(translated).unwrap();
            assert_eq!(re.is_match(input), expected, "regex: {translated} (from /{pattern}/u) on {input:?}");
        }
    }

    #[track_caller]
    fn translation(pattern: &str) -> Option<String> {
        compile(pattern).unwrap_or_else(|e| panic!("{pattern}: {e}")).translated
    }

    #[test]
    fn matches_like_ecma() {
        let cases: &[(&str, &str, bool)] = &[
            (r"^\d+$", "0123456789", true),
            (r"^\d+$", "٣", false),
            (r"^\D$", "٣", true),
            (r"\w", "é", false),
            (r"\w", "_", true),
            (r"^\W$", "é", true),
            (r"\bé", "é", false),
            (r"a\b", "a-", true),
            (r"a\b", "ab", false),
            (r".", "\u{2028}", false),
            (r".", "\u{2029}", false),
            (r".", "\r", false),
            (r".", "\n", false),
            (r".", "\u{85}", true),
            (r"^.$", "😀", true),
            (r"^\s$", "\u{FEFF}", true),
            (r"^\s$", "\u{85}", false),
            (r"^\s$", "\u{3000}", true),
            (r"^\S$", "\u{85}", true),
            (r"^\p{L}+$", "é", true),
            (r"^\p{Script=Greek}+$", "λ", true),
            (r"^\P{L}$", "1", true),
            (r"^\u0041\x42\u{43}$", "ABC", true),
            (r"^\uD83D\uDE00$", "😀", true),
            (r"^\u{1F600}$", "😀", true),
            (r"^\cJ$", "\n", true),
            (r"^\0$", "\0", true),
            (r"^\/\.\*\{\}\[\]$", "/.*{}[]", true),
            (r"^[^]$", "\n", true),
            (r"[]", "", false),
            (r"[]", "a", false),
            (r"^a{2}$", "aa", true),
            (r"^a{2,}$", "a", false),
            (r"^a{0,3}$", "aaa", true),
            (r"^a{0,3}$", "aaaa", false),
            // `a{,3}` is invalid with `u`; the literal must be escaped, and `regex` must not
            // read it as `{0,3}`.
            (r"^a\{,3\}$", "a{,3}", true),
            (r"^a\{,3\}$", "aaa", false),
            (r"^a{1,3}?$", "aa", true),
            (r"^[\d-]+$", "1-2", true),
            (r"^[-a]+$", "-a", true),
            (r"^[a-]+$", "-a", true),
            (r"^[\-\]\\]+$", r"-]\", true),
            (r"^[\b]$", "\u{8}", true),
            (r"^[^\D]$", "5", true),
            (r"^[^\d\s]+$", "ab", true),
            (r"^[^\d\s]+$", "a b", false),
            (r"^[\w.]+$", "é", false),
            (r"^[\u{1F600}-\u{1F64F}]$", "😃", true),
            (r"^[&&~~#]+$", "&~#", true),
            (r"^(?<name>a)(?:b)|c$", "ab", true),
            (r"(?=a)a", "a", true),
            (r"(?=a)b", "ab", false),
            (r"(?<!a)b", "ab", false),
            (r"^(a)\1$", "aa", true),
            (r"\Bb", "ab", true),
            (r"\Bb", "b", false),
            (r"^\uD83D$", "😀", false),
            (r"^wf_[0-9a-f]{32}$", "wf_0123456789abcdef0123456789abcdef", true),
            (r"^wf_[0-9a-f]{32}$", "wf_0123456789ABCDEF0123456789abcdef", false),
            (r"^\d{14}-[a-z0-9]{6}$", "20240102030405-abc123", true),
            (r"^\d{14}-[a-z0-9]{6}$", "2024010203040٥-abc123", false),
            (r"", "anything", true),
            (r"a|", "b", true),
            (r"b", "abc", true),
            (r"^b$", "b\n", false),
        ];
        for &(pattern, input, expected) in cases {
            check(pattern, input, expected);
        }
    }

    #[test]
    fn translates_exactly_or_not_at_all() {
        let cases: &[(&str, Option<&str>)] = &[
            (r"^\d+$", Some("^[0-9]+$")),
            (r"\w\W", Some("[0-9A-Za-z_][^0-9A-Za-z_]")),
            (r"a.b", Some(r"a[^\n\r\x{2028}\x{2029}]b")),
            (r"\bx", Some(r"(?-u:\b)x")),
            (r"[^]", Some(r"[\x{0}-\x{10FFFF}]")),
            (r"[]", Some(r"[^\x{0}-\x{10FFFF}]")),
            (r"[\d-]", Some(r"[[0-9]\-]")),
            (r"\/\u0041\x41\u{1F600}\cA\0", Some("/AA😀\u{1}\0")),
            (r"(?<y>\d{4})-(a)", Some(r"(?:[0-9]{4})\-(?:a)")),
            (r"a{1,}?#&~", Some(r"a{1,}?\#\&\~")),
            (r"(?=a)", None),
            (r"(?!a)", None),
            (r"(?<=a)b", None),
            (r"(?<!a)b", None),
            (r"(a)\1", None),
            (r"(?<n>a)\k<n>", None),
            (r"\B", None),
            (r"\p{L}", None),
            (r"[\P{L}]", None),
            (r"\uD800", None),
            // Valid ECMA, but too large for `regex`'s default size limit.
            (r"(?:\w{1000}){1000}", None),
        ];
        for &(pattern, expected) in cases {
            assert_eq!(translation(pattern).as_deref(), expected, "/{pattern}/u");
        }
    }

    /// Every translation agrees with `regress` on a shared set of awkward inputs.
    #[test]
    fn translations_agree_with_regress() {
        let patterns = [
            r"^[a-z][a-z0-9_]*$",
            r"^\d+(\.\d+)?$",
            r"^[A-Z]{2,3}$",
            r"\w+@\w+\.\w+",
            r"^\S+$",
            r"^\s*$",
            r"^.*$",
            r"^[^\s]+$",
            r"\bword\b",
            r"^(a|b|)+$",
            r"^[\w\-.]+$",
            r"^\+?[0-9 ()-]{7,}$",
            r"^#[0-9a-fA-F]{6}$",
            r"^[^/]+/[^/]+$",
            r"^(?:[01]\d|2[0-3]):[0-5]\d$",
            r"^\$\{[A-Z_]+\}$",
            r"é|ß",
            r"^[À-ÿ]+$",
            r"[\u2028\u2029]",
            r"^[\s\S]$",
            r"^[^\W\d]+$",
            r"\W",
            r"^\D*$",
            r"^[\x00-\x1F]",
            r"^(?:\u{1F600}|\uD83D\uDE03)+$",
            r"\t|\v|\f",
            r"^\\$",
            r"^[.?*+^$|]+$",
            r"^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$",
            r"^$",
        ];
        let inputs = [
            "",
            "abc",
            "a_1",
            "Ab",
            "42",
            "4.2",
            "٤٢",
            "é",
            "ß",
            " \t\u{FEFF}",
            "\u{85}",
            "a\u{2028}b",
            "\n",
            "😀😃",
            "x@y.z",
            "#A0b1C2",
            "$ {ABC}",
            "${ABC}",
            "12:59",
            "v1.2.3-rc.1",
            "\\",
            ".?*",
            "ÀÿĀ",
            "word",
            "a word.",
            "\u{1}",
        ];
        for pattern in patterns {
            assert!(translation(pattern).is_some(), "/{pattern}/u should translate");
            let ecma = regress::Regex::with_flags(pattern, "u").unwrap();
            for input in inputs {
                check(pattern, input, ecma.find(input).is_some());
            }
        }
    }

    /// The classes that differ between the engines agree on every BMP code point, where all
    /// their special cases live, and a sample of the rest (all of them take ~20 s unoptimized).
    #[test]
    fn classes_agree_per_char() {
        for pattern in [r"^\s$", r"^\S$", r"^.$", r"^\w$", r"^\d$", r"^[\W]$", r"^[^]$"] {
            let ecma = regress::Regex::with_flags(pattern, "u").unwrap();
            let re = regex::Regex::new(&translation(pattern).unwrap()).unwrap();
            let mut buf = [0; 4];
            let sample = (0..=0xFFFF).chain((0x10000..=0x10FFFF).step_by(97));
            for c in sample.filter_map(char::from_u32) {
                let s = c.encode_utf8(&mut buf);
                assert_eq!(re.is_match(s), ecma.find(s).is_some(), "/{pattern}/u on U+{:04X}", c as u32);
            }
        }
    }

    /// The runtime pattern for `pattern`'s anchored shape, as emitted code would build it.
    fn anchored_pattern(pattern: &str) -> Option<schemac_runtime::__private::pattern::Pattern> {
        use schemac_runtime::__private::pattern::{Part, Pattern, Run};
        let anchored = anchored(pattern)?;
        let parts: Vec<Part> = anchored
            .parts
            .iter()
            .map(|part| match part {
                AnchoredPart::Literal(bytes) => Part::Literal(bytes.clone().leak()),
                AnchoredPart::Run { ranges, min, max: Some(max) } => Part::Run(Run::new(ranges, *min as usize, *max as usize)),
                AnchoredPart::Run { ranges, min, max: None } => Part::Run(Run::at_least(ranges, *min as usize)),
            })
            .collect();
        Some(Pattern::anchored(String::from(pattern).leak(), parts.leak(), anchored.to_end))
    }

    #[test]
    fn anchored_shapes_are_data() {
        assert_eq!(
            anchored(r"^run_[0-9a-f]{32}$"),
            Some(Anchored {
                parts: vec![
                    AnchoredPart::Literal(b"run_".to_vec()),
                    AnchoredPart::Run { ranges: vec![(b'0', b'9'), (b'a', b'f')], min: 32, max: Some(32) },
                ],
                to_end: true,
            })
        );
        assert_eq!(
            anchored(r"^x?é[a-c]*"),
            Some(Anchored {
                parts: vec![
                    AnchoredPart::Run { ranges: vec![(b'x', b'x')], min: 0, max: Some(1) },
                    AnchoredPart::Literal("é".as_bytes().to_vec()),
                    AnchoredPart::Run { ranges: vec![(b'a', b'c')], min: 0, max: None },
                ],
                to_end: false,
            })
        );
        // The translation of `^\d{14}-[a-z0-9]{6}$`, as `compile` makes it.
        let id = compile(r"^\d{14}-[a-z0-9]{6}$").unwrap().translated.unwrap();
        assert_eq!(anchored(&id).map(|a| a.parts.len()), Some(3));
    }

    /// The anchored matcher against `regex` on every short text over an alphabet that
    /// exercises each pattern, including the shapes it must leave to `regex`.
    #[test]
    fn anchored_patterns_agree_with_regex() {
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
            let runtime = anchored_pattern(pattern);
            assert_eq!(runtime.is_some(), stepped, "{pattern}");
            if let Some(runtime) = runtime {
                for text in &texts {
                    assert_eq!(runtime.is_match(text), Ok(re.is_match(text)), "{pattern} on {text:?}");
                }
            }
        }
    }

    /// Long runs (matched in chunks of eight bytes) against `regex`, on random texts whose
    /// bytes are mostly ones the pattern takes.
    #[test]
    fn long_anchored_runs_agree_with_regex() {
        let patterns = [
            ("^run_[0-9a-f]{32}$", "run_0123456789abcdef0123456789abcdef"),
            ("^[a-c0-9]{8,12}x?$", "abc0123456x"),
            ("^[!-~]{9,}$", "!~!~!~!~!~!~"),
            ("^[0-9]{14}-[a-z0-9]{6}$", "20260101000001-abc123"),
            ("^a{3}[a-bd-eg-hj-k]{16}", "aaaabdeghjkabdeghjk"),
            ("^[a-bd-eg-hj-km]{16}", "abdeghjkmabdeghjkm"),
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
            let runtime = anchored_pattern(pattern).expect(pattern);
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
                assert_eq!(runtime.is_match(&text), Ok(expected), "{pattern} on {text:?}");
            }
            assert!(matched > 0, "{pattern}: some texts match");
        }
    }

    /// The runtime pattern for `source` as emitted code builds it when `regex` cannot run it.
    fn bounded_pattern(source: &str) -> Option<schemac_runtime::__private::pattern::Pattern> {
        let bounded = bounded(source)?;
        Some(schemac_runtime::__private::pattern::Pattern::bounded(String::from(source).leak(), bounded.leak()))
    }

    /// Lookaround and backreferences that fancy-regex runs exactly, against `regress` on
    /// every short text over an alphabet that exercises them.
    #[test]
    fn bounded_translations_agree_with_regress() {
        let patterns = [
            r"^(?=(a|aa)*c)",
            r"^(a+)\1$",
            r"^(x)(?:a|aa)+\1$",
            r"^(x)(a+)+a\1$",
            r"(a)(b)\2\1",
            r"(?<n>a|b)\k<n>",
            r"^(?:(a)b)+\1",
            r"(a)(?=\1)",
            r"(?=.*\d)\w+$",
            r"^(?!a)\w*$",
            r"(?<=a)b",
            r"(?<!a|é)b",
            r"(?<=^a+)b",
            r"\ba(?=b)|(?<=b)a\b",
            r"^(\w)\w*\1$",
            r"(.)\1",
            r"^(?:(a)|b(?=c))c",
        ];
        let alphabet = ["a", "b", "c", "é", "0", "_", " ", "\n"];
        let mut texts = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> = texts.iter().flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}"))).collect();
            texts.extend(longer);
        }
        texts.sort();
        texts.dedup();
        texts.extend(["aaaa", "aaaaaa", "aaaac", "aabbaa", "ab ba", "abcabc", "bab", "xaax", "xaaax", "xaaaax"].map(String::from));
        for source in patterns {
            assert!(compile(source).unwrap().translated.is_none(), "/{source}/ has a `regex` translation");
            let ecma = regress::Regex::with_flags(source, "u").unwrap();
            let bounded = bounded_pattern(source).unwrap_or_else(|| panic!("/{source}/u should run on fancy-regex"));
            for text in &texts {
                assert_eq!(bounded.is_match(text), Ok(ecma.find(text).is_some()), "/{source}/u on {text:?}");
            }
        }
    }

    /// Where a backreference can see a capture differently from ECMA, or a construct has no
    /// exact equivalent, the pattern stays on `regress`.
    #[test]
    fn bounded_refuses_what_fancy_regex_reads_differently() {
        for source in [
            r"(a)?\1",
            r"(a)|\1b",
            r"(?:(a)|b)\1",
            r"\1(a)",
            r"(a\1)",
            r"(?:(a*))+\1",
            r"(a*)+\1",
            r"(?=(a))\1",
            r"(?<=(a)\1)b",
            r"(?:(a)b)*\1",
            r"(?:(a)b){0,2}\1",
            r"^(a+)+\1$",
            r"^(a|aa)+\1$",
            r"\k<n>(?<n>a)",
            r"\p{L}(?=a)",
            r"(?i:a)(?=a)",
            r"\B(?=a)",
        ] {
            assert_eq!(bounded(source), None, "/{source}/u");
        }
    }

    /// The issue's hostile patterns on 49 characters. `^(?=(a|aa)*c)` runs on fancy-regex and
    /// is decided at once (its lookahead is delegated to `regex`); `^(a+)+\1$` is one that
    /// fancy-regex reads differently, so it stays on `regress`, unbounded (and warned about).
    /// A pattern that must backtrack on fancy-regex ends in an error once the step limit is
    /// spent, never an accept; `regress` takes over 10 s on the issue's patterns.
    #[test]
    fn hostile_patterns_end_within_the_step_limit() {
        let text = format!("{}!", "a".repeat(48));
        assert_eq!(bounded_pattern(r"^(?=(a|aa)*c)").unwrap().is_match(&text), Ok(false));
        assert!(bounded_pattern(r"^(a+)+\1$").is_none());
        let source = r"^(x)(?:a|aa)+\1$";
        let pattern = bounded_pattern(source).unwrap();
        let text = format!("x{text}");
        let err = pattern.is_match(&text).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "pattern `{source}` gave up on this value after {BACKTRACK_LIMIT} backtracking steps, so the value is rejected \
                 (the limit keeps a pattern that backtracks from taking exponential time)"
            )
        );
        // As a `pattern` assertion: a violation, not a match.
        let violation = schemac_runtime::__private::assert::pattern(text.as_str(), &pattern).unwrap_err();
        assert_eq!(violation.keyword(), "pattern");
        assert_eq!(schemac_runtime::__private::pattern::BACKTRACK_LIMIT, BACKTRACK_LIMIT);
    }
}
