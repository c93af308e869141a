//! Page tests: the bundled schemas' pages against the publisher's page, and the shapes the
//! pages must render.

use serde_json::{Value, json};

use super::*;
use crate::load::Document;
use crate::resolve::Registry;

const ATTEMPTS: &str = include_str!("../../../../schemas/madoo/attempts-report.v1.json");
const GOAL: &str = include_str!("../../../../schemas/pi-glla/goal.json");
const SEED: &str = include_str!("../../../../tests/docs/madoo.attempts-report.v1.seed.md");
/// The page `cargo xtask codegen` wrote from the header in this repository's `schemac.toml`.
const COMMITTED: &str = include_str!("../../../../generated/docs/madoo/attempts-report.v1.md");

fn front_of(name: &str, text: &str) -> Front {
    let json: Value = serde_json::from_str(text).expect("the test schema is JSON");
    let draft = json.get("$schema").and_then(Value::as_str).and_then(crate::Draft::from_schema_uri).unwrap_or(crate::Draft::Draft2020_12);
    let doc = Document {
        id: DocId(0),
        path: format!("/schemas/{name}").into(),
        display: format!("schemas/{name}"),
        text: text.to_owned(),
        sha256: String::new(),
        json,
        draft,
        is_input: true,
        root_pointer: String::new(),
        aliases: Vec::new(),
    };
    let registry = Registry::new(vec![doc]).expect("the test schema indexes");
    let (model, diagnostics) = crate::schema::build(&registry);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    Front { registry, model, sources: Vec::new(), warnings: Vec::new() }
}

fn page_of(text: &str, header: &Header) -> String {
    page(&front_of("test.json", text), DocId(0), header)
}

fn attempts_header() -> Header {
    Header {
        reference: Some("madoo.attempts-report/v1".to_owned()),
        summary: Some(
            "What Repeat Until Accepted did: the body and its version, the policy, every attempt with its run, acceptance, \
             score and feedback, and which attempt was delivered and why."
                .to_owned(),
        ),
        version: Some("1.0.0".to_owned()),
        served_at: vec!["GET /api/v1/json-schemas/{reference}".to_owned(), "MCP get_json_schema".to_owned()],
        appears: vec!["Produced by: workflow/repeat → report".to_owned()],
    }
}

/// The cells of a Markdown table row, split at pipes that are not escaped, unescaped.
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().strip_prefix('|').and_then(|l| l.strip_suffix('|')).unwrap_or_else(|| panic!("not a table row: {line}"));
    let mut out = Vec::new();
    let mut cell = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                cell.push(c);
                cell.extend(chars.next());
            }
            '|' => out.push(std::mem::take(&mut cell)),
            c => cell.push(c),
        }
    }
    out.push(cell);
    out.into_iter().map(|c| unescape(c.trim())).collect()
}

/// The rows of the first table after the heading `heading`.
fn table_after(page: &str, heading: &str) -> Vec<Vec<String>> {
    let start = page.find(&format!("{heading}\n")).unwrap_or_else(|| panic!("no {heading:?} in:\n{page}"));
    page[start..].lines().skip_while(|l| !l.starts_with('|')).take_while(|l| l.starts_with('|')).skip(2).map(cells).collect()
}

/// The seed page's Fields rows: tab-separated, five cells (trailing empty cells omitted).
fn seed_rows() -> Vec<Vec<String>> {
    let fields = SEED.split("\nFields\n").nth(1).expect("the seed page has a Fields section");
    let mut lines = fields.lines().filter(|l| !l.trim().is_empty());
    assert_eq!(lines.next(), Some("Field\tType\tRequired\tRules\tDescription"));
    lines
        .map(|line| {
            let mut cells: Vec<String> = line.split('\t').map(str::to_owned).collect();
            cells.resize(5, String::new());
            cells
        })
        .collect()
}

#[test]
fn attempts_report_fields_are_the_publishers_cell_for_cell() {
    let page = page_of(ATTEMPTS, &attempts_header());
    let ours = table_after(&page, "## Fields");
    let seed = seed_rows();
    for (i, (a, b)) in ours.iter().zip(&seed).enumerate() {
        assert_eq!(a, b, "row {i}");
    }
    assert_eq!(ours.len(), seed.len(), "{page}");
}

#[test]
fn attempts_report_header_is_the_publishers() {
    let page = page_of(ATTEMPTS, &attempts_header());
    let mut lines = page.lines();
    assert_eq!(lines.next(), Some("# madoo.attempts-report/v1"));
    let seed: Vec<&str> = SEED.lines().filter(|l| !l.trim().is_empty()).collect();
    let lead = page.lines().nth(2).map(unescape);
    assert_eq!(lead.as_deref(), Some(seed[1]));
    let facts: Vec<String> = page
        .lines()
        .skip_while(|l| !l.starts_with("| | |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| cells(l).join("\t"))
        .collect();
    assert_eq!(facts, seed[2..6]);
    assert!(page.contains("## Where it appears\n\n- Produced by: workflow/repeat → report\n"), "{page}");
    // The item objects' own rule is a note, not a row (the publisher's table has none).
    assert!(page.contains("- `attempts[]`: no other fields"), "{page}");
}

/// `schemac.toml` says what the publisher's header says: the committed page (which the drift
/// check keeps equal to what codegen writes) is the page of the header checked above.
#[test]
fn the_committed_page_is_the_publishers() {
    let body = COMMITTED.split_once("-->\n\n").map(|(_, body)| body).expect("the page starts with its @generated line");
    assert_eq!(body, page_of(ATTEMPTS, &attempts_header()));
}

#[test]
fn the_complete_schema_ends_the_page_byte_for_byte() {
    let page = page_of(ATTEMPTS, &Header::default());
    let schema = page.split("## Complete schema\n\n```json\n").nth(1).expect("a complete schema section");
    assert_eq!(schema.strip_suffix("```\n"), Some(ATTEMPTS));
    let fenced = page_of("{\"description\": \"a ```fence``` inside\"}", &Header::default());
    assert!(fenced.contains("\n````json\n") && fenced.ends_with("````\n"), "{fenced}");
}

#[test]
fn goal_definitions_are_sections_and_recursion_is_a_link() {
    let page = page_of(GOAL, &Header::default());
    let fields = table_after(&page, "## Fields");
    let tasks = fields.iter().find(|r| r[0] == "taskList.tasks").expect("a taskList.tasks row");
    assert_eq!(tasks[1], "array of [task](#task)");
    assert!(!fields.iter().any(|r| r[0].starts_with("taskList.tasks[]")), "the recursive definition is not expanded inline");
    let task = table_after(&page, "### task");
    let subtasks = task.iter().find(|r| r[0] == "subtasks").expect("a subtasks row");
    assert_eq!(subtasks[1], "array of [task](#task)");
    assert_eq!(subtasks[3], "max items 5");
    let status = task.iter().find(|r| r[0] == "status").expect("a status row");
    assert_eq!((status[1].as_str(), status[2].as_str()), ("one of \"pending\", \"in_progress\", \"complete\"", "yes"));
    // A definition referenced once reads inline.
    assert!(fields.iter().any(|r| r[0].starts_with("pendingCompletion.")), "{page}");
    let dated: Vec<&Vec<String>> = fields.iter().filter(|r| r[3].contains("format date-time")).collect();
    assert!(!dated.is_empty(), "date-time fields show their format:\n{page}");
    // `<id>` in the description is text, not an HTML tag.
    assert!(page.contains(".pi-glla/goals/&lt;id&gt;.md"), "{page}");
}

#[test]
fn keywords_without_a_column_become_notes() {
    let schema = json!({
        "type": "object",
        "properties": {
            "shape": {"oneOf": [{"type": "string", "minLength": 1}, {"type": "integer"}]},
            "odd": {"type": "integer", "not": {"multipleOf": 2}},
            "kind": {"if": {"const": "a"}, "then": {"maxLength": 3}, "else": {"minLength": 5}},
            "tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]+$"}, "uniqueItems": true},
            "extra": {"type": "object", "additionalProperties": {"type": "number", "exclusiveMinimum": 0}, "propertyNames": {"maxLength": 8}}
        },
        "dependentSchemas": {"odd": {"required": ["shape"]}}
    });
    let page = page_of(&schema.to_string(), &Header::default());
    let rows = table_after(&page, "## Fields");
    let row = |field: &str| rows.iter().find(|r| r[0] == field).unwrap_or_else(|| panic!("no row {field}:\n{page}")).clone();
    assert_eq!(row("shape")[1], "integer or string");
    assert_eq!(row("tags")[1], "array of strings");
    assert_eq!(row("tags")[3], "unique items");
    assert_eq!(row("tags[]")[3], "pattern “^[a-z]+$”");
    assert_eq!(row("extra.*")[1..4], ["number".to_owned(), String::new(), "> 0".to_owned()]);
    assert!(row("extra")[3].contains("other fields: number; > 0") && row("extra")[3].contains("property names: max length 8"));
    for note in [
        "`shape` is exactly one of: (1) string, min length 1; (2) integer",
        "`odd` must not be: any, multiple of 2",
        "`kind`: if it is \"a\", then it must be any, max length 3; otherwise it must be any, min length 5",
        "The document: with `odd`, it must also be object, requiring shape",
    ] {
        assert!(page.contains(note), "missing note {note:?} in:\n{page}");
    }
    for line in page.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| |")) {
        assert_eq!(cells(line).len(), 5, "{line}");
    }
}

#[test]
fn every_keyword_has_a_place_on_the_page() {
    // `place` is an exhaustive match: this only pins the places of a few keywords readers
    // rely on.
    use crate::schema::Keyword;
    assert_eq!(place(Keyword::Pattern), Place::Rules);
    assert_eq!(place(Keyword::OneOf), Place::Note);
    assert_eq!(place(Keyword::Properties), Place::Rows);
    assert_eq!(place(Keyword::Examples), Place::Source);
    assert_eq!(place(Keyword::Ref), Place::Followed);
}

/// Across the keyword fixtures, every rule of every subschema the document applies is written
/// on its page above the complete schema (in a row, a section or a note), every property is
/// named there, and each kind of note is written at least as often as subschemas carry it: no
/// assertion or applicator is left to the complete schema alone.
#[test]
fn every_applied_keyword_of_the_fixtures_is_on_its_page() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    let mut fixtures: Vec<_> = std::fs::read_dir(&dir).expect("tests/fixtures").map(|e| e.expect("an entry").path()).collect();
    fixtures.retain(|p| p.extension().is_some_and(|e| e == "json"));
    fixtures.sort();
    assert!(fixtures.len() > 30, "found only {} fixtures in {}", fixtures.len(), dir.display());
    let mut checked = 0;
    let mut missing = Vec::new();
    for path in &fixtures {
        let input = crate::Input {
            schemas: vec![crate::SchemaSource { path: path.clone(), display: path.display().to_string(), ..Default::default() }],
            ..crate::Input::default()
        };
        let Ok(front) = crate::front(&input, &crate::Config::default()) else { continue };
        let page = page(&front, DocId(0), &Header::default());
        let body = &page[..page.find("\n## Complete schema").expect("the page ends with the complete schema")];
        let model = &front.model;
        let root = front.model.id_at(&crate::resolve::Loc { doc: DocId(0), pointer: String::new() }).expect("the root is modelled");
        let mut seen = std::collections::HashSet::new();
        let mut todo = vec![root];
        let mut notes = [0usize; 5];
        while let Some(id) = todo.pop() {
            if !seen.insert(id) {
                continue;
            }
            todo.extend(children(model, id));
            todo.extend(ref_targets(model, id));
            let Some(schema) = model.node(id).schema() else { continue };
            checked += 1;
            for rule in words::rules(schema, model) {
                if !body.contains(&escape(&rule)) {
                    missing.push(format!("{}: rule {rule:?} of {id:?}", path.display()));
                }
            }
            for (name, _) in schema.properties.iter().flatten() {
                if !body.contains(&escape(name)) {
                    missing.push(format!("{}: property {name:?} of {id:?}", path.display()));
                }
            }
            let kinds = [
                schema.one_of.is_some(),
                schema.any_of.is_some(),
                schema.not.is_some(),
                schema.if_.is_some(),
                schema.dependent_schemas.iter().flatten().next().is_some()
                    || schema.dependencies.iter().flatten().any(|(_, d)| matches!(d, crate::schema::Dependency::Schema(_))),
            ];
            for (count, has) in notes.iter_mut().zip(kinds) {
                *count += usize::from(has);
            }
        }
        let phrases = ["is exactly one of", "is at least one of", "must not be", "if it is", "it must also be"];
        for (phrase, count) in phrases.iter().zip(notes) {
            let written = body.matches(phrase).count();
            if written < count {
                missing.push(format!("{}: {count} subschemas need a note {phrase:?}, the page has {written}", path.display()));
            }
        }
    }
    assert!(checked > 300, "checked only {checked} subschemas");
    assert!(missing.is_empty(), "{} keywords are not on their pages:\n{}", missing.len(), missing.join("\n"));
}
