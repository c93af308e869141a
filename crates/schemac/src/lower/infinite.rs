//! Types without a finite instance: a struct that requires (non-null) a value of its own type,
//! directly or around a cycle, with no array, map, optional field or union branch to stop
//! it. Such a schema accepts no JSON at all, and its Rust type could not even be built.
//!
//! The inhabited types are the least fixed point of "a type is inhabited when the values it
//! needs are"; whatever is left uninhabited sits on or behind such a cycle. `false` does not
//! count here: a field that can never be present is a different mistake, not an infinite type.

use crate::diag::Diagnostic;
use crate::ir::{Check, Def, DefId, DefKind, Ir, Ty};
use crate::resolve::Registry;

/// Reports each cycle of uninhabited types once, at its first type.
pub(super) fn report(ir: &Ir, reg: &Registry, diags: &mut Vec<Diagnostic>) {
    let inhabited = inhabited(ir);
    for (i, def) in ir.defs.iter().enumerate() {
        if inhabited[i] {
            continue;
        }
        let cycle = witness(ir, &inhabited, DefId(i));
        // Types behind a cycle are uninhabited because of it; report the cycle itself, once.
        if cycle.first().map(|(id, _)| *id) != Some(DefId(i)) || cycle.iter().any(|(id, _)| id.0 < i) {
            continue;
        }
        let path: Vec<String> = cycle.iter().map(|(_, step)| step.clone()).collect();
        let message = format!("this type has no finite value: it requires a value of its own type ({} → back here)", path.join(" → "));
        diags.push(reg.error_of(&crate::codes::INFINITE_TYPE, &def.origin, message).with_hint(
            "make one property on the cycle optional (remove it from `required`), allow `null` for it, or put the value in an array",
        ));
    }
}

fn inhabited(ir: &Ir) -> Vec<bool> {
    let mut inhabited = vec![false; ir.defs.len()];
    loop {
        let mut changed = false;
        for (i, def) in ir.defs.iter().enumerate() {
            if !inhabited[i] && def_inhabited(def, &inhabited) {
                inhabited[i] = true;
                changed = true;
            }
        }
        if !changed {
            return inhabited;
        }
    }
}

fn def_inhabited(def: &Def, inhabited: &[bool]) -> bool {
    match &def.kind {
        DefKind::Struct(s) => s.fields.iter().filter(|f| f.required).all(|f| ty_inhabited(&f.ty, inhabited)),
        DefKind::Union(u) => u.variants.iter().any(|v| ty_inhabited(&v.ty, inhabited)),
        DefKind::Alias(ty) => ty_inhabited(ty, inhabited),
        DefKind::Checked(check) => check_inhabited(check, inhabited),
        DefKind::Refined(r) => ty_inhabited(&r.base, inhabited) && check_inhabited(&r.check, inhabited),
        DefKind::Tuple(t) => t.items.iter().all(|ty| ty_inhabited(ty, inhabited)),
        DefKind::StringEnum(_) | DefKind::Newtype(_) | DefKind::Const(_) | DefKind::ValueEnum(_) => true,
    }
}

/// Arrays, maps and nullables always have a finite value (empty, or `null`).
fn ty_inhabited(ty: &Ty, inhabited: &[bool]) -> bool {
    match ty {
        Ty::Def(id) => inhabited.get(id.0).copied().unwrap_or(true),
        Ty::Constrained(inner, _) => ty_inhabited(inner, inhabited),
        _ => true,
    }
}

/// Over-approximated: anything that passes some kind of value counts as inhabited.
fn check_inhabited(check: &Check, inhabited: &[bool]) -> bool {
    match check {
        Check::As(ty) => ty_inhabited(ty, inhabited),
        Check::AllOf(all) => all.iter().all(|c| check_inhabited(c, inhabited)),
        Check::AnyOf(any) | Check::OneOf(any) => any.is_empty() || any.iter().any(|c| check_inhabited(c, inhabited)),
        _ => true,
    }
}

/// The uninhabited types from `start` along the first blocking edge of each, with the step
/// taken, up to the first repeat (the cycle), or empty if none is found.
fn witness(ir: &Ir, inhabited: &[bool], start: DefId) -> Vec<(DefId, String)> {
    let mut path: Vec<(DefId, String)> = Vec::new();
    let mut current = start;
    while let Some(def) = ir.defs.get(current.0) {
        if let Some(at) = path.iter().position(|(id, _)| *id == current) {
            return path.split_off(at);
        }
        let Some((next, step)) = blocking(def, inhabited) else { return Vec::new() };
        path.push((current, step));
        current = next;
    }
    Vec::new()
}

/// The uninhabited type a def needs, and how (e.g. "required property `next`").
fn blocking(def: &Def, inhabited: &[bool]) -> Option<(DefId, String)> {
    let blocked = |ty: &Ty| match ty {
        Ty::Constrained(inner, _) => match **inner {
            Ty::Def(id) if !inhabited.get(id.0).copied().unwrap_or(true) => Some(id),
            _ => None,
        },
        Ty::Def(id) if !inhabited.get(id.0).copied().unwrap_or(true) => Some(*id),
        _ => None,
    };
    match &def.kind {
        DefKind::Struct(s) => {
            s.fields.iter().filter(|f| f.required).find_map(|f| Some((blocked(&f.ty)?, format!("required property `{}`", f.json_name))))
        }
        DefKind::Union(u) => u.variants.first().and_then(|v| Some((blocked(&v.ty)?, format!("variant {}", v.hint)))),
        DefKind::Alias(ty) => Some((blocked(ty)?, "`$ref`".to_owned())),
        DefKind::Tuple(t) => t.items.iter().enumerate().find_map(|(i, ty)| Some((blocked(ty)?, format!("item {i}")))),
        DefKind::Refined(r) => blocked(&r.base).or_else(|| blocking_check(&r.check, &blocked)).map(|id| (id, "`$ref`".to_owned())),
        DefKind::Checked(check) => blocking_check(check, &blocked).map(|id| (id, "`allOf`".to_owned())),
        _ => None,
    }
}

fn blocking_check(check: &Check, blocked: &dyn Fn(&Ty) -> Option<DefId>) -> Option<DefId> {
    match check {
        Check::As(ty) => blocked(ty),
        Check::AllOf(all) => all.iter().find_map(|c| blocking_check(c, blocked)),
        Check::AnyOf(any) | Check::OneOf(any) => any.first().and_then(|c| blocking_check(c, blocked)),
        _ => None,
    }
}
