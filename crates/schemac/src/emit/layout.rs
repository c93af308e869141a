//! Type layout: an upper estimate of every generated type's `size_of` (64-bit targets), and the
//! fields, variants and tuple items boxed so that no type is larger than [`MAX_TYPE_SIZE`].
//!
//! A value is as large as its largest variant and the sum of its fields, and deserializing it
//! keeps a few copies of it on the stack per nesting level (more in a debug build), so a schema
//! whose objects nest big objects inline makes types of hundreds of kilobytes and documents
//! that overflow any thread's stack. Boxing a field of a big type makes it a pointer; the
//! box is where the type is used (`pub config: Option<Box<Config>>`), like the boxes that break
//! recursion, so the type itself, its `Deserialize`, `Validate` and `JsonSchema` are unchanged.
//! A field holding a type larger than [`BOX_OVER`] is always boxed; then, while a type is still
//! over the bound, its largest remaining inline generated type is boxed. Only fields of
//! generated types are boxed, never strings, numbers or arrays: a struct that passes the bound
//! with every field of a generated type a pointer (more than about 40 strings, or 128 fields)
//! stays over it, at its estimate ([`Layouts::bound`]).

use std::collections::BTreeSet;

use crate::ir::{Def, DefId, DefKind, IntTy, Ir, Rest, Ty};

/// The most bytes a generated type may take (`size_of`), the exceptions aside (see the
/// module docs and `Layouts::bound`).
pub const MAX_TYPE_SIZE: usize = 1024;

/// A field or variant of a generated type larger than this is boxed even where its container
/// would stay under [`MAX_TYPE_SIZE`]: each nesting level of a document then costs the stack
/// at most a few copies of a small value, whatever the shape of the schema.
pub const BOX_OVER: usize = 256;

/// Size, alignment and spare bit patterns ("niches", where `Option` keeps its `None`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Layout {
    size: usize,
    align: usize,
    niches: Niches,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Niches {
    None,
    /// One spare pattern (a `Box`'s null): enough for an `Option`, not a `Tristate`.
    One,
    Many,
}

impl Layout {
    const fn new(size: usize, align: usize, niches: Niches) -> Layout {
        Layout { size, align, niches }
    }

    /// `String`, `Vec`, `BTreeMap`, `schemac_runtime::Extra` and the format newtypes.
    const HEAP: Layout = Layout::new(24, 8, Niches::Many);
    const BOX: Layout = Layout::new(8, 8, Niches::One);
    /// `serde_json::Value`, counted with serde_json's `preserve_order` (an `IndexMap` object,
    /// 80 bytes; 32 without), which another crate in the build may turn on.
    const VALUE: Layout = Layout::new(80, 8, Niches::Many);
    /// `serde_json::Map` with `preserve_order` (24 without).
    const MAP: Layout = Layout::new(72, 8, Niches::Many);
    /// `schemac_runtime::BigInt`: num-bigint's `Vec` of digits and a sign.
    const BIG: Layout = Layout::new(32, 8, Niches::Many);
    /// `schemac_runtime::Number` and `Integer`: an enum of a 64-bit value or a thin pointer.
    const EXACT: Layout = Layout::new(16, 8, Niches::Many);
    const ZERO: Layout = Layout::new(0, 1, Niches::None);

    fn scalar(size: usize) -> Layout {
        Layout::new(size, size, Niches::None)
    }

    /// `Option<Self>`.
    fn option(self) -> Layout {
        match self.niches {
            Niches::Many => self,
            Niches::One => Layout { niches: Niches::None, ..self },
            Niches::None => Layout::new(round_up(self.size.saturating_add(self.align), self.align), self.align, Niches::Many),
        }
    }

    /// `schemac_runtime::Tristate<Self>`: two variants without data.
    fn tristate(self) -> Layout {
        match self.niches {
            Niches::Many => self,
            Niches::One | Niches::None => Layout::new(round_up(self.size.saturating_add(self.align), self.align), self.align, Niches::Many),
        }
    }
}

/// Saturating: a schema whose objects hold each other inline many times over has types of
/// exponential size, which the bound then boxes.
fn round_up(size: usize, align: usize) -> usize {
    size.div_ceil(align.max(1)).saturating_mul(align.max(1))
}

/// A struct (or tuple struct) of `fields`: rustc orders fields by alignment, and every size is
/// a multiple of its alignment, so only the end is padded.
fn product(fields: impl IntoIterator<Item = Layout>) -> Layout {
    let mut out = Layout::new(0, 1, Niches::None);
    for field in fields {
        out.size = out.size.saturating_add(field.size);
        out.align = out.align.max(field.align);
        out.niches = out.niches.max(field.niches);
    }
    out.size = round_up(out.size, out.align);
    out
}

/// An enum of one-field variants: at most the largest variant plus a tag padded to the
/// largest alignment (rustc may fit the tag in a niche instead).
fn sum(variants: impl IntoIterator<Item = Layout>) -> Layout {
    let mut count = 0usize;
    let (mut size, mut align) = (0, 1);
    for variant in variants {
        count += 1;
        size = size.max(variant.size);
        align = align.max(variant.align);
    }
    match count {
        0 => Layout::ZERO,
        1 => Layout::new(size, align, Niches::None),
        _ => {
            let tag = if count <= 256 { 1 } else { 2 };
            let align = align.max(tag);
            Layout::new(round_up(size.saturating_add(align), align), align, if count < 256 { Niches::Many } else { Niches::None })
        }
    }
}

/// Every def's estimated layout and the fields boxed for size.
#[derive(Debug, Default)]
pub(crate) struct Layouts {
    layouts: Vec<Layout>,
    /// `(container, field type)` pairs boxed for their size (recursion boxes apart).
    boxed: BTreeSet<(DefId, DefId)>,
    /// See [`Layouts::plan`].
    open: BTreeSet<DefId>,
    /// [`Ir::exact_numbers`].
    exact_numbers: bool,
}

impl Layouts {
    /// Plans boxing for `ir`, where `recursive(from, to)` says a field of def `to` in def
    /// `from` is boxed already (`to` holds `from` inline): what is left is acyclic, so the defs
    /// are laid out children first. `open` are the string enums that keep an unknown value in
    /// an `Other(String)` variant (a `String` and a tag, not one byte).
    pub fn plan(ir: &Ir, recursive: impl Fn(DefId, DefId) -> bool, open: &BTreeSet<DefId>) -> Layouts {
        let mut out = Layouts {
            layouts: vec![Layout::ZERO; ir.defs.len()],
            boxed: BTreeSet::new(),
            open: open.clone(),
            exact_numbers: ir.exact_numbers,
        };
        for id in children_first(ir, &recursive) {
            let def = ir.def(id);
            let children: BTreeSet<DefId> = inline_defs(def).into_iter().filter(|&to| !recursive(id, to)).collect();
            for &to in &children {
                if out.layouts[to.0].size > BOX_OVER && boxable(def) {
                    out.boxed.insert((id, to));
                }
            }
            let mut layout = out.def(id, def, &recursive);
            // Largest first, so the fewest fields change type.
            let mut candidates: Vec<DefId> = children.into_iter().filter(|to| !out.boxed.contains(&(id, *to))).collect();
            candidates.sort_by_key(|to| (std::cmp::Reverse(out.layouts[to.0].size), *to));
            for to in candidates {
                if layout.size <= MAX_TYPE_SIZE || !boxable(def) {
                    break;
                }
                if out.layouts[to.0].size <= Layout::BOX.size {
                    break;
                }
                out.boxed.insert((id, to));
                layout = out.def(id, def, &recursive);
            }
            out.layouts[id.0] = layout;
        }
        out
    }

    /// Whether a field of def `to` in def `from` is boxed for its size.
    pub fn boxed(&self, from: DefId, to: DefId) -> bool {
        self.boxed.contains(&(from, to))
    }

    /// The estimated `size_of` of def `id`: an upper bound on 64-bit targets.
    pub fn size(&self, id: DefId) -> usize {
        self.layouts.get(id.0).map_or(0, |l| l.size)
    }

    /// What `size_of` of def `id` is at most: [`MAX_TYPE_SIZE`], or the estimate of a type
    /// that boxing could not bring under it.
    pub fn bound(&self, id: DefId) -> usize {
        self.size(id).max(MAX_TYPE_SIZE)
    }

    fn def(&self, id: DefId, def: &Def, recursive: &impl Fn(DefId, DefId) -> bool) -> Layout {
        let ty = |ty: &Ty| self.ty(id, ty, recursive);
        match &def.kind {
            DefKind::Struct(s) => {
                let fields = s.fields.iter().map(|f| match (f.required, &f.ty) {
                    (true, t) => ty(t),
                    (false, Ty::Nullable(inner)) => ty(inner).tristate(),
                    (false, t) => ty(t).option(),
                });
                let rest = match &s.rest {
                    Rest::Closed => None,
                    Rest::Open | Rest::Typed(_) => Some(Layout::HEAP),
                    Rest::Patterns { .. } => Some(Layout::MAP),
                };
                product(fields.chain(rest))
            }
            DefKind::StringEnum(_) if self.open.contains(&id) => sum([Layout::HEAP, Layout::ZERO]),
            DefKind::StringEnum(values) => match values.len() {
                0 | 1 => Layout::ZERO,
                2..=255 => Layout::new(1, 1, Niches::Many),
                _ => Layout::new(2, 2, Niches::Many),
            },
            DefKind::Newtype(n) => ty(&n.inner),
            DefKind::Const(_) => Layout::ZERO,
            DefKind::ValueEnum(_) => Layout::VALUE,
            DefKind::Union(u) => sum(u.variants.iter().map(|v| ty(&v.ty))),
            DefKind::Alias(t) => ty(t),
            DefKind::Checked(crate::ir::Check::Never) => Layout::ZERO,
            DefKind::Checked(_) => Layout::VALUE,
            DefKind::Tuple(t) => product(t.items.iter().map(ty).chain(t.rest.as_ref().map(|_| Layout::HEAP))),
            DefKind::Refined(r) => ty(&r.base),
        }
    }

    fn ty(&self, from: DefId, ty: &Ty, recursive: &impl Fn(DefId, DefId) -> bool) -> Layout {
        match ty {
            Ty::Any => Layout::VALUE,
            Ty::Bool => Layout::new(1, 1, Niches::Many),
            Ty::Integer(int) => match int {
                IntTy::U8 | IntTy::I8 => Layout::scalar(1),
                IntTy::U16 | IntTy::I16 => Layout::scalar(2),
                IntTy::U32 | IntTy::I32 => Layout::scalar(4),
                IntTy::U64 | IntTy::I64 => Layout::scalar(8),
                IntTy::I128 => Layout::scalar(16),
                IntTy::Big => Layout::BIG,
                IntTy::Exact => Layout::EXACT,
            },
            Ty::Number if self.exact_numbers => Layout::EXACT,
            Ty::Number => Layout::scalar(8),
            Ty::String | Ty::Format(_) | Ty::Array(_) | Ty::Map(_) => Layout::HEAP,
            Ty::Null => Layout::ZERO,
            Ty::Def(to) if recursive(from, *to) || self.boxed(from, *to) => Layout::BOX,
            Ty::Def(to) => self.layouts[to.0],
            Ty::Nullable(inner) => self.ty(from, inner, recursive).option(),
            Ty::Constrained(inner, _) => self.ty(from, inner, recursive),
        }
    }
}

/// Whether boxing a field of `def` can make it smaller: an alias, refinement or newtype is as
/// large as what it wraps, and the type that uses it boxes it instead.
fn boxable(def: &Def) -> bool {
    matches!(def.kind, DefKind::Struct(_) | DefKind::Union(_) | DefKind::Tuple(_))
}

/// The defs `def` holds inline (not behind a `Vec`, map or `Box`).
pub(crate) fn inline_defs(def: &Def) -> BTreeSet<DefId> {
    let mut out = BTreeSet::new();
    let mut add = |ty: &Ty| inline_in(ty, &mut out);
    match &def.kind {
        // Undeclared properties live in a map: already behind an indirection.
        DefKind::Struct(s) => s.fields.iter().for_each(|f| add(&f.ty)),
        DefKind::Union(u) => u.variants.iter().for_each(|v| add(&v.ty)),
        DefKind::Alias(ty) | DefKind::Refined(crate::ir::Refined { base: ty, .. }) => add(ty),
        // The items after the leading ones are in a `Vec`: already behind an indirection.
        DefKind::Tuple(t) => t.items.iter().for_each(add),
        DefKind::StringEnum(_) | DefKind::Newtype(_) | DefKind::Const(_) | DefKind::ValueEnum(_) | DefKind::Checked(_) => {}
    }
    out
}

fn inline_in(ty: &Ty, out: &mut BTreeSet<DefId>) {
    match ty {
        Ty::Def(id) => {
            out.insert(*id);
        }
        Ty::Nullable(inner) | Ty::Constrained(inner, _) => inline_in(inner, out),
        _ => {}
    }
}

/// Every def, each after the defs it holds inline without a recursion box (a DAG): a
/// post-order walk with an explicit stack, since the schema decides the depth.
fn children_first(ir: &Ir, recursive: &impl Fn(DefId, DefId) -> bool) -> Vec<DefId> {
    let children: Vec<Vec<DefId>> =
        ir.defs.iter().enumerate().map(|(i, def)| inline_defs(def).into_iter().filter(|&to| !recursive(DefId(i), to)).collect()).collect();
    let mut done = vec![false; ir.defs.len()];
    let mut order = Vec::with_capacity(ir.defs.len());
    for start in 0..ir.defs.len() {
        if done[start] {
            continue;
        }
        // (def, index of the next child to visit)
        let mut stack = vec![(start, 0usize)];
        done[start] = true;
        while let Some((id, next)) = stack.last_mut() {
            let id = *id;
            if let Some(&child) = children[id].get(*next) {
                *next += 1;
                if !done[child.0] {
                    done[child.0] = true;
                    stack.push((child.0, 0));
                }
            } else {
                stack.pop();
                order.push(DefId(id));
            }
        }
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_use_niches_where_rustc_does() {
        assert_eq!(Layout::HEAP.option().size, 24);
        assert_eq!(Layout::HEAP.tristate().size, 24);
        assert_eq!(Layout::BOX.option().size, 8);
        assert_eq!(Layout::BOX.tristate().size, 16);
        assert_eq!(Layout::scalar(8).option().size, 16);
        assert_eq!(Layout::scalar(16).tristate().size, 32);
        assert_eq!(Layout::ZERO.option().size, 1);
    }

    #[test]
    fn structs_pad_only_at_the_end_and_enums_add_a_tag() {
        assert_eq!(product([Layout::HEAP, Layout::scalar(1), Layout::scalar(8)]).size, 40);
        assert_eq!(product([]).size, 0);
        assert_eq!(sum([Layout::HEAP, Layout::scalar(1)]).size, 32);
        assert_eq!(sum([Layout::scalar(1), Layout::scalar(1)]).size, 2);
        assert_eq!(sum([]).size, 0);
    }
}
