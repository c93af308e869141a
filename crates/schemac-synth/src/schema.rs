//! A read-only view of one subschema for the synthesizer: keyword access, `$ref` resolution and
//! the draft-dependent spellings (`items` arrays before 2020-12, boolean `exclusiveMinimum` in
//! draft 4, `dependencies` before 2019-09).

use serde_json::Value;

use schemac::Draft;
use schemac::resolve::{Loc, Registry};

/// One subschema at a location. `true`/`false` schemas have no keywords.
#[derive(Clone, Copy, Debug)]
pub(crate) struct View<'r> {
    pub reg: &'r Registry,
    pub loc: &'r Loc,
    pub value: &'r Value,
}

/// Numeric bounds with their exclusivity, as every draft spells them.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Bounds {
    pub min: Option<(f64, bool)>,
    pub max: Option<(f64, bool)>,
}

impl<'r> View<'r> {
    pub fn get(&self, keyword: &str) -> Option<&'r Value> {
        self.value.as_object()?.get(keyword)
    }

    pub fn draft(&self) -> Draft {
        self.reg.draft_at(self.loc)
    }

    /// Draft 7 and older ignore every keyword beside `$ref`.
    pub fn ref_only(&self) -> bool {
        self.draft() <= Draft::Draft7 && self.get("$ref").is_some()
    }

    /// The schema `$ref` points to, if the ref resolves.
    pub fn ref_target(&self) -> Option<Loc> {
        let reference = self.get("$ref")?.as_str()?;
        self.reg.resolve(self.loc, reference).ok()
    }

    /// `allOf`/`anyOf`/`oneOf` branches as locations.
    pub fn list(&self, keyword: &str) -> Vec<Loc> {
        let at = self.loc.child(keyword);
        match self.get(keyword) {
            Some(Value::Array(items)) => (0..items.len()).map(|i| at.child(&i.to_string())).collect(),
            _ => Vec::new(),
        }
    }

    /// The declared `type`s in their written order; `None` when unconstrained.
    pub fn types(&self) -> Option<Vec<&'r str>> {
        match self.get("type")? {
            Value::String(name) => Some(vec![name.as_str()]),
            Value::Array(names) => Some(names.iter().filter_map(Value::as_str).collect()),
            _ => None,
        }
    }

    pub fn u64(&self, keyword: &str) -> Option<u64> {
        let value = self.get(keyword)?;
        value.as_u64().or_else(|| value.as_f64().filter(|f| f.fract() == 0.0 && *f >= 0.0).map(|f| f as u64))
    }

    pub fn f64(&self, keyword: &str) -> Option<f64> {
        self.get(keyword)?.as_f64()
    }

    pub fn bounds(&self) -> Bounds {
        let mut bounds = Bounds::default();
        let draft4 = self.draft() == Draft::Draft4;
        if let Some(min) = self.f64("minimum") {
            let exclusive = draft4 && self.get("exclusiveMinimum") == Some(&Value::Bool(true));
            bounds.min = Some((min, exclusive));
        }
        if let Some(max) = self.f64("maximum") {
            let exclusive = draft4 && self.get("exclusiveMaximum") == Some(&Value::Bool(true));
            bounds.max = Some((max, exclusive));
        }
        if !draft4 {
            if let Some(min) = self.f64("exclusiveMinimum") {
                bounds.min = Some(tighter_min(bounds.min, (min, true)));
            }
            if let Some(max) = self.f64("exclusiveMaximum") {
                bounds.max = Some(tighter_max(bounds.max, (max, true)));
            }
        }
        bounds
    }

    /// The schema for array item `index` (`None`: no item may be there), with the keyword
    /// that decides it.
    pub fn item(&self, index: usize) -> ItemRule {
        let (prefix_kw, rest_kw) = if self.draft() >= Draft::Draft2020_12 {
            ("prefixItems", "items")
        } else if matches!(self.get("items"), Some(Value::Array(_))) {
            ("items", "additionalItems")
        } else {
            ("", "items")
        };
        if let Some(Value::Array(prefix)) = (!prefix_kw.is_empty()).then(|| self.get(prefix_kw)).flatten()
            && index < prefix.len()
        {
            return ItemRule::Schema(self.loc.child(prefix_kw).child(&index.to_string()));
        }
        match self.get(rest_kw) {
            Some(Value::Bool(false)) => ItemRule::Forbidden(rest_kw),
            Some(Value::Bool(true)) => ItemRule::Any,
            Some(_) => ItemRule::Schema(self.loc.child(rest_kw)),
            // Nothing else here evaluates the item: `unevaluatedItems` decides (as far as this
            // schema object can tell; the checker looks through the in-place applicators).
            None => match self.get("unevaluatedItems") {
                Some(Value::Bool(false)) => ItemRule::Forbidden("unevaluatedItems"),
                Some(Value::Object(_)) => ItemRule::Schema(self.loc.child("unevaluatedItems")),
                _ => ItemRule::Any,
            },
        }
    }

    /// `dependentRequired` (and the array form of `dependencies`): property → what it needs.
    pub fn dependent_required(&self) -> Vec<(String, Vec<String>, &'static str)> {
        let mut out = Vec::new();
        for keyword in ["dependentRequired", "dependencies"] {
            let Some(map) = self.get(keyword).and_then(Value::as_object) else { continue };
            for (name, needs) in map {
                if let Value::Array(needs) = needs {
                    let needs = needs.iter().filter_map(Value::as_str).map(str::to_owned).collect();
                    out.push((name.clone(), needs, if keyword == "dependentRequired" { "dependentRequired" } else { "dependencies" }));
                }
            }
        }
        out
    }

    /// `dependentSchemas` (and the schema form of `dependencies`).
    pub fn dependent_schemas(&self) -> Vec<(String, Loc)> {
        let mut out = Vec::new();
        for keyword in ["dependentSchemas", "dependencies"] {
            let Some(map) = self.get(keyword).and_then(Value::as_object) else { continue };
            for (name, schema) in map {
                if schema.is_object() || schema.is_boolean() {
                    out.push((name.clone(), self.loc.child(keyword).child(name)));
                }
            }
        }
        out
    }
}

/// What may stand at one array index.
#[derive(Clone, Debug)]
pub(crate) enum ItemRule {
    Any,
    Schema(Loc),
    /// `items: false` or `additionalItems: false`, by that keyword.
    Forbidden(&'static str),
}

fn tighter_min(current: Option<(f64, bool)>, new: (f64, bool)) -> (f64, bool) {
    match current {
        Some(old) if old.0 > new.0 || (old.0 == new.0 && old.1) => old,
        _ => new,
    }
}

fn tighter_max(current: Option<(f64, bool)>, new: (f64, bool)) -> (f64, bool) {
    match current {
        Some(old) if old.0 < new.0 || (old.0 == new.0 && old.1) => old,
        _ => new,
    }
}

/// JSON equality with numbers compared by value (`1` equals `1.0`), as JSON Schema does.
pub(crate) fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
            (Some(x), Some(y), _, _) => x == y,
            (_, _, Some(x), Some(y)) => x == y,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w))),
        _ => a == b,
    }
}

/// Escapes one JSON pointer token.
pub(crate) fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}
