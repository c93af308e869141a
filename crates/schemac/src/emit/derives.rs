//! Custom derives and attributes (`Config::derives`, `Config::attributes`, and per type
//! `Config::types`) on generated types, and the generation-time check that a standard derive
//! fits: `Eq` on a struct with an `f64` field, or `Copy` on one with a `String`, is an error
//! naming the type, the field and its schema, not a rustc error in generated code.

use crate::ir::{Def, DefId, DefKind, IntTy, Ir, Rest, Ty};
use crate::{Config, Diagnostic, TypeSettings};

/// The derives whose fit is decided here; any other (`utoipa::ToSchema`, ...) is passed on.
const CHECKED: &[&str] = &["Eq", "Hash", "PartialOrd", "Ord", "Copy"];

/// What the generated code implements itself where it can, so that a derive would clash.
const IMPLEMENTED: &[&str] = &["Default", "PartialEq", "Clone", "Debug", "Serialize", "Deserialize"];

/// The per-type settings of def `def`, if `config` has any.
pub(super) fn settings<'a>(ir: &Ir, config: &'a Config, def: &Def) -> Option<&'a TypeSettings> {
    let display = ir.sources.documents.get(&def.origin.doc).map(|d| d.display.as_str())?;
    config.types.get(display)?.get(&def.origin.pointer)
}

/// Every derive a type is asked for and cannot have, each naming the type and the field (or
/// variant) in the way, at the field's schema; and a derive or attribute that does not parse.
pub(crate) fn check(ir: &Ir, config: &Config) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    let file = |def: &Def| ir.sources.documents.get(&def.origin.doc).map(|d| d.display.clone()).unwrap_or_default();
    // Each def's derives: the crate's, then its own.
    let requested: Vec<Vec<&str>> = ir
        .defs
        .iter()
        .map(|def| {
            let own = settings(ir, config, def).map(|s| s.derives.as_slice()).unwrap_or_default();
            config.derives.iter().chain(own).map(String::as_str).collect()
        })
        .collect();
    let mut listed: Vec<(&str, String, String)> =
        config.derives.iter().map(|d| (d.as_str(), "schemac.toml".to_owned(), String::new())).collect();
    let mut attributes: Vec<(&str, String, String)> =
        config.attributes.iter().map(|a| (a.as_str(), "schemac.toml".to_owned(), String::new())).collect();
    // Built only when types have settings of their own: it lays out every type.
    let ctx = (!config.types.is_empty()).then(|| super::ty::Ctx::new(ir));
    for (i, def) in ir.defs.iter().enumerate() {
        let Some(own) = settings(ir, config, def) else { continue };
        listed.extend(own.derives.iter().map(|d| (d.as_str(), file(def), def.origin.pointer.clone())));
        attributes.extend(own.attributes.iter().map(|a| (a.as_str(), file(def), def.origin.pointer.clone())));
        let decorated = !own.derives.is_empty() || !own.attributes.is_empty();
        let alias = ctx.as_ref().is_some_and(|ctx| super::alias::is_type_alias(ctx, DefId(i)));
        if decorated && (alias || ir.rust_types.contains_key(&DefId(i))) {
            let message = format!("`{}` is a `type` alias, which cannot carry derives or attributes", def.name);
            errors.push(
                Diagnostic::of(&crate::codes::BAD_DERIVE, file(def), def.origin.pointer.clone(), message)
                    .with_hint("set them on the type it names, or crate-wide with `schemas.derives`"),
            );
        }
    }
    for (derive, at, pointer) in &listed {
        if syn::parse_str::<syn::Path>(derive).is_err() {
            errors.push(Diagnostic::of(&crate::codes::BAD_DERIVE, at.clone(), pointer.clone(), format!("`{derive}` is not a derive path")));
            continue;
        }
        let last = derive.rsplit("::").next().unwrap_or(derive).trim();
        if IMPLEMENTED.contains(&last) {
            let message =
                format!("`{derive}` is implemented by the generated code already (where it exists), so it cannot be derived again");
            errors.push(Diagnostic::of(&crate::codes::BAD_DERIVE, at.clone(), pointer.clone(), message));
        }
    }
    for &checked in CHECKED {
        let wants: Vec<bool> = requested.iter().map(|r| r.contains(&checked)).collect();
        if !wants.contains(&true) {
            continue;
        }
        let fits = fits(ir, checked, &wants);
        for (i, def) in ir.defs.iter().enumerate() {
            if !wants[i] || fits[i] {
                continue;
            }
            if let Some((member, pointer, why)) = culprit(ir, DefId(i), checked, &wants, &fits) {
                let message = format!("`{checked}` cannot be derived for `{}`: {member} {why}", def.name);
                errors.push(Diagnostic::of(
                    &crate::codes::IMPOSSIBLE_DERIVE,
                    file(def),
                    format!("{}{pointer}", def.origin.pointer),
                    message,
                ));
            }
        }
    }
    for (attribute, at, pointer) in &attributes {
        if syn::parse_str::<syn::File>(&format!("{attribute} struct S;")).is_err() {
            errors.push(Diagnostic::of(
                &crate::codes::BAD_DERIVE,
                at.clone(),
                pointer.clone(),
                format!("`{attribute}` is not an outer attribute"),
            ));
        }
    }
    errors
}

/// Whether def `id`'s generated declaration derives `derive` by itself (string enums and
/// constants derive what a fieldless type can).
fn derives_by_itself(ir: &Ir, id: DefId, derive: &str) -> bool {
    match &ir.def(id).kind {
        DefKind::StringEnum(_) => true,
        DefKind::Const(_) => matches!(derive, "Copy" | "Eq" | "Hash"),
        _ => false,
    }
}

/// Per def, whether it can derive `derive` when asked to (a fixed point: a def fits when what
/// it holds has the derive, by itself or because it is asked for it and fits).
fn fits(ir: &Ir, derive: &str, wants: &[bool]) -> Vec<bool> {
    let mut fits = vec![true; ir.defs.len()];
    loop {
        let mut changed = false;
        for i in 0..ir.defs.len() {
            if fits[i] && culprit(ir, DefId(i), derive, wants, &fits).is_some() {
                fits[i] = false;
                changed = true;
            }
        }
        if !changed {
            return fits;
        }
    }
}

/// The first member of def `id` that cannot have `derive`: (its name, the pointer below the
/// def, why).
fn culprit(ir: &Ir, id: DefId, derive: &str, wants: &[bool], fits: &[bool]) -> Option<(String, String, String)> {
    let def = ir.def(id);
    // The user's type has what its author derived; rustc says when it lacks one.
    if ir.rust_types.contains_key(&id) || derives_by_itself(ir, id, derive) {
        return None;
    }
    let check = |ty: &Ty| blocker(ir, id, ty, derive, wants, fits);
    match &def.kind {
        DefKind::Struct(s) => {
            for field in &s.fields {
                if let Some(why) = check(&field.ty) {
                    let pointer = format!("/properties/{}", field.json_name.replace('~', "~0").replace('/', "~1"));
                    return Some((format!("field `{}`", field.rust_name.trim_start_matches("r#")), pointer, why));
                }
            }
            let rest = match &s.rest {
                Rest::Closed => None,
                Rest::Open => match derive {
                    "PartialOrd" | "Ord" => Some("keeps undeclared properties (`Extra`), which have no order".to_owned()),
                    "Copy" => Some("keeps undeclared properties (`Extra`), which are not `Copy`".to_owned()),
                    _ => None,
                },
                Rest::Typed(ty) => check(&Ty::Map(Box::new(ty.clone()))),
                Rest::Patterns { .. } => check(&Ty::Map(Box::new(Ty::Any))),
            };
            rest.map(|why| ("field `extra`".to_owned(), String::new(), why))
        }
        DefKind::Union(u) => u.variants.iter().find_map(|v| check(&v.ty).map(|why| (format!("variant `{}`", v.name), String::new(), why))),
        DefKind::Tuple(t) => t
            .items
            .iter()
            .chain(&t.rest)
            .enumerate()
            .find_map(|(i, ty)| check(ty).map(|why| (format!("item {i}"), format!("/prefixItems/{i}"), why))),
        DefKind::Newtype(n) => check(&n.inner).map(|why| ("its value".to_owned(), String::new(), why)),
        DefKind::Alias(ty) => check(ty).map(|why| ("its value".to_owned(), String::new(), why)),
        DefKind::Refined(r) => check(&r.base).map(|why| ("its value".to_owned(), String::new(), why)),
        DefKind::ValueEnum(_) | DefKind::Checked(_) => check(&Ty::Any).map(|why| ("its value".to_owned(), String::new(), why)),
        DefKind::StringEnum(_) | DefKind::Const(_) => None,
    }
}

/// Why a value of `ty`, held by def `from`, cannot have `derive`, if it cannot.
fn blocker(ir: &Ir, from: DefId, ty: &Ty, derive: &str, wants: &[bool], fits: &[bool]) -> Option<String> {
    let ordered = matches!(derive, "PartialOrd" | "Ord");
    let copy = derive == "Copy";
    match ty {
        Ty::Number if ir.exact_numbers && copy => Some("is a `schemac_runtime::Number`, which is not `Copy`".to_owned()),
        Ty::Number if !ir.exact_numbers && !matches!(derive, "PartialOrd" | "Copy") => {
            Some(format!("is an `f64`, which has no `{derive}` (NaN)"))
        }
        Ty::Integer(IntTy::Exact) if copy => Some("is a `schemac_runtime::Integer`, which is not `Copy`".to_owned()),
        Ty::Any if ordered => Some("is a `serde_json::Value`, which has no order".to_owned()),
        Ty::Any if copy => Some("is a `serde_json::Value`, which is not `Copy`".to_owned()),
        Ty::String | Ty::Format(_) if copy => Some("is a `String`, which is not `Copy`".to_owned()),
        Ty::Integer(IntTy::Big) if copy => Some("is a `BigInt`, which is not `Copy`".to_owned()),
        Ty::Array(_) if copy => Some("is a `Vec`, which is not `Copy`".to_owned()),
        Ty::Map(_) if copy => Some("is a map, which is not `Copy`".to_owned()),
        Ty::Integer(_) | Ty::Bool | Ty::Number | Ty::String | Ty::Format(_) | Ty::Null | Ty::Any => None,
        Ty::Def(id) if copy && *id == from => Some("holds the type itself, behind a `Box`, which is not `Copy`".to_owned()),
        Ty::Def(id) => {
            let name = &ir.def(*id).name;
            if ir.rust_types.contains_key(id) || derives_by_itself(ir, *id, derive) || (wants[id.0] && fits[id.0]) {
                None
            } else if wants[id.0] {
                Some(format!("is a `{name}`, which cannot have `{derive}` either"))
            } else {
                Some(format!("is a `{name}`, which does not derive `{derive}`: add it to that type's `derives` too"))
            }
        }
        Ty::Array(inner) | Ty::Nullable(inner) | Ty::Constrained(inner, _) => blocker(ir, from, inner, derive, wants, fits),
        Ty::Map(inner) => blocker(ir, from, inner, derive, wants, fits),
    }
}

/// The derives and attributes `config` adds to def `def` (the crate's, then its own), for a
/// declaration that already derives `existing`.
pub(super) fn attributes(ir: &Ir, config: &Config, def: &Def, existing: &[String]) -> Vec<syn::Attribute> {
    let own = settings(ir, config, def);
    let derives_listed = config.derives.iter().chain(own.map(|s| s.derives.as_slice()).unwrap_or_default());
    let mut derives: Vec<syn::Path> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for d in derives_listed {
        if existing.iter().any(|e| e == d || e.rsplit("::").next() == Some(d.as_str())) || seen.contains(&d.as_str()) {
            continue;
        }
        seen.push(d);
        derives.extend(syn::parse_str(d).ok());
    }
    let mut attrs: Vec<syn::Attribute> = Vec::new();
    if !derives.is_empty() {
        attrs.push(syn::parse_quote!(#[derive(#(#derives),*)]));
    }
    for attribute in config.attributes.iter().chain(own.map(|s| s.attributes.as_slice()).unwrap_or_default()) {
        if let Ok(file) = syn::parse_str::<syn::File>(&format!("{attribute} struct S;"))
            && let Some(syn::Item::Struct(s)) = file.items.into_iter().next()
        {
            attrs.extend(s.attrs);
        }
    }
    attrs
}

#[cfg(test)]
mod tests {
    use super::super::testing::{compile_one, flat};
    use crate::Config;

    fn compile(schema: &str, config: &Config) -> Result<String, String> {
        compile_one(schema, config).map(|o| flat(&o)).map_err(|d| d.to_string())
    }

    const SCHEMA: &str = r#"{"type": "object", "properties": {
        "name": {"type": "string"},
        "inner": {"type": "object", "properties": {"score": {"type": "number"}}},
        "mode": {"enum": ["a", "b"]}
    }}"#;

    #[test]
    fn an_impossible_derive_is_an_error_naming_the_field() {
        // An exact `Number` has `Eq`; an `f64` has not.
        assert!(compile(SCHEMA, &Config { derives: vec!["Eq".to_owned()], ..Config::default() }).is_ok());
        let config = Config { derives: vec!["Eq".to_owned()], primitive_numbers: true, ..Config::default() };
        let errors = compile(SCHEMA, &config).unwrap_err();
        assert!(
            errors.contains("s.json at /properties/inner/properties/score: `Eq` cannot be derived for `RootInner`: field `score` is an `f64`, which has no `Eq` (NaN)"),
            "{errors}"
        );
        assert!(
            errors.contains(
                "/properties/inner: `Eq` cannot be derived for `Root`: field `inner` is a `RootInner`, which cannot have `Eq` either"
            ),
            "{errors}"
        );
        for implemented in ["Default", "serde::Serialize"] {
            let errors = compile(SCHEMA, &Config { derives: vec![implemented.to_owned()], ..Config::default() }).unwrap_err();
            assert!(errors.contains("error[bad-derive]") && errors.contains(implemented), "{errors}");
        }
    }

    #[test]
    fn the_bundled_attempts_report_derives_eq_unless_its_numbers_are_f64() {
        let schema = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../schemas/madoo/attempts-report.v1.json")).unwrap();
        assert!(compile(&schema, &Config { derives: vec!["Eq".to_owned(), "Hash".to_owned()], ..Config::default() }).is_ok());
        let config = Config { derives: vec!["Eq".to_owned()], primitive_numbers: true, ..Config::default() };
        let errors = compile(&schema, &config).unwrap_err();
        assert!(
            errors
                .contains("`Eq` cannot be derived for `RootPolicy`: field `minimum_score_to_deliver` is an `f64`, which has no `Eq` (NaN)"),
            "{errors}"
        );
    }

    #[test]
    fn derives_and_attributes_are_added_once() {
        let schema = r#"{"type": "object", "properties": {"name": {"type": "string"}, "mode": {"enum": ["a", "b"]}}}"#;
        let config = Config {
            derives: vec!["Eq".to_owned(), "Hash".to_owned()],
            attributes: vec![r#"#[cfg_attr(feature = "x", derive(Y))]"#.to_owned()],
            ..Config::default()
        };
        let code = compile(schema, &config).unwrap();
        assert!(
            code.contains(
                r#"#[derive(Clone, Debug, Default, PartialEq)] #[derive(Eq, Hash)] #[cfg_attr(feature = "x", derive(Y))] pub struct Root {"#
            ),
            "{code}"
        );
        // The string enum derives both already: only the attribute is added.
        assert!(code.contains(r#"#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)] #[cfg_attr(feature = "x", derive(Y))] pub enum RootMode {"#), "{code}");
    }

    fn per_type(pointer: &str, derives: &[&str], attributes: &[&str]) -> Config {
        let settings = crate::TypeSettings {
            rust_type: None,
            derives: derives.iter().map(|d| d.to_string()).collect(),
            attributes: attributes.iter().map(|a| a.to_string()).collect(),
        };
        let types = [("s.json".to_owned(), [(pointer.to_owned(), settings)].into_iter().collect())].into_iter().collect();
        // `f64` and `i64`, which are `Copy`, and `f64` has no `Eq`.
        Config { types, primitive_numbers: true, ..Config::default() }
    }

    const TYPES: &str = r##"{"type": "object", "properties": {
        "name": {"type": "string"},
        "tag": {"type": "object", "properties": {"label": {"type": "string"}, "rank": {"type": "integer"}}, "additionalProperties": false},
        "point": {"type": "object", "properties": {"x": {"type": "integer"}, "y": {"type": "number"}}, "additionalProperties": false},
        "names": {"$ref": "#/$defs/list"}
    }, "$defs": {"list": {"type": "array", "items": {"type": "string"}}}}"##;

    #[test]
    fn per_type_derives_and_attributes_go_on_that_type_only() {
        let config = per_type("/properties/tag", &["Eq", "Hash", "PartialOrd", "Ord"], &["#[doc(alias = \"label\")]"]);
        let code = compile(TYPES, &config).unwrap();
        assert!(code.contains(r#"#[derive(Eq, Hash, PartialOrd, Ord)] #[doc(alias = "label")] pub struct RootTag {"#), "{code}");
        assert_eq!(code.matches("#[derive(Eq, Hash").count(), 1, "{code}");
        let copy = compile(TYPES, &per_type("/properties/point", &["Copy"], &[])).unwrap();
        assert!(copy.contains("#[derive(Copy)] pub struct RootPoint {"), "{copy}");
    }

    #[test]
    fn a_per_type_derive_that_does_not_fit_names_the_type_the_field_and_its_schema() {
        let errors = compile(TYPES, &per_type("/properties/tag", &["Copy"], &[])).unwrap_err();
        assert!(
            errors.contains("s.json at /properties/tag/properties/label: `Copy` cannot be derived for `RootTag`: field `label` is a `String`, which is not `Copy`"),
            "{errors}"
        );
        let errors = compile(TYPES, &per_type("/properties/point", &["Eq"], &[])).unwrap_err();
        assert!(
            errors.contains("/properties/point/properties/y: `Eq` cannot be derived for `RootPoint`: field `y` is an `f64`"),
            "{errors}"
        );
        // The root holds `RootTag`, which does not derive `Eq` unless asked too.
        let errors = compile(TYPES, &per_type("", &["Eq"], &[])).unwrap_err();
        assert!(
            errors.contains("s.json at /properties/tag: `Eq` cannot be derived for `Root`: field `tag` is a `RootTag`, which does not derive `Eq`: add it to that type's `derives` too"),
            "{errors}"
        );
        let errors = compile(r#"{"type": "array", "items": {"type": "string"}}"#, &per_type("", &["Eq"], &[])).unwrap_err();
        assert!(errors.contains("error[bad-derive]: s.json: `Root` is a `type` alias"), "{errors}");
        let errors = compile(TYPES, &per_type("/properties/tag", &["Clone"], &["not an attribute"])).unwrap_err();
        assert!(errors.contains("s.json at /properties/tag: `Clone` is implemented by the generated code already"), "{errors}");
        assert!(errors.contains("s.json at /properties/tag: `not an attribute` is not an outer attribute"), "{errors}");
    }
}
