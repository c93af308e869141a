//! `format` as an assertion (behind the `formats` feature): one function per format that
//! schemac knows, each returning the [`Violation`] generated code reports (keyword `format`).
//!
//! Code generated with `assert-formats` calls these in the `Assert` seed of a format string,
//! in `validate()` and in the `Value` fallback's checks, exactly like the other assertion
//! keywords. The grammar is the one the JSON Schema specification names for each format; the
//! parsing is left to well-kept crates (`time` for RFC 3339, `uuid`, `fluent-uri` for RFC 3986,
//! `email_address`, `std::net`, `regress` for ECMA-262), with a few exact grammar checks
//! where a crate is more lenient than the specification or none fits (hostname, duration,
//! JSON pointer).

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::assert::Violation;

fn check(text: &str, ok: bool, format: &str, standard: &str) -> Result<(), Violation> {
    if ok { Ok(()) } else { Err(Violation::new("format", format!("{text:?} is not a valid {format} ({standard})"))) }
}

/// `date-time`: RFC 3339 `date-time`. `T` and `Z` may be lowercase; a leap second (`:60`) is
/// valid only where one can occur (23:59:60 UTC on the last day of a month).
pub fn date_time(text: &(impl AsRef<str> + ?Sized)) -> Result<(), Violation> {
    let text = text.as_ref();
    check(text, parse_date_time(text).is_some(), "date-time", "RFC 3339")
}

pub(super) fn parse_date_time(text: &str) -> Option<OffsetDateTime> {
    // `time` takes any byte between the date and the time; RFC 3339 allows only `T`/`t`.
    if !matches!(text.as_bytes().get(10), Some(b'T' | b't')) {
        return None;
    }
    OffsetDateTime::parse(text, &Rfc3339).ok()
}

/// `date`: RFC 3339 `full-date` (`2024-02-29`; the day must exist).
pub fn date(text: &(impl AsRef<str> + ?Sized)) -> Result<(), Violation> {
    let text = text.as_ref();
    check(text, parse_date(text).is_some(), "date", "RFC 3339 full-date")
}

pub(super) fn parse_date(text: &str) -> Option<time::Date> {
    // Exactly `YYYY-MM-DD`, so that nothing of the time appended below comes from the input.
    if text.len() != 10 {
        return None;
    }
    OffsetDateTime::parse(&format!("{text}T00:00:00Z"), &Rfc3339).ok().map(OffsetDateTime::date)
}

/// `time`: RFC 3339 `full-time`, with its offset (`08:30:06Z`, `23:59:60-00:00`).
pub fn time(text: &(impl AsRef<str> + ?Sized)) -> Result<(), Violation> {
    let text = text.as_ref();
    check(text, parse_time(text).is_some(), "time", "RFC 3339 full-time")
}

pub(super) fn parse_time(text: &str) -> Option<(time::Time, time::UtcOffset)> {
    // `time` parses a full-time only after a date. A leap second is valid at 23:59:60 UTC,
    // which an offset of less than a day moves to the day before or after: one of these two
    // dates puts it on the last day of a month.
    ["1998-12-31T", "1999-01-01T"].iter().find_map(|day| {
        let parsed = OffsetDateTime::parse(&format!("{day}{text}"), &Rfc3339).ok()?;
        Some((parsed.time(), parsed.offset()))
    })
}

/// `duration`: ISO 8601 duration as in RFC 3339 appendix A (`P4DT12H30M5S`, `P2W`): units in
/// order, at least one, weeks alone, a `T` only before hours, minutes or seconds.
pub fn duration(text: &(impl AsRef<str> + ?Sized)) -> Result<(), Violation> {
    let text = text.as_ref();
    check(text, is_duration(text), "duration", "RFC 3339 appendix A")
}

fn is_duration(text: &str) -> bool {
    let Some(rest) = text.strip_prefix('P') else { return false };
    let (date, time) = match rest.split_once('T') {
        Some((date, time)) => (date, Some(time)),
        None => (rest, None),
    };
    if date.is_empty() && time.is_none() {
        return false;
    }
    if let Some(weeks) = date.strip_suffix('W') {
        return time.is_none() && is_digits(weeks);
    }
    units_in_order(date, &['Y', 'M', 'D']) && time.is_none_or(|t| !t.is_empty() && units_in_order(t, &['H', 'M', 'S']))
}

/// `text` is a sequence of `<digits><unit>`, units drawn from `units` in that order, each at
/// most once, and (the caller checks) not empty where that matters.
fn units_in_order(mut text: &str, units: &[char]) -> bool {
    let mut next = 0;
    while !text.is_empty() {
        let Some(end) = text.find(|c: char| !c.is_ascii_digit()) else { return false };
        let (digits, rest) = text.split_at(end);
        let Some(unit) = rest.chars().next() else { return false };
        let Some(position) = units[next..].iter().position(|&u| u == unit) else { return false };
        if digits.is_empty() {
            return false;
        }
        next += position + 1;
        text = &rest[unit.len_utf8()..];
    }
    true
}

fn is_digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// `email`: RFC 5321 mailbox (`local@domain`, quoted local parts and address literals
/// included; no display name). The domain is a `hostname` or an address literal
/// (`[192.0.2.1]`, `[IPv6:2001:db8::1]`).
pub fn email(text: &(impl AsRef<str> + ?Sized)) -> Result<(), Violation> {
    let text = text.as_ref();
    check(text, is_mailbox(text, is_hostname), "email", "RFC 5321")
}

/// `idn-email`: RFC 6531 mailbox: as `email`, with non-ASCII characters allowed wherever RFC
/// 5321 allows printable ones in the local part, and an `idn-hostname` as the domain.
pub fn idn_email(text: &(impl AsRef<str> + ?Sized)) -> Result<(), Violation> {
    let text = text.as_ref();
    check(text, is_mailbox(text, is_idn_hostname), "idn-email", "RFC 6531")
}

fn is_mailbox(text: &str, domain_ok: fn(&str) -> bool) -> bool {
    // A domain has no `@`; a quoted local part may.
    let Some((local, domain)) = text.rsplit_once('@') else { return false };
    let domain_ok = match domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        Some(literal) => match literal.strip_prefix("IPv6:") {
            Some(v6) => v6.parse::<std::net::Ipv6Addr>().is_ok(),
            None => parse_ipv4(literal).is_some(),
        },
        None => domain_ok(domain),
    };
    // RFC 6531 adds UTF-8 wherever the local part has `atext` or `qtext`: checked as an ASCII
    // letter in its place.
    let local: String = local.chars().map(|c| if c.is_ascii() { c } else { 'a' }).collect();
    let options = email_address::Options::default().without_display_text();
    domain_ok && email_address::EmailAddress::parse_with_options(&format!("{local}@example.com"), options).is_ok()
}

/// `hostname`: RFC 1123 host name: dot-separated labels of ASCII letters, digits and inner
/// hyphens, each 1 to 63 characters, 253 in all (a trailing dot is not part of the grammar).
/// Internationalized names are `idn-hostname`.
pub fn hostname(text: &(impl AsRef<str> + ?Sized)) -> Result<(), Violation> {
    let text = text.as_ref();
    check(text, is_hostname(text), "hostname", "RFC 1123")
}

fn is_hostname(text: &str) -> bool {
    let label = |l: &str| {
        (1..=63).contains(&l.len()) && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') && !l.starts_with('-') && !l.ends_with('-')
    };
    (1..=253).contains(&text.len()) && text.split('.').all(label)
}

/// `idn-hostname`: an internationalized host name (RFC 5890): UTS 46 processing with the
/// STD3 rules, hyphen checks and DNS lengths (the `idna` crate: Punycode, mapping, the bidi
/// and joiner rules), then the contextual rules and exceptions of IDNA2008 (RFC 5892) that
/// UTS 46 does not apply, on each label's Unicode form.
pub fn idn_hostname(text: &(impl AsRef<str> + ?Sized)) -> Result<(), Violation> {
    let text = text.as_ref();
    check(text, is_idn_hostname(text), "idn-hostname", "RFC 5890")
}

fn is_idn_hostname(text: &str) -> bool {
    use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};
    let uts46 = Uts46::new();
    if uts46.to_ascii(text.as_bytes(), AsciiDenyList::STD3, Hyphens::Check, DnsLength::Verify).is_err() {
        return false;
    }
    let (unicode, processed) = uts46.to_unicode(text.as_bytes(), AsciiDenyList::STD3, Hyphens::Check);
    processed.is_ok() && unicode.split('.').all(follows_rfc_5892)
}

/// The code points of RFC 5892 that are DISALLOWED by exception (section 2.6) or valid only
/// in context (CONTEXTO, appendix A.3 to A.9), checked on one U-label.
fn follows_rfc_5892(label: &str) -> bool {
    use icu_properties::props::Script;
    let scripts = icu_properties::CodePointMapData::<Script>::new();
    let chars: Vec<char> = label.chars().collect();
    let arabic_indic = |c: &char| ('\u{0660}'..='\u{0669}').contains(c);
    let extended_arabic_indic = |c: &char| ('\u{06F0}'..='\u{06F9}').contains(c);
    chars.iter().enumerate().all(|(i, &c)| {
        let before = i.checked_sub(1).map(|j| chars[j]);
        let after = chars.get(i + 1).copied();
        match c {
            '\u{0640}' | '\u{07FA}' | '\u{302E}' | '\u{302F}' | '\u{3031}'..='\u{3035}' | '\u{303B}' => false,
            // MIDDLE DOT, only between two `l`s (Catalan).
            '\u{00B7}' => before == Some('l') && after == Some('l'),
            // GREEK LOWER NUMERAL SIGN, before Greek.
            '\u{0375}' => after.is_some_and(|a| scripts.get(a) == Script::Greek),
            // HEBREW PUNCTUATION GERESH and GERSHAYIM, after Hebrew.
            '\u{05F3}' | '\u{05F4}' => before.is_some_and(|b| scripts.get(b) == Script::Hebrew),
            // KATAKANA MIDDLE DOT, in a label with Hiragana, Katakana or Han.
            '\u{30FB}' => chars.iter().any(|&o| matches!(scripts.get(o), Script::Hiragana | Script::Katakana | Script::Han)),
            // The two sets of Arabic-Indic digits do not mix.
            c if arabic_indic(&c) => !chars.iter().any(extended_arabic_indic),
            c if extended_arabic_indic(&c) => !chars.iter().any(arabic_indic),
            _ => true,
        }
    })
}

/// `ipv4`: RFC 2673 dotted quad; leading zeros are rejected (`087` is ambiguous: octal or not).
pub fn ipv4(text: &(impl AsRef<str> + ?Sized)) -> Result<(), Violation> {
    let text = text.as_ref();
    check(text, parse_ipv4(text).is_some(), "ipv4", "RFC 2673 dotted quad")
}

pub(super) fn parse_ipv4(text: &str) -> Option<std::net::Ipv4Addr> {
    // `std` already rejects leading zeros; the explicit check keeps that if it ever relaxes.
    let no_leading_zero = text.split('.').all(|octet| octet == "0" || !octet.starts_with('0'));
    if no_leading_zero { text.parse().ok() } else { None }
}

/// `ipv6`: RFC 4291 text form (`::1`, `::ffff:192.0.2.1`); no zone identifier.
pub fn ipv6(text: &(impl AsRef<str> + ?Sized)) -> Result<(), Violation> {
    let text = text.as_ref();
    check(text, text.parse::<std::net::Ipv6Addr>().is_ok(), "ipv6", "RFC 4291")
}

/// `uri`: an absolute RFC 3986 URI (with a scheme; ASCII only, as IRIs are `iri`).
pub fn uri(text: &(impl AsRef<str> + ?Sized)) -> Result<(), Violation> {
    let text = text.as_ref();
    check(text, fluent_uri::Uri::parse(text).is_ok(), "uri", "RFC 3986")
}

/// `uri-reference`: an RFC 3986 URI or relative reference.
pub fn uri_reference(text: &(impl AsRef<str> + ?Sized)) -> Result<(), Violation> {
    let text = text.as_ref();
    check(text, fluent_uri::UriRef::parse(text).is_ok(), "uri-reference", "RFC 3986")
}

/// `iri`: an absolute RFC 3987 IRI (a URI that may have non-ASCII characters).
pub fn iri(text: &(impl AsRef<str> + ?Sized)) -> Result<(), Violation> {
    let text = text.as_ref();
    check(text, fluent_uri::Iri::parse(text).is_ok(), "iri", "RFC 3987")
}

/// `iri-reference`: an RFC 3987 IRI or relative reference.
pub fn iri_reference(text: &(impl AsRef<str> + ?Sized)) -> Result<(), Violation> {
    let text = text.as_ref();
    check(text, fluent_uri::IriRef::parse(text).is_ok(), "iri-reference", "RFC 3987")
}

/// `uri-template`: RFC 6570 syntax (level 4): literals, and expressions of an optional
/// operator and comma-separated variables, each with a prefix (`:1` to `:9999`) or explode
/// (`*`) modifier. Nothing is expanded.
pub fn uri_template(text: &(impl AsRef<str> + ?Sized)) -> Result<(), Violation> {
    let text = text.as_ref();
    check(text, is_uri_template(text), "uri-template", "RFC 6570")
}

fn is_uri_template(text: &str) -> bool {
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('{') {
            let Some((expression, tail)) = after.split_once('}') else { return false };
            if !is_template_expression(expression) {
                return false;
            }
            rest = tail;
        } else if let Some(after) = rest.strip_prefix('%') {
            if !is_pct_encoded(after) {
                return false;
            }
            rest = &after[2..];
        } else {
            let c = rest.chars().next().unwrap_or_default();
            // RFC 6570 section 2.1: any character but controls, space and these.
            if c.is_control() || " \"'%<>\\^`{|}".contains(c) {
                return false;
            }
            rest = &rest[c.len_utf8()..];
        }
    }
    true
}

fn is_pct_encoded(after_percent: &str) -> bool {
    after_percent.len() >= 2 && after_percent.as_bytes()[..2].iter().all(u8::is_ascii_hexdigit)
}

fn is_template_expression(expression: &str) -> bool {
    let variables = expression.strip_prefix(['+', '#', '.', '/', ';', '?', '&', '=', ',', '!', '@', '|']).unwrap_or(expression);
    variables.split(',').all(|spec| {
        let (name, modifier) = match spec.split_once(':') {
            Some((name, length)) => (name, is_digits(length) && length.len() <= 4 && !length.starts_with('0')),
            None => (spec.strip_suffix('*').unwrap_or(spec), true),
        };
        modifier && !name.is_empty() && name.split('.').all(is_template_varname_part)
    })
}

/// Letters, digits, `_` and percent-encoded octets, at least one.
fn is_template_varname_part(part: &str) -> bool {
    let bytes = part.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' if is_pct_encoded(&part[i + 1..]) => i += 3,
            b if b.is_ascii_alphanumeric() || b == b'_' => i += 1,
            _ => return false,
        }
    }
    !part.is_empty()
}

/// `uuid`: RFC 4122 hyphenated form, 8-4-4-4-12 hex digits, either case.
pub fn uuid(text: &(impl AsRef<str> + ?Sized)) -> Result<(), Violation> {
    let text = text.as_ref();
    check(text, parse_uuid(text).is_some(), "uuid", "RFC 4122 hyphenated")
}

pub(super) fn parse_uuid(text: &str) -> Option<uuid::Uuid> {
    // The crate also reads the simple, braced and URN forms, which are other lengths: 36 bytes
    // is exactly the hyphenated one.
    if text.len() == 36 { uuid::Uuid::try_parse(text).ok() } else { None }
}

/// `regex`: an ECMA-262 regular expression, as `pattern` is (with the `u` flag).
pub fn regex(text: &(impl AsRef<str> + ?Sized)) -> Result<(), Violation> {
    let text = text.as_ref();
    check(text, regress::Regex::with_flags(text, "u").is_ok(), "regex", "ECMA-262")
}

/// `json-pointer`: RFC 6901: empty, or `/`-prefixed tokens whose `~` is followed by 0 or 1.
pub fn json_pointer(text: &(impl AsRef<str> + ?Sized)) -> Result<(), Violation> {
    let text = text.as_ref();
    check(text, is_json_pointer(text), "json-pointer", "RFC 6901")
}

fn is_json_pointer(text: &str) -> bool {
    let escapes_ok = text.split('~').skip(1).all(|after| after.starts_with(['0', '1']));
    (text.is_empty() || text.starts_with('/')) && escapes_ok
}

/// `relative-json-pointer`: a non-negative integer without leading zeros, then `#` or a
/// JSON pointer (draft-handrews-relative-json-pointer-01).
pub fn relative_json_pointer(text: &(impl AsRef<str> + ?Sized)) -> Result<(), Violation> {
    let text = text.as_ref();
    check(text, is_relative_json_pointer(text), "relative-json-pointer", "draft-handrews-relative-json-pointer-01")
}

fn is_relative_json_pointer(text: &str) -> bool {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &text[digits..];
    digits > 0 && (digits == 1 || !text.starts_with('0')) && (rest == "#" || is_json_pointer(rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    type Assertion = fn(&str) -> Result<(), Violation>;

    /// Each format with strings it accepts and strings it rejects, after the spirit of the
    /// JSON-Schema-Test-Suite's `optional/format` files.
    const CASES: &[(&str, Assertion, &[&str], &[&str])] = &[
        (
            "date-time",
            |s| date_time(s),
            &[
                "1963-06-19T08:30:06.283185Z",
                "1963-06-19T08:30:06Z",
                "1937-01-01T12:00:27.87+00:20",
                "1990-12-31T15:59:50.123-08:00",
                "1998-12-31T23:59:60Z",
                "1998-12-31T15:59:60.123-08:00",
                "1963-06-19t08:30:06.283185z",
                "2024-02-29T00:00:00+23:59",
            ],
            &[
                "1998-12-31T23:58:60Z",
                "1998-12-31T22:59:60Z",
                "1990-02-31T15:59:59.123-08:00",
                "1990-12-31T15:59:59-24:00",
                "1963-06-19T08:30:06.28123+01:00Z",
                "06/19/1963 08:30:06 PST",
                "2013-350T01:01:01",
                "1963-6-19T08:30:06.283185Z",
                "1963-06-1৪T00:00:00Z",
                "1963-06-19 08:30:06Z",
                "1963-06-19T08:30:06",
                "2023-02-29T00:00:00Z",
                "",
            ],
        ),
        (
            "date",
            |s| date(s),
            &["1963-06-19", "2020-01-31", "2020-02-29", "2000-02-29", "2021-12-31"],
            &[
                "2020-01-32",
                "2021-02-29",
                "1900-02-29",
                "2020-13-01",
                "06/19/1963",
                "2013-350",
                "1998-1-20",
                "1998-01-1",
                "1998-13-01",
                "1963-06-1৪",
                "20230328",
                "2023-W01",
                "2020-01-31T00:00:00Z",
                "",
            ],
        ),
        (
            "time",
            |s| time(s),
            &[
                "08:30:06Z",
                "23:59:60Z",
                "23:59:60+00:00",
                "15:59:60-08:00",
                "00:59:60+01:00",
                "08:30:06z",
                "23:20:50.52Z",
                "01:02:03+23:59",
            ],
            &[
                "22:59:60Z",
                "23:58:60Z",
                "23:59:60+00:30",
                "12:00:00",
                "008:030:006Z",
                "8:3:6Z",
                "08:30:06 PST",
                "01:01:01,1111Z",
                "24:00:00Z",
                "01:02:03+24:00",
                "01:02:03+00:60",
                "1998-12-31T08:30:06Z",
                "",
            ],
        ),
        (
            "duration",
            |s| duration(s),
            &["P4DT12H30M5S", "P4Y", "PT0S", "P0D", "P1M", "PT1M", "PT36H", "P2W", "P1Y2M3DT4H5M6S"],
            &["PT1D", "P", "P1YT", "PT", "P2D1Y", "P1D2H", "P2S", "P1Y2W", "P\u{0661}Y", "4DT12H30M5S", "P1.5D", "PT1H1H", "P1W1D"],
        ),
        (
            "email",
            |s| email(s),
            &["joe.bloggs@example.com", "te~st@example.com", "\"joe bloggs\"@example.com", "joe.bloggs@[127.0.0.1]"],
            &["2962", ".test@example.com", "test.@example.com", "te..st@example.com", "Joe <joe@example.com>", "joe@"],
        ),
        (
            "hostname",
            |s| hostname(s),
            &["www.example.com", "xn--4gbwdl.xn--wgbh1c", "a", "hostname", "1host", "a-b.c-d"],
            &[
                "-a-host-name-that-starts-with--",
                "not_a_valid_host_name",
                "a..b",
                "",
                "ex ample.com",
                "a.",
                "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.com",
                "héllo.com",
            ],
        ),
        (
            "ipv4",
            |s| ipv4(s),
            &["192.168.0.1", "0.0.0.0", "255.255.255.255", "87.10.0.1"],
            &["127.0.0.0.1", "256.256.256.256", "127.0", "0x7f000001", "087.10.0.1", "01.2.3.4", "1.2.3.4\n", "১২৭.0.0.1", ""],
        ),
        (
            "ipv6",
            |s| ipv6(s),
            &["::1", "::abef", "::", "1:d6::42", "::ffff:192.168.0.1", "1:2:3:4:5:6:7:8", "::42:ff:1"],
            &["12345::", "1:1:1:1:1:1:1:1:1", "::laptop", ":2:3:4:5:6:7:8", "fe80::a%eth1", "1::d6::42", " ::1", "::ffff:192.168.0.01", ""],
        ),
        (
            "uri",
            |s| uri(s),
            &[
                "http://foo.bar/?baz=qux#quux",
                "http://foo.com/blah_(wikipedia)_blah#cite-1",
                "mailto:John.Doe@example.com",
                "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
                "tel:+1-816-555-1212",
                "http://[2001:db8::1]:80/",
            ],
            &[
                "//foo.bar/?baz=qux#quux",
                "/abc",
                "abc",
                "\\\\WINDOWS\\fileshare",
                "http:// shouldfail.com",
                ":// should fail",
                "http://ü.com",
                "",
            ],
        ),
        (
            "uri-reference",
            |s| uri_reference(s),
            &["http://foo.bar/?baz=qux#quux", "//foo.bar/?baz=qux#quux", "/abc", "abc", "#fragment", ""],
            &["\\\\WINDOWS\\fileshare", "#frag\\ment", "http://ü.com", "a b"],
        ),
        (
            "uuid",
            |s| uuid(s),
            &["2EB8AA08-AA98-11EA-B4AA-73B441D16380", "2eb8aa08-aa98-11ea-b4aa-73b441d16380", "00000000-0000-0000-0000-000000000000"],
            &[
                "2eb8aa08-aa98-11ea-b4aa-73b441d1638",
                "2eb8aa08-aa98-11ea-73b441d16380",
                "2eb8aa08aa9811eab4aa73b441d16380",
                "{2eb8aa08-aa98-11ea-b4aa-73b441d16380}",
                "urn:uuid:2eb8aa08-aa98-11ea-b4aa-73b441d16380",
                "2eb8aa08-aa98-11ea-b4ga-73b441d16380",
                "2eb8-aa08-aa98-11ea-b4aa73b44-1d16380",
            ],
        ),
        ("regex", |s| regex(s), &["([abc])+\\s+$", "^[a-z]{1,3}$", ""], &["^(abc]", "[z-a]", "(?<n>a)(?<n>b)", "\\p{Nope}"]),
        (
            "json-pointer",
            |s| json_pointer(s),
            &["", "/", "/foo/bar~0/baz~1/%a", "/foo//bar", "/~0~1", "/foo/-"],
            &["foo", "/foo/bar~", "/~2", "#/foo", "0"],
        ),
        (
            "relative-json-pointer",
            |s| relative_json_pointer(s),
            &["1", "0/foo/bar", "2/0/baz/1/zip", "0#", "120/foo/bar"],
            &["/foo/bar", "-1/foo/bar", "+1/foo/bar", "0##", "01/a", "01#", ""],
        ),
        (
            "uri-template",
            |s| uri_template(s),
            &[
                "http://example.com/dictionary/{term:1}/{term}",
                "http://example.com/dictionary",
                "dictionary/{term:1}/{term}",
                "{+a,b*}{#x.y}",
                "%20{%41}",
            ],
            &["http://example.com/dictionary/{term:1}/{term", "{}", "{a:0}", "{a:10000}", "{a b}", "a}b", "%zz", "x{a}}"],
        ),
        (
            "iri",
            |s| iri(s),
            &[
                "http://ƒøø.ßår/?∂éœ=πîx#πîüx",
                "http://[2001:0db8:85a3:0000:0000:8a2e:0370:7334]",
                "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com",
            ],
            &["http://2001:0db8:85a3:0000:0000:8a2e:0370:7334", "/abc", "\\\\WINDOWS\\filëßåré", "âππ"],
        ),
        (
            "iri-reference",
            |s| iri_reference(s),
            &["//ƒøø.ßår/?∂éœ=πîx#πîüx", "/âππ", "âππ", "#ƒrägmênt"],
            &["\\\\WINDOWS\\filëßåré", "#ƒräg\\mênt"],
        ),
        (
            "email",
            |s| email(s),
            &[
                "joe.bloggs@example.com",
                "te~st@example.com",
                "\"joe bloggs\"@example.com",
                "joe.bloggs@[127.0.0.1]",
                "joe.bloggs@[IPv6:::1]",
            ],
            &["joe.bloggs@invalid=domain.com", "joe.bloggs@[127.0.0.300]", "2962", "실례@실례.테스트"],
        ),
        ("idn-email", |s| idn_email(s), &["실례@실례.테스트", "joe.bloggs@example.com"], &["2962", "실례@-실례.테스트"]),
        (
            "idn-hostname",
            |s| idn_hostname(s),
            &[
                "실례.테스트",
                "xn--ihqwcrb4cv8a8dqg056pqjye",
                "ßς་〇",
                "۽۾",
                "l·l",
                "α͵β",
                "א׳ב",
                "・ぁ",
                "・丈",
                "ب٠ب",
                "۰0",
                "क्\u{200d}ष",
                "بي\u{200c}بي",
                "a。b",
                "host-name",
            ],
            &[
                "〮실례.테스트",
                "실〮례.테스트",
                "-> $1.00 <--",
                "xn--X",
                "XN--aa---o47jg78q",
                "-hello",
                "ःhello",
                "ـߺ",
                "〱〲〳〴〵〮〯〻",
                "a·l",
                "α͵S",
                "A׳ב",
                "def・abc",
                "・",
                "ب٠۰",
                "क\u{200d}ष",
                "",
                "。",
            ],
        ),
    ];

    #[test]
    fn formats_accept_and_reject_as_the_specifications_say() {
        let mut wrong = Vec::new();
        for (format, assertion, valid, invalid) in CASES {
            wrong.extend(valid.iter().filter(|s| assertion(s).is_err()).map(|s| format!("{format}: rejects {s:?}")));
            wrong.extend(invalid.iter().filter(|s| assertion(s).is_ok()).map(|s| format!("{format}: accepts {s:?}")));
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    #[test]
    fn violations_name_the_format_and_the_text() {
        let violation = date_time("2023-02-29T00:00:00Z").unwrap_err();
        assert_eq!(violation.keyword(), "format");
        assert_eq!(violation.message(), "\"2023-02-29T00:00:00Z\" is not a valid date-time (RFC 3339)");
    }
}
