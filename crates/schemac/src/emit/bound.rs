//! What a generated module says about its schema: the source text (`SCHEMA_JSON`),
//! `schemac_runtime::SchemaBound` on the root type, and `schemars::JsonSchema` on every type.
//!
//! A type's `JsonSchema` is its source subschema, not a schema re-derived from the Rust type:
//! the emitter resolves every reference in it here (with the registry: base URIs, anchors,
//! other files) and the generated code hands the resolved targets to
//! `schemac_runtime::bundle`, which points the references at the generator's `$defs`.
//! A reference to a schema that has no Rust type of its own (a plain `type` alias, a string
//! inlined as `String`) is bundled through a small type declared inside a function, so
//! schemars still names and deduplicates it.

use std::collections::{BTreeMap, HashMap};

use proc_macro2::{Literal, TokenStream};
use quote::quote;
use serde_json::Value;

use super::items::is_type_alias;
use super::ty::{Ctx, ident};
use crate::Draft;
use crate::ir::DefId;
use crate::load::Document;
use crate::resolve::{Loc, Registry, subschemas};

/// What this file adds to the module of a document.
pub(super) struct Items {
    /// Each type's `JsonSchema` impl (and the root's `SchemaBound`), in the order of `defs`.
    pub impls: Vec<TokenStream>,
    /// The `json_schema_ref_N` functions the impls call.
    pub helpers: TokenStream,
    /// `SCHEMA_JSON` and `schema()`: the source text, which reads best at the end.
    pub source: TokenStream,
}

/// The items for the module of `doc`, whose types are `defs`.
pub(super) fn items(ctx: &Ctx<'_>, doc: &Document, defs: &[DefId]) -> Items {
    let root = root_of(ctx, doc);
    let mut bundler = Bundler { ctx, doc, nominal: nominal_defs(ctx), raws: Vec::new() };
    let text = source_literal(&doc.text);
    let source = quote! {
        /// The source schema file, byte for byte.
        pub const SCHEMA_JSON: &str = #text;

        /// [`SCHEMA_JSON`], parsed on first use.
        static SCHEMA_VALUE: std::sync::LazyLock<serde_json::Value> =
            std::sync::LazyLock::new(|| schemac_runtime::literal(SCHEMA_JSON));

        /// The source schema, parsed (once).
        pub fn schema() -> &'static serde_json::Value {
            &SCHEMA_VALUE
        }
    };
    let mut impls = Vec::new();
    for &id in defs {
        let mut out = TokenStream::new();
        if !is_type_alias(ctx, id) {
            let pointer = if Some(id) == root { String::new() } else { ctx.def(id).origin.pointer.clone() };
            let loc = Loc { doc: doc.id, pointer };
            out.extend(json_schema_impl(&mut bundler, id, &loc));
            if Some(id) == root {
                out.extend(schema_bound_impl(ctx, doc, id));
            }
        }
        impls.push(out);
    }
    // Bundling one raw target can reach others; `raws` grows while it is emitted.
    let mut helpers = TokenStream::new();
    let mut next = 0;
    while next < bundler.raws.len() {
        let (loc, from) = bundler.raws[next].clone();
        helpers.extend(raw_fn(&mut bundler, next, &loc, from));
        next += 1;
    }
    Items { impls, helpers, source }
}

/// The root type of `doc`'s module, when it is a type of its own.
pub(super) fn root_of(ctx: &Ctx<'_>, doc: &Document) -> Option<DefId> {
    let (_, root) = ctx.ir.roots.iter().find(|(d, _)| *d == doc.id)?;
    (!is_type_alias(ctx, *root)).then_some(*root)
}

/// The `$id` of a document (draft 4: `id`), else its displayed path.
pub(super) fn schema_id(doc: &Document) -> String {
    let key = if doc.draft == Draft::Draft4 { "id" } else { "$id" };
    doc.json.get(key).and_then(Value::as_str).map_or_else(|| doc.display.clone(), str::to_owned)
}

fn schema_bound_impl(ctx: &Ctx<'_>, doc: &Document, id: DefId) -> TokenStream {
    let name = ident(&ctx.def(id).name);
    let schema_id = schema_id(doc);
    let (path, sha256) = (&doc.display, &doc.sha256);
    quote! {
        impl schemac_runtime::SchemaBound for #name {
            const SCHEMA_ID: &'static str = #schema_id;
            const SOURCE_PATH: &'static str = #path;
            const SOURCE_SHA256: &'static str = #sha256;
            const POINTER: &'static str = "";

            fn schema() -> &'static serde_json::Value {
                &SCHEMA_VALUE
            }
        }
    }
}

fn json_schema_impl(bundler: &mut Bundler<'_, '_>, id: DefId, loc: &Loc) -> TokenStream {
    let def = bundler.ctx.def(id);
    let name = ident(&def.name);
    let plain_name = def.name.trim_start_matches("r#");
    let schema_name = defs_key(&loc.pointer).unwrap_or_else(|| plain_name.to_owned());
    let body = bundler.subschema(id, loc, quote!(&SCHEMA_VALUE), &loc.pointer);
    quote! {
        impl schemac_runtime::schemars::JsonSchema for #name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed(#schema_name)
            }

            fn schema_id() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed(concat!(module_path!(), "::", #plain_name))
            }

            fn json_schema(generator: &mut schemac_runtime::schemars::SchemaGenerator) -> schemac_runtime::schemars::Schema {
                #body
            }
        }
    }
}

/// `json_schema_ref_N`: registers a ref target that has no Rust type with the generator.
fn raw_fn(bundler: &mut Bundler<'_, '_>, n: usize, loc: &Loc, from: DefId) -> TokenStream {
    let fn_name = quote::format_ident!("json_schema_ref_{n}");
    let target_doc = bundler.ctx.registry.doc(loc.doc);
    let schema_name = defs_key(&loc.pointer).unwrap_or_else(|| format!("{}#{}", target_doc.display, loc.pointer));
    let schema_id = format!("{}#{}", target_doc.display, loc.pointer);
    // A target in another document is embedded on its own (that document's module, if it has
    // one, keeps its text private).
    let (document, embedded) = if loc.doc == bundler.doc.id {
        (quote!(&SCHEMA_VALUE), TokenStream::new())
    } else {
        let json = bundler.ctx.registry.get(loc).map(Value::to_string).unwrap_or_else(|| "false".to_owned());
        let embedded = quote! {
            static TARGET: std::sync::LazyLock<serde_json::Value> = std::sync::LazyLock::new(|| schemac_runtime::literal(#json));
        };
        (quote!(&TARGET), embedded)
    };
    let pointer = if loc.doc == bundler.doc.id { loc.pointer.as_str() } else { "" };
    let body = bundler.subschema(from, loc, document, pointer);
    quote! {
        fn #fn_name(generator: &mut schemac_runtime::schemars::SchemaGenerator) -> schemac_runtime::schemars::Schema {
            struct Target;

            impl schemac_runtime::schemars::JsonSchema for Target {
                fn schema_name() -> std::borrow::Cow<'static, str> {
                    std::borrow::Cow::Borrowed(#schema_name)
                }

                fn schema_id() -> std::borrow::Cow<'static, str> {
                    std::borrow::Cow::Borrowed(#schema_id)
                }

                fn json_schema(generator: &mut schemac_runtime::schemars::SchemaGenerator) -> schemac_runtime::schemars::Schema {
                    #embedded
                    #body
                }
            }

            generator.subschema_for::<Target>()
        }
    }
}

/// Emits the bundling of subschemas for one module.
struct Bundler<'c, 'a> {
    ctx: &'c Ctx<'a>,
    doc: &'a Document,
    /// The type whose schema is at each location: the first nominal def with that origin.
    nominal: HashMap<Loc, DefId>,
    /// Ref targets without a nominal type, in the order first reached, with a def of this
    /// module (for paths to other types).
    raws: Vec<(Loc, DefId)>,
}

impl Bundler<'_, '_> {
    /// A `bundle::Subschema { .. }.json_schema(generator)` expression for the schema at `loc`,
    /// found in (the JSON value) `document` at `pointer`.
    fn subschema(&mut self, from: DefId, loc: &Loc, document: TokenStream, pointer: &str) -> TokenStream {
        let plan = plan(self.ctx.registry, loc);
        let refs: Vec<TokenStream> = plan
            .sites
            .iter()
            .map(|site| {
                let (holder, keyword, alone) = (&site.holder, site.keyword, site.alone);
                let target = self.target(from, &site.target);
                quote! {
                    schemac_runtime::bundle::Ref { holder: #holder, keyword: #keyword, alone: #alone, target: #target }
                }
            })
            .collect();
        let (moved, resources) = (&plan.moved, &plan.resources);
        let edits = edits_tokens(&quote!(schemac_runtime), &plan.edits);
        quote! {
            schemac_runtime::bundle::Subschema {
                document: #document,
                pointer: #pointer,
                refs: &[#(#refs),*],
                moved: &[#(#moved),*],
                resources: &[#(#resources),*],
                edits: #edits,
            }
            .json_schema(generator)
        }
    }

    /// The function that registers the schema at `target` and returns a reference to it.
    fn target(&mut self, from: DefId, target: &Loc) -> TokenStream {
        if let Some(&id) = self.nominal.get(target) {
            let path = self.ctx.path(from, id);
            return quote!(|generator| generator.subschema_for::<#path>());
        }
        let n = match self.raws.iter().position(|(loc, _)| loc == target) {
            Some(n) => n,
            None => {
                self.raws.push((target.clone(), from));
                self.raws.len() - 1
            }
        };
        let fn_name = quote::format_ident!("json_schema_ref_{n}");
        quote!(#fn_name)
    }
}

/// Every nominal def by the location of its schema; a document's root type also by `""`.
fn nominal_defs(ctx: &Ctx<'_>) -> HashMap<Loc, DefId> {
    let mut map = HashMap::new();
    for &(doc, root) in &ctx.ir.roots {
        if !is_type_alias(ctx, root) {
            map.insert(Loc { doc, pointer: String::new() }, root);
        }
    }
    for (i, def) in ctx.ir.defs.iter().enumerate() {
        if !is_type_alias(ctx, DefId(i)) {
            map.entry(def.origin.clone()).or_insert(DefId(i));
        }
    }
    map
}

/// The `$defs`/`definitions` key when `pointer` names such an entry: it stays the
/// definition's name in the bundled schema, as in the source.
pub fn defs_key(pointer: &str) -> Option<String> {
    let (parent, key) = pointer.rsplit_once('/')?;
    let keyword = parent.rsplit('/').next()?;
    (keyword == "$defs" || keyword == "definitions").then(|| key.replace("~1", "/").replace("~0", "~"))
}

/// The source text as a string literal: raw and multi-line, so the schema reads as in its
/// file, unless it holds a carriage return (which a raw string cannot keep byte for byte).
fn source_literal(text: &str) -> TokenStream {
    if !text.contains('\r') {
        let mut hashes = String::from("#");
        while text.contains(&format!("\"{hashes}")) {
            hashes.push('#');
        }
        if let Ok(literal) = format!("r{hashes}\"{text}\"{hashes}").parse::<Literal>() {
            return quote!(#literal);
        }
    }
    let literal = Literal::string(text);
    quote!(#literal)
}

/// What bundling a subschema changes, found by walking its schema positions.
#[derive(Debug, Default)]
pub struct Plan {
    pub sites: Vec<Site>,
    /// `$defs`/`definitions` entries that references target (relative pointers).
    pub moved: Vec<String>,
    /// Schema objects declaring `$id` or `$schema`, below the top (relative pointers).
    pub resources: Vec<String>,
    /// The rewrites of an older draft's keywords to their 2020-12 spelling, in the order the
    /// runtime applies them (see [`Edit`]).
    pub edits: Vec<Edit>,
}

/// One rewrite that makes a subschema of an older draft mean the same under 2020-12, which
/// schemars declares: array `items` → `prefixItems` (and `additionalItems` → `items`),
/// `dependencies` → `dependentRequired`/`dependentSchemas`, draft 4's boolean
/// `exclusiveMinimum`/`Maximum` → numbers and `id` → `$id` (the top one; nested ones go, as
/// they would move the base URI of the bundled references).
///
/// Decided here and emitted as data (`schemac_runtime::bundle::Edit`); the runtime applies
/// them after placing the references, children before their parents, so that each pointer
/// (relative to the subschema, as written) still leads where it did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// The keyword `from` of the object at `at` becomes `to`.
    Rename { at: String, from: &'static str, to: &'static str },
    /// The keyword `key` of the object at `at` goes.
    Remove { at: String, key: &'static str },
    /// The map `from` of the object at `at` goes; each entry moves to the map named beside it
    /// (made if absent), in this order.
    Split { at: String, from: &'static str, into: Vec<(String, &'static str)> },
}

/// A reference: where it is (relative to the subschema) and where it leads.
#[derive(Debug)]
pub struct Site {
    pub holder: String,
    pub keyword: &'static str,
    pub alone: bool,
    pub target: Loc,
}

/// What bundling the subschema at `loc` changes: its references, the definitions they
/// target (moved out) and the nested resources (their `$id`/`$schema` dropped).
pub fn plan(registry: &Registry, loc: &Loc) -> Plan {
    let mut plan = Plan::default();
    let mut entries: BTreeMap<String, Loc> = BTreeMap::new();
    if let Some(Value::Object(map)) = registry.get(loc) {
        walk(registry, loc, "", map, &mut plan, &mut entries);
    }
    // An entry moves to the generator's definitions when something refers to it; what lies
    // inside it is bundled with it, so its references are not this subschema's.
    plan.moved = entries.iter().filter(|(_, at)| plan.sites.iter().any(|s| &s.target == *at)).map(|(rel, _)| rel.clone()).collect();
    let inside = |pointer: &str, moved: &[String]| moved.iter().any(|m| pointer == m || pointer.starts_with(&format!("{m}/")));
    let moved = plan.moved.clone();
    plan.sites.retain(|s| !inside(&s.holder, &moved));
    plan.resources.retain(|r| !inside(r, &moved));
    let draft = registry.draft_at(loc);
    if draft < Draft::Draft2020_12
        && let Some(schema) = registry.get(loc)
    {
        // Moved entries are gone, and a lone reference's holder is replaced by its target,
        // before the runtime applies the edits: nothing there to rewrite.
        let alone: Vec<&str> = plan.sites.iter().filter(|s| s.alone).map(|s| s.holder.as_str()).collect();
        let skip = |rel: &str| inside(rel, &moved) || alone.contains(&rel);
        upgrade(draft, schema, "", true, &skip, &mut plan.edits);
    }
    plan
}

/// Keywords whose value is one schema, after [`upgrade`] has renamed the old ones.
const UPGRADED_SCHEMA_KEYWORDS: &[&str] = &[
    "items",
    "additionalProperties",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "contentSchema",
];
/// Keywords whose value is an array of schemas, after [`upgrade`].
const UPGRADED_ARRAY_KEYWORDS: &[&str] = &["prefixItems", "allOf", "anyOf", "oneOf"];
/// Keywords whose value maps names to schemas, after [`upgrade`].
const UPGRADED_MAP_KEYWORDS: &[&str] = &["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/// Appends the [`Edit`]s that rewrite `schema` (at `rel` in the subschema; `top` for the
/// subschema itself) and the subschemas it holds from `draft` to 2020-12: those of its
/// subschemas first, then its own, in the order the keywords are rewritten.
fn upgrade(draft: Draft, schema: &Value, rel: &str, top: bool, skip: &dyn Fn(&str) -> bool, out: &mut Vec<Edit>) {
    let Value::Object(object) = schema else { return };
    if skip(rel) {
        return;
    }
    let at = || rel.to_owned();
    let mut own = Vec::new();
    // The schemas inside, with their pointers as written, that are still schemas once
    // rewritten; their edits come first.
    let mut children: Vec<(String, &Value)> = Vec::new();
    let array_items = matches!(object.get("items"), Some(Value::Array(_)));
    if array_items {
        own.push(Edit::Rename { at: at(), from: "items", to: "prefixItems" });
        if object.contains_key("additionalItems") {
            own.push(Edit::Rename { at: at(), from: "additionalItems", to: "items" });
        }
    } else if object.contains_key("additionalItems") {
        // Without an array `items`, `additionalItems` has no effect.
        own.push(Edit::Remove { at: at(), key: "additionalItems" });
    }
    let split = draft <= Draft::Draft7 && object.contains_key("dependencies");
    if split {
        match object.get("dependencies") {
            Some(Value::Object(dependencies)) => {
                let mut into = Vec::new();
                for (name, dependency) in dependencies {
                    if dependency.is_array() {
                        into.push((name.clone(), "dependentRequired"));
                    } else {
                        into.push((name.clone(), "dependentSchemas"));
                        children.push((format!("{rel}/dependencies/{}", escape(name)), dependency));
                    }
                }
                own.push(Edit::Split { at: at(), from: "dependencies", into });
            }
            _ => own.push(Edit::Remove { at: at(), key: "dependencies" }),
        }
    }
    if draft == Draft::Draft4 {
        for (bound, exclusive) in [("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")] {
            if let Some(Value::Bool(is_exclusive)) = object.get(exclusive) {
                own.push(Edit::Remove { at: at(), key: exclusive });
                if *is_exclusive && object.contains_key(bound) {
                    own.push(Edit::Rename { at: at(), from: bound, to: exclusive });
                }
            }
        }
        match object.get("id") {
            Some(Value::String(_)) if top => own.push(Edit::Rename { at: at(), from: "id", to: "$id" }),
            Some(_) => own.push(Edit::Remove { at: at(), key: "id" }),
            None => {}
        }
    }
    for (keyword, value) in object {
        let rewritten = match keyword.as_str() {
            "items" if array_items => "prefixItems",
            "additionalItems" if array_items => "items",
            // Removed, moved above, or overwritten by the renamed `items`.
            "additionalItems" => continue,
            "dependencies" if split => continue,
            "prefixItems" if array_items => continue,
            other => other,
        };
        let pointer = format!("{rel}/{}", escape(keyword));
        match value {
            Value::Object(_) if UPGRADED_SCHEMA_KEYWORDS.contains(&rewritten) => children.push((pointer, value)),
            Value::Array(list) if UPGRADED_ARRAY_KEYWORDS.contains(&rewritten) => {
                children.extend(list.iter().enumerate().map(|(i, item)| (format!("{pointer}/{i}"), item)));
            }
            Value::Object(map) if UPGRADED_MAP_KEYWORDS.contains(&rewritten) => {
                children.extend(map.iter().map(|(name, item)| (format!("{pointer}/{}", escape(name)), item)));
            }
            _ => {}
        }
    }
    for (pointer, child) in children {
        upgrade(draft, child, &pointer, false, skip, out);
    }
    out.extend(own);
}

/// A JSON pointer token for `name`.
fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

/// The `&[schemac_runtime::bundle::Edit]` of `edits`, with the runtime crate spelled `rt`.
pub fn edits_tokens(rt: &TokenStream, edits: &[Edit]) -> TokenStream {
    let edits = edits.iter().map(|edit| match edit {
        Edit::Rename { at, from, to } => quote!(#rt::bundle::Edit::Rename { at: #at, from: #from, to: #to }),
        Edit::Remove { at, key } => quote!(#rt::bundle::Edit::Remove { at: #at, key: #key }),
        Edit::Split { at, from, into } => {
            let into = into.iter().map(|(name, to)| quote!((#name, #to)));
            quote!(#rt::bundle::Edit::Split { at: #at, from: #from, into: &[#(#into),*] })
        }
    });
    quote!(&[#(#edits),*])
}

fn walk(
    registry: &Registry,
    loc: &Loc,
    rel: &str,
    map: &serde_json::Map<String, Value>,
    plan: &mut Plan,
    entries: &mut BTreeMap<String, Loc>,
) {
    let draft = registry.draft_at(loc);
    let keywords: &[&'static str] = match draft {
        Draft::Draft2020_12 => &["$ref", "$dynamicRef"],
        Draft::Draft2019_09 => &["$ref", "$recursiveRef"],
        _ => &["$ref"],
    };
    // Before 2019-09 the keywords beside `$ref` are ignored, so nothing below them counts.
    let alone = draft <= Draft::Draft7 && map.get("$ref").is_some_and(Value::is_string);
    for &keyword in keywords {
        let Some(reference) = map.get(keyword).and_then(Value::as_str) else { continue };
        // An unresolvable ref has been reported by the lowering; it stays as written.
        if let Ok(target) = registry.resolve(loc, reference) {
            plan.sites.push(Site { holder: rel.to_owned(), keyword, alone: alone && map.len() > 1, target });
        }
    }
    if alone {
        return;
    }
    if !rel.is_empty() && (map.get("$id").is_some_and(Value::is_string) || map.contains_key("$schema")) {
        plan.resources.push(rel.to_owned());
    }
    for (suffix, child) in subschemas(map) {
        let child_rel = format!("{rel}{suffix}");
        let child_loc = Loc { doc: loc.doc, pointer: format!("{}{suffix}", loc.pointer) };
        if (suffix.starts_with("/$defs/") || suffix.starts_with("/definitions/")) && suffix.matches('/').count() == 2 {
            entries.insert(child_rel.clone(), child_loc.clone());
        }
        walk(registry, &child_loc, &child_rel, child, plan, entries);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defs_keys() {
        assert_eq!(defs_key("/$defs/attempt").as_deref(), Some("attempt"));
        assert_eq!(defs_key("/definitions/a~1b~0c").as_deref(), Some("a/b~c"));
        assert_eq!(defs_key("/properties/attempt"), None);
        assert_eq!(defs_key(""), None);
    }

    /// `schema` of `draft` with its upgrade edits applied by the runtime, as generated code
    /// applies them (`skip` as for a lone reference's holder).
    fn upgraded(draft: Draft, schema: Value, skip: &[&str]) -> Value {
        use schemac_runtime::bundle;
        let mut edits = Vec::new();
        upgrade(draft, &schema, "", true, &|rel| skip.contains(&rel), &mut edits);
        let leak = |s: &str| -> &'static str { String::from(s).leak() };
        let edits: Vec<bundle::Edit> = edits
            .iter()
            .map(|edit| match edit {
                Edit::Rename { at, from, to } => bundle::Edit::Rename { at: leak(at), from, to },
                Edit::Remove { at, key } => bundle::Edit::Remove { at: leak(at), key },
                Edit::Split { at, from, into } => {
                    let into: Vec<(&'static str, &'static str)> = into.iter().map(|(name, to)| (leak(name), *to)).collect();
                    bundle::Edit::Split { at: leak(at), from, into: into.leak() }
                }
            })
            .collect();
        let subschema = bundle::Subschema { document: &schema, pointer: "", refs: &[], moved: &[], resources: &[], edits: &edits };
        let mut value = subschema.json_schema(&mut schemac_runtime::schemars::SchemaGenerator::default()).to_value();
        value.as_object_mut().map(|object| object.remove("$schema"));
        value
    }

    #[test]
    fn upgrades_old_keywords() {
        let schema = serde_json::json!({
            "id": "urn:x",
            "properties": {
                "pair": {"items": [{"type": "string"}], "additionalItems": false},
                "list": {"items": {"type": "string"}, "additionalItems": false},
                "n": {"minimum": 0, "exclusiveMinimum": true, "maximum": 1, "exclusiveMaximum": false, "id": "nested"}
            },
            "dependencies": {"a": ["b"], "c": {"required": ["d"]}}
        });
        assert_eq!(
            upgraded(Draft::Draft4, schema, &[]),
            serde_json::json!({
                "$id": "urn:x",
                "properties": {
                    "pair": {"prefixItems": [{"type": "string"}], "items": false},
                    "list": {"items": {"type": "string"}},
                    "n": {"exclusiveMinimum": 0, "maximum": 1}
                },
                "dependentRequired": {"a": ["b"]},
                "dependentSchemas": {"c": {"required": ["d"]}}
            })
        );
    }

    /// Children are rewritten before their parents move them: inside an array `items`, its
    /// `additionalItems`, a moved `dependencies` entry and `definitions`; not inside what
    /// stops being a schema, nor inside a lone reference's holder.
    #[test]
    fn upgrades_nested_schemas_before_their_parents() {
        let nested = || serde_json::json!({"items": [true], "additionalItems": {"items": [false]}});
        let schema = serde_json::json!({
            "items": [nested()],
            "additionalItems": nested(),
            "dependencies": {"a": nested(), "b": ["c"]},
            "definitions": {"d": nested()},
            "const": nested(),
            "properties": {"alone": {"$ref": "#/definitions/d", "items": [true]}}
        });
        let done = serde_json::json!({"prefixItems": [true], "items": {"prefixItems": [false]}});
        assert_eq!(
            upgraded(Draft::Draft7, schema, &["/properties/alone"]),
            serde_json::json!({
                "prefixItems": [done],
                "items": done,
                "dependentSchemas": {"a": done},
                "dependentRequired": {"b": ["c"]},
                "definitions": {"d": done},
                "const": nested(),
                "properties": {"alone": {"$ref": "#/definitions/d", "items": [true]}}
            })
        );
        // 2019-09 has `dependentSchemas`; its `dependencies` is not a keyword to rewrite.
        let schema = serde_json::json!({"dependencies": {"a": nested()}, "items": [nested()]});
        let upgraded_2019 = upgraded(Draft::Draft2019_09, schema, &[]);
        assert_eq!(upgraded_2019, serde_json::json!({"dependencies": {"a": nested()}, "prefixItems": [done]}));
    }

    #[test]
    fn source_literals_stay_raw_unless_they_hold_a_carriage_return() {
        assert_eq!(source_literal("{\"a\": \"#\"}\n").to_string(), "r##\"{\"a\": \"#\"}\n\"##");
        assert_eq!(source_literal("{}\r\n").to_string(), "\"{}\\r\\n\"");
    }
}
