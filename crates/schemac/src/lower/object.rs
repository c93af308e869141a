//! Objects: `properties` and `required` become struct fields; `additionalProperties`,
//! `patternProperties` and (where it means the same) `unevaluatedProperties` say what happens
//! to the other properties. An object with only `additionalProperties: {schema}` is a map.

use std::collections::HashSet;

use super::keywords::{Part, View, docs_of};
use super::{Ctx, Lowered, Lowerer};
use crate::ir::{DefKind, Field, Pattern, Rest, Struct, Subject, Ty};
use crate::resolve::Loc;
use crate::schema::{Body, Keyword, Model, SchemaId};

/// What the properties no `properties`/`patternProperties` entry names must satisfy.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Extra {
    /// Anything (`additionalProperties` absent or `true`).
    Open,
    /// No such property (`false`).
    Closed,
    /// All of these schemas.
    Schemas(Vec<Loc>),
}

/// Where one restriction on extra properties comes from.
pub(super) struct RestSource {
    /// The part whose `properties` it sees (`None`: all parts', for `unevaluatedProperties`
    /// on the schema every part was reached from).
    pub part: Option<usize>,
    pub value: Extra,
}

impl<'r> Lowerer<'r> {
    pub(super) fn object(&mut self, view: &View<'r>, mut ctx: Ctx) -> Lowered {
        let properties = view.properties();
        let required = view.required();
        let patterns = self.pattern_properties(view);
        let (extra, mut loose) = rest_of(view, self.model);
        if properties.is_empty()
            && required.is_empty()
            && patterns.is_empty()
            && let Extra::Schemas(locs) = &extra
        {
            let map = self.lower_items(locs, ctx.nested("Value")).map(|t| Ty::Map(Box::new(t)));
            let assertions = self.view_assertions(view, Subject::Object, &|step| ctx.nested(step), &mut loose);
            return map.map(|t| Ty::constrained(t, assertions)).with_loose(loose);
        }
        let id = self.begin_def(view, &mut ctx);
        let assertions = self.view_assertions(view, Subject::Object, &|step| Ctx::child(id, step), &mut loose);
        let rest = self.rest(id, &patterns, &extra, &mut loose);
        let mut fields = Vec::new();
        let required_set: HashSet<&str> = required.iter().map(String::as_str).collect();
        let declared: HashSet<&str> = properties.iter().map(|(name, _)| name.as_str()).collect();
        for (name, locs) in &properties {
            // A declared property that a pattern also matches must satisfy both.
            let mut all = locs.clone();
            all.extend(patterns.iter().filter(|(p, _)| matches(p, name)).map(|(_, l)| l.clone()));
            let lowered = self.lower_all(&all, Ctx::child(id, name.as_str()));
            loose.extend(lowered.loose);
            let maps: Vec<_> = locs.iter().filter_map(|l| self.model.schema_at(l)).collect();
            fields.push(Field {
                json_name: name.clone(),
                rust_name: String::new(),
                ty: lowered.ty,
                required: required_set.contains(name.as_str()),
                docs: docs_of(&maps),
            });
        }
        for name in required.iter().filter(|n| !declared.contains(n.as_str())) {
            let lowered = self.undeclared(view, id, name, &patterns, &extra);
            loose.extend(lowered.loose);
            fields.push(Field {
                json_name: name.clone(),
                rust_name: String::new(),
                ty: lowered.ty,
                required: true,
                docs: Default::default(),
            });
        }
        self.finish_def(id, DefKind::Struct(Struct { fields, rest, assertions }), &loose)
    }

    /// The compiled `patternProperties` of the view (invalid ones were reported).
    fn pattern_properties(&mut self, view: &View<'r>) -> Vec<(Pattern, Loc)> {
        let mut out = Vec::new();
        for part in &view.parts {
            let Some(map) = &part.schema.pattern_properties else { continue };
            let at = part.at(Keyword::PatternProperties);
            for (source, _) in map {
                if let Some(pattern) = self.pattern(source) {
                    out.push((pattern, at.child(source)));
                }
            }
        }
        out
    }

    fn rest(&mut self, id: crate::ir::DefId, patterns: &[(Pattern, Loc)], extra: &Extra, loose: &mut Vec<Loc>) -> Rest {
        let mut typed = |this: &mut Self, locs: &[Loc], segment: String| {
            let lowered = this.lower_all(locs, Ctx::child(id, segment));
            loose.extend(lowered.loose);
            lowered.ty
        };
        if patterns.is_empty() {
            return match extra {
                Extra::Open => Rest::Open,
                Extra::Closed => Rest::Closed,
                Extra::Schemas(locs) => Rest::Typed(typed(self, locs, "Value".to_owned())),
            };
        }
        let patterns = patterns
            .iter()
            .enumerate()
            .map(|(i, (pattern, loc))| (pattern.clone(), typed(self, std::slice::from_ref(loc), format!("Pattern{i}"))))
            .collect();
        let additional = match extra {
            Extra::Open => Some(Ty::Any),
            Extra::Closed => None,
            Extra::Schemas(locs) => Some(typed(self, locs, "Value".to_owned())),
        };
        Rest::Patterns { patterns, additional }
    }

    /// The type of a property that is `required` but not in `properties`: what the patterns
    /// it matches, or else `additionalProperties`, say.
    fn undeclared(&mut self, view: &View<'r>, id: crate::ir::DefId, name: &str, patterns: &[(Pattern, Loc)], extra: &Extra) -> Lowered {
        let matching: Vec<Loc> = patterns.iter().filter(|(p, _)| matches(p, name)).map(|(_, l)| l.clone()).collect();
        if !matching.is_empty() {
            return self.lower_all(&matching, Ctx::child(id, name));
        }
        match extra {
            Extra::Open => Lowered::new(Ty::Any),
            Extra::Schemas(locs) => self.lower_all(locs, Ctx::child(id, "Value")),
            Extra::Closed => {
                let at = view.with(Keyword::Required).next().map_or_else(|| view.entry.clone(), |p| p.at(Keyword::Required));
                self.error(
                    &at,
                    format!("property `{name}` is required, but `additionalProperties: false` forbids it: no object is valid"),
                    format!("declare `{name}` in `properties`"),
                );
                Lowered::new(Ty::Any)
            }
        }
    }
}

/// What `additionalProperties` (and `unevaluatedProperties` where it means the same) of the
/// parts say about extra properties, and the keywords that cannot be honoured.
pub(super) fn rest_of(view: &View<'_>, model: &Model) -> (Extra, Vec<Loc>) {
    let (sources, loose) = rest_sources(view, model);
    let mut extra = Extra::Open;
    for source in sources {
        extra = match (extra, source.value) {
            (Extra::Closed, _) | (_, Extra::Closed) => Extra::Closed,
            (Extra::Open, other) | (other, Extra::Open) => other,
            (Extra::Schemas(mut a), Extra::Schemas(b)) => {
                a.extend(b);
                Extra::Schemas(a)
            }
        };
    }
    (extra, loose)
}

/// Each part's restriction on extra properties.
///
/// `unevaluatedProperties` sees the properties every subschema applied in place evaluated. On
/// a part without in-place subschemas, that is its own `properties`: it means what
/// `additionalProperties` means. On the part every other part was reached from (through
/// `$ref`/`allOf` only), it sees all of the view's properties. Beside an
/// `additionalProperties` in scope, every property is already evaluated: it has no effect.
pub(super) fn rest_sources(view: &View<'_>, model: &Model) -> (Vec<RestSource>, Vec<Loc>) {
    let mut sources = Vec::new();
    let mut loose = Vec::new();
    let any_additional = view.has(Keyword::AdditionalProperties);
    for (i, part) in view.parts.iter().enumerate() {
        if let Some(schema) = part.schema.additional_properties {
            sources.push(RestSource { part: Some(i), value: extra(part, Keyword::AdditionalProperties, schema, model) });
        }
        let Some(schema) = part.schema.unevaluated_properties else { continue };
        if part.has(Keyword::AdditionalProperties) {
            continue;
        }
        let value = extra(part, Keyword::UnevaluatedProperties, schema, model);
        if part.is_leaf() {
            sources.push(RestSource { part: Some(i), value });
        } else if view.top == Some(i) && only_refs_in_place(part) {
            if !any_additional {
                sources.push(RestSource { part: None, value });
            }
        } else {
            loose.push(part.at(Keyword::UnevaluatedProperties));
        }
    }
    (sources, loose)
}

fn only_refs_in_place(part: &Part<'_>) -> bool {
    ![Keyword::AnyOf, Keyword::OneOf, Keyword::Not, Keyword::If, Keyword::DependentSchemas, Keyword::Dependencies]
        .iter()
        .any(|k| part.has(*k))
}

/// What one `additionalProperties`-like keyword says: `false` closes the object, `true` and
/// `{}` leave it open, any other schema restricts the extra properties.
fn extra(part: &Part<'_>, keyword: Keyword, schema: SchemaId, model: &Model) -> Extra {
    let node = model.node(schema);
    match &node.body {
        Body::Bool(false) => Extra::Closed,
        Body::Object(s) if !s.is_empty() => Extra::Schemas(vec![part.at(keyword)]),
        Body::Object(_) | Body::Bool(true) | Body::Invalid => Extra::Open,
    }
}

/// Whether a property name matches a `patternProperties` pattern (unanchored, ECMA-262).
pub(super) fn matches(pattern: &Pattern, name: &str) -> bool {
    match regress::Regex::with_flags(&pattern.source, "u") {
        Ok(regex) => regex.find(name).is_some(),
        Err(_) => false,
    }
}
