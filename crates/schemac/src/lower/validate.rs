//! Keyword shapes: every schema in a document is checked once, when lowering first reaches
//! the document, so that the rest of the lowering can read keywords leniently. Each problem is
//! an `invalid-schema` (or `invalid-pattern`) diagnostic at the keyword, saying what was
//! expected, with a hint.

use serde_json::{Map, Value};

use super::Lowerer;
use super::keywords::{is_keyword, kind_from_name};
use crate::Draft;
use crate::ir::DocId;
use crate::resolve::Loc;

const TYPE_NAMES: &str = "\"null\", \"boolean\", \"object\", \"array\", \"number\", \"integer\", \"string\"";

impl<'r> Lowerer<'r> {
    /// Checks every schema of the document `doc`, once.
    pub(super) fn validate_document(&mut self, doc: DocId) {
        if !self.validated.insert(doc) {
            return;
        }
        let root = Loc { doc, pointer: String::new() };
        if let Some(value) = self.reg.get(&root) {
            self.schema(&root, value);
        }
    }

    /// A subschema: an object or a boolean.
    fn schema(&mut self, loc: &Loc, value: &'r Value) {
        match value {
            Value::Bool(_) => {}
            Value::Object(map) => self.keywords(loc, map),
            other => self.error(
                loc,
                format!("expected a schema (an object or `true`/`false`), found {}", found(other)),
                "write the schema as an object such as `{\"type\": \"string\"}`; `true` accepts anything and `false` nothing",
            ),
        }
    }

    fn keywords(&mut self, loc: &Loc, map: &'r Map<String, Value>) {
        let draft = self.reg.draft_at(loc);
        // Whatever the draft, these hold schemas that refs may point into.
        for container in ["$defs", "definitions"] {
            if let Some(value) = map.get(container) {
                self.schema_map(&loc.child(container), value, container);
            }
        }
        if draft <= Draft::Draft7
            && let Some(reference) = map.get("$ref")
        {
            // Before 2019-09 the other keywords are ignored, whatever they hold.
            self.reference(&loc.child("$ref"), reference, "$ref");
            return;
        }
        for (keyword, value) in map {
            if is_keyword(keyword, draft) {
                self.keyword(loc, keyword, value, draft);
            }
        }
    }

    fn keyword(&mut self, schema: &Loc, keyword: &str, value: &'r Value, draft: Draft) {
        let at = schema.child(keyword);
        match keyword {
            "type" => self.type_keyword(&at, value),
            "enum" => self.enum_keyword(&at, value),
            "required" => self.string_array(&at, value, "required", "list the property names: `\"required\": [\"id\"]`"),
            "properties" | "patternProperties" | "dependentSchemas" => self.schema_map(&at, value, keyword),
            "additionalProperties"
            | "additionalItems"
            | "unevaluatedProperties"
            | "unevaluatedItems"
            | "not"
            | "if"
            | "then"
            | "else"
            | "contains"
            | "propertyNames" => self.schema(&at, value),
            "allOf" | "anyOf" | "oneOf" | "prefixItems" => self.schema_array(&at, value, keyword),
            "items" => self.items(&at, value, draft),
            "minimum" | "maximum" | "multipleOf" => self.number(&at, value, keyword),
            "exclusiveMinimum" | "exclusiveMaximum" => self.exclusive(schema, keyword, value, draft),
            "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties" | "maxProperties" | "minContains" | "maxContains" => {
                self.count(&at, value, keyword)
            }
            "uniqueItems" | "deprecated" | "readOnly" | "writeOnly" => self.boolean(&at, value, keyword),
            "pattern" => self.pattern_keyword(&at, value),
            "format" | "title" | "description" | "$comment" => self.string(&at, value, keyword),
            "$ref" | "$dynamicRef" | "$recursiveRef" => self.reference(&at, value, keyword),
            "dependentRequired" => self.dependent_required(&at, value),
            "dependencies" => self.dependencies(&at, value),
            "examples" if !value.is_array() => self.error(
                &at,
                format!("`examples` must be an array of example values, found {}", found(value)),
                "wrap a single example in an array: `\"examples\": [...]`",
            ),
            _ => {}
        }
    }

    fn type_keyword(&mut self, at: &Loc, value: &Value) {
        let names: Vec<(Loc, &Value)> = match value {
            Value::String(_) => vec![(at.clone(), value)],
            Value::Array(items) if !items.is_empty() => items.iter().enumerate().map(|(i, v)| (at.child(&i.to_string()), v)).collect(),
            Value::Array(_) => {
                self.error(at, "`type` is an empty array, which no value satisfies", format!("list at least one of {TYPE_NAMES}"));
                return;
            }
            other => {
                self.error(
                    at,
                    format!("`type` must be a type name or an array of them, found {}", found(other)),
                    format!("use one of {TYPE_NAMES}, or an array such as `[\"string\", \"null\"]`"),
                );
                return;
            }
        };
        let mut seen = Vec::new();
        for (loc, name) in names {
            match name.as_str() {
                Some(n) if kind_from_name(n).is_some() => {
                    if seen.contains(&n) {
                        self.error(&loc, format!("`type` lists \"{n}\" twice"), "list each type once");
                    }
                    seen.push(n);
                }
                Some(n) => self.error(&loc, format!("unknown type name \"{n}\""), format!("the type names are {TYPE_NAMES}")),
                None => {
                    self.error(&loc, format!("a type name must be a string, found {}", found(name)), format!("use one of {TYPE_NAMES}"))
                }
            }
        }
    }

    fn enum_keyword(&mut self, at: &Loc, value: &Value) {
        match value {
            Value::Array(values) if values.is_empty() => {
                self.error(at, "`enum` is empty, so no value is valid", "list the allowed values; a schema that accepts nothing is `false`")
            }
            Value::Array(_) => {}
            other => self.error(
                at,
                format!("`enum` must be an array of the allowed values, found {}", found(other)),
                "write `\"enum\": [\"a\", \"b\"]`, or `\"const\": value` for a single value",
            ),
        }
    }

    fn schema_map(&mut self, at: &Loc, value: &'r Value, keyword: &str) {
        let Value::Object(map) = value else {
            let hint = match keyword {
                "properties" => "map each property name to its schema: `\"properties\": {\"id\": {\"type\": \"string\"}}`",
                "patternProperties" => "map each regular expression to a schema: `\"patternProperties\": {\"^x-\": {}}`",
                _ => "map each name to a schema",
            };
            self.error(at, format!("`{keyword}` must be an object of schemas, found {}", found(value)), hint);
            return;
        };
        for (name, schema) in map {
            let loc = at.child(name);
            if keyword == "patternProperties" {
                self.check_pattern(&loc, name);
            }
            self.schema(&loc, schema);
        }
    }

    fn schema_array(&mut self, at: &Loc, value: &'r Value, keyword: &str) {
        match value {
            Value::Array(items) if !items.is_empty() => {
                for (i, item) in items.iter().enumerate() {
                    self.schema(&at.child(&i.to_string()), item);
                }
            }
            Value::Array(_) => self.error(
                at,
                format!("`{keyword}` is empty"),
                format!("`{keyword}` needs at least one schema; remove it if there is none"),
            ),
            other => self.error(
                at,
                format!("`{keyword}` must be a non-empty array of schemas, found {}", found(other)),
                format!("wrap the schema in an array: `\"{keyword}\": [{{...}}]`"),
            ),
        }
    }

    fn items(&mut self, at: &Loc, value: &'r Value, draft: Draft) {
        match value {
            Value::Array(_) if draft >= Draft::Draft2020_12 => self.error(
                at,
                "in draft 2020-12, `items` is one schema for every item, not an array",
                "for a tuple, use `prefixItems` (and `items` for the items after it)",
            ),
            Value::Array(_) => self.schema_array(at, value, "items"),
            _ if value.is_object() || value.is_boolean() => self.schema(at, value),
            other => self.error(
                at,
                format!("`items` must be a schema, found {}", found(other)),
                "describe every item with a schema: `\"items\": {\"type\": \"string\"}`",
            ),
        }
    }

    fn number(&mut self, at: &Loc, value: &Value, keyword: &str) {
        match value {
            Value::Number(n) if keyword == "multipleOf" && n.as_f64().is_none_or(|f| f <= 0.0) => {
                self.error(at, format!("`multipleOf` must be greater than 0, found {n}"), "use a positive number such as `0.01`")
            }
            Value::Number(_) => {}
            other => self.error(
                at,
                format!("`{keyword}` must be a number, found {}", found(other)),
                format!("write the number without quotes: `\"{keyword}\": 3`"),
            ),
        }
    }

    /// Draft 4 `exclusiveMinimum: true` modifies `minimum`; later drafts give the bound itself.
    fn exclusive(&mut self, schema: &Loc, keyword: &str, value: &Value, draft: Draft) {
        let at = schema.child(keyword);
        let bound = if keyword == "exclusiveMinimum" { "minimum" } else { "maximum" };
        match (draft, value) {
            (Draft::Draft4, Value::Bool(true)) => {
                let has_bound = self.reg.get(&schema.child(bound)).is_some();
                if !has_bound {
                    self.error(
                        &at,
                        format!("draft-04 `{keyword}: true` makes `{bound}` exclusive, but there is no `{bound}`"),
                        format!("add `\"{bound}\"`, or remove `{keyword}`"),
                    );
                }
            }
            (Draft::Draft4, Value::Bool(false)) => {}
            (Draft::Draft4, other) => self.error(
                &at,
                format!("in draft-04, `{keyword}` must be a boolean, found {}", found(other)),
                format!("write `\"{bound}\": n, \"{keyword}\": true`, or declare a later draft in `$schema`"),
            ),
            (_, Value::Number(_)) => {}
            (_, Value::Bool(_)) => self.error(
                &at,
                format!("since draft-06, `{keyword}` is the exclusive bound itself, not a boolean"),
                format!("write `\"{keyword}\": n` instead of `\"{bound}\": n, \"{keyword}\": true`"),
            ),
            (_, other) => self.error(&at, format!("`{keyword}` must be a number, found {}", found(other)), "write the bound as a number"),
        }
    }

    fn count(&mut self, at: &Loc, value: &Value, keyword: &str) {
        let valid = match value {
            Value::Number(n) => n.is_u64() || n.as_f64().is_some_and(|f| f >= 0.0 && f.fract() == 0.0),
            _ => false,
        };
        if !valid {
            self.error(
                at,
                format!("`{keyword}` must be a non-negative integer, found {}", found(value)),
                format!("write a count: `\"{keyword}\": 1`"),
            );
        }
    }

    fn boolean(&mut self, at: &Loc, value: &Value, keyword: &str) {
        if !value.is_boolean() {
            self.error(at, format!("`{keyword}` must be `true` or `false`, found {}", found(value)), "write the boolean without quotes");
        }
    }

    fn string(&mut self, at: &Loc, value: &Value, keyword: &str) {
        if !value.is_string() {
            self.error(at, format!("`{keyword}` must be a string, found {}", found(value)), "write the value in double quotes");
        }
    }

    fn reference(&mut self, at: &Loc, value: &Value, keyword: &str) {
        if !value.is_string() {
            self.error(
                at,
                format!("`{keyword}` must be a URI reference string, found {}", found(value)),
                "write a reference such as `\"#/$defs/Name\"` or `\"other.json\"`",
            );
        }
    }

    fn pattern_keyword(&mut self, at: &Loc, value: &Value) {
        match value.as_str() {
            Some(source) => self.check_pattern(at, source),
            None => self.error(
                at,
                format!("`pattern` must be a regular expression string, found {}", found(value)),
                "write the expression in double quotes, escaping `\\` as `\\\\`",
            ),
        }
    }

    fn check_pattern(&mut self, at: &Loc, source: &str) {
        if let Err(err) = crate::pattern::compile(source) {
            let mut diagnostic = self.reg.error("invalid-pattern", at, err.message);
            if let Some(hint) = err.hint {
                diagnostic = diagnostic.with_hint(hint);
            }
            self.diags.push(diagnostic);
        }
    }

    fn string_array(&mut self, at: &Loc, value: &Value, keyword: &str, hint: &str) {
        let Value::Array(items) = value else {
            self.error(at, format!("`{keyword}` must be an array of strings, found {}", found(value)), hint);
            return;
        };
        for (i, item) in items.iter().enumerate() {
            if !item.is_string() {
                self.error(&at.child(&i.to_string()), format!("`{keyword}` must list strings, found {}", found(item)), hint);
            }
        }
    }

    fn dependent_required(&mut self, at: &Loc, value: &Value) {
        let hint = "map each property to the properties it requires: `{\"card\": [\"billing_address\"]}`";
        let Value::Object(map) = value else {
            self.error(at, format!("`dependentRequired` must be an object, found {}", found(value)), hint);
            return;
        };
        for (name, names) in map {
            self.string_array(&at.child(name), names, "dependentRequired", hint);
        }
    }

    /// Draft ≤ 7: each value is an array of property names or a schema.
    fn dependencies(&mut self, at: &Loc, value: &'r Value) {
        let Value::Object(map) = value else {
            self.error(
                at,
                format!("`dependencies` must be an object, found {}", found(value)),
                "map each property to the properties it requires or to a schema",
            );
            return;
        };
        for (name, dependency) in map {
            let loc = at.child(name);
            if dependency.is_array() {
                self.string_array(&loc, dependency, "dependencies", "list property names, or give a schema");
            } else {
                self.schema(&loc, dependency);
            }
        }
    }
}

/// A short description of a JSON value for "found ..." in messages.
fn found(value: &Value) -> String {
    match value {
        Value::Null => "`null`".to_owned(),
        Value::Bool(b) => format!("`{b}`"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) if s.chars().count() > 40 => format!("a string ({:?}…)", s.chars().take(40).collect::<String>()),
        Value::String(s) => format!("the string {s:?}"),
        Value::Array(_) => "an array".to_owned(),
        Value::Object(_) => "an object".to_owned(),
    }
}
