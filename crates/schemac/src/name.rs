//! Naming: chooses every type, field and variant name in the IR, deterministic and
//! collision-free within each module.
//!
//! Type names (`Def::name`) are unique per module, the module being that of the def's
//! document. They follow two principles: the result never depends on `HashMap` order or on
//! the order of unrelated defs, and an edit in one part of a schema renames only the types
//! that now want the same name as another. So each def's name is worked out on its own, and
//! a collision is settled among the colliding defs only:
//!
//! 1. **Own names.** A def with an `explicit` name, else a `key` (`$defs` entry), else a
//!    `title`, wants that name ([`ident::type_name`]). If it is the only one in its module to
//!    want it at the strongest of those tiers present, it gets it. Every other def that wanted
//!    it — and any def wanting one of the emitter's [`RESERVED_TYPE_NAMES`] — falls back to
//!    step 2. Two `title: "Address"` in different properties thus both become path names,
//!    while a `$defs/Address` keeps its name against an inline `title: "Address"`.
//! 2. **Path names**, parents first (by depth in the `parent` chain; a parent cycle is cut
//!    where it repeats): the parent's final name followed by the segment
//!    (`AttemptsReport` + `body` → `AttemptsReportBody`, + `Item` → `AttemptsReportItem`).
//!    A def with no named parent wants its own name, else its segment. At each depth, names
//!    wanted by one def and still free are taken first; then each group of defs wanting the
//!    same name, in name order, takes it and `Name2`, `Name3`, … ordered by `origin`
//!    (document, then JSON pointer).
//!
//! Field names (`Field::rust_name`) are [`ident::field_name`], unique per struct in
//! declaration order; a struct that keeps undeclared properties reserves [`EXTRA_FIELD`] for
//! them, so a property literally named `extra` becomes `extra_2`. Variant names
//! (`Variant::name`) are [`ident::variant_name`] of the hint, unique per union in order.

use std::collections::{BTreeMap, HashSet};

use crate::ident::{self, Namespace};
use crate::ir::{Def, DefKind, Ir, Rest, Struct, Union};

/// Names no generated type takes: the prelude names the emitter writes bare, which
/// [`crate::emit`]'s hygiene pass makes absolute only because no type can have them
/// (`emit::hygiene::PRELUDE`; a unit struct `Some` would be a value too), and names readers
/// of generated code expect to mean serde's and serde_json's items.
pub const RESERVED_TYPE_NAMES: &[&str] = &[
    "Value",
    "Map",
    "Serialize",
    "Deserialize",
    "Deserializer",
    "Serializer",
    "Tristate",
    "Option",
    "Some",
    "None",
    "Result",
    "Ok",
    "Err",
    "Vec",
    "String",
    "ToString",
    "Box",
    "ToOwned",
    "Default",
    "From",
    "Into",
    "TryFrom",
    "TryInto",
    "AsRef",
    "AsMut",
    "Clone",
    "Copy",
    "Send",
    "Sync",
    "Sized",
    "PartialEq",
    "Eq",
    "PartialOrd",
    "Ord",
    "Iterator",
    "IntoIterator",
    "Extend",
    "Fn",
    "FnMut",
    "FnOnce",
    "Drop",
];

/// The field that holds the undeclared properties of a struct whose `rest` is not closed.
pub const EXTRA_FIELD: &str = "extra";

/// Fills in `Def::name`, `Field::rust_name` and `Variant::name`.
pub fn name(ir: &mut Ir, modules: &crate::modules::Modules) {
    let names = type_names(ir, modules);
    for (def, name) in ir.defs.iter_mut().zip(names) {
        def.name = name;
        match &mut def.kind {
            DefKind::Struct(s) => name_fields(s),
            DefKind::Union(u) => name_variants(u),
            _ => {}
        }
    }
}

fn name_fields(s: &mut Struct) {
    let mut space = match s.rest {
        Rest::Closed => Namespace::new(),
        Rest::Open | Rest::Typed(_) | Rest::Patterns { .. } => Namespace::with_reserved(&[EXTRA_FIELD]),
    };
    for field in &mut s.fields {
        field.rust_name = space.claim(ident::field_name(&field.json_name));
    }
}

fn name_variants(u: &mut Union) {
    let mut space = Namespace::new();
    for variant in &mut u.variants {
        variant.name = space.claim(ident::variant_name(&variant.hint));
    }
}

/// How strongly a def holds its own name; the lowest wins a collision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Tier {
    Explicit,
    Key,
    Title,
}

fn own_name(def: &Def) -> Option<(Tier, String)> {
    let hint = &def.hint;
    let (tier, raw) = match (&hint.explicit, &hint.key, &hint.title) {
        (Some(raw), _, _) => (Tier::Explicit, raw),
        (None, Some(raw), _) => (Tier::Key, raw),
        (None, None, Some(raw)) => (Tier::Title, raw),
        (None, None, None) => return None,
    };
    Some((tier, ident::type_name(raw)))
}

/// The type namespace of each module, pre-seeded with the emitter's names.
#[derive(Debug, Default)]
struct Modules<'r>(BTreeMap<&'r [String], Namespace>);

impl<'r> Modules<'r> {
    fn space(&mut self, module: &'r [String]) -> &mut Namespace {
        self.0.entry(module).or_insert_with(|| Namespace::with_reserved(RESERVED_TYPE_NAMES))
    }
}

/// The final name of every def, by index.
fn type_names(ir: &Ir, modules: &crate::modules::Modules) -> Vec<String> {
    let defs = &ir.defs;
    // A def whose document is missing (a lowering bug) still gets a name, in the root module.
    let module: Vec<&[String]> = defs.iter().map(|def| modules.path(def.origin.doc)).collect();
    let own: Vec<Option<(Tier, String)>> = defs.iter().map(own_name).collect();
    let mut modules = Modules::default();
    let mut names: Vec<Option<String>> = vec![None; defs.len()];

    // 1. Own names, settled among the defs of a module that want the same one.
    let mut wanted: BTreeMap<(&[String], &str), Vec<usize>> = BTreeMap::new();
    for (i, own) in own.iter().enumerate() {
        if let Some((_, name)) = own {
            wanted.entry((module[i], name.as_str())).or_default().push(i);
        }
    }
    for ((module, name), wanting) in wanted {
        let space = modules.space(module);
        let tier = |i: usize| own[i].as_ref().map(|&(tier, _)| tier);
        let best = wanting.iter().filter_map(|&i| tier(i)).min();
        let mut strongest = wanting.iter().filter(|&&i| tier(i) == best);
        match (strongest.next(), strongest.next()) {
            (Some(&winner), None) if !space.contains(name) => {
                names[winner] = Some(space.claim(name.to_owned()));
            }
            _ => {}
        }
    }

    // 2. Path names, one depth at a time so that parents' names are final.
    let depth = depths(ir);
    let mut levels: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for i in (0..defs.len()).filter(|&i| names[i].is_none()) {
        levels.entry(depth[i]).or_default().push(i);
    }
    for level in levels.into_values() {
        // All candidates of a level are chosen before any is taken, so a parent in the same
        // level (only in a cycle) counts as no parent, whatever the order.
        let mut wanted: BTreeMap<(&[String], String), Vec<usize>> = BTreeMap::new();
        for &i in &level {
            let hint = &defs[i].hint;
            let parent = hint.parent.and_then(|p| names.get(p.0)).and_then(Option::as_deref);
            let candidate = match (parent, &own[i]) {
                (Some(parent), _) => ident::type_name(&format!("{parent} {}", hint.segment)),
                (None, Some((_, name))) => name.clone(),
                (None, None) => ident::type_name(&hint.segment),
            };
            wanted.entry((module[i], candidate)).or_default().push(i);
        }
        // Uncontested names first, so that a numbered fallback cannot take one of them.
        let mut contested = Vec::new();
        for ((module, candidate), mut wanting) in wanted {
            let space = modules.space(module);
            match wanting[..] {
                [i] if !space.contains(&candidate) => names[i] = Some(space.claim(candidate)),
                _ => {
                    wanting.sort_by_key(|&i| (&defs[i].origin, i));
                    contested.push((module, candidate, wanting));
                }
            }
        }
        for (module, candidate, wanting) in contested {
            let space = modules.space(module);
            for i in wanting {
                names[i] = Some(space.claim(candidate.clone()));
            }
        }
    }

    // Every def was named in one of the steps; the fallback only keeps this total.
    names.into_iter().map(|name| name.unwrap_or_else(|| "Unnamed".to_owned())).collect()
}

/// The number of ancestors of each def, counting each def in a parent cycle once.
fn depths(ir: &Ir) -> Vec<usize> {
    (0..ir.defs.len())
        .map(|i| {
            // A set, not a scan of the chain: a chain as deep as lowering nests (256) under
            // each of many defs would otherwise cost its square per def.
            let mut chain = HashSet::from([i]);
            let mut current = i;
            while let Some(parent) = ir.defs.get(current).and_then(|def| def.hint.parent) {
                if parent.0 >= ir.defs.len() || !chain.insert(parent.0) {
                    break;
                }
                current = parent.0;
            }
            chain.len() - 1
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{DefId, DocId, Docs, Field, NameHint, Ty, UnionMode, Variant};
    use crate::modules::Modules;
    use crate::resolve::Loc;

    /// Documents 0 and 1, in modules `a` and `b`.
    fn modules() -> Modules {
        Modules::of_paths(vec![vec!["a".to_owned()], vec!["b".to_owned()]])
    }

    fn def(doc: usize, pointer: &str, hint: NameHint) -> Def {
        Def {
            origin: Loc { doc: DocId(doc), pointer: pointer.to_owned() },
            hint,
            name: String::new(),
            docs: Docs::default(),
            kind: DefKind::Alias(Ty::String),
            unenforced: Vec::new(),
        }
    }

    fn explicit(name: &str) -> NameHint {
        NameHint { explicit: Some(name.to_owned()), segment: "root".to_owned(), ..NameHint::default() }
    }

    fn key(name: &str) -> NameHint {
        NameHint { key: Some(name.to_owned()), segment: name.to_owned(), ..NameHint::default() }
    }

    fn title(name: &str, parent: usize, segment: &str) -> NameHint {
        NameHint { title: Some(name.to_owned()), ..path(parent, segment) }
    }

    fn path(parent: usize, segment: &str) -> NameHint {
        NameHint { parent: Some(DefId(parent)), segment: segment.to_owned(), ..NameHint::default() }
    }

    /// Names `defs` and returns their names.
    fn run(defs: Vec<Def>) -> Vec<String> {
        let modules = modules();
        let mut ir = Ir { defs, roots: Vec::new(), ..Ir::default() };
        name(&mut ir, &modules);
        ir.defs.into_iter().map(|def| def.name).collect()
    }

    fn check(defs: Vec<Def>, expect: &[&str]) {
        let names = run(defs);
        assert_eq!(names, expect);
        for name in &names {
            assert!(syn::parse_str::<syn::Ident>(name).is_ok(), "{name:?}");
        }
    }

    #[test]
    fn own_names() {
        check(
            vec![
                def(0, "", explicit("madoo attempts report")),
                def(0, "/$defs/best_unaccepted", NameHint { title: Some("Ignored".to_owned()), ..key("best_unaccepted") }),
                def(0, "/properties/x", title("Some Title", 0, "x")),
            ],
            &["MadooAttemptsReport", "BestUnaccepted", "SomeTitle"],
        );
    }

    #[test]
    fn path_names() {
        check(
            vec![
                def(0, "/properties/report/properties/body", path(2, "body")),
                def(0, "/properties/report/properties/body/items", path(0, "Item")),
                def(0, "/properties/report", path(3, "report")),
                def(0, "", explicit("Attempts")),
                def(0, "/properties/weird", path(3, "$$$")),
            ],
            &["AttemptsReportBody", "AttemptsReportBodyItem", "AttemptsReport", "Attempts", "Attempts2"],
        );
    }

    #[test]
    fn stronger_own_name_wins() {
        // The `$defs` key keeps `Address`; the inline title falls back to its path.
        check(
            vec![
                def(0, "", explicit("Order")),
                def(0, "/$defs/Address", key("Address")),
                def(0, "/properties/billing", title("Address", 0, "billing")),
            ],
            &["Order", "Address", "OrderBilling"],
        );
    }

    #[test]
    fn equal_titles_fall_back_to_paths() {
        check(
            vec![
                def(0, "", explicit("Order")),
                def(0, "/properties/shipping", title("Address", 0, "shipping")),
                def(0, "/properties/billing", title("Address", 0, "billing")),
                def(0, "/properties/billing/properties/street", path(2, "street")),
            ],
            &["Order", "OrderShipping", "OrderBilling", "OrderBillingStreet"],
        );
    }

    #[test]
    fn colliding_items_are_numbered_by_pointer() {
        // `Foo.items` and `Foo.properties.item` both want `FooItem`.
        check(
            vec![
                def(0, "", explicit("Foo")),
                def(0, "/properties/item", path(0, "item")),
                def(0, "/items", path(0, "Item")),
                def(0, "/items/items", path(2, "Item")),
            ],
            &["Foo", "FooItem2", "FooItem", "FooItemItem"],
        );
        // Two keys that spell the same name, and no parent to tell them apart.
        check(vec![def(0, "/$defs/foo_bar", key("foo_bar")), def(0, "/$defs/foo-bar", key("foo-bar"))], &["FooBar2", "FooBar"]);
    }

    #[test]
    fn modules_are_separate_namespaces() {
        check(vec![def(0, "", explicit("Report")), def(1, "", explicit("Report"))], &["Report", "Report"]);
    }

    #[test]
    fn reserved_names_are_avoided() {
        check(
            vec![
                def(0, "", explicit("Root")),
                def(0, "/$defs/Value", key("Value")),
                def(0, "/properties/v", title("String", 0, "v")),
                def(0, "/properties/m", path(0, "m")),
                def(0, "/$defs/map", key("map")),
            ],
            &["Root", "Value2", "RootV", "RootM", "Map2"],
        );
    }

    #[test]
    fn adding_an_unrelated_def_renames_nothing() {
        let base = vec![
            def(0, "", explicit("Order")),
            def(0, "/$defs/Address", key("Address")),
            def(0, "/properties/lines", path(0, "lines")),
            def(0, "/properties/lines/items", path(2, "Item")),
            def(0, "/properties/note", title("Note", 0, "note")),
        ];
        let before = run(base.clone());
        let mut edited = vec![def(0, "/$defs/Customer", key("Customer")), def(0, "/properties/customer", title("Person", 0, "customer"))];
        // Shift the parents: the new defs come first, as a HashMap-ordered lowering might put them.
        edited.extend(base.into_iter().map(|mut def| {
            def.hint.parent = def.hint.parent.map(|p| DefId(p.0 + 2));
            def
        }));
        let after = run(edited);
        assert_eq!(after[2..], before[..]);
        assert_eq!(after[..2], ["Customer", "Person"]);
    }

    #[test]
    fn parent_cycles_terminate() {
        check(vec![def(0, "/a", path(1, "a")), def(0, "/b", path(0, "b"))], &["A", "B"]);
        check(vec![def(0, "/a", path(0, "a"))], &["A"]);
    }

    fn field(json_name: &str) -> Field {
        Field { json_name: json_name.to_owned(), rust_name: String::new(), ty: Ty::String, required: true, docs: Docs::default() }
    }

    fn field_names(rest: Rest, json_names: &[&str]) -> Vec<String> {
        let mut root = def(0, "", explicit("Root"));
        root.kind = DefKind::Struct(Struct { fields: json_names.iter().map(|n| field(n)).collect(), rest, assertions: Vec::new() });
        let modules = modules();
        let mut ir = Ir { defs: vec![root], roots: Vec::new(), ..Ir::default() };
        name(&mut ir, &modules);
        match &ir.defs[0].kind {
            DefKind::Struct(s) => s.fields.iter().map(|f| f.rust_name.clone()).collect(),
            _ => Vec::new(),
        }
    }

    #[test]
    fn fields() {
        assert_eq!(
            field_names(Rest::Closed, &["type", "self", "maxAttempts", "max_attempts", "extra"]),
            ["r#type", "self_", "max_attempts", "max_attempts_2", "extra"]
        );
        for rest in [Rest::Open, Rest::Typed(Ty::Any), Rest::Patterns { patterns: Vec::new(), additional: None }] {
            assert_eq!(field_names(rest, &["extra", "type"]), ["extra_2", "r#type"]);
        }
    }

    #[test]
    fn variants() {
        let mut root = def(0, "", explicit("Root"));
        let variant = |hint: &str| Variant { name: String::new(), hint: hint.to_owned(), ty: Ty::Any, tags: Vec::new() };
        root.kind = DefKind::Union(Union {
            variants: vec![variant("string"), variant("String"), variant("Self"), variant("")],
            mode: UnionMode::ByKind,
        });
        let modules = modules();
        let mut ir = Ir { defs: vec![root], roots: Vec::new(), ..Ir::default() };
        name(&mut ir, &modules);
        let DefKind::Union(u) = &ir.defs[0].kind else { unreachable!("a union stays a union") };
        let names: Vec<&str> = u.variants.iter().map(|v| v.name.as_str()).collect();
        assert_eq!(names, ["String", "String2", "Self_", "Empty"]);
    }
}
