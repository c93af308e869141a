//! Keywords in words, for the reference pages: a schema's type (`string or null`,
//! `one of "a", "b"`, `array of objects`) and its rules (`≥ 1; ≤ 5`, `pattern “^a”`,
//! `no other fields`), and Markdown escaping for what the schema's authors wrote.

use serde_json::Value;

use crate::ir::Kind;
#[cfg(test)]
use crate::schema::Keyword;
use crate::schema::{Dependency, Exclusive, KindSet, Model, Schema};

/// Where a page shows a keyword. Every keyword has a place, so none is dropped silently.
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// The Type column.
    Type,
    /// The Rules column of the schema's own row.
    Rules,
    /// The Description column.
    Description,
    /// The rows below the schema's (properties, items, extra properties).
    Rows,
    /// A note below the table (branches, conditions, negations, dependent schemas).
    Note,
    /// Followed to what it refers to (the target's type and rules, or a link to its section).
    Followed,
    /// Not about instances: identifiers, containers, comments, content annotations and
    /// examples are in the complete schema at the end of the page.
    Source,
}

/// Where the page shows `keyword`.
#[cfg(test)]
pub fn place(keyword: Keyword) -> Place {
    match keyword {
        Keyword::Type | Keyword::Enum | Keyword::Const => Place::Type,
        Keyword::MultipleOf
        | Keyword::Maximum
        | Keyword::ExclusiveMaximum
        | Keyword::Minimum
        | Keyword::ExclusiveMinimum
        | Keyword::MaxLength
        | Keyword::MinLength
        | Keyword::Pattern
        | Keyword::MaxItems
        | Keyword::MinItems
        | Keyword::UniqueItems
        | Keyword::MaxContains
        | Keyword::MinContains
        | Keyword::MaxProperties
        | Keyword::MinProperties
        | Keyword::DependentRequired
        | Keyword::Format
        | Keyword::Default
        | Keyword::Deprecated
        | Keyword::ReadOnly
        | Keyword::WriteOnly
        | Keyword::AdditionalProperties
        | Keyword::UnevaluatedProperties
        | Keyword::UnevaluatedItems
        | Keyword::AdditionalItems
        | Keyword::Contains
        | Keyword::PropertyNames => Place::Rules,
        Keyword::Title | Keyword::Description => Place::Description,
        Keyword::Properties | Keyword::PatternProperties | Keyword::Items | Keyword::PrefixItems | Keyword::Required => Place::Rows,
        Keyword::AllOf
        | Keyword::AnyOf
        | Keyword::OneOf
        | Keyword::Not
        | Keyword::If
        | Keyword::Then
        | Keyword::Else
        | Keyword::DependentSchemas
        | Keyword::Dependencies => Place::Note,
        Keyword::Ref | Keyword::DynamicRef | Keyword::RecursiveRef => Place::Followed,
        Keyword::Schema
        | Keyword::Id
        | Keyword::LegacyId
        | Keyword::Anchor
        | Keyword::DynamicAnchor
        | Keyword::RecursiveAnchor
        | Keyword::Vocabulary
        | Keyword::Comment
        | Keyword::Defs
        | Keyword::Definitions
        | Keyword::ContentEncoding
        | Keyword::ContentMediaType
        | Keyword::ContentSchema
        | Keyword::Examples => Place::Source,
    }
}

/// The name of a kind in a type: `string`, and `strings` after `array of`.
fn kind_word(kind: Kind, plural: bool) -> &'static str {
    match (kind, plural) {
        (Kind::Null, false) => "null",
        (Kind::Null, true) => "nulls",
        (Kind::Boolean, false) => "boolean",
        (Kind::Boolean, true) => "booleans",
        (Kind::Integer, false) => "integer",
        (Kind::Integer, true) => "integers",
        (Kind::Number, false) => "number",
        (Kind::Number, true) => "numbers",
        (Kind::String, false) => "string",
        (Kind::String, true) => "strings",
        (Kind::Array, false) => "array",
        (Kind::Array, true) => "arrays",
        (Kind::Object, false) => "object",
        (Kind::Object, true) => "objects",
    }
}

/// `string`, `string or null`, `integer, string or null` for a set of kinds.
pub fn kinds_in_words(kinds: KindSet, plural: bool) -> String {
    // `null` last, and singular: `strings or null`.
    let mut words: Vec<&str> = kinds.kinds().into_iter().filter(|k| *k != Kind::Null).map(|k| kind_word(k, plural)).collect();
    if kinds.contains(Kind::Null) {
        words.push(kind_word(Kind::Null, false));
    }
    join_or(&words)
}

/// `a`, `a or b`, `a, b or c`.
pub fn join_or(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [only] => (*only).to_owned(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// `one of "a", "b"` for an `enum`, the value itself for a `const`.
pub fn values_in_words(values: &[Value]) -> String {
    match values {
        [only] => compact(only),
        many => format!("one of {}", many.iter().map(compact).collect::<Vec<_>>().join(", ")),
    }
}

/// A JSON value written out, shortened past 80 characters.
pub fn compact(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 80 { format!("{}…", text.chars().take(80).collect::<String>()) } else { text }
}

/// The rules of one schema object, in words, in a fixed order: numbers, strings, arrays,
/// objects, then annotations that constrain how a value is used.
pub fn rules(schema: &Schema, model: &Model) -> Vec<String> {
    let mut out = Vec::new();
    let flag = |e: &Option<Exclusive>| *e == Some(Exclusive::Flag(true));
    if let Some(n) = &schema.minimum {
        out.push(if flag(&schema.exclusive_minimum) { format!("> {n}") } else { format!("≥ {n}") });
    }
    if let Some(Exclusive::Bound(n)) = &schema.exclusive_minimum {
        out.push(format!("> {n}"));
    }
    if let Some(n) = &schema.maximum {
        out.push(if flag(&schema.exclusive_maximum) { format!("< {n}") } else { format!("≤ {n}") });
    }
    if let Some(Exclusive::Bound(n)) = &schema.exclusive_maximum {
        out.push(format!("< {n}"));
    }
    if let Some(n) = &schema.multiple_of {
        out.push(format!("multiple of {n}"));
    }
    if let Some(n) = schema.min_length {
        out.push(format!("min length {n}"));
    }
    if let Some(n) = schema.max_length {
        out.push(format!("max length {n}"));
    }
    if let Some(pattern) = &schema.pattern {
        out.push(format!("pattern “{pattern}”"));
    }
    if let Some(format) = &schema.format {
        out.push(format!("format {format}"));
    }
    if let Some(n) = schema.min_items {
        out.push(format!("min items {n}"));
    }
    if let Some(n) = schema.max_items {
        out.push(format!("max items {n}"));
    }
    if schema.unique_items == Some(true) {
        out.push("unique items".to_owned());
    }
    if let Some(contains) = schema.contains {
        let (min, max) = (schema.min_contains, schema.max_contains);
        let count = match (min, max) {
            (Some(min), Some(max)) => format!("{min} to {max} items"),
            (Some(min), None) => format!("at least {min} item{}", plural(min)),
            (None, Some(max)) => format!("1 to {max} items"),
            (None, None) => "an item".to_owned(),
        };
        out.push(format!("contains {count} that {}", is_a(model, contains)));
    }
    if let Some(n) = schema.min_properties {
        out.push(format!("min properties {n}"));
    }
    if let Some(n) = schema.max_properties {
        out.push(format!("max properties {n}"));
    }
    if let Some(names) = schema.property_names {
        out.push(format!("property names: {}", subschema_words(model, names)));
    }
    let extras = [
        (schema.additional_properties, "other fields"),
        (schema.unevaluated_properties, "unevaluated fields"),
        (schema.additional_items, "other items"),
        (schema.unevaluated_items, "unevaluated items"),
    ];
    for (extra, what) in extras {
        let Some(extra) = extra else { continue };
        match model.node(extra).boolean() {
            Some(false) => out.push(format!("no {what}")),
            Some(true) => {}
            None => out.push(format!("{what}: {}", subschema_words(model, extra))),
        }
    }
    for (name, required) in schema.dependent_required.iter().flatten() {
        out.push(format!("with {name}: requires {}", required.join(", ")));
    }
    for (name, dependency) in schema.dependencies.iter().flatten() {
        if let Dependency::Names(required) = dependency {
            out.push(format!("with {name}: requires {}", required.join(", ")));
        }
    }
    if schema.deprecated == Some(true) {
        out.push("deprecated".to_owned());
    }
    if schema.read_only == Some(true) {
        out.push("read-only".to_owned());
    }
    if schema.write_only == Some(true) {
        out.push("write-only".to_owned());
    }
    if let Some(default) = &schema.default {
        out.push(format!("default {}", compact(default)));
    }
    out
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `is a string` for a `contains` subschema.
fn is_a(model: &Model, id: crate::schema::SchemaId) -> String {
    format!("is {}", subschema_words(model, id))
}

/// A subschema in a few words: its type and rules, without following references.
pub fn subschema_words(model: &Model, id: crate::schema::SchemaId) -> String {
    let node = model.node(id);
    match (node.boolean(), node.schema()) {
        (Some(true), _) => "anything".to_owned(),
        (Some(false), _) => "nothing".to_owned(),
        (None, Some(schema)) => {
            let mut words = Vec::new();
            if let Some(values) = schema.allowed_values() {
                words.push(values_in_words(&values));
            } else if let Some(kinds) = schema.types {
                words.push(kinds_in_words(kinds, false));
            } else if let Some(reference) = &schema.ref_ {
                words.push(format!("`{}`", reference.reference));
            }
            words.extend(rules(schema, model));
            if words.is_empty() { "anything".to_owned() } else { words.join("; ") }
        }
        (None, None) => "anything".to_owned(),
    }
}

/// Text from the schema as one Markdown table cell or paragraph: the characters Markdown and
/// rustdoc give a meaning to are escaped, so the words show as written; a line break is `<br>`;
/// a web address is an autolink (`<https://…>`), taken literally by both.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let at_word_start = !out.chars().last().is_some_and(|p| p.is_alphanumeric());
        if let Some(url) = web_address(rest).filter(|_| at_word_start) {
            out.push('<');
            out.push_str(url);
            out.push('>');
            rest = &rest[url.len()..];
            continue;
        }
        match c {
            '\\' | '|' | '*' | '_' | '`' | '[' | ']' | '#' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\r' => {}
            '\n' => out.push_str("<br>"),
            c => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The web address `text` starts with: `http://` or `https://` and what follows up to a space
/// or a character an autolink cannot hold, without the sentence's closing punctuation.
fn web_address(text: &str) -> Option<&str> {
    let scheme = ["https://", "http://"].into_iter().find(|scheme| text.starts_with(scheme))?;
    let end = text.find(|c: char| c.is_whitespace() || c.is_control() || matches!(c, '<' | '>' | '|' | '"' | '`')).unwrap_or(text.len());
    let url = text[..end].trim_end_matches(['.', ',', ';', ':', '!', '?', ')', '\'']);
    (url.len() > scheme.len()).then_some(url)
}

/// The inverse of [`escape`], for tests that compare a cell with the words it shows.
#[cfg(test)]
pub fn unescape(cell: &str) -> String {
    let mut out = String::with_capacity(cell.len());
    let mut rest = cell;
    while let Some(open) = rest.find("<http") {
        let Some(close) = rest[open..].find('>') else { break };
        out.push_str(&unescape_text(&rest[..open]));
        out.push_str(&rest[open + 1..open + close]);
        rest = &rest[open + close + 1..];
    }
    out.push_str(&unescape_text(rest));
    out
}

#[cfg(test)]
fn unescape_text(cell: &str) -> String {
    let text = cell.replace("<br>", "\n").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            out.extend(chars.next());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_read_as_words() {
        let set = |kinds: &[Kind]| kinds.iter().fold(KindSet::EMPTY, |s, k| s.union(KindSet::of(*k)));
        assert_eq!(kinds_in_words(set(&[Kind::String, Kind::Null]), false), "string or null");
        assert_eq!(kinds_in_words(set(&[Kind::Integer, Kind::String, Kind::Null]), false), "integer, string or null");
        assert_eq!(kinds_in_words(set(&[Kind::Object]), true), "objects");
        assert_eq!(values_in_words(&[Value::from("best"), Value::from("fail")]), "one of \"best\", \"fail\"");
        assert_eq!(values_in_words(&[Value::from("v1")]), "\"v1\"");
    }

    #[test]
    fn escaping_round_trips_and_defuses_markdown() {
        let text = "Persisted at .pi-glla/goals/<id>.md | a_b * [x]\nnext & `c` \\ #1 ~";
        let cell = escape(text);
        assert!(!cell.contains('\n') && !cell.contains("<id>") && !cell.contains(" | "), "{cell}");
        assert_eq!(unescape(&cell), text);
    }

    #[test]
    fn web_addresses_become_autolinks_without_the_sentence_around_them() {
        let text = "See https://example.com/a_b?x=1&y=2. Or (http://h/x), not xhttp://no or https://";
        let cell = escape(text);
        assert_eq!(
            cell, "See <https://example.com/a_b?x=1&y=2>. Or (<http://h/x>), not xhttp://no or https://",
            "a URL keeps its `_` and `&` literal; one inside a word or without a host is text"
        );
        assert_eq!(unescape(&cell), text);
    }
}
