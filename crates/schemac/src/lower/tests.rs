//! Lowering tests: inline schemas → IR, compared as a compact text rendering (`describe`).

use serde_json::{Value, json};

use super::lower;
use crate::diag::Diagnostics;
use crate::ir::{Assertion, Check, DefKind, DocId, Ir, Rest, Ty, UnionMode};
use crate::load::Document;
use crate::modules::Modules;
use crate::resolve::Registry;
use crate::{Config, Draft};

// ---------------------------------------------------------------------------------------------
// Helpers

/// A document as the loader would produce it, `$schema` deciding the draft (else 2020-12).
fn document(id: usize, name: &str, json: Value) -> Document {
    let draft = json.get("$schema").and_then(Value::as_str).and_then(Draft::from_schema_uri).unwrap_or(Draft::Draft2020_12);
    Document {
        id: DocId(id),
        path: format!("/schemas/{name}").into(),
        display: format!("schemas/{name}"),
        text: serde_json::to_string_pretty(&json).unwrap_or_default(),
        sha256: String::new(),
        json,
        draft,
        is_input: true,
        root_pointer: String::new(),
        aliases: Vec::new(),
    }
}

/// The configuration the shape tests lower with: the default, but with primitive numbers,
/// whose Rust integer width each test names (`exact_numbers_by_default` tests the default).
fn config() -> Config {
    Config { primitive_numbers: true, ..Config::default() }
}

fn lower_docs(docs: Vec<Document>) -> Result<Ir, Diagnostics> {
    lower_docs_with(docs, &config())
}

fn lower_docs_with(docs: Vec<Document>, config: &Config) -> Result<Ir, Diagnostics> {
    lower_named(docs, Some("Root"), config)
}

/// Each document in a module named after its file, its root type named `root_name`.
fn modules(docs: &[Document], root_name: Option<&str>) -> Modules {
    let paths = docs.iter().map(|d| vec![d.display.trim_start_matches("schemas/").trim_end_matches(".json").replace('-', "_")]);
    Modules::of_paths(paths.collect()).with_root_names(root_name)
}

fn lower_named(docs: Vec<Document>, root_name: Option<&str>, config: &Config) -> Result<Ir, Diagnostics> {
    let modules = modules(&docs, root_name);
    let registry = Registry::new(docs).map_err(Diagnostics)?;
    let (model, diagnostics) = crate::schema::build(&registry);
    // Warnings do not stop compilation (see `warnings`).
    let errors = diagnostics.into_iter().filter(|d| d.severity == crate::diag::Severity::Error).collect();
    Diagnostics(errors).into_result(())?;
    lower(&registry, &model, &modules, config)
}

fn lower_one(schema: Value) -> Result<Ir, Diagnostics> {
    lower_docs(vec![document(0, "test.json", schema)])
}

/// Lowers `schema` and compares the rendering of the IR with `expect` (indentation-insensitive).
#[track_caller]
fn check(schema: Value, expect: &str) {
    match lower_one(schema) {
        Ok(ir) => assert_eq!(describe(&ir), trim(expect)),
        Err(diags) => panic!("unexpected diagnostics:\n{diags}"),
    }
}

/// Lowers `schema`, which must succeed with warnings, and returns `code pointer` for each.
#[track_caller]
fn warnings(schema: Value) -> Vec<String> {
    let docs = vec![document(0, "test.json", schema)];
    let modules = modules(&docs, Some("Root"));
    let registry = Registry::new(docs).expect("indexes");
    let (model, diagnostics) = crate::schema::build(&registry);
    let (mut warnings, errors): (Vec<_>, Vec<_>) = diagnostics.into_iter().partition(|d| d.severity == crate::diag::Severity::Warning);
    assert!(errors.is_empty(), "unexpected errors: {errors:?}");
    let ir = lower(&registry, &model, &modules, &config()).unwrap_or_else(|d| panic!("unexpected diagnostics:\n{d}"));
    warnings.extend(ir.warnings);
    warnings.iter().map(|d| format!("{} {}", d.code, d.pointer)).collect()
}

/// Lowers `schema`, which must fail, and returns `code pointer` for each diagnostic.
#[track_caller]
fn errors(schema: Value) -> Vec<String> {
    match lower_one(schema) {
        Ok(ir) => panic!("expected diagnostics, got:\n{}", describe(&ir)),
        Err(diags) => diags.iter().map(|d| format!("{} {}", d.code, d.pointer)).collect(),
    }
}

fn trim(text: &str) -> String {
    text.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("\n")
}

/// One line per def: `#id hint = kind`, then `! unenforced` when there are any.
fn describe(ir: &Ir) -> String {
    let mut lines = Vec::new();
    for (i, def) in ir.defs.iter().enumerate() {
        let hint = &def.hint;
        let name = if let Some(explicit) = &hint.explicit {
            format!("!{explicit}")
        } else if let Some(key) = &hint.key {
            format!("${key}")
        } else if let Some(title) = &hint.title {
            format!("{title:?}")
        } else if let Some(parent) = hint.parent {
            format!("#{}/{}", parent.0, hint.segment)
        } else {
            "-".to_owned()
        };
        let mut line = format!("#{i} {name} = {}", kind(&def.kind));
        if !def.unenforced.is_empty() {
            line.push_str(&format!(" ! {}", def.unenforced.join(", ")));
        }
        lines.push(line);
    }
    lines.join("\n")
}

fn kind(kind: &DefKind) -> String {
    match kind {
        DefKind::Struct(s) => {
            let fields: Vec<String> =
                s.fields.iter().map(|f| format!("{}{}: {}", f.json_name, if f.required { "" } else { "?" }, ty(&f.ty))).collect();
            let rest = match &s.rest {
                Rest::Closed => "closed".to_owned(),
                Rest::Open => "open".to_owned(),
                Rest::Typed(t) => format!("rest {}", ty(t)),
                Rest::Patterns { patterns, additional } => {
                    let list: Vec<String> = patterns.iter().map(|(p, t)| format!("/{}/ {}", p.source, ty(t))).collect();
                    format!("patterns({}; {})", list.join(", "), additional.as_ref().map_or("closed".to_owned(), ty))
                }
            };
            let assertions = if s.assertions.is_empty() { String::new() } else { format!(" where {}", assertion_list(&s.assertions)) };
            format!("struct {rest} {{ {} }}{assertions}", fields.join(", "))
        }
        DefKind::StringEnum(values) => format!("enum {}", values.join("|")),
        DefKind::Newtype(n) => format!(
            "newtype {}{}{}{}",
            ty(&n.inner),
            n.pattern.as_ref().map(|p| format!(" /{}/", p.source)).unwrap_or_default(),
            n.format.as_ref().map(|f| format!(" format {f}")).unwrap_or_default(),
            if n.assertions.is_empty() { String::new() } else { format!(" where {}", assertion_list(&n.assertions)) }
        ),
        DefKind::Const(value) => format!("const {value}"),
        DefKind::ValueEnum(values) => format!("values {}", Value::Array(values.clone())),
        DefKind::Union(u) => {
            let mode = match &u.mode {
                UnionMode::ByKind => "by-kind".to_owned(),
                UnionMode::Tagged { tag } => format!("tagged {tag}"),
                UnionMode::FirstMatch => "first-match".to_owned(),
                UnionMode::ExactlyOne => "exactly-one".to_owned(),
            };
            let variants: Vec<String> = u
                .variants
                .iter()
                .map(|v| {
                    let tags = if v.tags.is_empty() { String::new() } else { format!(" {}", Value::Array(v.tags.clone())) };
                    format!("{}{tags}: {}", v.hint, ty(&v.ty))
                })
                .collect();
            format!("union {mode} ({})", variants.join(" | "))
        }
        DefKind::Alias(t) => format!("alias {}", ty(t)),
        DefKind::Checked(c) => format!("checked {}", check_str(c)),
        DefKind::Refined(r) => format!("refined {} where {}", ty(&r.base), check_str(&r.check)),
        DefKind::Tuple(t) => {
            let items: Vec<String> = t.items.iter().map(ty).collect();
            format!("tuple ({}) rest {}", items.join(", "), t.rest.as_ref().map_or("none".to_owned(), ty))
        }
    }
}

fn ty(ty: &Ty) -> String {
    match ty {
        Ty::Any => "any".to_owned(),
        Ty::Bool => "bool".to_owned(),
        Ty::Integer(int) => format!("{int:?}").to_lowercase(),
        Ty::Number => "number".to_owned(),
        Ty::String => "string".to_owned(),
        Ty::Format(format) => format!("{format:?}"),
        Ty::Null => "null".to_owned(),
        Ty::Def(id) => format!("#{}", id.0),
        Ty::Array(item) => format!("[{}]", self::ty(item)),
        Ty::Map(value) => format!("map<{}>", self::ty(value)),
        Ty::Nullable(inner) => format!("{}?", self::ty(inner)),
        Ty::Constrained(inner, assertions) => format!("{}{{{}}}", self::ty(inner), assertion_list(assertions)),
    }
}

fn assertion_list(assertions: &[Assertion]) -> String {
    let one = |a: &Assertion| match a {
        Assertion::Minimum(n) => format!("minimum {n}"),
        Assertion::Maximum(n) => format!("maximum {n}"),
        Assertion::ExclusiveMinimum(n) => format!("exclusiveMinimum {n}"),
        Assertion::ExclusiveMaximum(n) => format!("exclusiveMaximum {n}"),
        Assertion::MultipleOf(n) => format!("multipleOf {n}"),
        Assertion::MinLength(n) => format!("minLength {n}"),
        Assertion::MaxLength(n) => format!("maxLength {n}"),
        Assertion::Format(f) => format!("format {f:?}"),
        Assertion::MinItems(n) => format!("minItems {n}"),
        Assertion::MaxItems(n) => format!("maxItems {n}"),
        Assertion::UniqueItems => "uniqueItems".to_owned(),
        Assertion::Contains { schema, min, max } => {
            format!("contains {} {min}..{}", ty(schema), max.map_or(String::new(), |m| m.to_string()))
        }
        Assertion::MinProperties(n) => format!("minProperties {n}"),
        Assertion::MaxProperties(n) => format!("maxProperties {n}"),
        Assertion::PropertyNames(t) => format!("propertyNames {}", ty(t)),
        Assertion::DependentRequired { name, required } => format!("{name} requires {}", required.join(",")),
    };
    assertions.iter().map(one).collect::<Vec<_>>().join(", ")
}

fn check_str(check: &Check) -> String {
    let list = |checks: &[Check]| checks.iter().map(check_str).collect::<Vec<_>>().join("; ");
    match check {
        Check::Kinds(kinds) => format!("kinds({})", kinds.iter().map(|k| format!("{k:?}").to_lowercase()).collect::<Vec<_>>().join(",")),
        Check::Const(value) => format!("const {value}"),
        Check::Enum(values) => format!("enum {}", Value::Array(values.clone())),
        Check::Pattern(p) => format!("/{}/", p.source),
        Check::As(t) => format!("as {}", ty(t)),
        Check::AllOf(all) => format!("all({})", list(all)),
        Check::AnyOf(any) => format!("any({})", list(any)),
        Check::OneOf(one) => format!("one({})", list(one)),
        Check::Not(not) => format!("not({})", check_str(not)),
        Check::IfThenElse { cond, then, otherwise } => format!(
            "if({}; {}; {})",
            check_str(cond),
            then.as_deref().map_or("-".to_owned(), check_str),
            otherwise.as_deref().map_or("-".to_owned(), check_str)
        ),
        Check::Object(o) => {
            let props: Vec<String> = o.properties.iter().map(|(n, c)| format!("{n}: {}", check_str(c))).collect();
            let patterns: Vec<String> = o.patterns.iter().map(|(p, c)| format!("/{}/: {}", p.source, check_str(c))).collect();
            format!(
                "object{{{}; required {}; {}; rest {}}}",
                props.join(", "),
                o.required.join(","),
                patterns.join(", "),
                o.additional.as_deref().map_or("-".to_owned(), check_str)
            )
        }
        Check::Array { prefix, items } => format!("array[{}; {}]", list(prefix), items.as_deref().map_or("-".to_owned(), check_str)),
        Check::Assert(a) => assertion_list(std::slice::from_ref(a)),
        Check::Never => "never".to_owned(),
        Check::Unevaluated { items, rest, .. } => {
            format!("unevaluated{}({})", if *items { "Items" } else { "Properties" }, check_str(rest))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// `type`, primitives, booleans

#[test]
fn primitives_stay_inline_and_roots_become_aliases() {
    check(json!({"type": "string"}), "#0 !Root = alias string");
    check(json!({"type": "boolean"}), "#0 !Root = alias bool");
    check(json!({"type": "null"}), "#0 !Root = alias null");
    check(json!({"type": "number"}), "#0 !Root = alias number");
    check(json!({"type": ["integer", "number"]}), "#0 !Root = alias number");
    check(json!({"type": ["string", "null"]}), "#0 !Root = alias string?");
    check(json!({"type": "array", "items": {"type": "boolean"}}), "#0 !Root = alias [bool]");
}

#[test]
fn any_and_never() {
    check(json!(true), "#0 !Root = alias any");
    check(json!({}), "#0 !Root = alias any");
    check(json!({"description": "only docs", "$comment": "x", "x-extension": 1}), "#0 !Root = alias any");
    check(json!(false), "#0 !Root = checked never");
    // An assertion without a `type` applies to one kind and passes the others: a union of
    // every kind, that kind's variant asserting.
    check(
        json!({"minimum": 1}),
        "#0 !Root = alias #1?
         #1 #0/Value = union by-kind (Boolean: bool | Number: number{minimum 1} | String: string | Array: [any] | Object: #2)
         #2 #1/Object = struct open {  }",
    );
}

#[test]
fn several_kinds_are_a_union_by_kind() {
    check(
        json!({"type": ["string", "integer", "null"], "pattern": "^a", "maximum": 9}),
        "#0 !Root = alias #1?
         #1 #0/Value = union by-kind (Integer: i64{maximum 9} | String: #2)
         #2 #1/String = newtype string /^a/",
    );
    // Without `type`, shape keywords of one kind leave the other kinds unconstrained.
    check(
        json!({"properties": {"a": {"type": "string"}}}),
        "#0 !Root = alias #1?
         #1 #0/Value = union by-kind (Boolean: bool | Number: number | String: string | Array: [any] | Object: #2)
         #2 #1/Object = struct open { a?: string }",
    );
}

#[test]
fn integer_widths() {
    let cases = [
        (json!({"type": "integer"}), "i64", ""),
        (json!({"type": "integer", "minimum": 0}), "u64", ""),
        (json!({"type": "integer", "minimum": 0, "maximum": 255}), "u8", ""),
        (json!({"type": "integer", "minimum": 0, "maximum": 256}), "u16", "{maximum 256}"),
        (json!({"type": "integer", "minimum": 0, "maximum": 4294967295_u64}), "u32", ""),
        (json!({"type": "integer", "minimum": 0, "maximum": 4294967296_u64}), "u64", "{maximum 4294967296}"),
        (json!({"type": "integer", "minimum": 1, "maximum": 5}), "u8", "{minimum 1, maximum 5}"),
        (json!({"type": "integer", "minimum": -128, "maximum": 127}), "i8", ""),
        (json!({"type": "integer", "minimum": -129, "maximum": 0}), "i16", "{minimum -129, maximum 0}"),
        (json!({"type": "integer", "minimum": -1}), "i64", "{minimum -1}"),
        (json!({"type": "integer", "maximum": 10}), "i64", "{maximum 10}"),
        (json!({"type": "integer", "minimum": 0.5, "maximum": 200.5}), "u8", "{minimum 0.5, maximum 200.5}"),
        (json!({"type": "integer", "exclusiveMinimum": -1, "exclusiveMaximum": 256}), "u8", ""),
        (json!({"type": "integer", "minimum": 0, "multipleOf": 1}), "u64", ""),
        (json!({"type": "integer", "minimum": 0, "multipleOf": 2}), "u64", "{multipleOf 2}"),
    ];
    for (schema, expect, assertions) in cases {
        let ir = lower_one(schema.clone()).unwrap_or_else(|d| panic!("{schema}: {d}"));
        assert_eq!(describe(&ir), format!("#0 !Root = alias {expect}{assertions}"), "{schema}");
    }
}

/// By default an integer is a Rust integer only where both bounds hold it (`i128` past 64
/// bits); with a side open it is `schemac_runtime::Integer` (`exact`), which holds every
/// integer, its bounds checked; a `number` is `schemac_runtime::Number` (issue 22).
#[test]
fn exact_numbers_by_default() {
    let cases = [
        (json!({"type": "integer"}), "exact", ""),
        (json!({"type": "integer", "minimum": 0}), "exact", "{minimum 0}"),
        (json!({"type": "integer", "maximum": 10}), "exact", "{maximum 10}"),
        (json!({"type": "integer", "minimum": 0, "maximum": 255}), "u8", ""),
        (
            json!({"type": "integer", "minimum": -1, "maximum": 18446744073709551615_u64}),
            "i128",
            "{minimum -1, maximum 18446744073709551615}",
        ),
        (json!({"type": "integer", "minimum": 0, "maximum": 1e40}), "exact", "{minimum 0, maximum 1e+40}"),
        (json!({"type": "number", "maximum": 1}), "number", "{maximum 1}"),
    ];
    for (schema, expect, assertions) in cases {
        let docs = vec![document(0, "test.json", schema.clone())];
        let modules = modules(&docs, Some("Root"));
        let registry = Registry::new(docs).expect("indexes");
        let (model, _) = crate::schema::build(&registry);
        let ir = lower(&registry, &model, &modules, &Config::default()).unwrap_or_else(|d| panic!("{schema}: {d}"));
        assert!(ir.exact_numbers);
        assert_eq!(describe(&ir), format!("#0 !Root = alias {expect}{assertions}"), "{schema}");
    }
}

#[test]
fn draft4_boolean_exclusive_bounds() {
    check(
        json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "integer", "minimum": -1, "exclusiveMinimum": true, "maximum": 256, "exclusiveMaximum": true}),
        "#0 !Root = alias u8",
    );
}

#[test]
fn asserted_formats_are_string_assertions() {
    let config = Config { assert_formats: true, ..config() };
    let asserted = |schema: Value| match lower_docs_with(vec![document(0, "test.json", schema)], &config) {
        Ok(ir) => describe(&ir),
        Err(diags) => panic!("unexpected diagnostics:\n{diags}"),
    };
    assert_eq!(asserted(json!({"type": "string", "format": "date-time"})), "#0 !Root = alias DateTime{format DateTime}");
    assert_eq!(
        asserted(json!({"type": "string", "pattern": "^[a-z]+$", "format": "email"})),
        "#0 !Root = newtype string /^[a-z]+$/ format email where format Email"
    );
    // Unknown formats stay annotations.
    assert_eq!(asserted(json!({"type": "string", "format": "semver"})), "#0 !Root = alias string");
    // Without a `type`, any kind is valid and only strings are checked: the string branch of
    // the by-kind union asserts the format.
    let untyped = asserted(json!({"format": "ipv4"}));
    assert!(untyped.contains("String: Ipv4{format Ipv4}"), "{untyped}");
}

#[test]
fn string_formats_and_patterns() {
    check(json!({"type": "string", "format": "date-time"}), "#0 !Root = alias DateTime");
    check(json!({"type": "string", "format": "uuid"}), "#0 !Root = alias Uuid");
    check(json!({"type": "string", "format": "json-pointer"}), "#0 !Root = alias JsonPointer");
    check(json!({"type": "string", "format": "regex", "minLength": 1}), "#0 !Root = alias Regex{minLength 1}");
    check(
        json!({"type": "string", "pattern": "^[a-z]+$", "format": "email", "maxLength": 9}),
        "#0 !Root = newtype string /^[a-z]+$/ format email where maxLength 9",
    );
    // An unknown format is a plain string; the format is documented.
    let ir = lower_one(json!({"type": "string", "format": "semver"})).unwrap();
    assert_eq!(describe(&ir), "#0 !Root = alias string");
    assert_eq!(ir.defs[0].docs.format.as_deref(), Some("semver"));
}

// ---------------------------------------------------------------------------------------------
// Objects

#[test]
fn struct_fields_in_document_order() {
    check(
        json!({
            "type": "object",
            "required": ["b", "a"],
            "properties": {
                "b": {"type": "string"},
                "a": {"type": ["integer", "null"], "minimum": 0},
                "c": {"type": "object", "properties": {"d": {"type": "boolean"}}}
            }
        }),
        "#0 !Root = struct open { b: string, a: u64?, c?: #1 }
         #1 #0/c = struct open { d?: bool }",
    );
}

#[test]
fn additional_and_pattern_properties() {
    check(json!({"type": "object", "properties": {"a": {}}, "additionalProperties": false}), "#0 !Root = struct closed { a?: any }");
    check(json!({"type": "object", "properties": {"a": {}}, "additionalProperties": true}), "#0 !Root = struct open { a?: any }");
    check(
        json!({"type": "object", "properties": {"a": {}}, "additionalProperties": {"type": "integer"}}),
        "#0 !Root = struct rest i64 { a?: any }",
    );
    check(
        json!({"type": "object", "properties": {"x-a": {"type": "string"}}, "patternProperties": {"^x-": {"format": "uri"}}, "additionalProperties": false}),
        // `x-a` must satisfy its own schema and the pattern's.
        "#0 !Root = struct patterns(/^x-/ #1?; closed) { x-a?: Uri }
         #1 #0/Pattern0 = union by-kind (Boolean: bool | Number: number | String: Uri | Array: [any] | Object: #2)
         #2 #1/Object = struct open {  }",
    );
    check(json!({"type": "object", "patternProperties": {"^a": {"type": "string"}}}), "#0 !Root = struct patterns(/^a/ string; any) {  }");
}

#[test]
fn maps_and_empty_objects() {
    check(json!({"type": "object", "additionalProperties": {"type": "string"}}), "#0 !Root = alias map<string>");
    check(json!({"type": "object"}), "#0 !Root = struct open {  }");
    check(json!({"type": "object", "minProperties": 1}), "#0 !Root = struct open {  } where minProperties 1");
    check(
        json!({"type": "object", "additionalProperties": {"type": "object", "properties": {"x": {"type": "number"}}}}),
        "#0 !Root = alias map<#1>
         #1 #0/Value = struct open { x?: number }",
    );
}

#[test]
fn required_names_without_properties() {
    check(json!({"type": "object", "required": ["a"]}), "#0 !Root = struct open { a: any }");
    check(
        json!({"type": "object", "required": ["a"], "additionalProperties": {"type": "string"}}),
        "#0 !Root = struct rest string { a: string }",
    );
    check(
        json!({"type": "object", "required": ["x-a"], "patternProperties": {"^x-": {"type": "boolean"}}}),
        "#0 !Root = struct patterns(/^x-/ bool; any) { x-a: bool }",
    );
    assert_eq!(errors(json!({"type": "object", "required": ["a"], "additionalProperties": false})), ["invalid-schema /required"]);
}

// ---------------------------------------------------------------------------------------------
// Arrays

#[test]
fn arrays() {
    check(json!({"type": "array"}), "#0 !Root = alias [any]");
    check(
        json!({"type": "array", "items": {"type": "object", "properties": {"a": {"type": "null"}}}, "minItems": 1, "uniqueItems": true}),
        "#0 !Root = alias [#1]{minItems 1, uniqueItems}
         #1 #0/Item = struct open { a?: null }",
    );
    check(
        json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer", "minimum": 0}], "items": false}),
        "#0 !Root = checked all(kinds(array); array[as string; as u64; never])",
    );
    check(
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "array", "items": [{"type": "string"}], "additionalItems": {"type": "boolean"}}),
        "#0 !Root = checked all(kinds(array); array[as string; as bool])",
    );
    check(json!({"type": "array", "contains": {"type": "string"}}), "#0 !Root = alias [any]{contains string 1..}");
}

// ---------------------------------------------------------------------------------------------
// enum / const

#[test]
fn enums_and_consts() {
    check(json!({"enum": ["a", "b", "a"]}), "#0 !Root = enum a|b");
    check(json!({"enum": ["a", 1, null]}), "#0 !Root = values [\"a\",1,null]");
    check(json!({"enum": ["a", null]}), "#0 !Root = alias #1?\n#1 #0/Value = enum a");
    check(json!({"const": {"k": [1]}}), "#0 !Root = const {\"k\":[1]}");
    // Values of other kinds than `type` allows are impossible: dropped.
    check(json!({"type": "string", "enum": ["a", 1, true]}), "#0 !Root = enum a");
    check(json!({"type": "integer", "enum": [1, 1.5, 2.0]}), "#0 !Root = values [1,2.0]");
    check(json!({"type": "string", "const": "x"}), "#0 !Root = const \"x\"");
    // No value has the declared type: valid, but nothing passes (the type without values).
    assert_eq!(warnings(json!({"type": "string", "enum": [1, 2]})), ["uninhabited "]);
    assert_eq!(warnings(json!({"type": "string", "const": 1})), ["uninhabited "]);
    check(json!({"type": "string", "enum": [1, 2]}), "#0 !Root = checked never");
    // `allOf` parts whose `type`s share no kind (a real schema's, nswag's): valid, and an object
    // without the property stays valid, so a warning and the property's type without values.
    let clash = json!({"type": "object", "properties": {"p": {"allOf": [{"type": "string"}, {"type": "boolean"}]}}});
    assert_eq!(warnings(clash.clone()), ["uninhabited /properties/p"]);
    check(clash, "#0 !Root = struct open { p?: #1 }\n#1 #0/p = checked never");
}

/// What validators accept leniently compiles, each with a warning at its keyword.
#[test]
fn lenient_where_validators_are() {
    let cases = [
        (json!({"enum": []}), "uninhabited /enum"),
        (json!({"title": 1}), "ignored-annotation /title"),
        (json!({"description": null}), "ignored-annotation /description"),
        (json!({"examples": "Yes"}), "ignored-annotation /examples"),
        (json!({"deprecated": "no"}), "ignored-annotation /deprecated"),
        (json!({"format": 1}), "ignored-annotation /format"),
        (json!({"$defs": {"x": 1}}), "not-a-schema /$defs/x"),
    ];
    for (schema, expect) in cases {
        assert_eq!(warnings(schema.clone()), [expect], "{schema}");
    }
    // A reference to a definition that is not a schema is an error, at the reference.
    assert_eq!(errors(json!({"$defs": {"x": 1}, "items": {"$ref": "#/$defs/x"}})), ["unresolved-ref /items/$ref"]);
}

// ---------------------------------------------------------------------------------------------
// allOf

#[test]
fn all_of_merges_objects() {
    check(
        json!({
            "allOf": [
                {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                {"properties": {"b": {"type": "integer", "minimum": 0}, "a": {"minLength": 1}}}
            ],
            "title": "Merged"
        }),
        "#0 !Root = struct open { a: string{minLength 1}, b?: u64 }",
    );
    check(json!({"allOf": [{"type": ["string", "integer"]}, {"type": ["integer", "null"]}]}), "#0 !Root = alias i64");
    check(json!({"allOf": [{"type": "integer", "minimum": 0}, {"maximum": 255}]}), "#0 !Root = alias u8");
    check(json!({"allOf": [{"type": "integer", "minimum": 0}, {"maximum": 100}]}), "#0 !Root = alias u8{maximum 100}");
}

#[test]
fn all_of_with_closed_branch_is_refined() {
    // `additionalProperties: false` in one branch does not see the other's `b`: every object
    // with `b` is invalid: the merged struct, refined by the closed branch's own check.
    check(
        json!({"allOf": [
            {"type": "object", "properties": {"a": {}}, "additionalProperties": false},
            {"properties": {"b": {}}}
        ]}),
        "#0 !Root = refined #1 where object{a: as any; required ; ; rest never}
         #1 #0/Value = struct open { a?: any, b?: any }",
    );
    // When the closed branch declares every property, merging is exact.
    check(
        json!({"allOf": [
            {"type": "object", "properties": {"a": {}, "b": {}}, "additionalProperties": false},
            {"properties": {"b": {"type": "string"}}, "required": ["b"]}
        ]}),
        "#0 !Root = struct closed { a?: any, b: string }",
    );
}

/// A valid schema that no value satisfies: validators accept it, so schemac does, with a
/// warning, and its type has no values.
#[test]
fn contradicting_types_accept_nothing() {
    let schema = json!({"allOf": [{"type": "string"}, {"type": "integer"}]});
    assert_eq!(warnings(schema.clone()), ["uninhabited "]);
    check(schema, "#0 !Root = checked never");
}

// ---------------------------------------------------------------------------------------------
// oneOf / anyOf

#[test]
fn unions_by_kind() {
    check(
        json!({"oneOf": [{"type": "string"}, {"type": "object", "title": "Obj", "properties": {"a": {}}}, {"type": "integer"}]}),
        "#0 !Root = union by-kind (String: string | Obj: #1 | Integer: i64)
         #1 \"Obj\" = struct open { a?: any }",
    );
    // The same kinds in two branches: tried in order (anyOf) or all (oneOf).
    check(
        json!({"anyOf": [{"type": "string", "pattern": "^a"}, {"type": "string"}]}),
        "#0 !Root = union first-match (String: #1 | String: string)\n#1 #0/Variant0 = newtype string /^a/",
    );
    check(json!({"oneOf": [{"type": "number"}, {"type": "integer"}]}), "#0 !Root = union exactly-one (Number: number | Integer: i64)");
}

#[test]
fn unions_tagged_by_property() {
    check(
        json!({"oneOf": [
            {"type": "object", "required": ["kind", "a"], "properties": {"kind": {"const": "a"}, "a": {"type": "string"}}},
            {"type": "object", "required": ["kind"], "properties": {"kind": {"enum": ["b", "c"]}, "b": {"type": "number"}}}
        ]}),
        "#0 !Root = union tagged kind (a [\"a\"]: #1 | Object [\"b\",\"c\"]: #3)
         #1 #0/Variant0 = struct open { kind: #2, a: string }
         #2 #1/kind = const \"a\"
         #3 #0/Variant1 = struct open { kind: #4, b?: number }
         #4 #3/kind = enum b|c",
    );
    // An optional tag could be missing from both: not a tag.
    check(
        json!({"anyOf": [
            {"type": "object", "properties": {"kind": {"const": "a"}}},
            {"type": "object", "properties": {"kind": {"const": "b"}}}
        ]}),
        "#0 !Root = union first-match (Object: #1 | Object: #3)
         #1 #0/Variant0 = struct open { kind?: #2 }
         #2 #1/kind = const \"a\"
         #3 #0/Variant1 = struct open { kind?: #4 }
         #4 #3/kind = const \"b\"",
    );
}

#[test]
fn null_branch_makes_nullable() {
    check(json!({"oneOf": [{"type": "null"}, {"type": "string", "format": "date"}]}), "#0 !Root = alias Date?");
    check(json!({"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]}), "#0 !Root = alias u64?");
    check(json!({"anyOf": [{"type": ["integer", "null"], "minimum": 0}, {"type": "null"}]}), "#0 !Root = alias u64?");
    // `{}` accepts null too, so under oneOf null matches both: not the same as nullable.
    check(json!({"oneOf": [{"type": "null"}, {}]}), "#0 !Root = union exactly-one (Null: null | Variant1: any)");
    check(
        json!({"anyOf": [{"type": "string"}], "minLength": 2}),
        "#0 !Root = refined #1? where any(as string)
         #1 #0/Value = union by-kind (Boolean: bool | Number: number | String: string{minLength 2} | Array: [any] | Object: #2)
         #2 #1/Object = struct open {  }",
    );
}

#[test]
fn type_beside_union() {
    // Implied by every branch: the union alone.
    check(
        json!({"type": "object", "oneOf": [{"type": "object", "required": ["a"]}, {"type": "object", "required": ["b"]}]}),
        "#0 !Root = union exactly-one (Object: #1 | Object: #2)
         #1 #0/Variant0 = struct open { a: any }
         #2 #0/Variant1 = struct open { b: any }",
    );
    // Not implied (`required` alone accepts strings): the type's value, the branches checked.
    check(
        json!({"type": "object", "oneOf": [{"required": ["a"]}, {"required": ["b"]}]}),
        "#0 !Root = refined #1 where one(as #2?; as #4?)
         #1 #0/Value = struct open {  }
         #2 #0/Variant0 = union by-kind (Boolean: bool | Number: number | String: string | Array: [any] | Object: #3)
         #3 #2/Object = struct open { a: any }
         #4 #0/Variant1 = union by-kind (Boolean: bool | Number: number | String: string | Array: [any] | Object: #5)
         #5 #4/Object = struct open { b: any }",
    );
}

// ---------------------------------------------------------------------------------------------
// The checked fallback

#[test]
fn not_if_and_dependencies_refine_or_check() {
    check(json!({"not": {"type": "string"}}), "#0 !Root = checked not(as string)");
    check(
        json!({"type": "object", "if": {"required": ["a"]}, "then": {"required": ["b"]}}),
        "#0 !Root = refined #1 where if(as #2?; as #4?; -)
         #1 #0/Value = struct open {  }
         #2 #0/If = union by-kind (Boolean: bool | Number: number | String: string | Array: [any] | Object: #3)
         #3 #2/Object = struct open { a: any }
         #4 #0/Then = union by-kind (Boolean: bool | Number: number | String: string | Array: [any] | Object: #5)
         #5 #4/Object = struct open { b: any }",
    );
    check(
        json!({"type": "object", "dependentRequired": {"a": ["b"]}, "propertyNames": {"maxLength": 3}}),
        "#0 !Root = struct open {  } where propertyNames #1?, a requires b
         #1 #0/Name = union by-kind (Boolean: bool | Number: number | String: string{maxLength 3} | Array: [any] | Object: #2)
         #2 #1/Object = struct open {  }",
    );
    check(
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "dependencies": {"a": ["b"], "c": {"required": ["d"]}}}),
        "#0 !Root = refined #1? where all(if(all(kinds(object); object{; required a; ; rest -}); object{; required b; ; rest -}; -); if(all(kinds(object); object{; required c; ; rest -}); as #3?; -))
         #1 #0/Value = union by-kind (Boolean: bool | Number: number | String: string | Array: [any] | Object: #2)
         #2 #1/Object = struct open {  }
         #3 #0/c Dependency = union by-kind (Boolean: bool | Number: number | String: string | Array: [any] | Object: #4)
         #4 #3/Object = struct open { d: any }",
    );
}

#[test]
fn enum_beside_shape_is_refined() {
    check(
        json!({"type": "string", "enum": ["ab", "cd"], "pattern": "^a"}),
        "#0 !Root = refined #1 where enum [\"ab\",\"cd\"]
         #1 #0/Value = newtype string /^a/",
    );
}

// ---------------------------------------------------------------------------------------------
// $ref, recursion, cycles

#[test]
fn refs_are_transparent_and_memoized() {
    check(
        json!({
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/pos"}, "b": {"$ref": "#/$defs/pos"}, "c": {"$ref": "#/$defs/item"}, "d": {"$ref": "#/$defs/item"}},
            "$defs": {
                "pos": {"type": "integer", "minimum": 1},
                "item": {"type": "object", "title": "An item", "properties": {"x": {"$ref": "#/$defs/pos"}}}
            }
        }),
        "#0 !Root = struct open { a?: u64{minimum 1}, b?: u64{minimum 1}, c?: #1, d?: #1 }
         #1 $item = struct open { x?: u64{minimum 1} }",
    );
}

#[test]
fn recursion_through_optional_and_arrays() {
    check(
        json!({
            "$ref": "#/$defs/node",
            "$defs": {"node": {"type": "object", "required": ["children"], "properties": {
                "next": {"$ref": "#/$defs/node"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}
            }}}
        }),
        "#0 !Root = struct open { next?: #0, children: [#0] }",
    );
    // Recursion into a schema that lowers to an inline type makes it a named alias.
    check(json!({"type": "array", "items": {"$ref": "#"}}), "#0 !Root = alias [#0]");
    check(
        json!({"$defs": {"list": {"type": ["object", "null"], "properties": {"next": {"$ref": "#/$defs/list"}}}}, "$ref": "#/$defs/list"}),
        "#0 !Root = alias #1?
         #1 $list = struct open { next?: #0 }",
    );
}

#[test]
fn ref_cycles_are_errors() {
    assert_eq!(errors(json!({"$ref": "#"})), ["ref-cycle /$ref"]);
    assert_eq!(
        errors(json!({"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}})),
        ["ref-cycle /$defs/b/$ref"]
    );
    assert_eq!(errors(json!({"allOf": [{"$ref": "#"}], "type": "object"})), ["ref-cycle /allOf/0/$ref"]);
}

#[test]
fn infinite_types_are_errors() {
    let diags = lower_one(json!({
        "type": "object",
        "required": ["self"],
        "properties": {"self": {"$ref": "#"}}
    }))
    .unwrap_err();
    let d = diags.iter().next().unwrap();
    assert_eq!((d.code, d.pointer.as_str(), diags.0.len()), ("infinite-type", "", 1));
    assert!(d.message.contains("required property `self`"), "{}", d.message);
    assert!(d.hint.is_some());
    // Around a cycle of two: reported once.
    assert_eq!(
        errors(json!({"$ref": "#/$defs/a", "$defs": {
            "a": {"type": "object", "required": ["b"], "properties": {"b": {"$ref": "#/$defs/b"}}},
            "b": {"type": "object", "required": ["a"], "properties": {"a": {"$ref": "#/$defs/a"}}}
        }})),
        ["infinite-type /$defs/a"]
    );
    // Nullable, optional, or a union with a base case: finite.
    check(
        json!({"type": "object", "required": ["next"], "properties": {"next": {"oneOf": [{"$ref": "#"}, {"type": "string"}]}}}),
        "#0 !Root = struct open { next: #1 }\n#1 #0/next = union by-kind (Object: #0 | String: string)",
    );
}

#[test]
fn siblings_of_ref_by_draft() {
    // Draft 7: keywords beside `$ref` are ignored.
    check(
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {
            "a": {"$ref": "#/definitions/s", "maxLength": 3, "description": "doc"}
        }, "definitions": {"s": {"type": "string"}}}),
        "#0 !Root = struct open { a?: string }",
    );
    // 2020-12: they apply, as an allOf with the target.
    check(
        json!({"type": "object", "properties": {
            "a": {"$ref": "#/$defs/base", "properties": {"y": {"type": "boolean"}}, "unevaluatedProperties": false}
        }, "$defs": {"base": {"type": "object", "properties": {"x": {"type": "string"}}}}}),
        "#0 !Root = struct open { a?: #1 }
         #1 #0/a = struct closed { x?: string, y?: bool }",
    );
}

#[test]
fn older_draft_spellings() {
    // 2019-09: array-form `items` is a tuple, `additionalItems` the rest.
    check(
        json!({"$schema": "https://json-schema.org/draft/2019-09/schema", "type": "array", "items": [{"type": "null"}], "additionalItems": false}),
        "#0 !Root = checked all(kinds(array); array[as null; never])",
    );
    // 2020-12 has no `additionalItems` (an unknown keyword is an annotation).
    check(json!({"type": "array", "additionalItems": false}), "#0 !Root = alias [any]");
    // Draft 4 has no `const`; draft 6 does.
    check(json!({"$schema": "http://json-schema.org/draft-04/schema#", "type": "string", "const": "x"}), "#0 !Root = alias string");
    check(json!({"$schema": "http://json-schema.org/draft-06/schema#", "type": "string", "const": "x"}), "#0 !Root = const \"x\"");
    // `definitions` names types in any draft; `dependentRequired` is unknown before 2019-09.
    check(
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "$ref": "#/definitions/a", "definitions": {"a": {"type": "object", "dependentRequired": {"x": ["y"]}}}}),
        "#0 !Root = struct open {  }",
    );
    check(
        json!({"$schema": "https://json-schema.org/draft/2019-09/schema", "$recursiveAnchor": true, "type": "object", "properties": {"a": {"$recursiveRef": "#"}}}),
        "#0 !Root = struct open { a?: #0 }",
    );
    // `$recursiveRef` goes to the outermost resource with `"$recursiveAnchor": true`: the
    // root's `child` is the root, `name` included.
    check(
        json!({
            "$schema": "https://json-schema.org/draft/2019-09/schema",
            "$id": "https://example.com/root",
            "$recursiveAnchor": true,
            "$ref": "node",
            "properties": {"name": {"type": "string"}},
            "$defs": {"node": {"$id": "node", "$recursiveAnchor": true, "type": "object", "properties": {"child": {"$recursiveRef": "#"}}}}
        }),
        "#0 !Root = struct open { child?: #0, name?: string }",
    );
}

#[test]
fn unevaluated_properties() {
    // On a schema without in-place subschemas it is `additionalProperties`.
    check(
        json!({"type": "object", "properties": {"a": {}}, "unevaluatedProperties": {"type": "string"}}),
        "#0 !Root = struct rest string { a?: any }",
    );
    // Beside an `additionalProperties` it sees every property as evaluated: no effect.
    check(
        json!({"allOf": [{"type": "object", "properties": {"a": {}}, "additionalProperties": true}], "unevaluatedProperties": false}),
        "#0 !Root = struct open { a?: any }",
    );
    // Below `anyOf`, what was evaluated depends on the branch the value passes: the union
    // refined by a check.
    check(
        json!({"anyOf": [{"type": "object", "properties": {"a": {}}}, {"type": "object", "properties": {"b": {}}}], "unevaluatedProperties": false}),
        "#0 !Root = refined #1 where unevaluatedProperties(never)
         #1 #0/Value = union first-match (Object: #2 | Object: #3)
         #2 #1/Variant0 = struct open { a?: any }
         #3 #1/Variant1 = struct open { b?: any }",
    );
    // A nested `unevaluatedProperties: true` evaluates every property: not a merged struct.
    check(
        json!({"properties": {"a": {}}, "allOf": [{"unevaluatedProperties": true}], "unevaluatedProperties": false}),
        "#0 !Root = refined #1? where unevaluatedProperties(never)
         #1 #0/Value = union by-kind (Boolean: bool | Number: number | String: string | Array: [any] | Object: #2)
         #2 #1/Object = struct open { a?: any }",
    );
}

#[test]
fn tuples_with_every_leading_item_are_tuple_structs() {
    check(
        json!({"type": "array", "prefixItems": [{"type": "number"}, {"type": "string"}], "items": false, "minItems": 2}),
        "#0 !Root = tuple (number, string) rest none",
    );
    check(
        json!({"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "boolean"}, "minItems": 1}),
        "#0 !Root = tuple (string) rest bool",
    );
    check(json!({"type": "array", "prefixItems": [{"type": "string"}], "minItems": 1}), "#0 !Root = tuple (string) rest any");
    // A leading item may be missing: a Rust value could skip one in the middle, so checked.
    check(
        json!({"type": "array", "prefixItems": [{"type": "string"}], "items": false}),
        "#0 !Root = checked all(kinds(array); array[as string; never])",
    );
    // An assertion the shape does not imply: checked.
    check(
        json!({"type": "array", "prefixItems": [{"type": "string"}], "minItems": 1, "maxItems": 3}),
        "#0 !Root = checked all(kinds(array); array[as string; -]; minItems 1; maxItems 3)",
    );
}

#[test]
fn false_and_double_negations() {
    check(json!({"allOf": [true, false]}), "#0 !Root = checked never");
    check(json!({"not": {}}), "#0 !Root = checked never");
    check(json!({"not": true}), "#0 !Root = checked never");
    check(json!({"not": false}), "#0 !Root = alias any");
    check(
        json!({"not": {"not": {}}}),
        "#0 !Root = alias any
         #1 #0/Not = checked never",
    );
}

#[test]
fn unevaluated_items() {
    // Alone, without `type`: non-arrays pass; arrays are `items: false`.
    check(
        json!({"unevaluatedItems": false}),
        "#0 !Root = alias #1?
         #1 #0/Value = union by-kind (Boolean: bool | Number: number | String: string | Array: [#2] | Object: #3)
         #2 #1/Array Item = checked never
         #3 #1/Object = struct open {  }",
    );
    // Beside `contains`: the items it matches are evaluated (a check beside the `Vec`).
    check(
        json!({"type": "array", "contains": {"type": "string"}, "unevaluatedItems": false}),
        "#0 !Root = refined [any]{contains string 1..} where unevaluatedItems(never)",
    );
}

#[test]
fn dynamic_refs_resolve_in_the_dynamic_scope() {
    // Alone, `$dynamicRef` goes where `$ref` would: the anchor of its own resource.
    check(
        json!({"$dynamicAnchor": "meta", "type": "object", "properties": {"a": {"$dynamicRef": "#meta"}}}),
        "#0 !Root = struct open { a?: #0 }",
    );
    // Reached from a resource that declares `items` too, the outermost declaration wins: the
    // root's list holds strings, while `list` on its own holds anything.
    let list = json!({
        "$id": "list",
        "type": "array",
        "items": {"$dynamicRef": "#items"},
        "$defs": {"items": {"$dynamicAnchor": "items"}}
    });
    check(
        json!({
            "$id": "https://example.com/root",
            "$ref": "list",
            "$defs": {"strings": {"$dynamicAnchor": "items", "type": "string"}, "list": list.clone()}
        }),
        "#0 !Root = alias [string]",
    );
    check(json!({"$id": "https://example.com/root", "$ref": "list", "$defs": {"list": list}}), "#0 !Root = alias [any]");
}

#[test]
fn dynamic_refs_are_static_unless_their_target_declares_the_anchor() {
    // `#/$defs/items` is a pointer, not an anchor name: the outer `items` anchor is not used.
    check(
        json!({
            "$id": "https://example.com/root",
            "$ref": "list",
            "$defs": {
                "strings": {"$dynamicAnchor": "items", "type": "string"},
                "list": {"$id": "list", "type": "array", "items": {"$dynamicRef": "#/$defs/items"}, "$defs": {"items": {"$dynamicAnchor": "items", "type": "integer"}}}
            }
        }),
        "#0 !Root = alias [i64]",
    );
}

// ---------------------------------------------------------------------------------------------
// Names and docs

#[test]
fn name_hints() {
    let ir = lower_one(json!({
        "title": "Top",
        "type": "object",
        "properties": {
            "a": {"$ref": "#/$defs/Thing"},
            "b": {"type": "array", "items": {"type": "object", "title": "Titled"}},
            "c": {"type": "array", "items": {"type": "object", "properties": {"z": {}}}}
        },
        "$defs": {"Thing": {"type": "object", "title": "A thing"}}
    }))
    .unwrap();
    let hints: Vec<_> = ir
        .defs
        .iter()
        .map(|d| (d.hint.explicit.clone(), d.hint.key.clone(), d.hint.title.clone(), d.hint.parent.map(|p| p.0), d.hint.segment.clone()))
        .collect();
    assert_eq!(
        hints,
        [
            (Some("Root".to_owned()), None, Some("Top".to_owned()), None, String::new()),
            (None, Some("Thing".to_owned()), Some("A thing".to_owned()), Some(0), "a".to_owned()),
            (None, None, Some("Titled".to_owned()), Some(0), "b Item".to_owned()),
            (None, None, None, Some(0), "c Item".to_owned()),
        ]
    );
    assert_eq!(ir.roots, [(DocId(0), crate::ir::DefId(0))]);
    assert_eq!(ir.defs[1].origin.pointer, "/$defs/Thing");
}

#[test]
fn docs_are_carried() {
    let ir = lower_one(json!({
        "type": "object",
        "title": "T",
        "description": "D",
        "examples": [{"a": 1}],
        "default": {},
        "deprecated": true,
        "properties": {"a": {"type": "integer", "readOnly": true, "writeOnly": true, "description": "field"}}
    }))
    .unwrap();
    let docs = &ir.defs[0].docs;
    assert_eq!(
        (docs.title.as_deref(), docs.description.as_deref(), &docs.examples, &docs.default, docs.deprecated),
        (Some("T"), Some("D"), &vec![json!({"a": 1})], &Some(json!({})), true)
    );
    let DefKind::Struct(s) = &ir.defs[0].kind else { panic!("not a struct") };
    let field = &s.fields[0].docs;
    assert_eq!((field.description.as_deref(), field.read_only, field.write_only), (Some("field"), true, true));
}

// ---------------------------------------------------------------------------------------------
// Invalid schemas

#[test]
fn invalid_schemas_are_reported_at_the_keyword() {
    let cases = [
        (json!({"type": 5}), "invalid-schema /type"),
        (json!({"type": "strin"}), "invalid-schema /type"),
        (json!({"type": ["string", "nul"]}), "invalid-schema /type/1"),
        (json!({"type": []}), "invalid-schema /type"),
        (json!({"required": "x"}), "invalid-schema /required"),
        (json!({"required": ["a", 1]}), "invalid-schema /required/1"),
        (json!({"properties": []}), "invalid-schema /properties"),
        (json!({"properties": {"a": 3}}), "invalid-schema /properties/a"),
        (json!({"enum": {}}), "invalid-schema /enum"),
        (json!({"minimum": "3"}), "invalid-schema /minimum"),
        (json!({"multipleOf": 0}), "invalid-schema /multipleOf"),
        (json!({"minLength": -1}), "invalid-schema /minLength"),
        (json!({"maxItems": 1.5}), "invalid-schema /maxItems"),
        (json!({"items": 3}), "invalid-schema /items"),
        (json!({"items": [{}]}), "invalid-schema /items"),
        (json!({"$ref": 7}), "invalid-schema /$ref"),
        (json!({"allOf": []}), "invalid-schema /allOf"),
        (json!({"oneOf": {}}), "invalid-schema /oneOf"),
        (json!({"not": "x"}), "invalid-schema /not"),
        (json!({"additionalProperties": 1}), "invalid-schema /additionalProperties"),
        (json!({"exclusiveMinimum": true}), "invalid-schema /exclusiveMinimum"),
        (json!({"uniqueItems": "yes"}), "invalid-schema /uniqueItems"),
        (json!({"dependentRequired": {"a": "b"}}), "invalid-schema /dependentRequired/a"),
        (json!({"pattern": "("}), "invalid-pattern /pattern"),
        (json!({"patternProperties": {"[": {}}}), "invalid-pattern /patternProperties/["),
        (json!({"type": "object", "properties": {"a": {"type": "integer", "minimum": 5, "maximum": 1}}}), "invalid-schema /properties/a"),
        (json!(3), "invalid-schema "),
    ];
    for (schema, expect) in cases {
        let found = errors(schema.clone());
        assert_eq!(found, [expect], "{schema}");
    }
    let draft4 = json!({"$schema": "http://json-schema.org/draft-04/schema#", "minimum": 1, "exclusiveMinimum": 0});
    assert_eq!(errors(draft4), ["invalid-schema /exclusiveMinimum"]);
}

#[test]
fn diagnostics_have_messages_hints_and_positions() {
    let diags = lower_one(json!({"type": "object", "properties": {"a": {"type": "strin"}}})).unwrap_err();
    let d = diags.iter().next().unwrap();
    assert_eq!(d.file, "schemas/test.json");
    assert!(d.message.contains("strin"), "{}", d.message);
    assert!(d.hint.as_deref().is_some_and(|h| h.contains("\"string\"")));
    assert!(d.position.is_some());
}

#[test]
fn all_problems_are_reported_together() {
    let found = errors(json!({
        "type": "object",
        "required": "a",
        "properties": {"a": {"type": 5}, "b": {"pattern": "["}, "c": {"$ref": "#/$defs/missing"}}
    }));
    assert_eq!(
        found,
        [
            "invalid-schema /required",
            "invalid-schema /properties/a/type",
            "invalid-pattern /properties/b/pattern",
            "unresolved-ref /properties/c/$ref"
        ]
    );
}

#[test]
fn never_panics_on_odd_input() {
    let odd = [
        json!(null),
        json!([]),
        json!("x"),
        json!({"type": null, "items": null, "properties": null, "allOf": null, "oneOf": [1, null], "$ref": null}),
        json!({"items": {"items": {"items": false}}, "prefixItems": 3, "not": {"not": {"not": true}}}),
        json!({"if": 1, "then": 2, "else": 3, "dependencies": 4, "dependentSchemas": 5, "propertyNames": 6, "contains": 7}),
        json!({"enum": [[], {}, null, 1.5e308, -0.0]}),
        json!({"type": "integer", "minimum": -1e300, "maximum": 1e300}),
        json!({"allOf": [{"$ref": "#/allOf/1"}, {"$ref": "#/allOf/0"}]}),
        json!({"anyOf": [{"$ref": "#"}, {"$ref": "#"}]}),
        json!({"$defs": {"a": {"$ref": "#/$defs/a/properties/x"}}, "$ref": "#/$defs/a"}),
    ];
    for schema in odd {
        let _ = lower_one(schema);
    }
}

// ---------------------------------------------------------------------------------------------
// Several documents and the seed schemas

#[test]
fn refs_across_documents() {
    let a = document(0, "a.json", json!({"type": "object", "properties": {"b": {"$ref": "b.json"}}}));
    let b = document(1, "b.json", json!({"type": "string", "pattern": "^b"}));
    let ir = lower_named(vec![a, b], None, &config()).unwrap();
    assert_eq!(describe(&ir), "#0 - = struct open { b?: #1 }\n#1 #0/b = newtype string /^b/\n#2 - = alias #1");
    assert_eq!(ir.roots, [(DocId(0), crate::ir::DefId(0)), (DocId(1), crate::ir::DefId(2))]);
}

fn seed(path: &str) -> Value {
    let full = format!("{}/../../schemas/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{full}: {e}"))
}

#[test]
fn seed_madoo_attempts_report() {
    check(
        seed("madoo/attempts-report.v1.json"),
        "#0 !Root = struct closed { schema: #1, body: #2, policy: #4, item?: u64?, attempts: [#6]{minItems 1, maxItems 5}, selected_attempt: u64{minimum 1}?, disposition: #8, reason: string }
         #1 #0/schema = const \"madoo.attempts-report/v1\"
         #2 #0/body = struct closed { workflow: #3?, version: u64{minimum 1} }
         #3 #2/workflow = newtype string /^wf_[0-9a-f]{32}$/
         #4 #0/policy = struct closed { max_attempts: u8{minimum 1, maximum 5}, on_exhausted: #5, minimum_score_to_deliver: number{minimum 0, maximum 1}? }
         #5 #4/on_exhausted = enum best|discard|fail
         #6 $attempt = struct closed { attempt: u8{minimum 1, maximum 5}, execution: #7, accepted: bool, score: number{minimum 0, maximum 1}, feedback: string? }
         #7 #6/execution = newtype string /^run_[0-9a-f]{32}$/
         #8 #0/disposition = enum accepted|best_unaccepted|discarded",
    );
}

#[test]
fn seed_pi_glla_goal() {
    let ir = lower_one(seed("pi-glla/goal.json")).unwrap_or_else(|d| panic!("{d}"));
    let text = describe(&ir);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 22, "{text}");
    for expected in [
        "#1 #0/id = newtype string /^\\d{14}-[a-z0-9]{6}$/",
        "#5 #0/taskList = struct open { version: #6, tasks: [#7]{maxItems 20} }",
        "#6 #5/version = const 1",
        "#7 $task = struct open { id: string, title: string{minLength 1}, status: #8, agentRole?: #9, subtasks?: [#7]{maxItems 5} }",
        "#20 #0/telemetry = struct open { turns: u64, fileWrites: u64, bashCalls: u64 }",
        "#21 #0/usage = struct open { tokensUsed: u64, tokensLimit: u64 }",
    ] {
        assert!(lines.contains(&expected), "missing {expected}\n{text}");
    }
    assert!(
        lines[0].starts_with("#0 !Root = struct open { id: #1, objective: string{minLength 1}, status: #2, policy: #3, agentRole?: #4,"),
        "{text}"
    );
    assert!(lines[0].contains("revision?: u64, pendingCompletion?: #12,"), "{text}");
    assert!(lines[0].contains("createdAt: DateTime, updatedAt: DateTime }"), "{text}");
    let DefKind::Struct(root) = &ir.defs[0].kind else { panic!("root is not a struct") };
    let revision = root.fields.iter().find(|f| f.json_name == "revision").map(|f| f.docs.default.clone());
    assert_eq!(revision, Some(Some(json!(0))));
}

// ---------------------------------------------------------------------------------------------
// Depth

/// `{"type": "array", "items": ...}` `depth` times around a string.
fn nested_arrays(depth: usize) -> Value {
    (0..depth).fold(json!({"type": "string"}), |items, _| json!({"type": "array", "items": items}))
}

#[test]
fn arrays_nested_up_to_the_limit_stay_inline() {
    let inline = format!("{}string{}", "[".repeat(32), "]".repeat(32));
    check(json!({"type": "object", "properties": {"a": nested_arrays(32)}}), &format!("#0 !Root = struct open {{ a?: {inline} }}"));
}

#[test]
fn deeper_arrays_are_cut_into_named_types() {
    // 33 levels: the items 32 levels down are a type of their own, named by the path with its
    // repeated step counted; through `$defs`, by the key.
    let inner = format!("{}string{}", "[".repeat(32), "]".repeat(32));
    check(
        json!({"type": "object", "properties": {"a": nested_arrays(33)}}),
        &format!("#0 !Root = struct open {{ a?: [#1] }}\n#1 #0/a Item = alias {inner}"),
    );
    let mut defs = serde_json::Map::new();
    for i in 0..40 {
        defs.insert(format!("l{i}"), json!({"type": "array", "items": {"$ref": format!("#/$defs/l{}", i + 1)}}));
    }
    defs.insert("l40".to_owned(), json!({"type": "string"}));
    let ir = lower_one(json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/l0"}}, "$defs": defs})).expect("lowers");
    let described = describe(&ir);
    assert!(described.starts_with(&format!("#0 !Root = struct open {{ a?: {}#1{} }}", "[".repeat(8), "]".repeat(8))), "{described}");
    assert!(described.contains(&format!("#1 $l8 = alias {inner}")), "{described}");
    assert_eq!(compact_segment_cases(), vec!["deep Item95", "Item2", "a Item", "Value3"]);
}

fn compact_segment_cases() -> Vec<String> {
    let deep = format!("deep{}", " Item".repeat(95));
    [deep.as_str(), "Item Item", "a Item", "Value Value Value"].iter().map(|s| super::compact_segment(s)).collect()
}
