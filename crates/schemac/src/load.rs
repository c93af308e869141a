//! Reading schema files: JSON parsing with line:column errors, the draft of each document,
//! and the transitive closure of files reachable through `--schema-dir`/`--map`.
//! This is the only phase that does IO; it never touches the network.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

use serde_json::Value;
use sha2::{Digest, Sha256};
use url::Url;

use crate::diag::Diagnostic;
use crate::ir::DocId;
use crate::locate;
use crate::resolve::{Index, Loc, RefSite, kind_name, percent_decode, subschemas, without_fragment};
use crate::syntax::{self, Syntax};
use crate::{Draft, Input, SchemaSource, UrlMap, metaschemas};

/// One loaded schema file.
#[derive(Clone, Debug)]
pub struct Document {
    pub id: DocId,
    /// Where it was read from.
    pub path: PathBuf,
    /// How errors and generated headers name it (e.g. `schemas/madoo/attempts-report.v1.json`).
    pub display: String,
    /// The file's text (without a byte order mark), for line:column lookups.
    pub text: String,
    /// Lowercase hex SHA-256 of the file's bytes.
    pub sha256: String,
    /// The parsed text. Two changes: a document loaded through `--map` that has no `$id` gets
    /// the URL it was mapped from as its `$id`, because that URL is its base URI; and where its
    /// `$schema` is a metaschema that leaves out a vocabulary, that vocabulary's keywords are
    /// removed, as they are only annotations there.
    pub json: Value,
    /// From `$schema`, else the configured default.
    pub draft: Draft,
    /// The Rust module path its types are emitted into, e.g. `["madoo", "attempts_report_v1"]`.
    /// Input schemas take it from [`crate::SchemaSource::module`]; documents loaded only to
    /// resolve refs derive it from their file name, unique among all documents.
    pub module: Vec<String>,
    /// True for the input schemas (whose root gets a type even when nothing refers to it).
    pub is_input: bool,
    /// The configured name of the root type.
    pub root_name: Option<String>,
    /// Other URIs the document answers to: the URL it was loaded for (through `--map`, or as an
    /// embedded metaschema) when that is not its `$id`.
    pub aliases: Vec<String>,
}

/// Reads every input schema and every document they reference through the catalog.
///
/// Documents come in a deterministic order: the inputs as given, then the catalog directories'
/// files (sorted), then the files `--map` and relative file refs reach, in the order of the
/// refs. Every problem in every file is reported, not just the first.
pub fn load(input: &Input, default_draft: Draft) -> Result<Vec<Document>, Vec<Diagnostic>> {
    let mut loader = Loader::new(default_draft);
    for source in &input.schemas {
        loader.input(source);
    }
    for dir in &input.catalog_dirs {
        loader.catalog(dir);
    }
    loader.follow_refs(&input.maps);
    loader.settle_metaschemas();
    loader.name_modules();
    if loader.diagnostics.is_empty() { Ok(loader.docs) } else { Err(loader.diagnostics) }
}

struct Loader {
    default_draft: Draft,
    docs: Vec<Document>,
    diagnostics: Vec<Diagnostic>,
    /// Canonical path → display of every file read, so none is read twice.
    seen: HashMap<PathBuf, String>,
    cwd: Option<PathBuf>,
    /// Documents whose `$schema` names no draft, with that URI: a metaschema to load, which
    /// settles their draft and vocabularies.
    custom: Vec<(DocId, String)>,
}

/// Where a file comes from: what it is called and whether it is an input.
struct Origin {
    display: String,
    module: Vec<String>,
    is_input: bool,
    root_name: Option<String>,
}

impl Loader {
    fn new(default_draft: Draft) -> Loader {
        Loader {
            default_draft,
            docs: Vec::new(),
            diagnostics: Vec::new(),
            seen: HashMap::new(),
            cwd: std::env::current_dir().ok(),
            custom: Vec::new(),
        }
    }

    fn input(&mut self, source: &SchemaSource) {
        let origin =
            Origin { display: source.display.clone(), module: source.module.clone(), is_input: true, root_name: source.root_name.clone() };
        self.read(&source.path, origin);
    }

    /// Loads every `*.json` below `dir`, skipping files already loaded.
    fn catalog(&mut self, dir: &Path) {
        let mut files = Vec::new();
        let mut visited = HashSet::new();
        self.json_files(dir, &mut files, &mut visited);
        files.sort();
        for file in files {
            let origin = self.dependency(&file);
            self.read(&file, origin);
        }
    }

    fn json_files(&mut self, dir: &Path, files: &mut Vec<PathBuf>, visited: &mut HashSet<PathBuf>) {
        // Symlinked directories may form a cycle; each real directory is walked once.
        if let Ok(canonical) = std::fs::canonicalize(dir)
            && !visited.insert(canonical)
        {
            return;
        }
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(err) => {
                let message = format!("cannot read the schema directory {}: {err}", self.display_path(dir));
                self.diagnostics.push(Diagnostic::new("io", self.display_path(dir), "", message));
                return;
            }
        };
        for entry in entries {
            let path = match entry {
                Ok(entry) => entry.path(),
                Err(err) => {
                    let message = format!("cannot list the schema directory {}: {err}", self.display_path(dir));
                    self.diagnostics.push(Diagnostic::new("io", self.display_path(dir), "", message));
                    continue;
                }
            };
            // Follows symlinks, so a linked file or directory counts as what it points to.
            match std::fs::metadata(&path) {
                Ok(meta) if meta.is_dir() => self.json_files(&path, files, visited),
                Ok(meta) if meta.is_file() && syntax::is_schema_file(&path) => files.push(path),
                _ => {}
            }
        }
    }

    /// Reads, parses and checks one file; problems become diagnostics. Returns whether a new
    /// document was added.
    fn read(&mut self, path: &Path, origin: Origin) -> bool {
        let canonical = match std::fs::canonicalize(path) {
            Ok(canonical) => canonical,
            Err(err) => {
                let message = format!("cannot read {}: {err}", path.display());
                self.diagnostics.push(Diagnostic::new("io", origin.display, "", message));
                return false;
            }
        };
        if let Some(first) = self.seen.get(&canonical) {
            if origin.is_input {
                let message = format!("this schema is listed twice (also as {first})");
                self.diagnostics.push(Diagnostic::new("duplicate-input", origin.display, "", message));
            }
            return false;
        }
        self.seen.insert(canonical, origin.display.clone());
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(err) => {
                let message = format!("cannot read {}: {err}", path.display());
                self.diagnostics.push(Diagnostic::new("io", origin.display, "", message));
                return false;
            }
        };
        let sha256 = Sha256::digest(&bytes).iter().map(|byte| format!("{byte:02x}")).collect();
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(err) => {
                let valid = err.utf8_error().valid_up_to();
                let (line, column) = locate::line_column(&String::from_utf8_lossy(err.as_bytes()), valid);
                let message = format!("the file is not UTF-8 (invalid byte at offset {valid})");
                let diagnostic = Diagnostic::new("invalid-json", origin.display, "", message).at(line, column);
                self.diagnostics.push(diagnostic.with_hint("JSON text must be encoded as UTF-8"));
                return false;
            }
        };
        // serde_json rejects a byte order mark, which some editors write.
        let text = text.strip_prefix('\u{feff}').map(str::to_owned).unwrap_or(text);
        let (json, text) = match parse(&origin.display, text, Syntax::of(path)) {
            Ok(parsed) => parsed,
            Err(diagnostic) => {
                self.diagnostics.push(*diagnostic);
                return false;
            }
        };
        self.add(path.to_path_buf(), origin, text, sha256, json)
    }

    /// Adds a parsed document; `false` (with a diagnostic) when it is not a schema.
    fn add(&mut self, path: PathBuf, origin: Origin, text: String, sha256: String, json: Value) -> bool {
        let id = DocId(self.docs.len());
        let draft = match self.draft(&json, &origin.display, &text) {
            Some(Declared::Draft(draft)) => draft,
            // Settled by `settle_metaschemas` once the metaschema is loaded.
            Some(Declared::Metaschema(uri)) => {
                self.custom.push((id, uri));
                self.default_draft
            }
            None => return false,
        };
        let Origin { display, module, is_input, root_name } = origin;
        let aliases = Vec::new();
        self.docs.push(Document { id, path, display, text, sha256, json, draft, module, is_input, root_name, aliases });
        true
    }

    /// Adds the embedded metaschema `meta`, which a ref names as `uri`.
    fn embedded(&mut self, meta: &metaschemas::Metaschema, uri: &Url) -> bool {
        let json: Value = match serde_json::from_str(meta.text) {
            Ok(json) => json,
            Err(err) => {
                self.diagnostics.push(invalid_json(meta.uri, meta.text, &err));
                return false;
            }
        };
        let sha256 = Sha256::digest(meta.text.as_bytes()).iter().map(|byte| format!("{byte:02x}")).collect();
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("metaschemas").join(meta.file);
        let origin = Origin { display: meta.uri.to_owned(), module: Vec::new(), is_input: false, root_name: None };
        if !self.add(path, origin, meta.text.to_owned(), sha256, json) {
            return false;
        }
        if let Some(doc) = self.docs.last_mut() {
            doc.aliases.push(uri.to_string());
        }
        true
    }

    /// The document's draft, or the metaschema that decides it; `None` (with a diagnostic)
    /// when it is not a schema or its `$schema` is not a URI.
    fn draft(&mut self, json: &Value, display: &str, text: &str) -> Option<Declared> {
        let schema = match json {
            Value::Bool(_) => return Some(Declared::Draft(self.default_draft)),
            Value::Object(schema) => schema,
            other => {
                let message = format!("the document is {}, but a schema is an object or a boolean", kind_name(other));
                let mut diagnostic = Diagnostic::new("not-a-schema", display, "", message)
                    .with_hint("a JSON Schema document is an object like `{\"type\": \"object\", ...}` (or `true`/`false`)");
                if let Some((line, column)) = locate::position(text, "") {
                    diagnostic = diagnostic.at(line, column);
                }
                self.diagnostics.push(diagnostic);
                return None;
            }
        };
        let Some(uri) = schema.get("$schema") else { return Some(Declared::Draft(self.default_draft)) };
        if let Some(draft) = uri.as_str().and_then(Draft::from_schema_uri) {
            return Some(Declared::Draft(draft));
        }
        if let Some(uri) = uri.as_str().and_then(|u| Url::parse(u).ok()) {
            return Some(Declared::Metaschema(uri.to_string()));
        }
        let message = match uri.as_str() {
            Some(uri) => format!("unknown `$schema` {uri:?}: it is not an absolute URI"),
            None => format!("`$schema` is {}, but it must be a string URI", kind_name(uri)),
        };
        self.diagnostics.push(unknown_draft(display, text, message));
        None
    }

    /// Settles the draft of each document whose `$schema` names a metaschema document: that
    /// metaschema's own draft, with the keywords of the vocabularies its `$vocabulary` leaves
    /// out removed. A metaschema that is not loaded, or requires a vocabulary schemac does not
    /// know, is an error.
    fn settle_metaschemas(&mut self) {
        let (index, _) = Index::build(&self.docs);
        // A metaschema may have a custom `$schema` of its own: settle those first (a chain is
        // short; a loop stays at the default draft).
        let mut pending = std::mem::take(&mut self.custom);
        for _ in 0..pending.len() {
            let waiting: Vec<DocId> = pending.iter().map(|(doc, _)| *doc).collect();
            pending.retain(|(doc, uri)| {
                let meta = Url::parse(uri).ok().and_then(|u| index.resource(without_fragment(&u).as_str()).cloned());
                let Some(meta) = meta.filter(|m| m.pointer.is_empty() && m.doc != *doc) else { return true };
                let Some(meta_doc) = self.docs.get(meta.doc.0) else { return true };
                // Not settled yet (a custom metaschema of a custom metaschema): next round.
                if waiting.contains(&meta.doc) {
                    return true;
                }
                let draft = meta_doc.draft;
                let vocabularies = meta_doc.json.get("$vocabulary").and_then(Value::as_object).cloned();
                self.docs[doc.0].draft = draft;
                if let Some(vocabularies) = vocabularies
                    && draft >= Draft::Draft2019_09
                {
                    match unused_keywords(&vocabularies) {
                        Ok(unused) => strip_keywords(&mut self.docs[doc.0].json, &unused),
                        Err(unknown) => {
                            let message = format!(
                                "`$schema` {uri} requires the vocabulary {unknown}, which schemac does not know, so it cannot \
                                 validate the way this schema means"
                            );
                            let document = &self.docs[doc.0];
                            let diagnostic = unknown_draft(&document.display, &document.text, message).with_hint(
                                "schemac knows the 2019-09 and 2020-12 vocabularies; a metaschema may list others only as \
                                 optional (`false`), and they are ignored",
                            );
                            self.diagnostics.push(Diagnostic { code: "unknown-vocabulary", ..diagnostic });
                        }
                    }
                }
                false
            });
            if pending.is_empty() {
                break;
            }
        }
        for (doc, uri) in pending {
            let Some(document) = self.docs.get(doc.0) else { continue };
            let message = format!("unknown `$schema` {uri:?}: it names no draft and no loaded metaschema");
            let diagnostic = unknown_draft(&document.display, &document.text, message);
            self.diagnostics.push(diagnostic);
        }
    }

    /// Loads the documents that refs name but no loaded document is: files under a `--map`
    /// prefix, and existing files named by relative file refs. Repeats until nothing new comes
    /// in, since each new document may have refs of its own.
    fn follow_refs(&mut self, maps: &[UrlMap]) {
        let mut tried: BTreeSet<String> = BTreeSet::new();
        loop {
            let (index, _) = Index::build(&self.docs);
            let mut added = false;
            // A `$schema` that names a metaschema document is loaded like a ref.
            let metaschemas = self.custom.iter().map(|(doc, uri)| RefSite {
                at: Loc { doc: *doc, pointer: "/$schema".to_owned() },
                reference: uri.clone(),
                target: Url::parse(uri).ok(),
            });
            let sites: Vec<RefSite> = metaschemas.collect();
            for site in index.refs.iter().chain(&sites) {
                let Some(target) = &site.target else { continue };
                let document = without_fragment(target);
                if index.knows(document.as_str()) || !tried.insert(document.to_string()) {
                    continue;
                }
                if let Some((map, rest)) = longest_match(maps, document.as_str()) {
                    added |= self.load_mapped(site, target, &document, map, rest);
                } else if let Some(meta) = metaschemas::find(document.as_str()) {
                    added |= self.embedded(meta, &document);
                } else if document.scheme() == "file"
                    && let Ok(path) = document.to_file_path()
                    && path.is_file()
                {
                    let origin = self.dependency(&path);
                    added |= self.read(&path, origin);
                }
            }
            if !added {
                break;
            }
        }
    }

    /// Loads the file `map` maps `document` to; `rest` is the URL after the prefix.
    fn load_mapped(&mut self, site: &RefSite, target: &Url, document: &Url, map: &UrlMap, rest: &str) -> bool {
        let path = match mapped_path(&map.dir, rest) {
            Ok(path) => syntax::with_schema_extension(path),
            Err(why) => {
                let message = format!(
                    "`{}` resolves to {target}, which --map {}={} cannot map: {why}",
                    site.reference,
                    map.prefix,
                    map.dir.display()
                );
                let diagnostic = self.site_error(site, message);
                self.diagnostics.push(diagnostic.with_hint("refs under a mapped prefix must name a file below the directory"));
                return false;
            }
        };
        if !path.is_file() {
            let message = format!(
                "`{}` resolves to {target}, which --map {}={} maps to {}, but that file does not exist",
                site.reference,
                map.prefix,
                map.dir.display(),
                path.display()
            );
            let diagnostic = self.site_error(site, message);
            self.diagnostics.push(
                diagnostic
                    .with_hint("schemac never fetches from the network: put the schema file there, or fix the ref or the --map directory"),
            );
            return false;
        }
        let origin = self.dependency(&path);
        if !self.read(&path, origin) {
            return false;
        }
        let Some(doc) = self.docs.last_mut() else { return false };
        let id_keyword = if doc.draft == Draft::Draft4 { "id" } else { "$id" };
        if let Value::Object(schema) = &mut doc.json
            && !schema.contains_key(id_keyword)
        {
            schema.insert(id_keyword.to_owned(), Value::String(document.to_string()));
        }
        // A mapped file whose own `$id` differs still answers to the URL it was mapped from.
        doc.aliases.push(document.to_string());
        true
    }

    /// An `unresolved-ref` diagnostic at a ref's value.
    fn site_error(&self, site: &RefSite, message: String) -> Diagnostic {
        let Some(doc) = self.docs.get(site.at.doc.0) else {
            return Diagnostic::new("unresolved-ref", "", site.at.pointer.clone(), message);
        };
        let diagnostic = Diagnostic::new("unresolved-ref", doc.display.clone(), site.at.pointer.clone(), message);
        match locate::position(&doc.text, &site.at.pointer) {
            Some((line, column)) => diagnostic.at(line, column),
            None => diagnostic,
        }
    }

    /// The origin of a file loaded only to resolve refs; its module is named later.
    fn dependency(&self, path: &Path) -> Origin {
        Origin { display: self.display_path(path), module: Vec::new(), is_input: false, root_name: None }
    }

    /// `path` relative to the current directory when it is below it, else as it is.
    fn display_path(&self, path: &Path) -> String {
        let relative = self.cwd.as_deref().and_then(|cwd| path.strip_prefix(cwd).ok());
        relative.unwrap_or(path).display().to_string()
    }

    /// Gives every non-input document a module named after its file, unique among all module
    /// paths (and their parents, which are modules too), in document order.
    fn name_modules(&mut self) {
        let mut taken: HashSet<Vec<String>> = HashSet::new();
        for doc in self.docs.iter().filter(|doc| doc.is_input) {
            for end in 1..=doc.module.len() {
                taken.insert(doc.module[..end].to_vec());
            }
        }
        for doc in self.docs.iter_mut().filter(|doc| !doc.is_input) {
            let stem = doc.path.file_stem().map(|stem| stem.to_string_lossy().into_owned()).unwrap_or_default();
            let base = module_name(&stem);
            let mut candidate = base.clone();
            let mut n = 2;
            while taken.contains(&vec![candidate.clone()]) {
                candidate = format!("{base}_{n}");
                n += 1;
            }
            taken.insert(vec![candidate.clone()]);
            doc.module = vec![candidate];
        }
    }
}

/// What a document's `$schema` says: a draft, or a metaschema document (by URI) that decides it.
enum Declared {
    Draft(Draft),
    Metaschema(String),
}

/// An `unknown-draft` diagnostic at the document's `$schema`.
fn unknown_draft(display: &str, text: &str, message: String) -> Diagnostic {
    let hint = "schemac knows https://json-schema.org/draft/2020-12/schema, .../draft/2019-09/schema and \
                http://json-schema.org/draft-07/schema# (also -06, -04), and metaschemas it can load (--schema-dir, --map); \
                or remove `$schema` and pick the draft with --default-draft";
    let diagnostic = Diagnostic::new("unknown-draft", display, "/$schema", message).with_hint(hint);
    match locate::position(text, "/$schema") {
        Some((line, column)) => diagnostic.at(line, column),
        None => diagnostic,
    }
}

/// The keywords of the known vocabularies a metaschema's `$vocabulary` leaves out; `Err` with
/// the URI of a required vocabulary schemac does not know.
fn unused_keywords(vocabularies: &serde_json::Map<String, Value>) -> Result<Vec<&'static str>, String> {
    for (uri, required) in vocabularies {
        if metaschemas::vocabulary_keywords(uri).is_none() && required.as_bool() != Some(false) {
            return Err(uri.clone());
        }
    }
    let used: Vec<&'static str> = vocabularies.keys().filter_map(|uri| metaschemas::vocabulary_keywords(uri)).flatten().copied().collect();
    let all = metaschemas::REMOVABLE.iter().flat_map(|keywords| keywords.iter().copied());
    Ok(all.filter(|k| !used.contains(k)).collect())
}

/// Removes `keywords` from every schema object of `json` (never from `enum`/`const` data).
fn strip_keywords(json: &mut Value, keywords: &[&str]) {
    if keywords.is_empty() {
        return;
    }
    let mut pointers = vec![String::new()];
    let mut i = 0;
    while i < pointers.len() {
        if let Some(Value::Object(schema)) = json.pointer(&pointers[i]) {
            let children: Vec<String> = subschemas(schema).into_iter().map(|(suffix, _)| format!("{}{suffix}", pointers[i])).collect();
            pointers.extend(children);
        }
        i += 1;
    }
    // Deepest first, so a pointer still exists when it is reached.
    for pointer in pointers.iter().rev() {
        if let Some(Value::Object(schema)) = json.pointer_mut(pointer) {
            schema.retain(|keyword, _| !keywords.contains(&keyword.as_str()));
        }
    }
}

/// The `invalid-json` diagnostic for a serde_json error, at its line:column.
/// The parsing hook: a file's text as a JSON value, and the JSON text kept for it (YAML is
/// re-rendered as JSON, which the generated code embeds).
fn parse(display: &str, text: String, syntax: Syntax) -> Result<(Value, String), Box<Diagnostic>> {
    match syntax {
        Syntax::Json => match serde_json::from_str(&text) {
            Ok(json) => Ok((json, text)),
            Err(err) => Err(Box::new(invalid_json(display, &text, &err))),
        },
        Syntax::Yaml => syntax::parse_yaml(display, &text).map(|json| {
            let text = syntax::json_text(&json);
            (json, text)
        }),
    }
}

fn invalid_json(display: &str, text: &str, err: &serde_json::Error) -> Diagnostic {
    let full = err.to_string();
    // serde_json appends the position, which the diagnostic shows on its own.
    let suffix = format!(" at line {} column {}", err.line(), err.column());
    let message = full.strip_suffix(&suffix).unwrap_or(&full);
    let hint = match err.classify() {
        serde_json::error::Category::Eof => "the file ends early: look for an unclosed `{`, `[` or string",
        _ => "schemas must be strict JSON: no comments, no trailing commas, strings and keys in double quotes",
    };
    let (line, column) = locate::char_column(text, err.line(), err.column());
    Diagnostic::new("invalid-json", display, "", format!("invalid JSON: {message}")).at(line, column).with_hint(hint)
}

/// The map with the longest prefix of `url`, and the rest of `url` after it.
fn longest_match<'a, 'u>(maps: &'a [UrlMap], url: &'u str) -> Option<(&'a UrlMap, &'u str)> {
    let mut best: Option<(&UrlMap, &str, usize)> = None;
    for map in maps {
        // The URL of a ref is normalized (`HTTPS://Example.com` → `https://example.com/`); the
        // prefix matches as written or normalized the same way.
        let normalized = Url::parse(&map.prefix).ok().map(String::from);
        for prefix in std::iter::once(map.prefix.as_str()).chain(normalized.as_deref()) {
            if !prefix.is_empty()
                && let Some(rest) = url.strip_prefix(prefix)
                // `https://x.example/a` maps `https://x.example/a/b.json`, not `.../ab.json`.
                && (prefix.ends_with('/') || rest.is_empty() || rest.starts_with('/'))
                && best.is_none_or(|(_, _, len)| prefix.len() > len)
            {
                best = Some((map, rest, prefix.len()));
            }
        }
    }
    best.map(|(map, rest, _)| (map, rest))
}

/// `dir/<rest>`, with `rest`'s segments percent-decoded; never outside `dir`.
fn mapped_path(dir: &Path, rest: &str) -> Result<PathBuf, String> {
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    let mut path = dir.to_path_buf();
    let mut segments = 0;
    for segment in rest.split('/').filter(|s| !s.is_empty()) {
        let segment = percent_decode(segment);
        let mut components = Path::new(&segment).components();
        match (components.next(), components.next()) {
            (Some(Component::Normal(name)), None) => path.push(name),
            _ => return Err(format!("the path segment {segment:?} is not a plain file or directory name")),
        }
        segments += 1;
    }
    if segments == 0 {
        return Err("the URL names the directory itself, not a file in it".to_owned());
    }
    Ok(path)
}

/// A module name from a file stem: snake case, ASCII letters, digits and `_` only, never
/// starting with a digit, never a Rust keyword.
fn module_name(stem: &str) -> String {
    let snake = heck::ToSnakeCase::to_snake_case(stem);
    let mut name = String::with_capacity(snake.len());
    for c in snake.chars() {
        let c = if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' };
        // Runs of `_` come from separators next to non-ASCII characters; one is enough.
        if !(c == '_' && name.ends_with('_')) {
            name.push(c);
        }
    }
    let mut name = name.trim_matches('_').to_owned();
    if name.is_empty() {
        name = "schema".to_owned();
    }
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, '_');
    }
    if RUST_KEYWORDS.contains(&name.as_str()) {
        name.push('_');
    }
    name
}

/// Words that cannot name a module (`r#` does not help for `self`, `super`, `crate`).
const RUST_KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate", "do", "dyn", "else", "enum", "extern",
    "false", "final", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv",
    "pub", "ref", "return", "self", "static", "struct", "super", "trait", "true", "try", "type", "typeof", "unsafe", "unsized", "use",
    "virtual", "where", "while", "yield",
];

#[cfg(test)]
pub(crate) mod tests {
    use std::path::{Path, PathBuf};
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    /// A temporary directory of schema files, removed when dropped.
    pub(crate) struct Fixture {
        pub(crate) dir: PathBuf,
    }

    impl Fixture {
        pub(crate) fn new(files: &[(&str, &str)]) -> Fixture {
            static NEXT: AtomicUsize = AtomicUsize::new(0);
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let dir = std::env::temp_dir().join(format!("schemac-front-{}-{n}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            for (name, text) in files {
                let path = dir.join(name);
                std::fs::create_dir_all(path.parent().unwrap_or(&dir)).expect("create fixture dir");
                std::fs::write(&path, text).expect("write fixture file");
            }
            std::fs::create_dir_all(&dir).expect("create fixture dir");
            Fixture { dir }
        }

        pub(crate) fn path(&self, name: &str) -> PathBuf {
            self.dir.join(name)
        }

        /// An input schema displayed as `name`.
        pub(crate) fn source(&self, name: &str) -> SchemaSource {
            let stem = Path::new(name).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            SchemaSource { path: self.path(name), display: name.to_owned(), module: vec![module_name(&stem)], root_name: None }
        }

        pub(crate) fn inputs(&self, names: &[&str]) -> Input {
            Input { schemas: names.iter().map(|name| self.source(name)).collect(), ..Input::default() }
        }
    }

    impl Drop for Fixture {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }

    fn load_errors(input: &Input) -> Vec<Diagnostic> {
        match load(input, Draft::Draft2020_12) {
            Ok(docs) => panic!("expected errors, loaded {:?}", docs.iter().map(|d| &d.display).collect::<Vec<_>>()),
            Err(diagnostics) => diagnostics,
        }
    }

    fn load_ok(input: &Input) -> Vec<Document> {
        load(input, Draft::Draft2020_12).unwrap_or_else(|d| panic!("unexpected errors: {d:#?}"))
    }

    /// `file:line:column code pointer` of each diagnostic, for compact comparisons.
    fn summary(diagnostics: &[Diagnostic]) -> Vec<String> {
        diagnostics
            .iter()
            .map(|d| {
                let (line, column) = d.position.unwrap_or((0, 0));
                format!("{}:{line}:{column} {} {}", d.file, d.code, d.pointer)
            })
            .collect()
    }

    #[test]
    fn reads_inputs() {
        let fx = Fixture::new(&[
            ("a.json", "{}"),
            ("b.json", "\u{feff}{\"$schema\": \"http://json-schema.org/draft-07/schema#\"}"),
            ("c.json", "true"),
        ]);
        let docs = load_ok(&fx.inputs(&["a.json", "b.json", "c.json"]));
        let got: Vec<_> = docs.iter().map(|d| (d.id, d.display.as_str(), d.draft, d.is_input, d.module.clone())).collect();
        assert_eq!(
            got,
            [
                (DocId(0), "a.json", Draft::Draft2020_12, true, vec!["a".to_owned()]),
                (DocId(1), "b.json", Draft::Draft7, true, vec!["b".to_owned()]),
                (DocId(2), "c.json", Draft::Draft2020_12, true, vec!["c".to_owned()]),
            ]
        );
        assert_eq!(docs[0].sha256, "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a");
        assert!(!docs[1].text.starts_with('\u{feff}'));
    }

    #[test]
    fn reports_every_broken_file() {
        let fx = Fixture::new(&[
            ("trailing.json", "{\n  \"a\": 1,\n}"),
            ("short.json", "{\"a\": [1,"),
            ("array.json", "  [1, 2]"),
            ("number.json", "7"),
            ("draft.json", "{\n  \"$schema\": \"https://example.com/my-draft\"\n}"),
            ("draft-kind.json", "{\"$schema\": 4}"),
            ("latin1.json", "{\"a\": \"\u{e9}\"}"),
            ("ok.json", "{}"),
        ]);
        std::fs::write(fx.path("latin1.json"), b"{\n \"a\": \"\xe9\"}").expect("write");
        let mut input = fx.inputs(&[
            "trailing.json",
            "short.json",
            "array.json",
            "number.json",
            "draft.json",
            "draft-kind.json",
            "latin1.json",
            "missing.json",
            "ok.json",
        ]);
        input.schemas.push(fx.source("ok.json"));
        let diagnostics = load_errors(&input);
        assert_eq!(
            summary(&diagnostics),
            [
                "trailing.json:3:1 invalid-json ",
                "short.json:1:9 invalid-json ",
                "array.json:1:3 not-a-schema ",
                "number.json:1:1 not-a-schema ",
                "draft-kind.json:1:13 unknown-draft /$schema",
                "latin1.json:2:8 invalid-json ",
                "missing.json:0:0 io ",
                "ok.json:0:0 duplicate-input ",
                // Reported once no metaschema with that URI could be loaded.
                "draft.json:2:14 unknown-draft /$schema",
            ]
        );
        let messages: Vec<_> = diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(messages[0], "invalid JSON: trailing comma");
        assert!(diagnostics[1].hint.as_deref().is_some_and(|h| h.contains("ends early")), "{:?}", diagnostics[1]);
        assert_eq!(messages[2], "the document is an array, but a schema is an object or a boolean");
        assert_eq!(messages[3], "the document is a number, but a schema is an object or a boolean");
        assert_eq!(messages[8], "unknown `$schema` \"https://example.com/my-draft\": it names no draft and no loaded metaschema");
        assert!(diagnostics[8].hint.as_deref().is_some_and(|h| h.contains("--default-draft")));
        assert!(messages[6].contains("missing.json"), "{}", messages[6]);
    }

    /// `main.json` as the input, with `http://example.com/` mapped to the fixture's `remote/`.
    fn mapped_input(fx: &Fixture) -> Input {
        let mut input = fx.inputs(&["main.json"]);
        input.maps = vec![UrlMap { prefix: "http://example.com/".to_owned(), dir: fx.path("remote") }];
        input
    }

    #[test]
    fn mapped_files_answer_to_their_url_and_their_id() {
        let fx = Fixture::new(&[
            ("main.json", r#"{"$ref": "http://example.com/other.json"}"#),
            ("remote/other.json", r#"{"$id": "urn:example:other", "type": "string"}"#),
        ]);
        let docs = load_ok(&mapped_input(&fx));
        assert_eq!(docs[1].aliases, ["http://example.com/other.json"]);
        let registry = crate::resolve::Registry::new(docs).unwrap_or_else(|d| panic!("index: {d:#?}"));
        assert_eq!(registry.lookup_uri("http://example.com/other.json"), registry.lookup_uri("urn:example:other"));
        assert!(registry.lookup_uri("urn:example:other").is_some());
    }

    #[test]
    fn official_metaschemas_are_embedded() {
        let fx = Fixture::new(&[(
            "main.json",
            r#"{"properties": {"a": {"$ref": "http://json-schema.org/draft-07/schema#"}, "b": {"$ref": "https://json-schema.org/draft/2020-12/schema"}}}"#,
        )]);
        let docs = load_ok(&fx.inputs(&["main.json"]));
        let loaded: Vec<(&str, Draft)> = docs.iter().skip(1).map(|d| (d.display.as_str(), d.draft)).collect();
        assert_eq!(
            loaded,
            [
                ("http://json-schema.org/draft-07/schema", Draft::Draft7),
                ("https://json-schema.org/draft/2020-12/schema", Draft::Draft2020_12),
                // Reached through the 2020-12 metaschema's `allOf`.
                ("https://json-schema.org/draft/2020-12/meta/core", Draft::Draft2020_12),
                ("https://json-schema.org/draft/2020-12/meta/applicator", Draft::Draft2020_12),
                ("https://json-schema.org/draft/2020-12/meta/unevaluated", Draft::Draft2020_12),
                ("https://json-schema.org/draft/2020-12/meta/validation", Draft::Draft2020_12),
                ("https://json-schema.org/draft/2020-12/meta/meta-data", Draft::Draft2020_12),
                ("https://json-schema.org/draft/2020-12/meta/format-annotation", Draft::Draft2020_12),
                ("https://json-schema.org/draft/2020-12/meta/content", Draft::Draft2020_12),
            ]
        );
    }

    /// A metaschema at `http://example.com/meta.json` with `vocabulary` as its `$vocabulary`.
    fn metaschema(vocabulary: &str) -> String {
        format!(
            r#"{{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "http://example.com/meta.json", "$vocabulary": {vocabulary}}}"#
        )
    }

    #[test]
    fn custom_metaschemas_settle_the_draft_and_vocabularies() {
        let no_validation = metaschema(
            r#"{"https://json-schema.org/draft/2020-12/vocab/core": true, "https://json-schema.org/draft/2020-12/vocab/applicator": true,
                "http://example.com/vocab/extra": false}"#,
        );
        let main = r#"{"$schema": "http://example.com/meta.json", "type": "object", "default": {"type": "kept"},
                       "properties": {"a": {"minimum": 10, "not": {"required": ["x"]}}}}"#;
        let fx = Fixture::new(&[("main.json", main), ("remote/meta.json", &no_validation)]);
        // The default draft is 7; the metaschema says 2020-12.
        let docs = load(&mapped_input(&fx), Draft::Draft7).unwrap_or_else(|d| panic!("unexpected errors: {d:#?}"));
        assert_eq!(docs[0].draft, Draft::Draft2020_12);
        // Validation keywords are annotations there; applicators and data stay.
        assert_eq!(
            docs[0].json,
            serde_json::json!({"$schema": "http://example.com/meta.json", "default": {"type": "kept"}, "properties": {"a": {"not": {}}}})
        );
    }

    #[test]
    fn a_metaschema_may_have_a_custom_metaschema() {
        let outer = r#"{"$schema": "http://example.com/outer.json", "$id": "http://example.com/inner.json"}"#;
        let fx = Fixture::new(&[
            ("main.json", r#"{"$schema": "http://example.com/inner.json"}"#),
            ("remote/inner.json", outer),
            ("remote/outer.json", r#"{"$schema": "https://json-schema.org/draft/2019-09/schema", "$id": "http://example.com/outer.json"}"#),
        ]);
        let docs = load_ok(&mapped_input(&fx));
        // `inner.json` is settled first, so `main.json` gets its draft rather than the default.
        let drafts: Vec<Draft> = docs.iter().map(|d| d.draft).collect();
        assert_eq!(drafts, [Draft::Draft2019_09; 3]);
    }

    #[test]
    fn unknown_required_vocabularies_and_missing_metaschemas_are_errors() {
        let custom = metaschema(r#"{"https://json-schema.org/draft/2020-12/vocab/core": true, "http://example.com/vocab/extra": true}"#);
        let fx = Fixture::new(&[("main.json", r#"{"$schema": "http://example.com/meta.json"}"#), ("remote/meta.json", &custom)]);
        let diagnostics = load_errors(&mapped_input(&fx));
        assert_eq!(summary(&diagnostics), ["main.json:1:13 unknown-vocabulary /$schema"]);
        assert!(diagnostics[0].message.contains("http://example.com/vocab/extra"), "{}", diagnostics[0].message);

        let fx = Fixture::new(&[("main.json", r#"{"$schema": "http://example.com/meta.json"}"#)]);
        let diagnostics = load_errors(&mapped_input(&fx));
        let codes: Vec<&str> = diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["unresolved-ref", "unknown-draft"]);
        assert!(diagnostics[0].message.contains("does not exist"), "{}", diagnostics[0].message);
    }

    #[test]
    fn catalog_dirs_load_sorted_and_skip_inputs() {
        let fx = Fixture::new(&[
            ("in/main.json", "{}"),
            ("cat/z.json", "{}"),
            ("cat/sub/a.json", "{}"),
            ("cat/b.json", "{}"),
            ("cat/notes.txt", "not json"),
        ]);
        let mut input = fx.inputs(&["in/main.json"]);
        input.catalog_dirs = vec![fx.path("cat"), fx.path("in"), fx.path("cat")];
        let docs = load_ok(&input);
        let got: Vec<_> = docs.iter().map(|d| (d.path.strip_prefix(&fx.dir).unwrap_or(&d.path).to_path_buf(), d.is_input)).collect();
        let expected = [("in/main.json", true), ("cat/b.json", false), ("cat/sub/a.json", false), ("cat/z.json", false)];
        assert_eq!(got, expected.map(|(p, i)| (PathBuf::from(p), i)));

        let missing = Input { catalog_dirs: vec![fx.path("nope")], ..Input::default() };
        assert_eq!(load_errors(&missing)[0].code, "io");
    }

    #[test]
    fn module_names_are_unique_and_deterministic() {
        let fx = Fixture::new(&[
            ("madoo/x.json", "{}"),
            ("one/Common Types.json", "{}"),
            ("one/madoo.json", "{}"),
            ("one/type.json", "{}"),
            ("one/2020-12.json", "{}"),
            ("one/é.json", "{}"),
            ("two/common-types.json", "{}"),
            ("two/x.json", "{}"),
        ]);
        let mut input = fx.inputs(&[]);
        let mut source = fx.source("madoo/x.json");
        source.module = vec!["madoo".to_owned(), "x".to_owned()];
        input.schemas.push(source);
        input.catalog_dirs = vec![fx.path("one"), fx.path("two")];
        let modules = |docs: Vec<Document>| docs.into_iter().map(|d| d.module.join("::")).collect::<Vec<_>>();
        let first = modules(load_ok(&input));
        assert_eq!(first, ["madoo::x", "_2020_12", "common_types", "madoo_2", "type_", "schema", "common_types_2", "x"]);
        assert_eq!(modules(load_ok(&input)), first);
    }

    #[test]
    fn module_name_cases() {
        for (stem, expected) in [
            ("attempts-report.v1", "attempts_report_v1"),
            ("CamelCase", "camel_case"),
            ("9lives", "_9lives"),
            ("self", "self_"),
            ("--", "schema"),
            ("a--b", "a_b"),
        ] {
            assert_eq!(module_name(stem), expected, "stem {stem:?}");
        }
    }

    #[test]
    fn maps_load_the_closure_of_refs() {
        let fx = Fixture::new(&[
            ("main.json", r##"{"properties": {"a": {"$ref": "https://schemas.example.com/common/defs.json#/$defs/x"}}}"##),
            // No `$id`: the URL it was mapped from is its base, so `other.json` is mapped too.
            ("mirror/common/defs.json", r##"{"$defs": {"x": {"$ref": "other.json"}}}"##),
            ("mirror/common/other.json", r##"{"$id": "https://schemas.example.com/common/other.json", "type": "string"}"##),
            ("mirror/unused.json", "{}"),
        ]);
        let mut input = fx.inputs(&["main.json"]);
        input.maps = vec![UrlMap { prefix: "https://schemas.example.com/".to_owned(), dir: fx.path("mirror") }];
        let docs = load_ok(&input);
        let names: Vec<_> = docs.iter().map(|d| (d.path.file_name().map(|n| n.to_string_lossy().into_owned()), d.is_input)).collect();
        assert_eq!(names, [(Some("main.json".into()), true), (Some("defs.json".into()), false), (Some("other.json".into()), false)]);
        assert_eq!(docs[1].json["$id"], "https://schemas.example.com/common/defs.json");
    }

    #[test]
    fn a_missing_mapped_file_names_the_ref() {
        let fx = Fixture::new(&[("main.json", "{\n  \"items\": {\"$ref\": \"https://x.example/a/b.json#/$defs/y\"}\n}")]);
        let mut input = fx.inputs(&["main.json"]);
        input.maps = vec![UrlMap { prefix: "https://x.example/a".to_owned(), dir: fx.path("mirror") }];
        let diagnostics = load_errors(&input);
        assert_eq!(summary(&diagnostics), ["main.json:2:21 unresolved-ref /items/$ref"]);
        let message = &diagnostics[0].message;
        assert!(message.contains("`https://x.example/a/b.json#/$defs/y`") && message.contains("does not exist"), "{message}");
        assert!(message.contains(&fx.path("mirror").join("b.json").display().to_string()), "{message}");
    }

    #[test]
    fn relative_file_refs_load_the_file() {
        let fx = Fixture::new(&[
            ("main.json", r##"{"$ref": "lib/common.json#/$defs/a"}"##),
            ("lib/common.json", r##"{"$defs": {"a": {"$ref": "../main.json"}}}"##),
        ]);
        let docs = load_ok(&fx.inputs(&["main.json"]));
        assert_eq!(docs.len(), 2);
        assert_eq!((docs[1].is_input, docs[1].module.clone()), (false, vec!["common".to_owned()]));
    }

    #[test]
    fn the_longest_prefix_maps_at_a_path_boundary() {
        let map = |prefix: &str, dir: &str| UrlMap { prefix: prefix.to_owned(), dir: PathBuf::from(dir) };
        let maps = [map("https://x.example/a", "/short"), map("HTTPS://X.example/a/b/", "/long")];
        let found = |url| longest_match(&maps, url).map(|(map, rest)| (map.dir.display().to_string(), rest.to_owned()));
        assert_eq!(found("https://x.example/a/c.json"), Some(("/short".to_owned(), "/c.json".to_owned())));
        assert_eq!(found("https://x.example/a/b/c.json"), Some(("/long".to_owned(), "c.json".to_owned())));
        assert_eq!(found("https://x.example/ab.json"), None);
        assert_eq!(found("https://y.example/a/c.json"), None);
    }

    #[test]
    fn mapped_path_stays_below_the_dir() {
        let dir = Path::new("/m");
        assert_eq!(mapped_path(dir, "a/b%20c.json?x=1"), Ok(PathBuf::from("/m/a/b c.json")));
        assert!(mapped_path(dir, "a/%2e%2e/x.json").is_err());
        assert!(mapped_path(dir, "").is_err());
    }
}
