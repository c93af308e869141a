//! A large draft-07 schema shaped like a real visualization grammar's, and documents of it:
//! written by this generator (deterministic, no third-party text), so the tests can hold a
//! schema of a few megabytes without vendoring one.
//!
//! Its shape is what makes such schemas hard: a root `anyOf` of top-level specs (objects told
//! apart only by trying them); a `config` of some 60 optional configuration objects with up to
//! 120 optional properties each, most of them `anyOf` a value or an expression; channels that
//! are `anyOf` field, datum and value definitions with nested scale, axis and legend objects;
//! recursive specs (layers, facets, concatenation), recursive logical predicates; string enums
//! of up to 400 values; a long description on every property. Shared by `build.rs` (the schema
//! and the documents) and the stack example (deeper documents).

#![allow(dead_code)]

use serde_json::{Map, Value, json};

/// Sizes of the parts; [`Shape::FULL`] is the schema the crate compiles.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub enums: usize,
    pub configs: usize,
    pub max_config_properties: usize,
    pub channels: usize,
    pub field_kinds: usize,
    pub transforms: usize,
}

impl Shape {
    pub const FULL: Shape = Shape { enums: 48, configs: 64, max_config_properties: 120, channels: 40, field_kinds: 8, transforms: 16 };
}

/// A xorshift generator: the same schema on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const WORDS: &[&str] = &[
    "align",
    "anchor",
    "angle",
    "aria",
    "band",
    "baseline",
    "bin",
    "blend",
    "bound",
    "brush",
    "cap",
    "center",
    "clip",
    "color",
    "corner",
    "cursor",
    "dash",
    "delta",
    "density",
    "direction",
    "domain",
    "ellipsis",
    "extent",
    "fill",
    "filter",
    "flush",
    "font",
    "format",
    "gap",
    "gradient",
    "grid",
    "height",
    "href",
    "inner",
    "interpolate",
    "invalid",
    "label",
    "legend",
    "limit",
    "line",
    "margin",
    "mark",
    "max",
    "min",
    "nice",
    "offset",
    "opacity",
    "orient",
    "outer",
    "overlap",
    "padding",
    "point",
    "position",
    "radius",
    "range",
    "reverse",
    "round",
    "scheme",
    "separation",
    "shape",
    "size",
    "smooth",
    "sort",
    "spacing",
    "stack",
    "step",
    "stroke",
    "style",
    "symbol",
    "tension",
    "text",
    "theta",
    "tick",
    "time",
    "title",
    "tooltip",
    "translate",
    "unit",
    "value",
    "width",
    "zero",
    "zindex",
];

const PROSE: &[&str] = &[
    "The",
    "default",
    "value",
    "is",
    "taken",
    "from",
    "the",
    "configuration",
    "when",
    "it",
    "is",
    "not",
    "specified",
    "and",
    "applies",
    "to",
    "every",
    "mark",
    "of",
    "this",
    "kind",
    "unless",
    "an",
    "encoding",
    "channel",
    "overrides",
    "it",
    "with",
    "a",
    "field",
    "or",
    "datum",
    "__Default value:__",
    "`undefined`",
    "see",
    "the",
    "documentation",
    "for",
    "details",
    "in",
    "pixels",
    "as",
    "a",
    "fraction",
    "of",
    "the",
    "band",
    "expression",
    "signal",
    "evaluated",
    "at",
    "render",
    "time",
];

fn words(rng: &mut Rng, n: usize, sep: &str) -> String {
    (0..n).map(|_| *rng.pick(WORDS)).collect::<Vec<_>>().join(sep)
}

fn prose(rng: &mut Rng) -> String {
    let n = 25 + rng.below(60);
    let mut text = (0..n).map(|_| *rng.pick(PROSE)).collect::<Vec<_>>().join(" ");
    text.push('.');
    text
}

fn camel(parts: &str) -> String {
    let mut out = String::new();
    for (i, part) in parts.split('-').enumerate() {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            if i == 0 {
                out.push(first);
            } else {
                out.extend(first.to_uppercase());
            }
            out.extend(chars);
        }
    }
    out
}

fn pascal(parts: &str) -> String {
    let c = camel(parts);
    let mut chars = c.chars();
    chars.next().map(|f| f.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

fn reference(name: &str) -> Value {
    json!({ "$ref": format!("#/definitions/{name}") })
}

fn described(rng: &mut Rng, mut schema: Value) -> Value {
    if let Value::Object(map) = &mut schema {
        map.insert("description".to_owned(), Value::String(prose(rng)));
    }
    schema
}

/// The names of the generated definitions that documents need.
struct Names {
    enums: Vec<String>,
    configs: Vec<String>,
    channel_kinds: Vec<String>,
}

/// The schema.
pub fn schema(shape: Shape) -> Value {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut defs = Map::new();
    let mut names = common(&mut rng, shape, &mut defs);
    configs(&mut rng, shape, &mut names, &mut defs);
    channels(&mut rng, shape, &mut names, &mut defs);
    predicates(&mut rng, &mut defs);
    transforms(&mut rng, shape, &mut defs);
    specs(&mut rng, shape, &names, &mut defs);
    json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$ref": "#/definitions/TopLevelSpec",
        "definitions": defs,
    })
}

fn common(rng: &mut Rng, shape: Shape, defs: &mut Map<String, Value>) -> Names {
    defs.insert(
        "ExprRef".to_owned(),
        json!({ "type": "object", "properties": { "expr": { "type": "string", "description": "Vega expression." } },
                "required": ["expr"], "additionalProperties": false }),
    );
    for (name, ty) in [
        ("NumberOrExpr", json!({"type": "number"})),
        ("BoolOrExpr", json!({"type": "boolean"})),
        ("TextOrExpr", json!({"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]})),
    ] {
        defs.insert(name.to_owned(), json!({ "anyOf": [ty, reference("ExprRef")] }));
    }
    let mut enums = Vec::new();
    for i in 0..shape.enums {
        let name = format!("{}{i}", pascal(&words(rng, 2, "-")));
        let count = match i % 6 {
            0 => 300 + rng.below(100),
            1 | 2 => 40 + rng.below(60),
            _ => 3 + rng.below(12),
        };
        let values: Vec<Value> = (0..count).map(|k| Value::String(format!("{}-{k}", words(rng, 1 + k % 2, "-")))).collect();
        defs.insert(name.clone(), described(rng, json!({ "type": "string", "enum": values })));
        defs.insert(format!("{name}OrExpr"), json!({ "anyOf": [reference(&name), reference("ExprRef")] }));
        enums.push(name);
    }
    // A color: a named one, any CSS string, a gradient, an expression or `null` (the
    // overlapping string branches make it a union that tries its branches in order).
    defs.insert(
        "Gradient".to_owned(),
        json!({ "type": "object", "properties": {
            "gradient": { "type": "string", "enum": ["linear", "radial"] },
            "stops": { "type": "array", "items": { "type": "object", "properties": {
                "offset": { "type": "number" }, "color": { "type": "string" } }, "required": ["offset", "color"],
                "additionalProperties": false } },
            "x1": { "type": "number" }, "y1": { "type": "number" }, "x2": { "type": "number" }, "y2": { "type": "number" } },
            "required": ["gradient", "stops"], "additionalProperties": false }),
    );
    defs.insert(
        "Color".to_owned(),
        json!({ "anyOf": [reference(&enums[0]), { "type": "string" }, reference("Gradient"), reference("ExprRef"), { "type": "null" }] }),
    );
    Names { enums, configs: Vec::new(), channel_kinds: Vec::new() }
}

/// A property of a configuration-like object: mostly a value or an expression.
fn property(rng: &mut Rng, names: &Names, nested: &[String]) -> Value {
    let schema = match rng.below(12) {
        0..=3 => reference("NumberOrExpr"),
        4 => reference("BoolOrExpr"),
        5 => reference("TextOrExpr"),
        6 | 7 => reference(&format!("{}OrExpr", rng.pick(&names.enums))),
        8 => reference("Color"),
        9 if !nested.is_empty() => reference(rng.pick(nested).as_str()),
        9 | 10 => json!({ "type": "array", "items": { "type": "number" } }),
        _ => json!({ "type": "string" }),
    };
    described(rng, schema)
}

fn object(rng: &mut Rng, names: &Names, count: usize, nested: &[String], extra: Map<String, Value>) -> Value {
    let mut properties = extra;
    while properties.len() < count {
        let n = 1 + rng.below(3);
        let name = camel(&words(rng, n, "-"));
        if !properties.contains_key(&name) {
            let p = property(rng, names, nested);
            properties.insert(name, p);
        }
    }
    described(rng, json!({ "type": "object", "properties": properties, "additionalProperties": false }))
}

fn configs(rng: &mut Rng, shape: Shape, names: &mut Names, defs: &mut Map<String, Value>) {
    // The later configuration objects hold some of the first quarter inline (as a mark's
    // configuration holds its text's), two levels of optional objects under `Config`.
    for i in 0..shape.configs {
        let name = format!("{}Config{i}", pascal(&words(rng, 1, "-")));
        let count = 10 + rng.below(shape.max_config_properties - 10);
        let leaves = shape.configs / 4;
        let nested: Vec<String> = if i < leaves { Vec::new() } else { names.configs[..leaves].to_vec() };
        let config = object(rng, names, count, &nested, Map::new());
        defs.insert(name.clone(), config);
        names.configs.push(name);
    }
    let mut properties = Map::new();
    for name in &names.configs {
        properties.insert(camel(&name.to_lowercase()), described(rng, reference(name)));
    }
    properties.insert("background".to_owned(), reference("Color"));
    properties.insert("padding".to_owned(), reference("NumberOrExpr"));
    defs.insert("Config".to_owned(), json!({ "type": "object", "properties": properties, "additionalProperties": false }));
}

fn channels(rng: &mut Rng, shape: Shape, names: &mut Names, defs: &mut Map<String, Value>) {
    let sub = |rng: &mut Rng, names: &Names, defs: &mut Map<String, Value>, name: &str, count: usize| {
        let nested = names.configs[..3].to_vec();
        let schema = object(rng, names, count, &nested, Map::new());
        defs.insert(name.to_owned(), schema);
    };
    sub(rng, names, defs, "Scale", 40);
    sub(rng, names, defs, "Axis", 90);
    sub(rng, names, defs, "Legend", 80);
    defs.insert(
        "Conditional".to_owned(),
        json!({ "type": "object", "properties": { "test": reference("Predicate"), "value": {} }, "required": ["test"],
                "additionalProperties": false }),
    );
    for k in 0..shape.field_kinds {
        let kind = format!("{}FieldDef{k}", pascal(&words(rng, 1, "-")));
        let mut extra = Map::new();
        extra.insert("field".to_owned(), json!({ "type": "string" }));
        extra.insert("type".to_owned(), json!({ "type": "string", "enum": ["quantitative", "ordinal", "temporal", "nominal"] }));
        extra.insert("aggregate".to_owned(), reference(&names.enums[1]));
        extra.insert("timeUnit".to_owned(), reference(&names.enums[2]));
        extra.insert("scale".to_owned(), json!({ "anyOf": [reference("Scale"), { "type": "null" }] }));
        extra.insert("axis".to_owned(), json!({ "anyOf": [reference("Axis"), { "type": "null" }] }));
        extra.insert("legend".to_owned(), json!({ "anyOf": [reference("Legend"), { "type": "null" }] }));
        extra.insert(
            "condition".to_owned(),
            json!({ "anyOf": [reference("Conditional"), { "type": "array", "items": reference("Conditional") }] }),
        );
        let mut field = object(rng, names, 30, &[], extra);
        field["required"] = json!(["field"]);
        defs.insert(kind.clone(), field);
        let mut value = Map::new();
        value.insert("value".to_owned(), json!({ "anyOf": [{ "type": "number" }, { "type": "string" }, reference("ExprRef")] }));
        value.insert(
            "condition".to_owned(),
            json!({ "anyOf": [reference("Conditional"), { "type": "array", "items": reference("Conditional") }] }),
        );
        let mut value = object(rng, names, 6, &[], value);
        value["required"] = json!(["value"]);
        defs.insert(format!("{kind}Value"), value);
        let mut datum = Map::new();
        datum.insert("datum".to_owned(), json!({}));
        let mut datum = object(rng, names, 12, &[], datum);
        datum["required"] = json!(["datum"]);
        defs.insert(format!("{kind}Datum"), datum);
        defs.insert(
            format!("{kind}Channel"),
            json!({ "anyOf": [reference(&kind), reference(&format!("{kind}Datum")), reference(&format!("{kind}Value"))] }),
        );
        names.channel_kinds.push(kind);
    }
    let mut properties = Map::new();
    for (i, name) in ["x", "y", "x2", "y2", "color", "fill", "stroke", "opacity", "size", "shape", "text", "tooltip", "theta", "radius"]
        .iter()
        .map(|s| (*s).to_owned())
        .chain((14..shape.channels).map(|i| format!("channel{i}")))
        .enumerate()
    {
        let kind = &names.channel_kinds[i % names.channel_kinds.len()];
        properties.insert(name, described(rng, reference(&format!("{kind}Channel"))));
    }
    defs.insert("Encoding".to_owned(), json!({ "type": "object", "properties": properties, "additionalProperties": false }));
}

fn predicates(rng: &mut Rng, defs: &mut Map<String, Value>) {
    let field = object(rng, &Names { enums: Vec::new(), configs: Vec::new(), channel_kinds: Vec::new() }, 0, &[], {
        let mut m = Map::new();
        m.insert("field".to_owned(), json!({ "type": "string" }));
        m.insert("equal".to_owned(), json!({ "type": ["string", "number", "boolean"] }));
        m.insert("lt".to_owned(), json!({ "type": "number" }));
        m.insert("gt".to_owned(), json!({ "type": "number" }));
        m.insert("oneOf".to_owned(), json!({ "type": "array", "items": { "type": ["string", "number"] } }));
        m
    });
    let mut field = field;
    field["required"] = json!(["field"]);
    defs.insert("FieldPredicate".to_owned(), field);
    defs.insert(
        "Predicate".to_owned(),
        json!({ "anyOf": [
            { "type": "object", "properties": { "not": reference("Predicate") }, "required": ["not"], "additionalProperties": false },
            { "type": "object", "properties": { "and": { "type": "array", "items": reference("Predicate") } }, "required": ["and"], "additionalProperties": false },
            { "type": "object", "properties": { "or": { "type": "array", "items": reference("Predicate") } }, "required": ["or"], "additionalProperties": false },
            reference("FieldPredicate"),
            { "type": "string" }
        ] }),
    );
}

fn transforms(rng: &mut Rng, shape: Shape, defs: &mut Map<String, Value>) {
    let mut variants = Vec::new();
    for i in 0..shape.transforms {
        let key = format!("{}{i}", camel(&words(rng, 1, "-")));
        let name = format!("{}Transform", pascal(&key));
        let mut properties = Map::new();
        properties.insert(key.clone(), json!({ "type": "string" }));
        for _ in 0..(2 + rng.below(8)) {
            let p = camel(&words(rng, 2, "-"));
            let schema = match rng.below(4) {
                0 => json!({ "type": "number" }),
                1 => json!({ "type": "array", "items": { "type": "string" } }),
                2 => json!({ "type": "boolean" }),
                _ => json!({ "type": "string" }),
            };
            properties.insert(p, described(rng, schema));
        }
        defs.insert(name.clone(), json!({ "type": "object", "properties": properties, "required": [key], "additionalProperties": false }));
        variants.push(reference(&name));
    }
    defs.insert("Transform".to_owned(), json!({ "anyOf": variants }));
}

fn specs(rng: &mut Rng, _shape: Shape, names: &Names, defs: &mut Map<String, Value>) {
    defs.insert(
        "Data".to_owned(),
        json!({ "anyOf": [
            { "type": "object", "properties": { "url": { "type": "string" }, "format": { "type": "object" } }, "required": ["url"], "additionalProperties": false },
            { "type": "object", "properties": { "values": { "type": "array" } }, "required": ["values"], "additionalProperties": false },
            { "type": "object", "properties": { "name": { "type": "string" } }, "required": ["name"], "additionalProperties": false },
            { "type": "null" }
        ] }),
    );
    let mark_enum = &names.enums[3];
    let mark_def = {
        let mut extra = Map::new();
        extra.insert("type".to_owned(), reference(mark_enum));
        let mut m = object(rng, names, 110, &names.configs[..2], extra);
        m["required"] = json!(["type"]);
        m
    };
    defs.insert("MarkDef".to_owned(), mark_def);
    let common = |rng: &mut Rng| {
        let mut m = Map::new();
        m.insert("name".to_owned(), json!({ "type": "string" }));
        m.insert("description".to_owned(), json!({ "type": "string" }));
        m.insert("title".to_owned(), reference("TextOrExpr"));
        m.insert("data".to_owned(), reference("Data"));
        m.insert("transform".to_owned(), json!({ "type": "array", "items": reference("Transform") }));
        m.insert(
            "width".to_owned(),
            described(rng, json!({ "anyOf": [{ "type": "number" }, { "type": "string", "enum": ["container"] }] })),
        );
        m.insert(
            "height".to_owned(),
            described(rng, json!({ "anyOf": [{ "type": "number" }, { "type": "string", "enum": ["container"] }] })),
        );
        m
    };
    let mut unit = common(rng);
    unit.insert("mark".to_owned(), json!({ "anyOf": [reference(mark_enum), reference("MarkDef")] }));
    unit.insert("encoding".to_owned(), reference("Encoding"));
    let mut layer = common(rng);
    layer.insert("layer".to_owned(), json!({ "type": "array", "items": { "anyOf": [reference("LayerSpec"), reference("UnitSpec")] } }));
    layer.insert("encoding".to_owned(), reference("Encoding"));
    let mut facet = common(rng);
    facet.insert("facet".to_owned(), json!({ "type": "object", "properties": { "row": reference(&format!("{}Channel", names.channel_kinds[0])), "column": reference(&format!("{}Channel", names.channel_kinds[1])) }, "additionalProperties": false }));
    // The inner spec is held inline: a recursive field.
    facet.insert("spec".to_owned(), json!({ "anyOf": [reference("LayerSpec"), reference("UnitSpec"), reference("FacetSpec")] }));
    facet.insert("columns".to_owned(), json!({ "type": "integer", "minimum": 0 }));
    let concat = |rng: &mut Rng, key: &str| {
        let mut m = common(rng);
        m.insert(key.to_owned(), json!({ "type": "array", "items": reference("Spec") }));
        m.insert("spacing".to_owned(), json!({ "type": "number" }));
        m
    };
    let specs = [
        ("UnitSpec", unit, vec!["mark"]),
        ("LayerSpec", layer, vec!["layer"]),
        ("FacetSpec", facet, vec!["facet", "spec"]),
        ("ConcatSpec", concat(rng, "concat"), vec!["concat"]),
        ("HConcatSpec", concat(rng, "hconcat"), vec!["hconcat"]),
        ("VConcatSpec", concat(rng, "vconcat"), vec!["vconcat"]),
    ];
    let mut spec_refs = Vec::new();
    let mut top_refs = Vec::new();
    for (name, properties, required) in specs {
        let mut top = properties.clone();
        top.insert("$schema".to_owned(), json!({ "type": "string", "format": "uri" }));
        top.insert("config".to_owned(), described(rng, reference("Config")));
        top.insert("autosize".to_owned(), described(rng, json!({ "anyOf": [reference(&names.enums[4]), { "type": "object", "properties": { "type": reference(&names.enums[4]), "resize": { "type": "boolean" }, "contains": { "type": "string", "enum": ["content", "padding"] } }, "additionalProperties": false }] })));
        top.insert("background".to_owned(), reference("Color"));
        top.insert("padding".to_owned(), reference("NumberOrExpr"));
        top.insert("usermeta".to_owned(), json!({ "type": "object" }));
        top.insert("datasets".to_owned(), json!({ "type": "object", "additionalProperties": { "type": "array" } }));
        defs.insert(
            name.to_owned(),
            described(rng, json!({ "type": "object", "properties": properties, "required": required, "additionalProperties": false })),
        );
        defs.insert(
            format!("TopLevel{name}"),
            described(rng, json!({ "type": "object", "properties": top, "required": required, "additionalProperties": false })),
        );
        spec_refs.push(reference(name));
        top_refs.push(reference(&format!("TopLevel{name}")));
    }
    defs.insert("Spec".to_owned(), json!({ "anyOf": spec_refs }));
    defs.insert("TopLevelSpec".to_owned(), json!({ "anyOf": top_refs }));
}

/// Documents of the schema, by name: each valid. `depth` sets how deeply the deep ones nest.
pub fn documents(shape: Shape, depth: usize) -> Vec<(String, Value)> {
    let schema = schema(shape);
    let defs = &schema["definitions"];
    // The first value of the mark enum (`MarkDef`'s `type`).
    let mark_enum = defs["MarkDef"]["properties"]["type"]["$ref"].as_str().unwrap_or_default().trim_start_matches("#/definitions/");
    let mark_value = defs[mark_enum]["enum"][0].clone();
    let mark = || mark_value.clone();
    let simple = json!({
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "description": "A simple bar chart.",
        "data": { "values": [{ "a": "A", "b": 28 }, { "a": "B", "b": 55 }] },
        "mark": mark(),
        "encoding": { "x": { "field": "a", "type": "nominal" }, "y": { "field": "b", "type": "quantitative", "scale": null } }
    });
    let mut config = Map::new();
    if let Some(Value::Object(props)) = defs["Config"].get("properties") {
        // Twelve configuration objects, in an order that does not depend on the map's.
        let mut keys: Vec<&String> =
            props.iter().filter(|(_, s)| s["$ref"].as_str().is_some_and(|r| r.contains("Config"))).map(|(k, _)| k).collect();
        keys.sort();
        for key in keys.into_iter().take(12) {
            config.insert(key.clone(), json!({}));
        }
    }
    let configured = json!({ "mark": mark(), "config": config, "padding": { "expr": "width / 10" }, "background": "white" });
    let mut layers = json!({ "mark": mark(), "encoding": { "color": { "value": "red" } } });
    // Two JSON levels (an object and an array) per layer.
    for i in 0..depth / 2 {
        layers = json!({ "layer": [layers], "title": format!("level {i}") });
    }
    let mut facets = json!({ "mark": mark() });
    for _ in 0..depth {
        facets = json!({ "facet": { "row": { "field": "r" } }, "spec": facets });
    }
    let mut predicate = json!({ "field": "a", "lt": 3.5 });
    for _ in 0..depth {
        predicate = json!({ "not": predicate });
    }
    let predicates =
        json!({ "mark": mark(), "encoding": { "color": { "value": "red", "condition": { "test": predicate, "value": "blue" } } } });
    vec![
        ("simple".to_owned(), simple),
        ("configured".to_owned(), configured),
        ("layers".to_owned(), layers),
        ("facets".to_owned(), facets),
        ("predicates".to_owned(), predicates),
    ]
}
