//! Rust identifiers from arbitrary JSON names: pure functions whose output is always a valid,
//! non-empty, ASCII Rust identifier, plus [`Namespace`] for deterministic collision fallbacks.
//!
//! The rules, shared by every function:
//!
//! - **ASCII only.** Latin letters with diacritics lose them (`é` → `e`, `ß` → `ss`,
//!   `Æ` → `Ae`); any other non-ASCII character separates words, like punctuation.
//! - **Words** are split on every character that is not an ASCII letter or digit, and by
//!   `heck` at case changes (`autoContinue` → `auto`, `Continue`). Two digit runs that
//!   punctuation separated keep an `_` between them even in UpperCamelCase (`1.5` → `1_5`,
//!   `v1.2` → `V1_2`), so `1.5` and `15` stay distinct and versions stay readable.
//! - **A leading digit** gets a prefix: `N` in UpperCamelCase (`2fa` → `N2fa`, "number"),
//!   `_` in snake_case (`2fa` → `_2fa`).
//! - **Keywords**: type and variant names can only clash with `Self` (→ `Self_`). Fields use
//!   raw identifiers (`type` → `r#type`), except for `self`, `Self`, `crate`, `super`, which
//!   cannot be raw and get an `_` suffix (`self_`). Module names become file names, where
//!   `r#` is not allowed, so every keyword gets the `_` suffix (`type` → `type_`), and so
//!   does the name of a crate generated code depends on (`serde` → `serde_`).
//! - **Nothing left**: types and modules fall back to `Unnamed`/`unnamed`. Fields and
//!   variants name JSON *values*, where a distinct spelling matters more: `""` is
//!   `empty`/`Empty`, a name with no letters or digits is spelled out one character at a
//!   time (`-` → `minus`/`Minus`, `_` → `underscore`, `<=` → `LtEq`, `$$$` →
//!   `dollar_dollar_dollar`, other characters by code point: `→` → `U2192`), and a sign
//!   before a digit is a word (`-1` → `Minus1`, `+1` → `Plus1`). So `_` is never emitted.
//!
//! - **Long names** are cut: an identifier over [`MAX_IDENT`] bytes keeps its first 48 and
//!   gets 8 hex digits of the SHA-256 of the whole JSON name (`_` before them in snake_case),
//!   so a 10,000-character property is a 57-character field, distinct from any other such
//!   name; the JSON name itself (serde's `rename`) stays exact.
//!
//! These functions only spell one name; uniqueness within a scope is [`Namespace`]'s job.

use std::collections::HashSet;

use heck::{ToSnakeCase, ToUpperCamelCase};

/// Strict and reserved keywords of edition 2024 (`gen` included). Weak keywords such as
/// `union` or `raw` are valid identifiers and are not listed.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate", "do", "dyn", "else", "enum", "extern",
    "false", "final", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv",
    "pub", "ref", "return", "self", "Self", "static", "struct", "super", "trait", "true", "try", "type", "typeof", "unsafe", "unsized",
    "use", "virtual", "where", "while", "yield",
];

/// Whether `word` is a strict or reserved keyword of edition 2024.
pub(crate) fn is_keyword(word: &str) -> bool {
    KEYWORDS.contains(&word)
}

/// Crates a generated crate's code and its users name by path: a module of one of these names
/// would shadow the crate for a bare path below it, so it gets the `_` suffix (`serde.json` →
/// `serde_`). The emitted code itself writes these paths absolute (`::serde`).
const CRATE_NAMES: &[&str] = &["serde", "serde_json", "schemac_runtime", "std", "core", "alloc", "proc_macro", "test", "proptest"];

/// Whether a module cannot be named `name` (a keyword, or a crate generated code names), so
/// that it gets the `_` suffix.
pub(crate) fn is_reserved_module(name: &str) -> bool {
    is_keyword(name) || CRATE_NAMES.contains(&name)
}

/// Keywords that `r#` cannot make into identifiers.
const NOT_RAW: &[&str] = &["crate", "self", "Self", "super"];

/// The longest identifier spelled in full; longer ones are cut and get a hash of the name.
pub const MAX_IDENT: usize = 64;

/// `name` if it is at most [`MAX_IDENT`] bytes, else its first 48 bytes and 8 hex digits of
/// the SHA-256 of `raw` (after an `_` in snake_case). The names are ASCII, so any cut is at a
/// character boundary.
fn shorten(name: String, raw: &str, snake: bool) -> String {
    use sha2::{Digest, Sha256};
    if name.len() <= MAX_IDENT {
        return name;
    }
    let digest = Sha256::digest(raw.as_bytes());
    let hash: String = digest.iter().take(4).map(|b| format!("{b:02x}")).collect();
    let stem = name[..48].trim_end_matches('_');
    if snake { format!("{stem}_{hash}") } else { format!("{stem}{hash}") }
}

/// An UpperCamelCase type name: `madoo attempts report` → `MadooAttemptsReport`,
/// `2fa` → `N2fa`, `Self` → `Self_`, `""` or `$$$` → `Unnamed`.
pub fn type_name(raw: &str) -> String {
    let name = camel(&words(raw));
    if name.is_empty() { "Unnamed".to_owned() } else { shorten(fix_camel(name), raw, false) }
}

/// A snake_case field name: `autoContinue` → `auto_continue`, `$schema` → `schema`,
/// `type` → `r#type`, `self` → `self_`, `2fa` → `_2fa`, `""` → `empty`.
pub fn field_name(raw: &str) -> String {
    let name = shorten(fix_snake(snake(&value_words(raw))), raw, true);
    if NOT_RAW.contains(&name.as_str()) {
        name + "_"
    } else if KEYWORDS.contains(&name.as_str()) {
        format!("r#{name}")
    } else {
        name
    }
}

/// An UpperCamelCase enum variant for a JSON value: `in_progress` → `InProgress`,
/// `1.5` → `N1_5`, `-` → `Minus`, `-1` → `Minus1`, `a/b` → `AB`, `""` → `Empty`.
pub fn variant_name(raw: &str) -> String {
    // `value_words` is never empty, so neither is the name.
    shorten(fix_camel(camel(&value_words(raw))), raw, false)
}

/// A snake_case module (and file) name: `attempts-report.v1` → `attempts_report_v1`,
/// `type` → `type_` (never `r#`, which file names cannot hold), `""` → `unnamed`.
pub fn module_name(raw: &str) -> String {
    let name = snake(&words(raw));
    if name.is_empty() {
        return "unnamed".to_owned();
    }
    let name = shorten(fix_snake(name), raw, true);
    if is_reserved_module(&name) { name + "_" } else { name }
}

/// The names taken in one scope (a module's types, a struct's fields, an enum's variants).
///
/// [`Namespace::claim`] hands out the candidate itself or, when it is taken, the first free
/// numbered variant: `Foo2`, `Foo3`, … for UpperCamelCase; `foo_2`, `foo_3`, … for snake_case
/// and for camel names ending in a digit (`V1_2` → `V1_2_2`, not the misleading `V12`).
/// `r#type` and `type` are the same identifier, so they collide.
#[derive(Clone, Debug, Default)]
pub struct Namespace {
    taken: HashSet<String>,
}

impl Namespace {
    pub fn new() -> Namespace {
        Namespace::default()
    }

    /// A namespace in which `reserved` are already taken (e.g. the emitter's own imports).
    pub fn with_reserved(reserved: &[&str]) -> Namespace {
        Namespace { taken: reserved.iter().map(|name| unraw(name).to_owned()).collect() }
    }

    /// Whether `name` is taken.
    pub fn contains(&self, name: &str) -> bool {
        self.taken.contains(unraw(name))
    }

    /// Takes `candidate`, or its first free numbered variant, and returns the name taken.
    pub fn claim(&mut self, candidate: String) -> String {
        if self.taken.insert(unraw(&candidate).to_owned()) {
            return candidate;
        }
        // `self_` → `self_2` and `r#type` → `type_2`: the suffix itself avoids the keyword.
        let stem = unraw(&candidate).trim_end_matches('_');
        let stem = if stem.is_empty() { unraw(&candidate) } else { stem };
        let snake = !stem.bytes().any(|b| b.is_ascii_uppercase());
        let separator = if snake || stem.ends_with(|c: char| c.is_ascii_digit()) { "_" } else { "" };
        let mut n: u64 = 2;
        loop {
            let name = format!("{stem}{separator}{n}");
            if self.taken.insert(name.clone()) {
                return name;
            }
            n += 1;
        }
    }
}

fn unraw(name: &str) -> &str {
    name.strip_prefix("r#").unwrap_or(name)
}

/// The ASCII letter-and-digit runs of `raw`, after transliteration.
fn words(raw: &str) -> Vec<String> {
    let mut ascii = String::with_capacity(raw.len());
    for c in raw.chars() {
        match c {
            _ if c.is_ascii_alphanumeric() => ascii.push(c),
            _ => ascii.push_str(transliterate(c).unwrap_or(" ")),
        }
    }
    ascii.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_owned).collect()
}

/// Words for a name that spells a JSON value, where `""`, `-` and `$` must stay apart; never
/// empty.
fn value_words(raw: &str) -> Vec<String> {
    if raw.is_empty() {
        return vec!["empty".to_owned()];
    }
    let mut words = words(raw);
    if words.is_empty() {
        return raw.chars().map(spell).collect();
    }
    let mut chars = raw.chars();
    let sign = match (chars.next(), chars.next()) {
        (Some('-'), Some(d)) if d.is_ascii_digit() => Some("minus"),
        (Some('+'), Some(d)) if d.is_ascii_digit() => Some("plus"),
        _ => None,
    };
    if let Some(sign) = sign {
        words.insert(0, sign.to_owned());
    }
    words
}

fn camel(words: &[String]) -> String {
    let mut out = String::new();
    for word in words {
        let word = word.to_upper_camel_case();
        if ends_with_digit(&out) && word.starts_with(|c: char| c.is_ascii_digit()) {
            out.push('_');
        }
        out.push_str(&word);
    }
    out
}

fn snake(words: &[String]) -> String {
    words.iter().map(|word| word.to_snake_case()).collect::<Vec<_>>().join("_")
}

/// Makes a non-empty camel name an identifier.
fn fix_camel(name: String) -> String {
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        format!("N{name}")
    } else if name == "Self" {
        "Self_".to_owned()
    } else {
        name
    }
}

/// Makes a non-empty snake name start like an identifier.
fn fix_snake(name: String) -> String {
    if name.starts_with(|c: char| c.is_ascii_digit()) { format!("_{name}") } else { name }
}

fn ends_with_digit(s: &str) -> bool {
    s.ends_with(|c: char| c.is_ascii_digit())
}

/// A character of a name that has no letters or digits, as a word.
fn spell(c: char) -> String {
    let word = match c {
        ' ' => "space",
        '!' => "bang",
        '"' => "quote",
        '#' => "hash",
        '$' => "dollar",
        '%' => "percent",
        '&' => "amp",
        '\'' => "apostrophe",
        '(' => "lparen",
        ')' => "rparen",
        '*' => "star",
        '+' => "plus",
        ',' => "comma",
        '-' => "minus",
        '.' => "dot",
        '/' => "slash",
        ':' => "colon",
        ';' => "semicolon",
        '<' => "lt",
        '=' => "eq",
        '>' => "gt",
        '?' => "question",
        '@' => "at",
        '[' => "lbracket",
        '\\' => "backslash",
        ']' => "rbracket",
        '^' => "caret",
        '_' => "underscore",
        '`' => "backtick",
        '{' => "lbrace",
        '|' => "pipe",
        '}' => "rbrace",
        '~' => "tilde",
        _ => return format!("u{:04x}", u32::from(c)),
    };
    word.to_owned()
}

/// Latin letters with diacritics (Latin-1 and the common Latin Extended-A ones) as ASCII.
fn transliterate(c: char) -> Option<&'static str> {
    Some(match c {
        'À'..='Å' | 'Ā' | 'Ă' | 'Ą' => "A",
        'à'..='å' | 'ā' | 'ă' | 'ą' => "a",
        'Æ' => "Ae",
        'æ' => "ae",
        'Ç' | 'Ć' | 'Č' => "C",
        'ç' | 'ć' | 'č' => "c",
        'Ð' | 'Ď' | 'Đ' => "D",
        'ð' | 'ď' | 'đ' => "d",
        'È'..='Ë' | 'Ē' | 'Ė' | 'Ę' | 'Ě' => "E",
        'è'..='ë' | 'ē' | 'ė' | 'ę' | 'ě' => "e",
        'Ğ' => "G",
        'ğ' => "g",
        'Ì'..='Ï' | 'Ī' | 'İ' => "I",
        'ì'..='ï' | 'ī' | 'ı' => "i",
        'Ł' | 'Ľ' => "L",
        'ł' | 'ľ' => "l",
        'Ñ' | 'Ń' | 'Ň' => "N",
        'ñ' | 'ń' | 'ň' => "n",
        'Ò'..='Ö' | 'Ø' | 'Ő' => "O",
        'ò'..='ö' | 'ø' | 'ő' => "o",
        'Œ' => "Oe",
        'œ' => "oe",
        'Ř' => "R",
        'ř' => "r",
        'Ś' | 'Ş' | 'Š' => "S",
        'ś' | 'ş' | 'š' => "s",
        'ß' => "ss",
        'Ť' => "T",
        'ť' => "t",
        'Þ' => "Th",
        'þ' => "th",
        'Ù'..='Ü' | 'Ů' | 'Ű' => "U",
        'ù'..='ü' | 'ů' | 'ű' => "u",
        'Ý' | 'Ÿ' => "Y",
        'ý' | 'ÿ' => "y",
        'Ź' | 'Ż' | 'Ž' => "Z",
        'ź' | 'ż' | 'ž' => "z",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every output must parse as an identifier (`r#type` included), be ASCII, and not be a
    /// bare keyword that `syn` happens to accept (`gen`).
    fn assert_ident(out: &str) {
        assert!(out.is_ascii(), "{out:?} is not ASCII");
        assert!(syn::parse_str::<syn::Ident>(out).is_ok(), "{out:?} is not an identifier");
        assert!(!KEYWORDS.contains(&out), "{out:?} is a keyword");
    }

    fn check(f: fn(&str) -> String, cases: &[(&str, &str)]) {
        for &(raw, expect) in cases {
            let out = f(raw);
            assert_eq!(out, expect, "input {raw:?}");
            assert_ident(&out);
        }
    }

    #[test]
    fn type_names() {
        check(
            type_name,
            &[
                ("madoo attempts report", "MadooAttemptsReport"),
                ("best_unaccepted", "BestUnaccepted"),
                ("AttemptsReport", "AttemptsReport"),
                ("attempts-report.v1", "AttemptsReportV1"),
                ("HTTPServer", "HttpServer"),
                ("v1.2", "V1_2"),
                ("2fa", "N2fa"),
                ("Self", "Self_"),
                ("self", "Self_"),
                ("type", "Type"),
                ("", "Unnamed"),
                ("$$$", "Unnamed"),
                ("日本", "Unnamed"),
                ("Café crème", "CafeCreme"),
                ("straße", "Strasse"),
                ("über日本report", "UberReport"),
                ("Self_ body", "SelfBody"),
            ],
        );
    }

    #[test]
    fn field_names() {
        check(
            field_name,
            &[
                ("max_attempts", "max_attempts"),
                ("autoContinue", "auto_continue"),
                ("$schema", "schema"),
                ("foo-bar", "foo_bar"),
                ("@type", "r#type"),
                ("type", "r#type"),
                ("Type", "r#type"),
                ("match", "r#match"),
                ("gen", "r#gen"),
                ("union", "union"),
                ("self", "self_"),
                ("Self", "self_"),
                ("crate", "crate_"),
                ("super", "super_"),
                ("_", "underscore"),
                ("2fa", "_2fa"),
                ("1.5", "_1_5"),
                ("-1", "minus_1"),
                ("", "empty"),
                ("-", "minus"),
                ("$$$", "dollar_dollar_dollar"),
                ("→", "u2192"),
                ("naïve", "naive"),
                ("HTTPServer", "http_server"),
            ],
        );
    }

    #[test]
    fn variant_names() {
        check(
            variant_name,
            &[
                ("in_progress", "InProgress"),
                ("IN_PROGRESS", "InProgress"),
                ("application/json", "ApplicationJson"),
                ("a/b", "AB"),
                ("-", "Minus"),
                ("+", "Plus"),
                ("<=", "LtEq"),
                ("_", "Underscore"),
                ("", "Empty"),
                (" ", "Space"),
                ("1.5", "N1_5"),
                ("15", "N15"),
                ("-1", "Minus1"),
                ("+1", "Plus1"),
                ("200", "N200"),
                ("Self", "Self_"),
                ("日本", "U65e5U672c"),
                ("élan", "Elan"),
            ],
        );
    }

    #[test]
    fn module_names() {
        check(
            module_name,
            &[
                ("attempts-report.v1", "attempts_report_v1"),
                ("pi-glla", "pi_glla"),
                ("AttemptsReport", "attempts_report"),
                ("type", "type_"),
                ("self", "self_"),
                ("Self", "self_"),
                ("mod", "mod_"),
                ("gen", "gen_"),
                ("serde", "serde_"),
                ("serde_json", "serde_json_"),
                ("schemac_runtime", "schemac_runtime_"),
                ("std", "std_"),
                ("core", "core_"),
                ("2fa", "_2fa"),
                ("", "unnamed"),
                ("$$$", "unnamed"),
            ],
        );
    }

    #[test]
    fn long_names_are_cut_with_a_hash() {
        let long = "x".repeat(10_000);
        let longer = "x".repeat(10_001);
        for f in [type_name, field_name, variant_name, module_name] {
            let (a, b) = (f(&long), f(&longer));
            assert_ident(&a);
            assert!(a.len() <= MAX_IDENT && a.len() > 48, "{a}");
            assert_ne!(a, b, "distinct long names stay distinct");
            assert_eq!(f(&long), a, "deterministic");
        }
        assert!(field_name(&long).starts_with(&format!("{}_", "x".repeat(48))));
        assert!(type_name(&long).starts_with(&format!("X{}", "x".repeat(47))));
        // Up to the limit a name is kept whole.
        assert_eq!(field_name(&"y".repeat(MAX_IDENT)), "y".repeat(MAX_IDENT));
    }

    fn check_claims(mut space: Namespace, candidates: &[&str], expect: &[&str]) {
        let out: Vec<String> = candidates.iter().map(|c| space.claim((*c).to_owned())).collect();
        assert_eq!(out, expect);
        out.iter().for_each(|name| assert_ident(name));
    }

    #[test]
    fn namespace() {
        check_claims(Namespace::new(), &["Foo", "Foo", "Foo", "Foo2"], &["Foo", "Foo2", "Foo3", "Foo2_2"]);
        check_claims(Namespace::new(), &["foo", "foo", "foo_2"], &["foo", "foo_2", "foo_2_2"]);
        check_claims(Namespace::new(), &["r#type", "r#type", "type_2"], &["r#type", "type_2", "type_2_2"]);
        check_claims(Namespace::new(), &["self_", "self_"], &["self_", "self_2"]);
        check_claims(Namespace::new(), &["Self_", "Self_"], &["Self_", "Self2"]);
        check_claims(Namespace::new(), &["V1_2", "V1_2"], &["V1_2", "V1_2_2"]);
        check_claims(Namespace::with_reserved(&["Value", "extra"]), &["Value", "extra", "Other"], &["Value2", "extra_2", "Other"]);
        assert!(Namespace::with_reserved(&["r#type"]).contains("type"));
    }
}
