//! Reference pages: each input schema rendered from the model as the page its publisher
//! serves: a header (reference, title and summary, schema id, version, where it is served,
//! where it appears), a Fields table with a row per property at every depth (Field, Type,
//! Required, Rules, Description), a section per definition that is referenced from several
//! places or recursively, notes for what does not fit a column (branches, conditions,
//! negations), and the complete schema, byte for byte.
//!
//! Paths are dotted (`body.workflow`); `[]` steps into array items (`attempts[].score`),
//! `[0]` into a tuple's items, `*` into additional properties and `{pattern}` into pattern
//! properties. Every keyword has a place on the page.

mod words;

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use crate::ir::{DocId, Kind};
use crate::resolve::Loc;
use crate::schema::{Body, Dependency, KindSet, Model, Schema, SchemaId, defs_key};
use schemac_model::Front;

pub(crate) use words::escape;
#[cfg(test)]
use words::{Place, place, unescape};

/// What a page says about a schema beyond the schema itself (in `schemac.toml`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header {
    /// The name the schema is known by (`madoo.attempts-report/v1`): the page's heading.
    pub reference: Option<String>,
    /// A short summary, when the schema's description is too long for the top of the page.
    pub summary: Option<String>,
    pub version: Option<String>,
    /// Where the schema is served (`GET /api/v1/json-schemas/{reference}`), `{reference}`
    /// standing for the reference name; several are joined with ` · `.
    pub served_at: Vec<String>,
    /// Where documents of the schema appear, one item each.
    pub appears: Vec<String>,
}

/// The reference page of input document `doc` (its root, as compiled), in Markdown.
pub fn page(front: &Front, doc: DocId, header: &Header) -> String {
    let document = front.registry.doc(doc);
    let root_loc = Loc { doc, pointer: document.root_pointer.clone() };
    let mut out = String::new();
    let Some(root) = front.model.id_at(&root_loc) else {
        return out;
    };
    let model = &front.model;
    let root_schema = model.node(root).schema();
    let title = root_schema.and_then(|s| s.title.clone());
    let heading = header.reference.clone().or_else(|| title.clone()).unwrap_or_else(|| document.display.clone());
    let _ = writeln!(out, "# {}\n", escape(&heading));
    let summary = header.summary.clone().or_else(|| root_schema.and_then(|s| s.description.clone()));
    let lead = match (&title, &summary) {
        (Some(title), Some(summary)) => format!("{} — {}", escape(title), escape(summary)),
        (Some(only), None) | (None, Some(only)) => escape(only),
        (None, None) => String::new(),
    };
    if !lead.is_empty() {
        let _ = writeln!(out, "{lead}\n");
    }

    let reference = header.reference.clone().unwrap_or_default();
    let mut facts: Vec<(&str, String)> = Vec::new();
    if let Some(reference) = &header.reference {
        facts.push(("Reference", reference.clone()));
    }
    if let Some(id) = root_schema.and_then(|s| s.id.clone()) {
        facts.push(("Schema id", id));
    }
    if let Some(version) = &header.version {
        facts.push(("Version", version.clone()));
    }
    if !header.served_at.is_empty() {
        let served: Vec<String> = header.served_at.iter().map(|s| s.replace("{reference}", &reference)).collect();
        facts.push(("Served at", served.join(" · ")));
    }
    if !facts.is_empty() {
        out.push_str("| | |\n|---|---|\n");
        for (label, value) in facts {
            let _ = writeln!(out, "| {label} | {} |", escape(&value));
        }
        out.push('\n');
    }
    if !header.appears.is_empty() {
        out.push_str("## Where it appears\n\n");
        for item in &header.appears {
            let _ = writeln!(out, "- {}", escape(item));
        }
        out.push('\n');
    }

    let mut writer = Writer::new(model, root);
    out.push_str("## Fields\n\n");
    out.push_str(&writer.table(root, ""));
    let mut done = 0;
    if writer.sections.len() > done {
        out.push_str("\n## Definitions\n");
    }
    while done < writer.sections.len() {
        let section = writer.sections[done].clone();
        done += 1;
        let _ = write!(out, "\n### {}\n\n", escape(&section.name));
        let table = writer.table(section.id, "");
        out.push_str(&table);
    }

    let fence = fence_for(&document.text);
    let _ = write!(out, "\n## Complete schema\n\n{fence}json\n{}", document.text);
    if !document.text.ends_with('\n') {
        out.push('\n');
    }
    let _ = writeln!(out, "{fence}");
    out
}

/// A fence longer than any run of backticks in `text`.
fn fence_for(text: &str) -> String {
    "`".repeat((longest_backtick_run(text) + 1).max(3))
}

fn longest_backtick_run(text: &str) -> usize {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    longest
}

/// A definition with a section of its own.
#[derive(Clone, Debug)]
struct Section {
    id: SchemaId,
    name: String,
    anchor: String,
}

/// One row of a table.
#[derive(Debug)]
struct Row {
    field: String,
    ty: String,
    required: bool,
    rules: Vec<String>,
    description: Option<String>,
}

/// What a schema adds up to: its schema objects (itself, the `allOf` members and the targets
/// of its references, followed) and the section it links to instead of following.
#[derive(Debug, Default)]
struct Parts {
    schemas: Vec<SchemaId>,
    link: Option<usize>,
    /// A reference back to the document's root (its table is the Fields table).
    link_root: bool,
    /// `false` is among them: nothing is valid.
    never: bool,
}

struct Writer<'m> {
    model: &'m Model,
    root: SchemaId,
    /// Reference targets that get a section: referenced from several places, or recursively.
    sectioned: HashSet<SchemaId>,
    sections: Vec<Section>,
    section_of: HashMap<SchemaId, usize>,
}

impl<'m> Writer<'m> {
    fn new(model: &'m Model, root: SchemaId) -> Writer<'m> {
        let sectioned = sectioned(model, root);
        Writer { model, root, sectioned, sections: Vec::new(), section_of: HashMap::new() }
    }

    /// The section of reference target `id`, created on first use.
    fn section(&mut self, id: SchemaId) -> usize {
        if let Some(&i) = self.section_of.get(&id) {
            return i;
        }
        let loc = self.model.loc(id);
        // A definition by its key, else by its title, else (a branch) by its JSON pointer.
        let name = defs_key(&loc.pointer)
            .or_else(|| self.model.node(id).schema().and_then(|s| s.title.clone()))
            .unwrap_or_else(|| if loc.pointer.is_empty() { "definition".to_owned() } else { loc.pointer.clone() });
        let mut anchor = slug(&name);
        let base = anchor.clone();
        let mut n = 1;
        while self.sections.iter().any(|s| s.anchor == anchor) || anchor == "fields" {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        self.sections.push(Section { id, name, anchor });
        self.section_of.insert(id, self.sections.len() - 1);
        self.sections.len() - 1
    }

    /// The parts of the schema `id`, following references to targets without a section.
    fn parts(&mut self, id: SchemaId) -> Parts {
        let mut out = Parts::default();
        let mut todo = vec![id];
        let mut seen = HashSet::new();
        while let Some(id) = todo.pop() {
            if !seen.insert(id) {
                continue;
            }
            let schema = match &self.model.node(id).body {
                Body::Object(schema) => schema,
                Body::Bool(false) => {
                    out.never = true;
                    continue;
                }
                Body::Bool(true) | Body::Invalid => continue,
            };
            out.schemas.push(id);
            let mut next = Vec::new();
            for (_, reference) in schema.refs() {
                let Ok(target) = reference.target() else { continue };
                if target.id == self.root {
                    out.link_root = true;
                } else if self.sectioned.contains(&target.id) {
                    out.link = Some(self.section(target.id));
                } else {
                    next.push(target.id);
                }
            }
            next.extend(schema.all_of.iter().flatten().copied());
            todo.extend(next.into_iter().rev());
        }
        out
    }

    fn schemas<'p>(&self, parts: &'p Parts) -> impl Iterator<Item = &'m Schema> + 'p
    where
        'm: 'p,
    {
        let model = self.model;
        parts.schemas.iter().filter_map(move |id| model.node(*id).schema())
    }

    /// The table of the object (or other value) `id` documents, with its notes below.
    fn table(&mut self, id: SchemaId, path: &str) -> String {
        let mut rows = Vec::new();
        let mut notes = Vec::new();
        let top = self.parts(id);
        let intro = self.intro(&top);
        self.children(&top, path, &mut rows, &mut notes);
        self.notes(&top, path, &mut notes);
        let mut out = String::new();
        if let Some(intro) = intro {
            let _ = writeln!(out, "{intro}\n");
        }
        if !rows.is_empty() {
            out.push_str("| Field | Type | Required | Rules | Description |\n|---|---|---|---|---|\n");
            for row in &rows {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {} |",
                    escape(&row.field),
                    row.ty,
                    if row.required { "yes" } else { "" },
                    escape(&row.rules.join("; ")),
                    row.description.as_deref().map(escape).unwrap_or_default(),
                );
            }
        }
        if !notes.is_empty() {
            out.push('\n');
            for note in notes {
                let _ = writeln!(out, "- {note}");
            }
        }
        out
    }

    /// The sentence above a table: what the documented value is, when more than an object
    /// with no rules of its own.
    fn intro(&mut self, parts: &Parts) -> Option<String> {
        let ty = self.type_words(parts);
        let rules: Vec<String> = self.schemas(parts).flat_map(|s| words::rules(s, self.model)).collect();
        if ty == "object" && rules.is_empty() {
            return None;
        }
        let mut sentence = format!("A value of type {ty}");
        if !rules.is_empty() {
            let _ = write!(sentence, ": {}", escape(&rules.join("; ")));
        }
        sentence.push('.');
        Some(sentence)
    }

    /// The rows below a value: its properties, items and extra properties, depth first.
    fn children(&mut self, parts: &Parts, path: &str, rows: &mut Vec<Row>, notes: &mut Vec<String>) {
        // Explicit work list: the schema's nesting, not the stack, decides how deep rows go.
        let mut todo: Vec<Pending> = self.pending_children(parts, path);
        todo.reverse();
        while let Some(pending) = todo.pop() {
            let mut parts = Parts::default();
            for id in &pending.ids {
                let more = self.parts(*id);
                for schema in more.schemas {
                    if !parts.schemas.contains(&schema) {
                        parts.schemas.push(schema);
                    }
                }
                parts.link = parts.link.or(more.link);
                parts.link_root |= more.link_root;
                parts.never |= more.never;
            }
            let row = self.row(&pending.field, &parts, pending.required);
            let is_item_object = pending.field.ends_with(']') && row.ty == "object";
            if pending.shown || !row.rules.is_empty() || row.description.is_some() {
                if !is_item_object {
                    rows.push(row);
                } else if !row.rules.is_empty() {
                    // An array's object items have no row of their own: their fields do.
                    notes.push(format!("{}: {}", code(&pending.field), escape(&row.rules.join("; "))));
                }
            }
            self.notes(&parts, &pending.field, notes);
            let mut below = self.pending_children(&parts, &pending.field);
            below.reverse();
            todo.extend(below);
        }
    }

    /// The children of a value to document: properties, extra and pattern properties, items.
    fn pending_children(&mut self, parts: &Parts, path: &str) -> Vec<Pending> {
        if (parts.link.is_some() || parts.link_root)
            && parts.schemas.iter().all(|id| self.model.node(*id).schema().is_some_and(|s| s.properties.is_none()))
        {
            return Vec::new();
        }
        let join = |name: &str| if path.is_empty() { name.to_owned() } else { format!("{path}.{name}") };
        let mut out: Vec<Pending> = Vec::new();
        let required: Vec<String> = self.schemas(parts).flat_map(|s| s.required.iter().flatten().cloned()).collect();
        let schemas: Vec<&Schema> = self.schemas(parts).collect();
        for schema in &schemas {
            for (name, id) in schema.properties.iter().flatten() {
                match out.iter_mut().find(|p| p.name == *name) {
                    Some(pending) => pending.ids.push(*id),
                    None => out.push(Pending {
                        name: name.clone(),
                        field: join(name),
                        ids: vec![*id],
                        required: required.contains(name),
                        shown: true,
                    }),
                }
            }
        }
        for schema in &schemas {
            for (pattern, id) in schema.pattern_properties.iter().flatten() {
                let name = format!("{{{pattern}}}");
                out.push(Pending { field: join(&name), name, ids: vec![*id], required: false, shown: true });
            }
            if let Some(extra) = schema.additional_properties
                && self.model.node(extra).boolean().is_none()
            {
                out.push(Pending { name: "*".to_owned(), field: join("*"), ids: vec![extra], required: false, shown: true });
            }
            let draft = parts.schemas.first().map(|id| self.model.node(*id).draft).unwrap_or(crate::Draft::Draft2020_12);
            if let Some(tuple) = schema.tuple(draft) {
                for (i, id) in tuple.prefix.iter().enumerate() {
                    out.push(Pending {
                        name: format!("[{i}]"),
                        field: format!("{path}[{i}]"),
                        ids: vec![*id],
                        required: false,
                        shown: true,
                    });
                }
                if let Some(rest) = tuple.rest
                    && self.model.node(rest).boolean().is_none()
                {
                    out.push(Pending { name: "[]".to_owned(), field: format!("{path}[]"), ids: vec![rest], required: false, shown: false });
                }
            } else if let Some(items) = schema.items_schema()
                && self.model.node(items).boolean().is_none()
            {
                out.push(Pending { name: "[]".to_owned(), field: format!("{path}[]"), ids: vec![items], required: false, shown: false });
            }
        }
        out
    }

    fn row(&mut self, field: &str, parts: &Parts, required: bool) -> Row {
        let ty = self.type_words(parts);
        let rules = self.schemas(parts).flat_map(|s| words::rules(s, self.model)).collect();
        let description = self.schemas(parts).find_map(|s| s.description.clone().or_else(|| s.title.clone()));
        Row { field: field.to_owned(), ty, required, rules, description }
    }

    /// The Type cell: a value, a set of kinds, `array of …`, or a link to a section.
    fn type_words(&mut self, parts: &Parts) -> String {
        if parts.never {
            return "nothing (no value is valid)".to_owned();
        }
        let mut values: Option<Vec<serde_json::Value>> = None;
        let mut kinds: Option<KindSet> = None;
        for schema in self.schemas(parts) {
            if let Some(allowed) = schema.allowed_values() {
                values = Some(match values {
                    Some(previous) => previous.into_iter().filter(|v| allowed.contains(v)).collect(),
                    None => allowed,
                });
            }
            if let Some(declared) = schema.types {
                kinds = Some(kinds.map_or(declared, |k| k.intersect(declared)));
            }
        }
        if let Some(values) = values {
            return escape(&words::values_in_words(&values));
        }
        let link = parts.link.map(|i| {
            let section = &self.sections[i];
            format!("[{}](#{})", escape(&section.name), section.anchor)
        });
        let link = link.or_else(|| parts.link_root.then(|| "[the document](#fields)".to_owned()));
        let kinds = kinds.or_else(|| self.implied_kinds(parts, 0));
        let Some(kinds) = kinds else { return link.unwrap_or_else(|| "any".to_owned()) };
        if let Some(link) = link
            && kinds.without(Kind::Null).single() == Some(Kind::Object)
        {
            return if kinds.contains(Kind::Null) { format!("{link} or null") } else { link };
        }
        if kinds.without(Kind::Null).single() == Some(Kind::Array) {
            let items = self.item_words(parts);
            let null = if kinds.contains(Kind::Null) { " or null" } else { "" };
            return match items {
                Some(items) => format!("array of {items}{null}"),
                None => format!("array{null}"),
            };
        }
        words::kinds_in_words(kinds, false)
    }

    /// The kinds a schema without `type` takes, from the keywords it has (`None`: any, also
    /// past a depth of branches within branches no real schema has).
    fn implied_kinds(&mut self, parts: &Parts, depth: usize) -> Option<KindSet> {
        if depth > 32 {
            return None;
        }
        let schemas: Vec<&Schema> = self.schemas(parts).collect();
        if schemas.iter().any(|s| s.properties.is_some() || s.required.is_some() || s.additional_properties.is_some()) {
            return Some(KindSet::of(Kind::Object));
        }
        if schemas.iter().any(|s| s.items.is_some() || s.prefix_items.is_some()) {
            return Some(KindSet::of(Kind::Array));
        }
        let branches: Vec<SchemaId> = schemas.iter().flat_map(|s| s.one_of.iter().chain(s.any_of.iter()).flatten().copied()).collect();
        if branches.is_empty() {
            return None;
        }
        let mut union = KindSet::EMPTY;
        for branch in branches {
            let parts = self.parts(branch);
            let kinds = self.schemas(&parts).find_map(|s| s.types).or_else(|| self.implied_kinds(&parts, depth + 1));
            union = union.union(kinds?);
        }
        Some(union)
    }

    /// `objects`, `strings`, `[task](#task)` for the items of an array.
    fn item_words(&mut self, parts: &Parts) -> Option<String> {
        let items = self.schemas(parts).find_map(Schema::items_schema)?;
        let item_parts = self.parts(items);
        let only_ref = self.schemas(&item_parts).all(|s| s.types.is_none() && s.properties.is_none());
        if let Some(i) = item_parts.link
            && only_ref
        {
            let section = &self.sections[i];
            return Some(format!("[{}](#{})", escape(&section.name), section.anchor));
        }
        if item_parts.link_root && only_ref {
            return Some("[the document](#fields)".to_owned());
        }
        let values = self.schemas(&item_parts).find_map(Schema::allowed_values);
        if let Some(values) = values {
            return Some(escape(&words::values_in_words(&values)));
        }
        let kinds = self.schemas(&item_parts).find_map(|s| s.types).or_else(|| self.implied_kinds(&item_parts, 0))?;
        Some(words::kinds_in_words(kinds, true))
    }

    /// Notes for the keywords no column holds: branches, conditions, negations, dependencies.
    fn notes(&mut self, parts: &Parts, path: &str, notes: &mut Vec<String>) {
        let subject = if path.is_empty() { "The document".to_owned() } else { code(path) };
        let schemas: Vec<&Schema> = self.schemas(parts).collect();
        for schema in schemas {
            for (list, how) in [(&schema.one_of, "is exactly one of"), (&schema.any_of, "is at least one of")] {
                let Some(list) = list else { continue };
                let branches: Vec<String> = list.iter().enumerate().map(|(i, b)| format!("({}) {}", i + 1, self.summary(*b))).collect();
                notes.push(format!("{subject} {how}: {}", branches.join("; ")));
            }
            if let Some(not) = schema.not {
                notes.push(format!("{subject} must not be: {}", self.summary(not)));
            }
            if let Some(cond) = schema.if_ {
                let mut note = format!("{subject}: if it is {}", self.summary(cond));
                if let Some(then) = schema.then {
                    let _ = write!(note, ", then it must be {}", self.summary(then));
                }
                if let Some(otherwise) = schema.else_ {
                    let _ = write!(note, "; otherwise it must be {}", self.summary(otherwise));
                }
                notes.push(note);
            }
            let dependent = schema.dependent_schemas.iter().flatten().map(|(n, id)| (n.clone(), *id));
            let legacy = schema.dependencies.iter().flatten().filter_map(|(n, d)| match d {
                Dependency::Schema(id) => Some((n.clone(), *id)),
                Dependency::Names(_) => None,
            });
            let all: Vec<(String, SchemaId)> = dependent.chain(legacy).collect();
            for (name, id) in all {
                notes.push(format!("{subject}: with {}, it must also be {}", code(&name), self.summary(id)));
            }
        }
    }

    /// A subschema in a few words, escaped: its type and rules (a link for a section). A
    /// branch that says more than a few words can (fields, items, branches of its own) gets a
    /// section, and the words begin with a link to it.
    fn summary(&mut self, id: SchemaId) -> String {
        let parts = self.parts(id);
        let link = if parts.link.is_none() && !parts.link_root && self.says_more(&parts) {
            let i = self.section(id);
            let section = &self.sections[i];
            Some(format!("[{}](#{}): ", escape(&section.name), section.anchor))
        } else {
            None
        };
        let ty = link.unwrap_or_default() + &self.type_words(&parts);
        let rules: Vec<String> = self.schemas(&parts).flat_map(|s| words::rules(s, self.model)).collect();
        let required: Vec<String> = self.schemas(&parts).flat_map(|s| s.required.iter().flatten().cloned()).collect();
        let properties: Vec<String> = self.schemas(&parts).flat_map(|s| s.properties.iter().flatten().map(|(n, _)| n.clone())).collect();
        let mut words = vec![ty];
        if !properties.is_empty() {
            words.push(format!("with {}", escape(&properties.join(", "))));
        }
        if !required.is_empty() {
            words.push(format!("requiring {}", escape(&required.join(", "))));
        }
        if !rules.is_empty() {
            words.push(escape(&rules.join("; ")));
        }
        words.join(", ")
    }
}

impl Writer<'_> {
    /// Whether the schemas of `parts` hold what only a table shows: properties, items, or
    /// notes (branches, negations, conditions, dependent schemas) of their own.
    fn says_more(&self, parts: &Parts) -> bool {
        self.schemas(parts).any(|s| {
            s.properties.as_ref().is_some_and(|p| !p.is_empty())
                || s.pattern_properties.as_ref().is_some_and(|p| !p.is_empty())
                || s.items.is_some()
                || s.prefix_items.is_some()
                || s.one_of.is_some()
                || s.any_of.is_some()
                || s.not.is_some()
                || s.if_.is_some()
                || s.dependent_schemas.as_ref().is_some_and(|d| !d.is_empty())
                || s.dependencies.iter().flatten().any(|(_, d)| matches!(d, Dependency::Schema(_)))
        })
    }
}

/// A property (or item) whose row is still to be written.
#[derive(Debug)]
struct Pending {
    name: String,
    field: String,
    ids: Vec<SchemaId>,
    required: bool,
    /// Whether it gets a row even without rules or description (properties do; the items of
    /// an array only when they say more than the array's Type cell).
    shown: bool,
}

/// The reference targets reached from `root` that get a section: referenced from two or
/// more places, or from inside themselves.
fn sectioned(model: &Model, root: SchemaId) -> HashSet<SchemaId> {
    let mut referenced: HashMap<SchemaId, usize> = HashMap::new();
    let mut seen = HashSet::new();
    let mut todo = vec![root];
    while let Some(id) = todo.pop() {
        if !seen.insert(id) {
            continue;
        }
        for target in ref_targets(model, id) {
            *referenced.entry(target).or_default() += 1;
            todo.push(target);
        }
        todo.extend(children(model, id));
    }
    let mut out = HashSet::new();
    for (&target, &count) in &referenced {
        if count > 1 || reaches(model, target, target) {
            out.insert(target);
        }
    }
    out
}

fn ref_targets(model: &Model, id: SchemaId) -> Vec<SchemaId> {
    let Some(schema) = model.node(id).schema() else { return Vec::new() };
    schema.refs().filter_map(|(_, r)| r.target().ok().map(|t| t.id)).collect()
}

/// The subschemas of `id` in schema positions that apply (not `$defs`).
fn children(model: &Model, id: SchemaId) -> Vec<SchemaId> {
    let Some(s) = model.node(id).schema() else { return Vec::new() };
    let mut out: Vec<SchemaId> = Vec::new();
    for list in [&s.all_of, &s.any_of, &s.one_of, &s.prefix_items] {
        out.extend(list.iter().flatten());
    }
    for map in [&s.properties, &s.pattern_properties, &s.dependent_schemas] {
        out.extend(map.iter().flatten().map(|(_, id)| *id));
    }
    for (_, dependency) in s.dependencies.iter().flatten() {
        if let Dependency::Schema(id) = dependency {
            out.push(*id);
        }
    }
    match &s.items {
        Some(crate::schema::Items::Schema(id)) => out.push(*id),
        Some(crate::schema::Items::Tuple(list)) => out.extend(list),
        None => {}
    }
    let single = [
        s.additional_items,
        s.contains,
        s.additional_properties,
        s.property_names,
        s.unevaluated_items,
        s.unevaluated_properties,
        s.not,
        s.if_,
        s.then,
        s.else_,
    ];
    out.extend(single.into_iter().flatten());
    out
}

/// Whether `goal` is reachable from the subschemas and references of `from`.
fn reaches(model: &Model, from: SchemaId, goal: SchemaId) -> bool {
    let mut seen = HashSet::new();
    let mut todo: Vec<SchemaId> = children(model, from).into_iter().chain(ref_targets(model, from)).collect();
    while let Some(id) = todo.pop() {
        if id == goal {
            return true;
        }
        if seen.insert(id) {
            todo.extend(children(model, id));
            todo.extend(ref_targets(model, id));
        }
    }
    false
}

/// `text` as a code span: as written, in enough backticks that none inside ends it.
fn code(text: &str) -> String {
    let ticks = "`".repeat(longest_backtick_run(text) + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') { " " } else { "" };
    format!("{ticks}{pad}{text}{pad}{ticks}")
}

/// A heading's anchor as Markdown renderers make it: lowercase, spaces as `-`, other
/// punctuation dropped.
fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_alphanumeric() || c == '-' || c == '_' {
            out.extend(c.to_lowercase());
        } else if c == ' ' {
            out.push('-');
        }
    }
    if out.is_empty() { "definition".to_owned() } else { out }
}

#[cfg(test)]
mod tests;
