//! Custom derives and attributes (`Config::derives`, `Config::attributes`) on every generated
//! type, and the generation-time check that a standard derive fits: `Eq` on a struct with an
//! `f64` field is an error naming the field, not a rustc error in generated code.

use crate::ir::{Def, DefId, DefKind, IntTy, Ir, Rest, Ty};
use crate::{Config, Diagnostic};

/// The derives whose fit is decided here; any other (`utoipa::ToSchema`, ...) is passed on.
const CHECKED: &[&str] = &["Eq", "Hash", "PartialOrd", "Ord"];

/// Every configured derive a type cannot have, each naming the type and the field (or
/// variant) in the way, at the field's schema; and a derive or attribute that does not parse.
pub(crate) fn check(ir: &Ir, config: &Config) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    let file = |def: &Def| ir.sources.documents.get(&def.origin.doc).map(|d| d.display.clone()).unwrap_or_default();
    for derive in &config.derives {
        if syn::parse_str::<syn::Path>(derive).is_err() {
            errors.push(Diagnostic::new("bad-derive", "schemac.toml", "", format!("`{derive}` is not a derive path")));
            continue;
        }
        let last = derive.rsplit("::").next().unwrap_or(derive).trim();
        if ["Default", "PartialEq", "Clone", "Debug", "Serialize", "Deserialize"].contains(&last) {
            let message =
                format!("`{derive}` is implemented by the generated code already (where it exists), so it cannot be derived again");
            errors.push(Diagnostic::new("bad-derive", "schemac.toml", "", message));
            continue;
        }
        let Some(&checked) = CHECKED.iter().find(|c| *c == derive) else { continue };
        let fits = fits(ir, checked);
        for (i, def) in ir.defs.iter().enumerate() {
            if fits[i] {
                continue;
            }
            if let Some((member, pointer, why)) = culprit(ir, def, checked, &fits) {
                let message = format!("`{checked}` cannot be derived for `{}`: {member} {why}", def.name);
                errors.push(Diagnostic::new("impossible-derive", file(def), format!("{}{pointer}", def.origin.pointer), message));
            }
        }
    }
    for attribute in &config.attributes {
        if syn::parse_str::<syn::File>(&format!("{attribute} struct S;")).is_err() {
            errors.push(Diagnostic::new("bad-derive", "schemac.toml", "", format!("`{attribute}` is not an outer attribute")));
        }
    }
    errors
}

/// Per def, whether it can derive `derive` (a fixed point: a def fits when what it holds does).
fn fits(ir: &Ir, derive: &str) -> Vec<bool> {
    let mut fits = vec![true; ir.defs.len()];
    loop {
        let mut changed = false;
        for (i, def) in ir.defs.iter().enumerate() {
            if fits[i] && culprit(ir, def, derive, &fits).is_some() {
                fits[i] = false;
                changed = true;
            }
        }
        if !changed {
            return fits;
        }
    }
}

/// The first member of `def` that cannot have `derive`: (its name, the pointer below the def,
/// why).
fn culprit(ir: &Ir, def: &Def, derive: &str, fits: &[bool]) -> Option<(String, String, String)> {
    let check = |ty: &Ty| blocker(ir, ty, derive, fits);
    // The user's type has what its author derived; rustc says when it lacks one.
    if ir.rust_types.keys().any(|id| std::ptr::eq(ir.def(*id), def)) {
        return None;
    }
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
                Rest::Open => {
                    matches!(derive, "PartialOrd" | "Ord").then(|| "keeps undeclared properties (`Extra`), which have no order".to_owned())
                }
                Rest::Typed(ty) => check(ty),
                Rest::Patterns { .. } => blocker(ir, &Ty::Any, derive, fits),
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
        DefKind::ValueEnum(_) | DefKind::Checked(_) => {
            blocker(ir, &Ty::Any, derive, fits).map(|why| ("its value".to_owned(), String::new(), why))
        }
        DefKind::StringEnum(_) | DefKind::Const(_) => None,
    }
}

/// Why a value of `ty` cannot have `derive`, if it cannot.
fn blocker(ir: &Ir, ty: &Ty, derive: &str, fits: &[bool]) -> Option<String> {
    let ordered = matches!(derive, "PartialOrd" | "Ord");
    match ty {
        Ty::Number if derive != "PartialOrd" => Some(format!("is an `f64`, which has no `{derive}` (NaN)")),
        Ty::Any if ordered => Some("is a `serde_json::Value`, which has no order".to_owned()),
        Ty::Integer(IntTy::Big) | Ty::Bool | Ty::Integer(_) | Ty::Number | Ty::String | Ty::Format(_) | Ty::Null | Ty::Any => None,
        Ty::Def(id) => (!fits[id.0]).then(|| format!("is a `{}`, which cannot have `{derive}` either", ir.def(DefId(id.0)).name)),
        Ty::Array(inner) | Ty::Nullable(inner) | Ty::Constrained(inner, _) => blocker(ir, inner, derive, fits),
        Ty::Map(inner) => blocker(ir, inner, derive, fits),
    }
}

/// The configured derives and attributes, for a declaration that already derives `existing`.
pub(super) fn attributes(config: &Config, existing: &[String]) -> Vec<syn::Attribute> {
    let derives: Vec<syn::Path> = config
        .derives
        .iter()
        .filter(|d| !existing.iter().any(|e| e == *d || e.rsplit("::").next() == Some(d.as_str())))
        .filter_map(|d| syn::parse_str(d).ok())
        .collect();
    let mut attrs: Vec<syn::Attribute> = Vec::new();
    if !derives.is_empty() {
        attrs.push(syn::parse_quote!(#[derive(#(#derives),*)]));
    }
    for attribute in &config.attributes {
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
    use crate::{Config, Input, SchemaSource};

    fn compile(schema: &str, config: &Config) -> Result<String, String> {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("schemac-derives-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("s.json");
        std::fs::write(&path, schema).unwrap();
        let source = SchemaSource { path, display: "s.json".to_owned(), root_name: Some("Root".to_owned()), ..SchemaSource::default() };
        let output = crate::compile(&Input { schemas: vec![source], ..Input::default() }, config);
        std::fs::remove_dir_all(&dir).unwrap();
        output.map(|o| o.single_file().split_whitespace().collect::<Vec<_>>().join(" ")).map_err(|d| d.to_string())
    }

    const SCHEMA: &str = r#"{"type": "object", "properties": {
        "name": {"type": "string"},
        "inner": {"type": "object", "properties": {"score": {"type": "number"}}},
        "mode": {"enum": ["a", "b"]}
    }}"#;

    #[test]
    fn an_impossible_derive_is_an_error_naming_the_field() {
        let config = Config { derives: vec!["Eq".to_owned()], ..Config::default() };
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
    fn the_bundled_attempts_report_cannot_derive_eq() {
        let schema = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../schemas/madoo/attempts-report.v1.json")).unwrap();
        let errors = compile(&schema, &Config { derives: vec!["Eq".to_owned()], ..Config::default() }).unwrap_err();
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
        assert!(code.contains(r#"#[derive(Clone, Debug, PartialEq, serde::Serialize)] #[derive(Eq, Hash)] #[cfg_attr(feature = "x", derive(Y))] pub struct Root {"#), "{code}");
        // The string enum derives both already: only the attribute is added.
        assert!(code.contains(r#"#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)] #[cfg_attr(feature = "x", derive(Y))] pub enum RootMode {"#), "{code}");
    }
}
