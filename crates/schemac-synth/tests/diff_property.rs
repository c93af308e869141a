//! A property test of the diff: random pairs of schemas (each schema of the rules table, and
//! mutants of it made by one to three random edits: a `type` changed, a bound moved, an `enum`
//! value added or dropped, a property added, dropped or made required, an object closed or
//! opened, a part wrapped in `anyOf`/`oneOf`/`allOf`, a pattern changed, ...), for both roles.
//! Every breaking verdict's witness is confirmed by `jsonschema` directly; no role the diff calls
//! compatible has a counterexample among the documents synthesized from both versions.
//!
//! Deterministic (a fixed seed); `SCHEMAC_DIFF_PROPERTY_CASES` sets how many pairs (default 400).

use std::path::{Path, PathBuf};

use schemac::diff::{Options, Report, Role, Verdict};
use schemac::{Config, Front, Input, SchemaSource};
use serde_json::{Map, Value, json};

/// xorshift64*: enough for choosing edits, the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/diff/cases")
}

/// Every subschema object of `schema` (by JSON pointer), the root first.
fn subschemas(schema: &Value, pointer: String, out: &mut Vec<String>) {
    let Value::Object(map) = schema else { return };
    out.push(pointer.clone());
    for (key, value) in map {
        let at = format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"));
        match key.as_str() {
            "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas" => {
                if let Value::Object(children) = value {
                    for (name, child) in children {
                        subschemas(child, format!("{at}/{}", name.replace('~', "~0").replace('/', "~1")), out);
                    }
                }
            }
            "anyOf" | "oneOf" | "allOf" | "prefixItems" => {
                if let Value::Array(list) = value {
                    for (i, child) in list.iter().enumerate() {
                        subschemas(child, format!("{at}/{i}"), out);
                    }
                }
            }
            "items" | "additionalProperties" | "not" | "if" | "then" | "else" | "contains" | "propertyNames" => subschemas(value, at, out),
            _ => {}
        }
    }
}

fn pick(rng: &mut Rng, values: &[Value]) -> Value {
    values[rng.below(values.len())].clone()
}

const KINDS: [&str; 6] = ["string", "number", "integer", "boolean", "object", "array"];

/// One random edit of the subschema `target`.
fn edit(rng: &mut Rng, target: &mut Map<String, Value>) {
    let name = ["a", "b", "c", "x"][rng.below(4)].to_owned();
    match rng.below(16) {
        0 => {
            target.insert("type".into(), json!(KINDS[rng.below(KINDS.len())]));
        }
        1 => {
            target.remove("type");
        }
        2 => {
            let n = rng.below(5) as i64;
            let key =
                ["minimum", "maximum", "exclusiveMinimum", "minLength", "maxLength", "minItems", "maxItems", "minProperties"][rng.below(8)];
            target.insert(key.into(), json!(n));
        }
        3 => {
            let key = ["minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "multipleOf", "pattern"][rng.below(8)];
            target.remove(key);
        }
        4 => {
            let values = target.entry("enum").or_insert_with(|| json!(["a"]));
            if let Value::Array(list) = values {
                if rng.below(2) == 0 || list.len() < 2 {
                    list.push(pick(rng, &[json!("b"), json!("c"), json!(1), json!(null), json!(true)]));
                } else {
                    list.remove(0);
                }
            }
        }
        5 => {
            let kind = KINDS[rng.below(KINDS.len())];
            let properties = target.entry("properties").or_insert_with(|| json!({}));
            if let Value::Object(p) = properties {
                p.insert(name, json!({"type": kind}));
            }
        }
        6 => {
            if let Some(Value::Object(p)) = target.get_mut("properties")
                && let Some(first) = p.keys().next().cloned()
            {
                p.remove(&first);
            }
        }
        7 => {
            let required = target.entry("required").or_insert_with(|| json!([]));
            if let Value::Array(list) = required
                && !list.contains(&json!(name))
            {
                list.push(json!(name));
            }
        }
        8 => {
            target.remove("required");
        }
        9 => {
            let closed = target.get("additionalProperties") == Some(&json!(false));
            if closed {
                target.remove("additionalProperties");
            } else {
                target.insert("additionalProperties".into(), if rng.below(2) == 0 { json!(false) } else { json!({"type": "string"}) });
            }
        }
        10 | 11 => {
            let inner = Value::Object(std::mem::take(target));
            let other = json!({"type": KINDS[rng.below(KINDS.len())]});
            let key = ["anyOf", "oneOf", "allOf"][rng.below(3)];
            let list = if rng.below(2) == 0 { json!([inner, other]) } else { json!([inner]) };
            target.insert(key.into(), list);
        }
        12 => {
            target.insert("pattern".into(), pick(rng, &[json!("^a"), json!("^[a-z]+$"), json!("b"), json!("^x")]));
        }
        13 => {
            let value = pick(rng, &[json!("a"), json!(1), json!(null)]);
            target.insert("not".into(), json!({ "const": value }));
        }
        14 => {
            target.insert("items".into(), json!({"type": KINDS[rng.below(KINDS.len())]}));
        }
        _ => {
            target.insert("const".into(), pick(rng, &[json!("a"), json!(1), json!(true)]));
        }
    }
}

fn mutant(rng: &mut Rng, schema: &Value) -> Value {
    let mut out = schema.clone();
    for _ in 0..=rng.below(3) {
        let mut places = Vec::new();
        subschemas(&out, String::new(), &mut places);
        if places.is_empty() {
            return json!({"type": KINDS[rng.below(KINDS.len())]});
        }
        let at = places[rng.below(places.len())].clone();
        if let Some(Value::Object(target)) = out.pointer_mut(&at) {
            edit(rng, target);
        }
    }
    out
}

fn front_of(path: PathBuf) -> Result<Front, String> {
    let source = SchemaSource::new(path).display("schema.json".to_owned()).module(["schema"]).root_name("Root");
    schemac::front(&Input::new([source]), &Config::default()).map_err(|d| d.to_string())
}

fn check_witnesses(report: &Report, old: &Value, new: &Value) -> Result<usize, String> {
    // Formats annotate, as they do for the diff (and for the types, unless they assert them).
    let validator = |schema: &Value| jsonschema::options().should_validate_formats(false).build(schema).map_err(|e| e.to_string());
    let (old_v, new_v) = (validator(old)?, validator(new)?);
    let mut count = 0;
    for change in &report.changes {
        for (i, verdict) in [change.readers(), change.writers()].into_iter().enumerate() {
            if verdict != Verdict::Breaking {
                continue;
            }
            let Some(witness) = &change.witnesses[i] else { return Err(format!("{}: breaking without a witness", change.kind.name())) };
            let (valid, invalid) = if i == 0 { (&old_v, &new_v) } else { (&new_v, &old_v) };
            if !valid.is_valid(witness) || invalid.is_valid(witness) {
                return Err(format!("{}: the witness {witness} does not separate the versions", change.kind.name()));
            }
            count += 1;
        }
    }
    Ok(count)
}

#[test]
fn mutated_fixture_pairs_have_confirmed_witnesses_and_no_counterexamples() {
    let wanted: usize = std::env::var("SCHEMAC_DIFF_PROPERTY_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(400);
    let mut fixtures: Vec<PathBuf> = std::fs::read_dir(cases_dir())
        .expect("tests/diff/cases")
        .flat_map(|e| {
            let dir = e.expect("an entry").path();
            [dir.join("old.json"), dir.join("new.json")]
        })
        .collect();
    fixtures.sort();
    let scratch = std::env::temp_dir().join(format!("schemac-diff-property-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch directory");
    let mut rng = Rng(0x5EED_D1FF_0000_0023);
    let (mut pairs, mut skipped, mut witnessed, mut documents, mut compatible_roles) = (0, 0, 0, 0, 0);
    let mut failures = Vec::new();
    while pairs < wanted {
        let fixture = &fixtures[rng.below(fixtures.len())];
        let schema: Value = serde_json::from_str(&std::fs::read_to_string(fixture).expect("a fixture")).expect("JSON");
        let mutated = mutant(&mut rng, &schema);
        let (a, b) = (scratch.join("a.json"), scratch.join("b.json"));
        std::fs::write(&a, schema.to_string()).expect("write");
        std::fs::write(&b, mutated.to_string()).expect("write");
        // A mutant may not be a schema schemac reads (an edit can make a keyword ill-formed):
        // such pairs are counted apart, not diffed.
        let (Ok(old), Ok(new)) = (front_of(a), front_of(b)) else {
            skipped += 1;
            continue;
        };
        let report = match schemac_synth::diff(&old, &new, &Options::default()) {
            Ok(report) => report,
            Err(e) => {
                failures.push(format!("{}: the diff failed: {e}\nold: {schema}\nnew: {mutated}", fixture.display()));
                pairs += 1;
                continue;
            }
        };
        pairs += 1;
        match check_witnesses(&report, &schema, &mutated) {
            Ok(n) => witnessed += n,
            Err(e) => failures.push(format!("{}: {e}\nold: {schema}\nnew: {mutated}", fixture.display())),
        }
        let search = schemac_synth::witnesses(&report, &old, &new, &schemac_synth::SynthConfig::default(), 2_000).expect("synthesis");
        documents += search.candidates;
        compatible_roles += [Role::Reader, Role::Writer].iter().filter(|r| !report.breaking(**r) && !report.unknown(**r)).count();
        for counterexample in &search.counterexamples {
            failures.push(format!(
                "{}: {:?} called compatible, but {} separates the versions\nold: {schema}\nnew: {mutated}",
                fixture.display(),
                counterexample.role,
                counterexample.document
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    eprintln!(
        "{pairs} mutated pairs ({skipped} mutants not readable as schemas, skipped), {witnessed} breaking verdicts with a confirmed \
         witness, {compatible_roles} compatible roles searched among {documents} synthesized documents"
    );
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n\n"));
}
