//! Strings for the synthesizer: strings that match a `pattern` (generated from the regex's HIR,
//! parsed by `regex-syntax` from schemac's own ECMA-262 translation), samples for each `format`,
//! and strings of exact lengths in ASCII, non-ASCII and astral characters.
//!
//! Generated strings are candidates: the caller keeps only those the referee confirms, so a
//! guess that ECMA-262 reads differently is dropped, never emitted.

use regex_syntax::hir::{Class, Hir, HirKind};

use super::rng::Rng;

/// How long repetitions should be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reps {
    /// Every repetition at its minimum: the shortest string.
    Min,
    /// A seeded choice within the bounds (capped a few past the minimum).
    Random,
    /// Long repetitions (capped), for the largest lengths.
    Long,
}

/// Candidates matching `pattern`, or why none can be generated from it.
pub(crate) fn pattern_candidates(pattern: &str, rng: &mut Rng, count: usize) -> Result<Vec<String>, String> {
    let compiled = schemac::pattern::compile(pattern).map_err(|e| e.message)?;
    let Some(translated) = compiled.translated else {
        return Err(format!("`{pattern}` has no translation to a syntax the generator reads (it needs the ECMA-262 engine)"));
    };
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(&translated)
        .map_err(|e| format!("`{pattern}` cannot be read to generate strings: {e}"))?;
    let mut out = Vec::new();
    for i in 0..count {
        let reps = match i {
            0 => Reps::Min,
            1 => Reps::Long,
            _ => Reps::Random,
        };
        let mut text = String::new();
        generate(&hir, rng, reps, i > 0, &mut text);
        if !out.contains(&text) {
            out.push(text);
        }
    }
    Ok(out)
}

fn generate(hir: &Hir, rng: &mut Rng, reps: Reps, vary: bool, out: &mut String) {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => {}
        HirKind::Literal(literal) => out.push_str(&String::from_utf8_lossy(&literal.0)),
        HirKind::Class(Class::Unicode(class)) => {
            let ranges = class.ranges();
            if ranges.is_empty() {
                return;
            }
            // Prefer the first ranges (where ASCII is): ECMA classes such as `\d` are narrower
            // than their Unicode readings, and what does not match is dropped.
            let range = if vary { &ranges[rng.below(ranges.len().min(3))] } else { &ranges[0] };
            let (start, end) = (range.start() as u32, range.end() as u32);
            let span = (end - start).min(64);
            let code = if vary { start + rng.below(span as usize + 1) as u32 } else { start };
            out.push(char::from_u32(code).unwrap_or(range.start()));
        }
        HirKind::Class(Class::Bytes(class)) => {
            if let Some(range) = class.ranges().first() {
                out.push(char::from(range.start().min(0x7f)));
            }
        }
        HirKind::Repetition(rep) => {
            let min = rep.min as usize;
            let max = rep.max.map(|m| m as usize);
            let count = match reps {
                Reps::Min => min,
                Reps::Long => max.unwrap_or(min + 8).min(min + 40),
                Reps::Random => min + rng.below(max.unwrap_or(min + 3).min(min + 3) - min + 1),
            };
            for _ in 0..count {
                generate(&rep.sub, rng, reps, vary, out);
            }
        }
        HirKind::Capture(capture) => generate(&capture.sub, rng, reps, vary, out),
        HirKind::Concat(parts) => parts.iter().for_each(|part| generate(part, rng, reps, vary, out)),
        HirKind::Alternation(branches) => {
            let branch = if vary { &branches[rng.below(branches.len())] } else { &branches[0] };
            generate(branch, rng, reps, vary, out);
        }
    }
}

/// Valid samples of each `format` with a runtime type, and of a few more; `None` for formats
/// the synthesizer does not know (then plain strings are used: `format` is an annotation).
pub(crate) fn format_samples(format: &str) -> Option<&'static [&'static str]> {
    Some(match format {
        "date-time" => &["2026-03-01T12:00:00Z", "2026-03-01T13:45:10.123456+02:00", "1999-12-31T23:59:59-05:00"],
        "date" => &["2026-03-01", "2024-02-29"],
        "time" => &["12:00:00Z", "23:59:59.5+02:00"],
        "duration" => &["P1DT2H", "PT0.5S", "P3W"],
        "email" | "idn-email" => &["ada@example.com", "first.last+tag@sub.example.org"],
        "hostname" | "idn-hostname" => &["example.com", "a-b.c0.example"],
        "ipv4" => &["192.0.2.1", "255.255.255.255"],
        "ipv6" => &["2001:db8::1", "::1"],
        "uri" | "iri" => &["https://example.com/a?b=c#d", "urn:isbn:0451450523"],
        "uri-reference" | "iri-reference" => &["../a/b#c", "https://example.com/"],
        "uri-template" => &["https://example.com/{id}"],
        "uuid" => &["123e4567-e89b-12d3-a456-426614174000", "00000000-0000-0000-0000-000000000000"],
        "json-pointer" => &["/a/b~1c", ""],
        "relative-json-pointer" => &["0/a", "1"],
        "regex" => &["^[a-z]+$", "a|b"],
        _ => return None,
    })
}

/// A string of exactly `length` characters (code points) built from `unit`.
pub(crate) fn of_length(length: usize, unit: &str) -> String {
    unit.chars().cycle().take(length).collect()
}

/// The characters the length-boundary strings are built from: ASCII, non-ASCII (BMP) and
/// astral (outside the BMP: one code point, two UTF-16 units).
pub(crate) const UNITS: [&str; 3] = ["abc", "é✓ß", "😀𝄞"];
