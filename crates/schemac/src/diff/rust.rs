//! The Rust API class of a schema change: what it does to the generated crate's public API,
//! by the rules cargo-semver-checks applies. A type removed or renamed, a field or variant
//! added to an exhaustive struct or enum, a field or variant removed, a type changed: major.
//! A type added, or an addition behind `#[non_exhaustive]`: minor. Docs only: patch.

use std::collections::BTreeMap;

use super::{ApiChange, Bump};
use crate::ir::{Def, DefKind, Ir, Rest, Ty};

/// The public items of a generated crate: `module::Type` → its shape, spelled.
struct Api {
    types: BTreeMap<String, Shape>,
}

/// A type's public shape: what downstream code can name and build.
#[derive(Debug, PartialEq)]
struct Shape {
    /// `struct`, `enum`, `newtype`, `alias`, ...
    kind: &'static str,
    /// Fields or variants in order, each with its spelled type.
    members: Vec<(String, String)>,
    /// Whether downstream code cannot build it with a literal or match it exhaustively.
    non_exhaustive: bool,
    docs: String,
}

fn api(ir: &Ir, config: &crate::Config) -> Api {
    let mut types = BTreeMap::new();
    for def in &ir.defs {
        let module = ir.module(def.origin.doc).join("::");
        let path = if module.is_empty() { def.name.clone() } else { format!("{module}::{}", def.name) };
        types.insert(path, shape(ir, def, config));
    }
    Api { types }
}

fn shape(ir: &Ir, def: &Def, config: &crate::Config) -> Shape {
    // Rustdoc: the type's own, and its fields' (descriptions, defaults, examples).
    // Sorted by field: the order of named fields is not part of the API.
    let mut docs = format!("{:?}", def.docs);
    if let DefKind::Struct(s) = &def.kind {
        let mut fields: Vec<String> = s.fields.iter().map(|f| format!("{}: {:?}", f.json_name, f.docs)).collect();
        fields.sort();
        docs.push_str(&fields.concat());
    }
    let (kind, members) = match &def.kind {
        DefKind::Struct(s) => {
            let mut members: Vec<(String, String)> = s.fields.iter().map(|f| (f.rust_name.clone(), spell(ir, &f.ty, f.required))).collect();
            let rest = match &s.rest {
                Rest::Closed => "none".to_owned(),
                Rest::Open => "Extra".to_owned(),
                Rest::Typed(ty) => format!("BTreeMap<String, {}>", spell(ir, ty, true)),
                Rest::Patterns { .. } => "Map<String, Value>".to_owned(),
            };
            members.push(("extra".to_owned(), rest));
            ("struct", members)
        }
        DefKind::StringEnum(values) => ("enum", values.iter().map(|v| (v.clone(), String::new())).collect()),
        DefKind::ValueEnum(values) => ("enum", values.iter().map(|v| (v.to_string(), String::new())).collect()),
        DefKind::Union(u) => ("enum", u.variants.iter().map(|v| (v.name.clone(), spell(ir, &v.ty, true))).collect()),
        DefKind::Tuple(t) => {
            let mut members: Vec<(String, String)> =
                t.items.iter().enumerate().map(|(i, ty)| (i.to_string(), spell(ir, ty, true))).collect();
            if let Some(rest) = &t.rest {
                members.push(("rest".to_owned(), spell(ir, rest, true)));
            }
            ("tuple struct", members)
        }
        DefKind::Newtype(n) => ("newtype", vec![("0".to_owned(), spell(ir, &n.inner, true))]),
        DefKind::Const(value) => ("const", vec![("value".to_owned(), value.to_string())]),
        DefKind::Alias(ty) => ("alias", vec![("=".to_owned(), spell(ir, ty, true))]),
        DefKind::Checked(_) => ("checked value", Vec::new()),
        DefKind::Refined(r) => ("refinement", vec![("0".to_owned(), spell(ir, &r.base, true))]),
    };
    let non_exhaustive = config.is_non_exhaustive(&def.kind);
    Shape { kind, members, non_exhaustive, docs }
}

/// A type as downstream code sees it: `Option<u8>`, `Vec<Task>`.
fn spell(ir: &Ir, ty: &Ty, required: bool) -> String {
    let inner = match ty {
        Ty::Any => "Value".to_owned(),
        Ty::Bool => "bool".to_owned(),
        Ty::Integer(int) => format!("{int:?}").to_lowercase(),
        Ty::Number => "f64".to_owned(),
        Ty::String => "String".to_owned(),
        Ty::Format(format) => format!("{format:?}"),
        Ty::Null => "()".to_owned(),
        Ty::Def(id) => ir.def(*id).name.clone(),
        Ty::Array(item) => format!("Vec<{}>", spell(ir, item, true)),
        Ty::Map(value) => format!("BTreeMap<String, {}>", spell(ir, value, true)),
        Ty::Nullable(inner) => format!("Option<{}>", spell(ir, inner, true)),
        Ty::Constrained(inner, _) => spell(ir, inner, true),
    };
    if required { inner } else { format!("Option<{inner}>") }
}

/// The API changes from `old` to `new`, each with its class.
pub(super) fn compare(old: &Ir, new: &Ir, config: &crate::Config) -> Vec<ApiChange> {
    let (a, b) = (api(old, config), api(new, config));
    let mut out = Vec::new();
    for (path, shape) in &a.types {
        let Some(other) = b.types.get(path) else {
            out.push(ApiChange { path: path.clone(), class: Bump::Major, detail: format!("{} `{path}` removed or renamed", shape.kind) });
            continue;
        };
        if shape.kind != other.kind {
            let detail = format!("`{path}` is a {} now (was a {})", other.kind, shape.kind);
            out.push(ApiChange { path: path.clone(), class: Bump::Major, detail });
            continue;
        }
        for (name, ty) in &shape.members {
            match other.members.iter().find(|(n, _)| n == name) {
                None => out.push(ApiChange {
                    path: format!("{path}::{name}"),
                    class: Bump::Major,
                    detail: format!("`{name}` removed from `{path}`"),
                }),
                Some((_, new_ty)) if new_ty != ty => out.push(ApiChange {
                    path: format!("{path}::{name}"),
                    class: Bump::Major,
                    detail: format!("`{path}::{name}` is `{new_ty}` now (was `{ty}`)"),
                }),
                Some(_) => {}
            }
        }
        for (name, _) in other.members.iter().filter(|(n, _)| !shape.members.iter().any(|(m, _)| m == n)) {
            // An exhaustive struct or enum gains a member: literals and matches downstream break.
            let class = if other.non_exhaustive { Bump::Minor } else { Bump::Major };
            let detail = format!("`{name}` added to {} `{path}`", if other.non_exhaustive { "non-exhaustive" } else { "exhaustive" });
            out.push(ApiChange { path: format!("{path}::{name}"), class, detail });
        }
        if shape.docs != other.docs {
            out.push(ApiChange { path: path.clone(), class: Bump::Patch, detail: format!("docs of `{path}` changed") });
        }
    }
    for (path, shape) in b.types.iter().filter(|(p, _)| !a.types.contains_key(*p)) {
        out.push(ApiChange { path: path.clone(), class: Bump::Minor, detail: format!("{} `{path}` added", shape.kind) });
    }
    out
}
