//! Emission: IR → formatted Rust source, one module per document.
//!
//! Items are printed with `quote` and formatted with the pinned `prettyplease`, so the output
//! is byte-identical on every machine. Modules are assembled in `BTreeMap`s keyed by module
//! path and types in IR order: deterministic by construction.

mod alias;
mod assert;
mod attrs;
mod bound;
mod builder;
mod check;
mod conversions;
mod dedup;
mod defaults;
mod derives;
pub(crate) mod hygiene;
mod items;
mod layout;
mod open_enum;
mod patterns;
mod plain;
mod rust_type;
mod seed;
#[cfg(test)]
mod testing;
mod tuple;
mod ty;
mod union;
mod unparse;

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::quote;

use crate::ir::{Def, DefId, Ir};
use crate::{Config, Module, Output, TypeSummary};

/// How a subschema's references are bundled, for `#[derive(Conforms)]`'s `JsonSchema`.
pub use assert::validate_impl_in;
pub use bound::{defs_key, edits_tokens};
pub(crate) use derives::check as check_derives;
/// The runtime contract generated code is written for, and the runtime names it may reach
/// outside the contract.
pub use hygiene::{BUILDER_API, RUNTIME_API, RUNTIME_CONTRACT};
/// The bound on generated types' sizes, and the size beyond which a field is boxed.
pub use layout::{BOX_OVER, MAX_TYPE_SIZE};
pub use patterns::pattern_static_in;
pub(crate) use ty::Ctx;
/// The nullable branches of unions dispatched by kind, for the generated round-trip tests.
pub use union::{NullableBranch, Visit, nullable_branches};
pub(crate) use unparse::unparse;

/// What emission writes: the checked types, or the benchmark's baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flavor {
    /// The types the schemas describe, with every check, impl and builder.
    Checked,
    /// The same shapes with plain `#[derive(Deserialize, Serialize)]` and no checks
    /// (`plain.rs`): only the deserialization benchmark's reference point
    /// ([`Front::compile_plain_serde`](crate::Front::compile_plain_serde)).
    PlainSerde,
}

/// Emits every module that has at least one type.
pub(crate) fn emit(ir: &Ir, config: &Config, flavor: Flavor) -> Output {
    let plain_serde = flavor == Flavor::PlainSerde;
    let open = if plain_serde { Default::default() } else { open_enum::open_enums(ir, config) };
    let ctx = Ctx::with_open_enums(ir, open);
    let mut by_module: BTreeMap<&[String], Vec<DefId>> = BTreeMap::new();
    for (i, def) in ir.defs.iter().enumerate() {
        by_module.entry(&ctx.doc(def.origin.doc).module).or_default().push(DefId(i));
    }
    let modules = by_module.into_iter().map(|(path, defs)| module(&ctx, path, &defs, config, plain_serde)).collect();
    let warnings = if plain_serde { Vec::new() } else { pattern_diagnostics(&ctx, config.unbounded_patterns) };
    Output { modules, warnings, ..Output::default() }
}

/// A warning for every `pattern` (and `patternProperties` key) that runs on a backtracking
/// engine, at the schema of the type that checks it: with `fancy-regex` a value that takes too
/// many steps is rejected. What fancy-regex cannot run exactly would run on `regress`, where
/// nothing bounds the time a value can take: an `unbounded-pattern` error unless
/// `allow_unbounded` (then a warning).
fn pattern_diagnostics(ctx: &Ctx<'_>, allow_unbounded: bool) -> Vec<crate::Diagnostic> {
    let ir = ctx.ir;
    let mut seen = std::collections::BTreeSet::new();
    let mut warnings = Vec::new();
    for def in &ir.defs {
        let mut patterns = Vec::new();
        match &def.kind {
            crate::ir::DefKind::Newtype(newtype) => patterns.extend(&newtype.pattern),
            crate::ir::DefKind::Struct(s) => {
                if let crate::ir::Rest::Patterns { patterns: rest, .. } = &s.rest {
                    patterns.extend(rest.iter().map(|(p, _)| p));
                }
            }
            crate::ir::DefKind::Checked(check) => check_patterns(check, &mut patterns),
            crate::ir::DefKind::Refined(refined) => check_patterns(&refined.check, &mut patterns),
            _ => {}
        }
        let doc = ctx.doc(def.origin.doc);
        for pattern in patterns.into_iter().filter(|p| p.translated.is_none()) {
            if !seen.insert((def.origin.doc, def.origin.pointer.clone(), pattern.source.clone())) {
                continue;
            }
            let bounded = crate::pattern::bounded(&pattern.source).is_some();
            let (message, hint) = match bounded {
                true => (
                    format!(
                        "the pattern `{}` needs a backtracking engine (lookaround or backreferences): a value that takes more \
                         than {} backtracking steps fails validation",
                        pattern.source,
                        crate::pattern::BACKTRACK_LIMIT
                    ),
                    "a pattern without lookaround and backreferences runs in linear time",
                ),
                false if !allow_unbounded => {
                    let message = format!(
                        "the pattern `{}` has no exact equivalent on an engine that bounds its time (`regex`, or `fancy-regex` \
                         with a step limit): on `regress`, the one engine left, a hostile value could make reading take \
                         exponential time",
                        pattern.source
                    );
                    warnings.push(crate::Diagnostic::of(&crate::codes::UNBOUNDED_PATTERN, &doc.display, &def.origin.pointer, message));
                    continue;
                }
                false => (
                    format!(
                        "the pattern `{}` runs on `regress`, a backtracking engine without a step limit: a hostile value can \
                         take exponential time",
                        pattern.source
                    ),
                    "avoid nested quantifiers over what a backreference reads, `\\B`, `\\p{..}` and inline modifiers; \
                     without them the pattern runs in linear time or with a step limit",
                ),
            };
            warnings.push(
                crate::Diagnostic::of(&crate::codes::BACKTRACKING_PATTERN, &doc.display, &def.origin.pointer, message)
                    .into_warning()
                    .with_hint(hint),
            );
        }
    }
    warnings
}

/// The patterns a check runs.
fn check_patterns<'a>(check: &'a crate::ir::Check, out: &mut Vec<&'a crate::ir::Pattern>) {
    use crate::ir::{Check, Evaluates};
    fn evaluates<'a>(evaluated: &'a Evaluates, out: &mut Vec<&'a crate::ir::Pattern>) {
        match evaluated {
            Evaluates::Properties { patterns, .. } => out.extend(patterns),
            Evaluates::Items { contains, .. } => contains.iter().for_each(|c| check_patterns(c, out)),
            Evaluates::All(list) => list.iter().for_each(|e| evaluates(e, out)),
            Evaluates::When(check, inner) => {
                check_patterns(check, out);
                evaluates(inner, out);
            }
        }
    }
    match check {
        Check::Pattern(pattern) => out.push(pattern),
        Check::AllOf(checks) | Check::AnyOf(checks) | Check::OneOf(checks) => checks.iter().for_each(|c| check_patterns(c, out)),
        Check::Not(inner) => check_patterns(inner, out),
        Check::IfThenElse { cond, then, otherwise } => {
            check_patterns(cond, out);
            then.iter().chain(otherwise).for_each(|c| check_patterns(c, out));
        }
        Check::Object(object) => {
            for (pattern, check) in &object.patterns {
                out.push(pattern);
                check_patterns(check, out);
            }
            object.properties.iter().for_each(|(_, c)| check_patterns(c, out));
            object.additional.iter().for_each(|c| check_patterns(c, out));
        }
        Check::Array { prefix, items } => prefix.iter().chain(items.as_deref()).for_each(|c| check_patterns(c, out)),
        Check::Unevaluated { evaluated, rest, .. } => {
            evaluates(evaluated, out);
            check_patterns(rest, out);
        }
        Check::Kinds(_) | Check::Const(_) | Check::Enum(_) | Check::As(_) | Check::Assert(_) | Check::Never => {}
    }
}

fn module(ctx: &Ctx<'_>, path: &[String], defs: &[DefId], config: &Config, plain_serde: bool) -> Module {
    let doc = ctx.doc(ctx.ir.def(defs[0]).origin.doc);
    let root_id = ctx.ir.roots.iter().find(|(d, _)| *d == doc.id).map(|(_, def)| *def);
    let root = root_id.map(|def| ctx.ir.def(def).name.clone());
    let item = if plain_serde { plain::def } else { items::def };
    // The plain-serde baseline spells constrained types as plain aliases: no impls of ours.
    let bound = (!plain_serde).then(|| bound::items(ctx, doc, defs));
    let (bound_impls, tail) = match bound {
        Some(bound::Items { impls, helpers, source }) => (impls, quote! { #helpers #source }),
        None => (vec![TokenStream::new(); defs.len()], TokenStream::new()),
    };
    let merged = if config.dedup && !plain_serde { dedup::merged(ctx, defs, config) } else { Default::default() };
    let builders = (config.builders && !plain_serde).then(|| builder::names(ctx, path, defs, &merged));
    let per_def: Vec<TokenStream> = defs
        .iter()
        .zip(bound_impls)
        .map(|(&id, impls)| {
            if let Some(&canonical) = merged.get(&id) {
                return dedup::alias(ctx, id, canonical);
            }
            if let Some(replacement) = ctx.ir.rust_types.get(&id).filter(|_| !plain_serde) {
                return rust_type::def(ctx, id, replacement);
            }
            let item = match &ctx.def(id).kind {
                crate::ir::DefKind::StringEnum(values) if ctx.is_open(id) => open_enum::def(ctx, id, values),
                _ => item(ctx, id),
            };
            let derive_default = !plain_serde && defaults::derives_default(ctx, id);
            let item = attrs::decorate(ctx, id, item, config, derive_default);
            let builder = builders.as_ref().map(|names| builder::for_def(ctx, id, names));
            let defaults = (!plain_serde).then(|| defaults::for_def(ctx, id));
            let conversions = (!plain_serde).then(|| conversions::for_def(ctx, id));
            quote! { #item #impls #builder #defaults #conversions }
        })
        .collect();
    let tail = match &builders {
        Some(names) => {
            let markers = builder::markers(ctx, names);
            quote! { #markers #tail }
        }
        None => tail,
    };
    let root_def = root_id.filter(|id| defs.contains(id)).map(|id| ctx.ir.def(id));
    let module_doc = module_doc(&doc.display, doc.title.as_deref(), doc.description.as_deref(), root_def);
    // A schema that nests arrays or maps deep inline has a field type as deep (up to
    // `MAX_INLINE_DEPTH` wrappers): the schema's shape, which clippy would call complex.
    let deep = defs.iter().any(|&id| deeply_nested(ctx.def(id)));
    let complexity = deep.then(|| quote!(, clippy::type_complexity));
    // The version of the runtime's contract this code calls, first: against a runtime that
    // does not provide it, the build fails here with a message saying what to do.
    let contract = proc_macro2::Literal::u32_unsuffixed(hygiene::RUNTIME_CONTRACT);
    let generator = crate::VERSION;
    let attrs = quote! {
        #module_doc
        #![allow(clippy::enum_variant_names, clippy::large_enum_variant #complexity)]
        schemac_runtime::contract!(#contract, #generator);
    };
    let header = format!(
        "// @generated by schemac from {} (sha256 {}). Do not edit by hand: regenerate with `{}`.\n\n",
        one_line(&doc.display),
        doc.sha256,
        one_line(&config.regenerate_command)
    );
    let types = defs
        .iter()
        .map(|&id| {
            let def = ctx.ir.def(id);
            let summary = def.docs.title.clone().or_else(|| def.docs.description.clone()).unwrap_or_default();
            TypeSummary {
                name: def.name.clone(),
                summary: summary.lines().next().unwrap_or_default().to_owned(),
                fallback: is_fallback(ctx.ir, id),
                size_bound: ctx.layouts().bound(id),
                open: ctx.is_open(id) && !plain_serde,
                replaced_by: ctx.ir.rust_types.get(&id).filter(|_| !plain_serde).map(|r| r.path.clone()),
            }
        })
        .collect();
    Module {
        path: path.to_vec(),
        source: doc.display.clone(),
        id: doc.schema_id.clone(),
        sha256: doc.sha256.clone(),
        root,
        root_nominal: !plain_serde && bound::root_of(ctx, doc).is_some(),
        types,
        code: header + &format(attrs, per_def, tail),
    }
}

/// `text` for a `//` comment: control characters (a newline in a file name) escaped, so the
/// comment stays one line.
fn one_line(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { c.escape_default().to_string() } else { c.to_string() }).collect()
}

/// Whether `id` is the checked `Value` fallback, or an alias of one (e.g. a root that is only a
/// `$ref` into another document): either way its values have no precise Rust shape.
fn is_fallback(ir: &Ir, mut id: DefId) -> bool {
    // Bounded: alias chains are short, and a cycle of aliases must not loop.
    for _ in 0..ir.defs.len() {
        match &ir.def(id).kind {
            // `false` is an enum without variants: the exact Rust type of "no value".
            crate::ir::DefKind::Checked(crate::ir::Check::Never) => return false,
            crate::ir::DefKind::Checked(_) => return true,
            crate::ir::DefKind::Alias(crate::ir::Ty::Def(next)) => id = *next,
            _ => return false,
        }
    }
    false
}

/// Whether a type of `def` nests more than 6 arrays, maps or options inline.
fn deeply_nested(def: &Def) -> bool {
    use crate::ir::DefKind;
    let deep = |ty: &crate::ir::Ty| crate::lower::inline_depth(ty) > 6;
    match &def.kind {
        DefKind::Struct(s) => s.fields.iter().any(|f| deep(&f.ty)),
        DefKind::Union(u) => u.variants.iter().any(|v| deep(&v.ty)),
        DefKind::Alias(ty) => deep(ty),
        DefKind::Tuple(t) => t.items.iter().any(deep),
        _ => false,
    }
}

/// The module's `//!` lines. The schema's title and description are the root type's docs
/// already; they are repeated here only when the root type's docs differ (or it is elsewhere).
fn module_doc(display: &str, title: Option<&str>, description: Option<&str>, root: Option<&Def>) -> TokenStream {
    let repeated = root.is_some_and(|def| def.docs.title.as_deref() == title && def.docs.description.as_deref() == description);
    let mut lines = Vec::new();
    if !repeated {
        if let Some(title) = title {
            lines.extend(ty::doc_lines(title));
            lines.push(String::new());
        }
        if let Some(description) = description {
            lines.extend(ty::doc_lines(description));
            lines.push(String::new());
        }
    }
    lines.push(match root {
        // A raw identifier (`r#type`) is no intra-doc link.
        Some(def) if !def.name.starts_with("r#") => {
            format!("Types generated from `{}`, whose root type is [`{}`].", one_line(display), ty::type_link(&def.name))
        }
        _ => format!("Types generated from `{}`.", one_line(display)),
    });
    let lines = lines.iter().map(|l| if l.is_empty() { String::new() } else { format!(" {l}") });
    quote! { #(#![doc = #lines])* }
}

/// Formats a module as a Rust file: `attrs` (its inner attributes); the declarations in each
/// def's tokens (`defs`, in IR order), so the file reads like a spec; then everything else
/// those tokens hold (impls, helpers), in the same order; then `tail`.
///
/// The tokens come from `quote!` over valid pieces, so parsing cannot fail unless the emitter
/// has a bug; that bug is reported in the output, which then fails to compile with the reason
/// instead of vanishing.
fn format(attrs: TokenStream, defs: Vec<TokenStream>, tail: TokenStream) -> String {
    let parse = |tokens: TokenStream| syn::parse2::<syn::File>(tokens.clone()).map_err(|e| (e, tokens));
    let file = (|| {
        let mut file = parse(attrs)?;
        let mut impls = Vec::new();
        for tokens in defs {
            for item in parse(tokens)?.items {
                if matches!(item, syn::Item::Struct(_) | syn::Item::Enum(_) | syn::Item::Type(_) | syn::Item::Union(_)) {
                    file.items.push(item);
                } else {
                    impls.push(item);
                }
            }
        }
        file.items.extend(impls);
        file.items.extend(parse(tail)?.items);
        hygiene::absolute_with_stand_ins(&mut file, unparse::stand_in);
        Ok(file)
    })();
    match file {
        Ok(file) => unparse::unparse(file),
        Err((e, tokens)) => format!("compile_error!({:?});\n// {tokens}\n", format!("schemac emitter bug: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use crate::{Config, Input, SchemaSource, Severity};

    /// Compiles `files` (name, text; the first is the input) in a scratch directory.
    fn compile_files(test: &str, files: &[(&str, &str)]) -> crate::Output {
        let dir = std::env::temp_dir().join(format!("schemac-{test}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in files {
            std::fs::write(dir.join(name), text).unwrap();
        }
        let path = dir.join(files[0].0);
        let input =
            Input { schemas: vec![SchemaSource { path, display: files[0].0.to_owned(), ..SchemaSource::default() }], ..Input::default() };
        let output = crate::compile(&input, &Config::default()).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        output
    }

    /// Descriptions with old Mac line ends (a carriage return alone), as real catalog schemas
    /// have (clang-format's): each is a line end in the docs, never a bare CR, which rustc does
    /// not lex in a `///` comment (issue 22).
    #[test]
    fn carriage_returns_in_descriptions_end_doc_lines() {
        let schema = r#"{"title": "Cr\rTitle", "description": "one\rtwo\r\nthree", "type": "object",
            "properties": {"a": {"type": "string", "description": "x\ry"}}}"#;
        let output = compile_files("carriage-returns", &[("s.json", schema)]);
        let file = output.single_file();
        assert!(!file.contains('\r'), "{file}");
        assert!(file.contains("/// one\n/// two\n/// three\n"), "{file}");
        assert!(file.contains("    /// x\n    /// y\n"), "{file}");
        syn::parse_file(&file).unwrap();
    }

    #[test]
    fn file_names_with_newlines_and_of_crates_keep_their_modules() {
        let other = r#"{"type": "object", "properties": {"x": {"type": "string"}}}"#;
        let output = compile_files(
            "file-names",
            &[
                (
                    "main.json",
                    r#"{"properties": {"a": {"$ref": "new%0Aline.json"}, "b": {"$ref": "serde.json"}, "c": {"$ref": "with%20space.json"}}}"#,
                ),
                ("new\nline.json", other),
                ("serde.json", other),
                ("with space.json", other),
            ],
        );
        let paths: Vec<String> = output.modules.iter().map(|m| m.path.join("::")).collect();
        assert_eq!(paths, ["", "new_line", "serde_", "with_space"]);
        for module in &output.modules {
            assert!(module.code.starts_with("// @generated by schemac from "), "{}", module.code);
            let header: Vec<&str> = module.code.lines().take_while(|l| !l.is_empty()).collect();
            assert_eq!(header.len(), 1, "the header is one comment line: {header:?}");
            assert!(syn::parse_file(&module.code).is_ok(), "{}", module.code);
        }
        let header = output.modules[1].code.lines().next().unwrap_or_default();
        assert!(header.contains(&format!("/new\\nline.json (sha256 {}). Do not edit", output.modules[1].sha256)), "{header}");
        let single = output.single_file();
        for module in ["pub mod new_line {", "pub mod serde_ {", "pub mod with_space {"] {
            assert!(single.contains(module), "{module} is missing from {single}");
        }
        // The paths into the modules are `self::serde_::…`, the paths into the crate `::serde::…`.
        assert!(single.contains("::core::option::Option<self::serde_::"), "{single}");
        assert!(!single.contains(" serde::"), "{single}");
    }

    #[test]
    fn wide_structs_get_flat_partial_eq_and_serialize() {
        let properties: Vec<String> = (0..200).map(|i| format!(r#""p{i}": {{"type": "string"}}"#)).collect();
        let closed =
            format!(r#"{{"title": "S", "type": "object", "additionalProperties": false, "properties": {{{}}}}}"#, properties.join(","));
        let code = compile_files("wide-closed", &[("s.json", &closed)]).single_file();
        // `Serialize` is the runtime's `object!`, one statement per field at any width.
        assert!(code.contains("#[derive(Clone, Debug, Default)]\npub struct S {"), "{code}");
        assert!(code.contains("impl ::core::cmp::PartialEq for S {"), "{code}");
        assert!(code.contains("::schemac_runtime::__private::object! {\n    S;\n    closed;\n"), "{code}");
        assert!(!code.contains("#[serde("), "{code}");
        let open = format!(r#"{{"title": "S", "type": "object", "properties": {{{}}}}}"#, properties.join(","));
        let code = compile_files("wide-open", &[("s.json", &open)]).single_file();
        assert!(code.contains("#[derive(Clone, Debug, Default)]\npub struct S {"), "{code}");
        assert!(code.contains("impl ::core::cmp::PartialEq for S {"), "{code}");
        assert!(!code.contains("#[serde("), "{code}");
    }

    #[test]
    fn patterns_on_a_backtracking_engine_are_warned_about_and_unbounded_ones_refused() {
        let dir = std::env::temp_dir().join(format!("schemac-pattern-warnings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("s.json");
        let schema = r#"{"type": "object", "properties": {
            "linear": {"type": "string", "pattern": "^[a-z]+$"},
            "bounded": {"type": "string", "pattern": "^(?=(a|aa)*c)"},
            "unbounded": {"type": "string", "pattern": "^(a+)+\\1$"}
        }}"#;
        std::fs::write(&path, schema).unwrap();
        let input =
            Input { schemas: vec![SchemaSource { path, display: "s.json".to_owned(), ..SchemaSource::default() }], ..Input::default() };
        // By default, a pattern only `regress` runs is refused, located.
        let refused = crate::compile(&input, &Config::default()).unwrap_err();
        let output = crate::compile(&input, &Config { unbounded_patterns: true, ..Config::default() }).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let refused: Vec<String> = refused.iter().map(ToString::to_string).collect();
        assert_eq!(refused.len(), 1, "{refused:#?}");
        assert!(
            refused[0].starts_with("error[unbounded-pattern]: s.json:4:26 at /properties/unbounded: the pattern `^(a+)+\\1$` has no exact"),
            "{}",
            refused[0]
        );
        assert!(refused[0].contains("hint: ") && refused[0].contains("--allow-unbounded-patterns"), "{}", refused[0]);
        // Allowed, it runs on `regress` with a warning.
        let warnings: Vec<String> = output.warnings.iter().map(ToString::to_string).collect();
        assert!(output.warnings.iter().all(|w| w.severity == Severity::Warning && w.code == "backtracking-pattern"));
        assert_eq!(warnings.len(), 2, "{warnings:#?}");
        assert!(
            warnings[0].starts_with(
                "warning[backtracking-pattern]: s.json at /properties/bounded: the pattern `^(?=(a|aa)*c)` needs a backtracking engine"
            ),
            "{}",
            warnings[0]
        );
        assert!(warnings[0].contains("more than 1000000 backtracking steps fails validation"), "{}", warnings[0]);
        assert!(
            warnings[1]
                .starts_with("warning[backtracking-pattern]: s.json at /properties/unbounded: the pattern `^(a+)+\\1$` runs on `regress`"),
            "{}",
            warnings[1]
        );
        assert!(warnings[1].contains("hint: "), "{}", warnings[1]);
        // The code holds the bounded engine for the one, `regress` for the other.
        let code: String = output.single_file().split_whitespace().collect();
        assert!(code.contains(r#"Pattern::bounded("^(?=(a|aa)*c)","^(?=(a|aa)*c)",)"#), "{code}");
        assert!(code.contains(r#"Pattern::new("^(a+)+\\1$",::core::option::Option::None,)"#), "{code}");
    }
}
