//! Lowering: the schema model → [`crate::ir`]. Every keyword in scope is either represented in the
//! IR or listed in `Def::unenforced`; nothing is dropped silently.
//!
//! One schema is lowered in three steps:
//! 1. [`flatten`] follows `$ref` and `allOf` to the *parts*: the schema objects whose keywords
//!    all apply to the instance. A pure `$ref` is therefore transparent, and a loop of them is
//!    a `ref-cycle`.
//! 2. The parts' locations are the memo key, so the same schema always lowers to the same
//!    type. A key being lowered is *active*; a reference back to it (recursion through a
//!    property or item) gets the `DefId` the key's type claims, or a placeholder that
//!    becomes an alias of the finished type.
//! 3. [`Lowerer::build`] picks the shape: the `Checked` fallback when a keyword needs it,
//!    an enum for `enum`/`const`, a union for `oneOf`/`anyOf`, otherwise by `type`.
//!
//! Keywords come typed and checked from the [`crate::schema`] model, which lowering runs on
//! only when it has no errors. After lowering, [`infinite`] rejects types without a finite
//! instance.

mod array;
mod assertions;
mod check;
mod dynamic;
mod flatten;
mod infinite;
mod keywords;
mod object;
mod refined;
mod scalar;
mod unevaluated;
mod union;

#[cfg(test)]
mod tests;

use std::collections::{HashMap, HashSet};

use crate::Config;
use crate::diag::{Diagnostic, Diagnostics};
use crate::ir::{Def, DefId, DefKind, DocId, Ir, NameHint, Pattern, Ty};
use crate::modules::Modules;
use crate::resolve::{Loc, Registry};
use crate::schema::{Keyword, KindSet, Model};

use keywords::View;

/// How deep lowering nests: schemas inside schemas being lowered (a property's, an item's, a
/// branch's), and `$ref`s and `allOf`s followed from one schema. Lowering recurses, so the
/// input must not control its depth; past this it is a `schema-too-deep` error at the
/// schema where the limit was reached. JSON itself nests at most 127 levels (`load.rs`), so
/// only chains of `$ref`s get here.
pub(crate) const MAX_DEPTH: usize = 256;

/// How many anonymous wrappers (`Vec`, map, `Option`, a checked value) an inline type nests at
/// most before the items (values) one level further down become a named type of their own.
/// rustc solves a trait bound of `Vec<Vec<…>>` one level at a time and stops at its recursion
/// limit (128), and `serde_derive` crashes on a 200-deep type; an array nested deeper than
/// this is cut into named types of at most this many levels each (plus the few one schema
/// adds), each with its own impls. A type of this depth or less is inline as before.
pub(crate) const MAX_INLINE_DEPTH: usize = 32;

/// Lowers the root of every input document (and everything reachable from it) to the IR.
pub fn lower(registry: &Registry, model: &Model, modules: &Modules, config: &Config) -> Result<Ir, Diagnostics> {
    let mut lowerer = Lowerer::new(registry, model, modules);
    lowerer.assert_formats = config.assert_formats;
    lowerer.big_integers = config.big_integers;
    lowerer.exact_numbers = !config.primitive_numbers;
    lowerer.ir.exact_numbers = lowerer.exact_numbers;
    for doc in registry.docs.iter().filter(|d| d.is_input) {
        let root = lowerer.lower_root(doc.id);
        lowerer.ir.roots.push((doc.id, root));
    }
    lowerer.finish()
}

/// The memo key of a schema: the locations of its parts, each with the dynamic anchors bound
/// where it was reached.
type Key = Vec<(Loc, dynamic::Bindings)>;

/// A lowered schema: its type, and the keywords of its inline parts that the type does not
/// enforce. Those belong to whichever `Def` ends up containing the type.
#[derive(Clone, Debug)]
struct Lowered {
    ty: Ty,
    loose: Vec<Loc>,
}

impl Lowered {
    fn new(ty: Ty) -> Lowered {
        Lowered { ty, loose: Vec::new() }
    }

    fn with_loose(mut self, loose: Vec<Loc>) -> Lowered {
        self.loose.extend(loose);
        self
    }

    fn map(self, f: impl FnOnce(Ty) -> Ty) -> Lowered {
        Lowered { ty: f(self.ty), loose: self.loose }
    }
}

/// Where a schema is being lowered: what a `Def` made from it is named after and nested in.
#[derive(Clone, Debug, Default)]
struct Ctx {
    /// The `NameHint::parent` of a `Def` made here.
    parent: Option<DefId>,
    /// The `Def` an inline type made here ends up in (for the hints of types nested in it).
    owner: Option<DefId>,
    /// The path step from `parent`.
    segment: String,
    /// The configured name, for a document root.
    explicit: Option<String>,
    /// The key whose type a `Def` made here *is* (so recursion refers to it directly); taken
    /// by the first such `Def`.
    claim: Option<Key>,
    /// Whether a `Def` made here is the schema's own type and takes its key, title and docs
    /// (not a per-kind variant of it).
    own: bool,
}

impl Ctx {
    /// The position of a subschema of `owner`, one path step down.
    fn child(owner: DefId, segment: impl Into<String>) -> Ctx {
        Ctx { parent: Some(owner), owner: Some(owner), segment: segment.into(), own: true, ..Ctx::default() }
    }

    /// A subschema of an inline type made here (an array's items, a map's values).
    fn nested(&self, step: &str) -> Ctx {
        let segment = if self.segment.is_empty() { step.to_owned() } else { format!("{} {step}", self.segment) };
        Ctx { parent: self.owner.or(self.parent), owner: self.owner.or(self.parent), segment, own: true, ..Ctx::default() }
    }

    /// The same schema one wrapper in (the `T` of a nullable `T`): still its own type, but not
    /// the key's whole type.
    fn inner(&self) -> Ctx {
        // At a document root there is no path step; the alias has the root's name.
        let segment = if self.segment.is_empty() { "Value".to_owned() } else { self.segment.clone() };
        Ctx { parent: self.parent.or(self.owner), owner: self.owner.or(self.parent), segment, own: self.own, ..Ctx::default() }
    }
}

struct Lowerer<'r> {
    reg: &'r Registry,
    model: &'r Model,
    /// Each document's module and configured root name.
    modules: &'r Modules,
    ir: Ir,
    diags: Vec<Diagnostic>,
    memo: HashMap<Key, Lowered>,
    /// Keys being lowered, with the `DefId` recursion refers to once there is one.
    active: HashMap<Key, Option<DefId>>,
    patterns: HashMap<String, Option<Pattern>>,
    /// `kinds_of` per schema location and dynamic anchor bindings.
    kinds: HashMap<(Loc, dynamic::Bindings), KindSet>,
    /// `Registry::dynamic_names`: the anchor names dynamic references use.
    dynamic_names: Vec<String>,
    /// Per type being built, innermost last: its parts with their dynamic anchor bindings
    /// (see [`dynamic`]).
    frames: Vec<Vec<(Loc, dynamic::Bindings)>>,
    /// `Config::assert_formats`: a known `format` is an [`Assertion::Format`].
    assert_formats: bool,
    /// `Config::big_integers`.
    big_integers: bool,
    /// Not `Config::primitive_numbers` (nor the plain-serde baseline).
    exact_numbers: bool,
    /// `ir.warnings`, for reporting each once in constant time.
    warned: HashSet<Diagnostic>,
}

impl<'r> Lowerer<'r> {
    fn new(reg: &'r Registry, model: &'r Model, modules: &'r Modules) -> Lowerer<'r> {
        Lowerer {
            reg,
            model,
            modules,
            ir: Ir::default(),
            diags: Vec::new(),
            memo: HashMap::new(),
            active: HashMap::new(),
            patterns: HashMap::new(),
            kinds: HashMap::new(),
            dynamic_names: reg.dynamic_names(),
            frames: Vec::new(),
            assert_formats: false,
            big_integers: false,
            exact_numbers: true,
            warned: HashSet::new(),
        }
    }

    fn finish(mut self) -> Result<Ir, Diagnostics> {
        infinite::report(&self.ir, self.reg, &mut self.diags);
        // A schema reached along several paths is checked once, but a diagnostic about a
        // shared location could still be built twice; report it once.
        let mut seen: HashSet<Diagnostic> = HashSet::with_capacity(self.diags.len());
        let mut diags: Vec<Diagnostic> = Vec::with_capacity(self.diags.len());
        for diagnostic in self.diags {
            if seen.insert(diagnostic.clone()) {
                diags.push(diagnostic);
            }
        }
        Diagnostics(diags).into_result(self.ir)
    }

    /// A document's root always becomes a `Def`: the type it lowers to, or an alias of it.
    fn lower_root(&mut self, doc: DocId) -> DefId {
        let loc = Loc { doc, pointer: self.reg.doc(doc).root_pointer.clone() };
        let explicit = self.modules.root_name(doc).map(str::to_owned);
        let reserved = self.placeholder(&loc);
        let ctx = Ctx { owner: Some(reserved), explicit: explicit.clone(), own: true, ..Ctx::default() };
        let out = self.lower_reserving(std::slice::from_ref(&loc), ctx, Some(reserved));
        if out.ty == Ty::Def(reserved) {
            if self.ir.defs[reserved.0].origin.doc == doc {
                return reserved;
            }
            // The root is only a `$ref` into another document: the type is that document's
            // (and lives in its module), so this document's module gets a root alias of it.
            return self.foreign_root(doc, reserved, explicit);
        }
        // The root is `true`/`{}`, or was lowered first through a `$ref` from an earlier
        // document: the reserved `Def` is a named alias of its type.
        let docs = self.model.schema_at(&loc).map(|s| keywords::docs_of(&[s])).unwrap_or_default();
        let def = &mut self.ir.defs[reserved.0];
        def.hint = NameHint { explicit, title: docs.title.clone(), ..NameHint::default() };
        def.docs = docs;
        def.kind = DefKind::Alias(out.ty);
        self.add_unenforced(reserved, &out.loose);
        reserved
    }

    /// The root of `doc` when its schema resolved to `target`, a type of another document: an
    /// alias in `doc`'s module (named as the root would be), so `Module::root` and the CLI find
    /// it. The target keeps a name of its own module's, not the root name configured for `doc`.
    fn foreign_root(&mut self, doc: DocId, target: DefId, explicit: Option<String>) -> DefId {
        let loc = Loc { doc, pointer: self.reg.doc(doc).root_pointer.clone() };
        let docs = self.model.schema_at(&loc).map(|s| keywords::docs_of(&[s])).unwrap_or_default();
        let target_doc = self.ir.defs[target.0].origin.doc;
        let fallback = self.modules.path(target_doc).last().cloned().unwrap_or_else(|| "root".to_owned());
        let hint = &mut self.ir.defs[target.0].hint;
        if hint.explicit == explicit {
            hint.explicit = None;
        }
        if hint.key.is_none() && hint.title.is_none() && hint.parent.is_none() && hint.segment.is_empty() {
            hint.segment = fallback;
        }
        let hint = NameHint { explicit, title: docs.title.clone(), ..NameHint::default() };
        self.push_def(Def { origin: loc, hint, name: String::new(), docs, kind: DefKind::Alias(Ty::Def(target)), unenforced: Vec::new() })
    }

    /// Lowers the schema at `loc`.
    fn lower_at(&mut self, loc: &Loc, ctx: Ctx) -> Lowered {
        self.lower_reserving(std::slice::from_ref(loc), ctx, None)
    }

    /// Lowers the schema that is the `allOf` of the schemas at `locs` (one, usually).
    fn lower_all(&mut self, locs: &[Loc], ctx: Ctx) -> Lowered {
        self.lower_reserving(locs, ctx, None)
    }

    fn lower_reserving(&mut self, locs: &[Loc], mut ctx: Ctx, reserved: Option<DefId>) -> Lowered {
        let Some(first) = locs.first() else { return Lowered::new(Ty::Any) };
        if self.frames.len() >= MAX_DEPTH {
            self.too_deep(first, "subschemas");
            return Lowered::new(Ty::Any);
        }
        let flat = self.flatten(locs);
        if flat.broken || (flat.parts.is_empty() && !flat.never) {
            return Lowered::new(Ty::Any);
        }
        let key: Key = if flat.never {
            locs.iter().map(|l| (l.clone(), self.bindings_at(l))).collect()
        } else {
            flat.parts.iter().map(|p| p.loc.clone()).zip(flat.bindings.iter().cloned()).collect()
        };
        if let Some(done) = self.memo.get(&key) {
            return done.clone();
        }
        if let Some(slot) = self.active.get(&key) {
            let id = match *slot {
                Some(id) => id,
                None => {
                    let id = self.placeholder(first);
                    self.active.insert(key, Some(id));
                    id
                }
            };
            return Lowered::new(Ty::Def(id));
        }
        self.active.insert(key.clone(), reserved);
        let hint_ctx = ctx.clone();
        ctx.claim = Some(key.clone());
        let view = self.view(&flat, locs);
        self.frames.push(key.clone());
        let mut out = if flat.never { self.never(&view, ctx) } else { self.build(&view, ctx) };
        self.frames.pop();
        if let Some(Some(id)) = self.active.remove(&key)
            && out.ty != Ty::Def(id)
        {
            // Something referred to this schema before its type existed (or the type is
            // inline): the placeholder becomes an alias of it.
            let def = &mut self.ir.defs[id.0];
            def.origin = view.entry.clone();
            def.hint = hint_of(&view, &hint_ctx);
            def.docs = view.docs();
            def.kind = DefKind::Alias(out.ty);
            self.add_unenforced(id, &out.loose);
            out = Lowered::new(Ty::Def(id));
        }
        self.memo.insert(key, out.clone());
        out
    }

    /// Lowers the items (values) of an inline array (map) at `locs`: inline, unless wrapping
    /// their type once more would nest more than [`MAX_INLINE_DEPTH`] wrappers, when they get a
    /// `Def` of their own, an alias of that type named like the schema (`$defs/l32` → `L32`),
    /// which the schema's other uses share.
    fn lower_items(&mut self, locs: &[Loc], ctx: Ctx) -> Lowered {
        let lowered = self.lower_all(locs, ctx.clone());
        if inline_depth(&lowered.ty) < MAX_INLINE_DEPTH {
            return lowered;
        }
        let flat = self.flatten(locs);
        let view = self.view(&flat, locs);
        let key: Key = flat.parts.iter().map(|p| p.loc.clone()).zip(flat.bindings.iter().cloned()).collect();
        let mut ctx = Ctx { segment: compact_segment(&ctx.segment), ..ctx };
        let id = self.begin_def(&view, &mut ctx);
        let out = self.finish_def(id, DefKind::Alias(lowered.ty), &lowered.loose);
        if let Some(memo) = self.memo.get_mut(&key) {
            *memo = out.clone();
        }
        out
    }

    fn view(&self, flat: &flatten::Flat<'r>, locs: &[Loc]) -> View<'r> {
        // A single part is the schema itself (a pure `$ref` leads to it); several parts are
        // documented by the schemas as written.
        let entry = match flat.parts.as_slice() {
            [only] => only.loc.clone(),
            _ => locs.first().cloned().unwrap_or_else(|| Loc { doc: DocId(0), pointer: String::new() }),
        };
        let doc_locs: Vec<&Loc> = if flat.parts.len() == 1 { vec![&entry] } else { locs.iter().collect() };
        let doc_schemas = doc_locs.iter().filter_map(|l| self.model.schema_at(l)).collect();
        View { parts: flat.parts.clone(), entry, doc_schemas, top: flat.top }
    }

    /// Picks the IR shape of a schema that is not `false`.
    fn build(&mut self, view: &View<'r>, ctx: Ctx) -> Lowered {
        if self.needs_check(view) {
            if let Some(refined) = self.refined(view, ctx.clone()) {
                return refined;
            }
            return self.checked(view, ctx);
        }
        if view.has(Keyword::Enum) || view.has(Keyword::Const) {
            return self.enumeration(view, ctx);
        }
        if view.has(Keyword::OneOf) || view.has(Keyword::AnyOf) {
            return self.union(view, ctx);
        }
        self.by_kinds(view, ctx)
    }

    /// A new `Def` for the schema in `view`, to be filled in by the caller. When `ctx` claims
    /// a key, this `Def` is the key's type (and may already have an id from a placeholder).
    fn begin_def(&mut self, view: &View<'r>, ctx: &mut Ctx) -> DefId {
        let hint = hint_of(view, ctx);
        let docs = if ctx.own { view.docs() } else { Default::default() };
        let def =
            Def { origin: view.entry.clone(), hint, name: String::new(), docs, kind: DefKind::Alias(Ty::Any), unenforced: Vec::new() };
        ctx.explicit = None;
        if let Some(key) = ctx.claim.take()
            && let Some(slot) = self.active.get_mut(&key)
        {
            if let Some(id) = *slot {
                self.ir.defs[id.0] = def;
                return id;
            }
            let id = DefId(self.ir.defs.len());
            *slot = Some(id);
            self.ir.defs.push(def);
            return id;
        }
        self.push_def(def)
    }

    fn push_def(&mut self, def: Def) -> DefId {
        let id = DefId(self.ir.defs.len());
        self.ir.defs.push(def);
        id
    }

    /// A `Def` to be filled in later (an `Any` alias until then).
    fn placeholder(&mut self, origin: &Loc) -> DefId {
        self.push_def(Def {
            origin: origin.clone(),
            hint: NameHint::default(),
            name: String::new(),
            docs: Default::default(),
            kind: DefKind::Alias(Ty::Any),
            unenforced: Vec::new(),
        })
    }

    /// Sets the kind of a `Def` from [`Self::begin_def`] and lists what it does not enforce.
    fn finish_def(&mut self, id: DefId, kind: DefKind, loose: &[Loc]) -> Lowered {
        if let Some(def) = self.ir.defs.get_mut(id.0) {
            def.kind = kind;
        }
        self.add_unenforced(id, loose);
        Lowered::new(Ty::Def(id))
    }

    /// Lists keyword locations in `Def::unenforced`, relative to the `Def`'s origin.
    fn add_unenforced(&mut self, id: DefId, loose: &[Loc]) {
        let Some(def) = self.ir.defs.get_mut(id.0) else { return };
        for loc in loose {
            let label = unenforced_label(&def.origin, loc, self.reg);
            if !def.unenforced.contains(&label) {
                def.unenforced.push(label);
            }
        }
    }

    /// The `false` schema (or a schema no value satisfies): a check that always fails.
    fn never(&mut self, view: &View<'r>, mut ctx: Ctx) -> Lowered {
        let id = self.begin_def(view, &mut ctx);
        self.finish_def(id, DefKind::Checked(crate::ir::Check::Never), &[])
    }

    /// A compiled `pattern`, `None` when it is invalid (reported by validation).
    fn pattern(&mut self, source: &str) -> Option<Pattern> {
        if let Some(done) = self.patterns.get(source) {
            return done.clone();
        }
        let compiled = crate::pattern::compile(source).ok();
        self.patterns.insert(source.to_owned(), compiled.clone());
        compiled
    }

    /// `Some(b)` when the schema at `loc` is the boolean schema `b`.
    fn boolean_at(&self, loc: &Loc) -> Option<bool> {
        self.model.at(loc).and_then(crate::schema::Node::boolean)
    }

    /// A warning: the schema compiles, but probably not as its author meant.
    fn warn(&mut self, loc: &Loc, message: impl Into<String>, hint: impl Into<String>) {
        let diagnostic = self.reg.error("uninhabited", loc, message).with_hint(hint);
        let warning = Diagnostic { severity: crate::diag::Severity::Warning, ..diagnostic };
        if self.warned.insert(warning.clone()) {
            self.ir.warnings.push(warning);
        }
    }

    /// The depth limit was reached at `loc`, following `what`.
    fn too_deep(&mut self, loc: &Loc, what: &str) {
        let message = format!("{what} nest more than {MAX_DEPTH} levels deep here");
        self.diags.push(self.reg.error_of(&crate::codes::SCHEMA_TOO_DEEP, loc, message));
    }

    fn error(&mut self, loc: &Loc, message: impl Into<String>, hint: impl Into<String>) {
        let diagnostic = self.reg.error("invalid-schema", loc, message).with_hint(hint);
        self.diags.push(diagnostic);
    }
}

/// `ty` or `null`, without wrapping what already accepts `null`.
fn nullable(ty: Ty) -> Ty {
    match ty {
        Ty::Any | Ty::Null | Ty::Nullable(_) => ty,
        ty => Ty::Nullable(Box::new(ty)),
    }
}

/// How many wrappers (`Vec`, map, `Option`, a checked value) an inline type nests.
pub(crate) fn inline_depth(mut ty: &Ty) -> usize {
    let mut depth = 0;
    while let Ty::Array(inner) | Ty::Map(inner) | Ty::Nullable(inner) | Ty::Constrained(inner, _) = ty {
        depth += 1;
        ty = inner;
    }
    depth
}

/// The path step of a type cut out of a deep chain, its repeated last step counted: `deep Item
/// Item … Item` (95 `Item`s) is `deep Item95`.
fn compact_segment(segment: &str) -> String {
    let words: Vec<&str> = segment.split(' ').collect();
    let Some(last) = words.last() else { return segment.to_owned() };
    let repeats = words.iter().rev().take_while(|w| *w == last).count();
    if repeats < 2 {
        return segment.to_owned();
    }
    let mut compact = words[..words.len() - repeats].join(" ");
    if !compact.is_empty() {
        compact.push(' ');
    }
    compact.push_str(&format!("{last}{repeats}"));
    compact
}

/// The name candidates of a `Def` made from `view` at `ctx`.
fn hint_of(view: &View<'_>, ctx: &Ctx) -> NameHint {
    NameHint {
        explicit: ctx.explicit.clone(),
        key: if ctx.own { crate::schema::defs_key(&view.entry.pointer) } else { None },
        title: if ctx.own { view.title() } else { None },
        parent: ctx.parent,
        segment: ctx.segment.clone(),
    }
}

/// `minimum` for the `Def`'s own keyword, `properties/version/minimum` for one nested inline,
/// and `#/$defs/x/minimum` (or `file#/...`) for one from elsewhere.
fn unenforced_label(origin: &Loc, keyword: &Loc, reg: &Registry) -> String {
    if keyword.doc == origin.doc
        && let Some(rest) = keyword.pointer.strip_prefix(&origin.pointer)
        && let Some(rest) = rest.strip_prefix('/')
    {
        return rest.to_owned();
    }
    if keyword.doc == origin.doc {
        format!("#{}", keyword.pointer)
    } else {
        let file = reg.docs.get(keyword.doc.0).map(|d| d.display.as_str()).unwrap_or_default();
        format!("{file}#{}", keyword.pointer)
    }
}
