//! The catalog of loaded documents and `$ref` resolution: every document by its path and `$id`,
//! every embedded resource (`$id` in a subschema) and `$anchor`, and the base URI in scope at
//! any location.
//!
//! The index is built once by [`Registry::new`]; looking things up does no IO. Line:column
//! positions are computed only when a diagnostic is built.

use std::collections::BTreeSet;
use std::sync::OnceLock;

use serde_json::Value;
use url::Url;

use crate::diag::{Diagnostic, kind_name};
pub use crate::doc::Loc;
use crate::doc::{DocId, Document};
use crate::draft::Draft;
use crate::index::Index;
use crate::locate;
use crate::schema::keyword::Keyword;
use crate::schema::scan;
use crate::uri::{escape, percent_decode, without_fragment};

/// All loaded documents, indexed for `$ref` resolution.
#[derive(Debug)]
pub struct Registry {
    /// `docs[i].id` is `DocId(i)`, as [`crate::load::load`] numbers them.
    pub docs: Vec<Document>,
    index: Index,
    /// Per document, built at its first diagnostic: line:column lookups that cost the pointer's
    /// depth, not a scan of the text, so many diagnostics cost linear time.
    positions: Vec<OnceLock<locate::Index>>,
    /// What indexing accepted with a warning: URIs two resources share, which only a
    /// reference to them makes an error.
    pub warnings: Vec<Diagnostic>,
}

impl Registry {
    /// Indexes the documents: `$id`s (root and embedded), anchors, URL mappings. Two resources
    /// with the same URI, and `$id`s that are not URI references, are errors.
    pub fn new(docs: Vec<Document>) -> Result<Registry, Vec<Diagnostic>> {
        let (index, diagnostics) = Index::build(&docs);
        let positions = docs.iter().map(|_| OnceLock::new()).collect();
        let (warnings, errors): (Vec<Diagnostic>, Vec<Diagnostic>) =
            diagnostics.into_iter().partition(|d| d.severity == crate::diag::Severity::Warning);
        if errors.is_empty() { Ok(Registry { docs, index, positions, warnings }) } else { Err(errors) }
    }

    pub fn doc(&self, id: DocId) -> &Document {
        &self.docs[id.0]
    }

    /// The schema at `loc`; `None` when the pointer does not exist.
    pub fn get(&self, loc: &Loc) -> Option<&Value> {
        self.docs.get(loc.doc.0)?.json.pointer(&loc.pointer)
    }

    /// Resolves `reference` (the value of a `$ref` found in the schema at `from`) against the
    /// base URI in scope at `from`. Errors name the ref, the file and pointer, and a hint.
    // The error is the diagnostic itself: resolution fails rarely, so its size does not matter.
    #[allow(clippy::result_large_err)]
    pub fn resolve(&self, from: &Loc, reference: &str) -> Result<Loc, Diagnostic> {
        let site = self.ref_site(from, reference);
        let Some(base) = self.index.base_at(from) else {
            return Err(self.error("unresolved-ref", &site, format!("cannot resolve `{reference}`: {from:?} is in no loaded document")));
        };
        let target = match base.join(reference) {
            Ok(target) => target,
            Err(err) => {
                let message = format!("`{reference}` is not a URI reference that resolves against the base URI {base}: {err}");
                let hint = if base.cannot_be_a_base() {
                    "a base URI like `urn:...` takes only absolute URIs and fragments (`#/$defs/Name`, `#anchor`)"
                } else {
                    "write the ref as a URI reference, e.g. `other.json#/$defs/Name`; percent-encode spaces and other special characters"
                };
                return Err(self.error("unresolved-ref", &site, message).with_hint(hint));
            }
        };
        self.lookup(&target).map_err(|miss| self.unresolved(&site, reference, &target, miss))
    }

    /// The location of `pointer` (a JSON pointer, `""` for the root) in document `doc`: an
    /// input's root given as a pointer. The error (`missing-root`) says where the pointer
    /// stops, with the keys that exist there.
    // The error is the diagnostic itself, as for `resolve`.
    #[allow(clippy::result_large_err)]
    pub fn at_pointer(&self, doc: DocId, pointer: &str) -> Result<Loc, Diagnostic> {
        let root = Loc { doc, pointer: String::new() };
        let Some(rest) = pointer.strip_prefix('/') else {
            if pointer.is_empty() {
                return Ok(root);
            }
            let message = format!("`{pointer}` is not a JSON pointer");
            return Err(self.error("missing-root", &root, message).with_hint(format!("a JSON pointer starts with `/`, e.g. `/{pointer}`")));
        };
        self.follow(&root, rest).map_err(|miss| {
            let (message, hint) = match miss {
                Miss::Pointer { walked, token, missing } => {
                    (format!("there is no schema at `{pointer}`: {} has no `{token}`", place_of(&walked)), missing)
                }
                Miss::Escape { token, escape } => (
                    format!("`{pointer}` has the token `{token}` with `{escape}`, which is no JSON pointer escape"),
                    "in a JSON pointer, write `~0` for `~` and `~1` for `/`".to_owned(),
                ),
                Miss::Document | Miss::Anchor { .. } | Miss::Ambiguous { .. } => {
                    (format!("there is no schema at `{pointer}`"), "the pointer must name an existing schema".to_owned())
                }
            };
            self.error("missing-root", &root, message).with_hint(hint)
        })
    }

    /// The draft in force at `loc` (a subresource may declare its own `$schema`).
    pub fn draft_at(&self, loc: &Loc) -> Draft {
        let declared = self.index.scopes_along(loc).find_map(|scope| scope.draft);
        declared.or_else(|| self.docs.get(loc.doc.0).map(|doc| doc.draft)).unwrap_or(Draft::Draft2020_12)
    }

    /// Builds a diagnostic for the value at `loc`, with its line:column filled in.
    pub fn error(&self, code: &'static str, loc: &Loc, message: impl Into<String>) -> Diagnostic {
        let file = self.docs.get(loc.doc.0).map(|doc| doc.display.clone()).unwrap_or_default();
        self.located(Diagnostic::new(code, file, loc.pointer.clone(), message), loc)
    }

    /// [`Registry::error`] of a kind another crate lists (see [`Diagnostic::of`]).
    pub fn error_of(&self, kind: &crate::diag::Kind, loc: &Loc, message: impl Into<String>) -> Diagnostic {
        let file = self.docs.get(loc.doc.0).map(|doc| doc.display.clone()).unwrap_or_default();
        self.located(Diagnostic::of(kind, file, loc.pointer.clone(), message), loc)
    }

    /// `diagnostic` about the value at `loc`, with its line:column.
    fn located(&self, diagnostic: Diagnostic, loc: &Loc) -> Diagnostic {
        match self.position(loc) {
            Some((line, column)) => diagnostic.at(line, column),
            None => diagnostic,
        }
    }

    /// `diagnostic` with its line:column filled in from its file and pointer, where it has
    /// none and the file is a loaded document.
    pub fn locate(&self, diagnostic: Diagnostic) -> Diagnostic {
        if diagnostic.position.is_some() {
            return diagnostic;
        }
        let Some(doc) = self.docs.iter().find(|doc| doc.display == diagnostic.file) else { return diagnostic };
        let loc = Loc { doc: doc.id, pointer: diagnostic.pointer.clone() };
        match self.position(&loc) {
            Some((line, column)) => diagnostic.at(line, column),
            None => diagnostic,
        }
    }

    /// The 1-based line:column of the value at `loc` in its file (of the deepest part of the
    /// pointer that exists, when it does not exist all the way).
    pub fn position(&self, loc: &Loc) -> Option<(usize, usize)> {
        let text = &self.docs.get(loc.doc.0)?.text;
        self.positions.get(loc.doc.0)?.get_or_init(|| locate::Index::new(text)).position(text, &loc.pointer)
    }

    /// The base URI in scope at `loc`: the `$id` of the nearest enclosing resource, else the
    /// document's file URL.
    pub fn base_uri(&self, loc: &Loc) -> Option<&Url> {
        self.index.base_at(loc)
    }

    /// The anchor names that decide where a dynamic reference goes: each is the fragment of a
    /// `$dynamicRef` and declared by some `$dynamicAnchor` (`""` stands for 2019-09's
    /// `$recursiveRef` and `"$recursiveAnchor": true`). Empty for schemas without either.
    pub fn dynamic_names(&self) -> Vec<String> {
        let declared: BTreeSet<&str> = self.index.dynamic_anchors.keys().map(|(_, name)| name.as_str()).collect();
        self.index.dynamic_refs.iter().filter(|name| declared.contains(name.as_str())).cloned().collect()
    }

    /// The schema of the resource `resource` that declares the dynamic anchor `name` (`""`: the
    /// resource root, when it has `"$recursiveAnchor": true`).
    pub fn dynamic_anchor(&self, resource: &Url, name: &str) -> Option<&Loc> {
        self.index.dynamic_anchors.get(&(resource.to_string(), name.to_owned()))
    }

    /// The resources enclosing `loc` as (root pointer, URI), innermost first.
    pub fn resources_along<'s>(&'s self, loc: &Loc) -> Vec<(&'s str, &'s Url)> {
        let Some(scopes) = self.index.scopes.get(&loc.doc) else { return Vec::new() };
        let mut out = Vec::new();
        let mut pointer = Some(loc.pointer.as_str());
        while let Some(current) = pointer {
            if let Some((root, scope)) = scopes.get_key_value(current) {
                out.push((root.as_str(), &scope.base));
            }
            pointer = current.rfind('/').map(|i| &current[..i]);
        }
        out
    }

    /// The location of the schema an absolute URI (with or without fragment) identifies.
    pub fn lookup_uri(&self, uri: &str) -> Option<Loc> {
        self.lookup(&Url::parse(uri).ok()?).ok()
    }

    /// `schemas/a.json at /$defs/x`.
    fn describe_loc(&self, loc: &Loc) -> String {
        let file = self.docs.get(loc.doc.0).map_or("?", |doc| doc.display.as_str());
        if loc.pointer.is_empty() { file.to_owned() } else { format!("{file} at {}", loc.pointer) }
    }

    /// Where the ref's value is: `from/$ref`, or the `$dynamicRef`/`$recursiveRef` holding it.
    fn ref_site(&self, from: &Loc, reference: &str) -> Loc {
        let keyword = self
            .get(from)
            .and_then(Value::as_object)
            .and_then(|schema| scan::refs(schema).find(|(_, value)| *value == reference).map(|(keyword, _)| keyword));
        from.child(keyword.unwrap_or(Keyword::Ref).name())
    }

    fn lookup(&self, target: &Url) -> Result<Loc, Miss> {
        let mut resource = without_fragment(target);
        if !self.index.resources.contains_key(resource.as_str()) {
            // Catalogs serve `…/name` and `…/name.json` alike: an extensionless URL also finds
            // the file with a schema extension.
            let last = resource.path_segments().and_then(|mut segments| segments.next_back()).unwrap_or_default().to_owned();
            if !last.is_empty() && !last.contains('.') {
                let found = [".json", ".yaml", ".yml"].iter().find_map(|ext| {
                    let mut candidate = resource.clone();
                    candidate.set_path(&format!("{}{ext}", resource.path()));
                    self.index.resources.contains_key(candidate.as_str()).then_some(candidate)
                });
                if let Some(found) = found {
                    resource = found;
                }
            }
        }
        if let Some(sharing) = self.index.ambiguous.get(resource.as_str()) {
            let sharing = sharing.iter().map(|loc| self.describe_loc(loc)).collect();
            return Err(Miss::Ambiguous { sharing });
        }
        let root = self.index.resources.get(resource.as_str()).ok_or(Miss::Document)?;
        let fragment = percent_decode(target.fragment().unwrap_or(""));
        if fragment.is_empty() {
            Ok(root.clone())
        } else if let Some(pointer) = fragment.strip_prefix('/') {
            self.follow(root, pointer)
        } else {
            let key = (resource.as_str().to_owned(), fragment.clone());
            self.index.anchors.get(&key).cloned().ok_or_else(|| Miss::Anchor {
                name: fragment,
                known: self.index.anchors.keys().filter(|(r, _)| r == resource.as_str()).map(|(_, name)| name.clone()).collect(),
            })
        }
    }

    /// Follows the JSON pointer `pointer` (without its leading `/`, unescaped tokens still
    /// `~`-escaped) from `root`.
    fn follow(&self, root: &Loc, pointer: &str) -> Result<Loc, Miss> {
        let mut value = self.get(root).ok_or(Miss::Document)?;
        let mut loc = root.clone();
        let mut walked = String::new();
        for raw in pointer.split('/') {
            if let Some(escape) = invalid_escape(raw) {
                return Err(Miss::Escape { token: raw.to_owned(), escape });
            }
            let token = raw.replace("~1", "/").replace("~0", "~");
            let next = match value {
                Value::Object(map) => map.get(&token),
                Value::Array(items) => array_index(&token).and_then(|i| items.get(i)),
                _ => None,
            };
            let Some(next) = next else {
                let missing = describe_missing(&place_of(&walked), &token, value);
                return Err(Miss::Pointer { walked, token, missing });
            };
            value = next;
            loc = loc.child(&token);
            walked.push('/');
            walked.push_str(&escape(&token));
        }
        Ok(loc)
    }

    fn unresolved(&self, site: &Loc, reference: &str, target: &Url, miss: Miss) -> Diagnostic {
        let resource = without_fragment(target);
        let mut code = "unresolved-ref";
        let (message, hint) = match miss {
            Miss::Escape { token, escape } => {
                code = "invalid-ref";
                (
                    format!(
                        "`{reference}` is not a valid JSON pointer: `{escape}` in `{token}` is no escape, as `~` may only be \
                         followed by `0` (for `~`) or `1` (for `/`)"
                    ),
                    "write a `~` in a key as `~0` and a `/` as `~1`: the key `a~b` is `#/$defs/a~0b`".to_owned(),
                )
            }
            Miss::Document => (
                format!("`{reference}` resolves to {target}, but no loaded schema has the URI {resource}"),
                "schemac never fetches from the network: add the file with --schema-dir DIR or map the URL prefix with --map PREFIX=DIR"
                    .to_owned(),
            ),
            Miss::Pointer { walked, token, missing } => {
                let message = format!("`{reference}` resolves to {target}, but {} has no `{token}`", place_of(&walked));
                (message, missing)
            }
            Miss::Ambiguous { sharing } => {
                code = "duplicate-id";
                let message = format!("`{reference}` resolves to {target}, but {resource} is the URI of {}", list(&sharing));
                (message, "give each of those schemas its own `$id`, or load only one of them".to_owned())
            }
            Miss::Anchor { name, known } => {
                let message = format!("`{reference}` resolves to {target}, but {resource} declares no anchor `{name}`");
                let hint = if known.is_empty() {
                    "it declares no anchors; declare one with `\"$anchor\": \"Name\"` (draft 6/7: `\"$id\": \"#Name\"`), \
                     or use a JSON pointer like `#/$defs/Name`"
                        .to_owned()
                } else {
                    format!("its anchors are: {}", list(&known))
                };
                (message, hint)
            }
        };
        self.error(code, site, message).with_hint(hint)
    }
}

/// The first `~` escape in a JSON pointer token that is neither `~0` nor `~1` (RFC 6901).
fn invalid_escape(token: &str) -> Option<String> {
    token.match_indices('~').find_map(|(i, _)| match token[i + 1..].chars().next() {
        Some('0' | '1') => None,
        Some(next) => Some(format!("~{next}")),
        None => Some("~".to_owned()),
    })
}

/// Why a resolved URI names no schema.
enum Miss {
    /// The pointer has a `~` escape that RFC 6901 does not define.
    Escape { token: String, escape: String },
    /// No document or embedded resource has the URI.
    Document,
    /// The pointer stops at `walked`, whose value has no `token`; `missing` says what it has
    /// (described where the miss is found: a copy of the value would make each miss cost as
    /// much as the document).
    Pointer { walked: String, token: String, missing: String },
    /// No such anchor; `known` are the resource's anchors.
    Anchor { name: String, known: Vec<String> },
    /// Several resources have the URI; `sharing` describes each.
    Ambiguous { sharing: Vec<String> },
}

/// The hint for a pointer that stops early: the keys (e.g. the `$defs` names) that do exist.
/// `the schema root` or `` `/$defs/a` ``, for messages.
fn place_of(walked: &str) -> String {
    if walked.is_empty() { "the schema root".to_owned() } else { format!("`{walked}`") }
}

fn describe_missing(place: &str, token: &str, at: &Value) -> String {
    match at {
        Value::Object(map) if map.is_empty() => format!("{place} is an empty object"),
        Value::Object(map) => {
            let close = map.keys().find(|key| key.eq_ignore_ascii_case(token));
            let suggestion = close.map(|key| format!("did you mean `{key}`? ")).unwrap_or_default();
            // Only the keys `list` shows are copied.
            let mut keys: Vec<String> = map.keys().take(LIST_MAX + 1).cloned().collect();
            keys.truncate(LIST_MAX);
            format!("{suggestion}the keys there are: {}", list_of(&keys, map.len()))
        }
        Value::Array(items) => {
            format!("{place} is an array of {} item(s): use an index from 0 to {}", items.len(), items.len().saturating_sub(1))
        }
        other => format!("{place} is {}, which has no members", kind_name(other)),
    }
}

/// How many names [`list`] shows.
const LIST_MAX: usize = 30;

/// `a, b, c` with at most [`LIST_MAX`] entries, in document order.
fn list(names: &[String]) -> String {
    list_of(names, names.len())
}

/// [`list`] of the first of `total` names.
fn list_of(names: &[String], total: usize) -> String {
    let mut out = names.iter().take(LIST_MAX).map(String::as_str).collect::<Vec<_>>().join(", ");
    if total > LIST_MAX {
        out.push_str(&format!(", ... ({} more)", total - LIST_MAX));
    }
    out
}

/// RFC 6901 array index: `0` or digits without a leading zero.
fn array_index(token: &str) -> Option<usize> {
    let digits = !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit());
    if digits && (token == "0" || !token.starts_with('0')) { token.parse().ok() } else { None }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::valid_anchor;
    use crate::testing::Fixture;

    /// Loads `files` (all as inputs) into a registry.
    fn registry(fx: &Fixture, files: &[(&str, &str)]) -> Registry {
        let names: Vec<&str> = files.iter().map(|(name, _)| *name).collect();
        let docs = crate::load::load(&fx.inputs(&names), Draft::Draft2020_12).unwrap_or_else(|d| panic!("load: {d:#?}"));
        Registry::new(docs).unwrap_or_else(|d| panic!("index: {d:#?}"))
    }

    fn loc(registry: &Registry, file: &str, pointer: &str) -> Loc {
        let doc = registry.docs.iter().find(|doc| doc.display == file).unwrap_or_else(|| panic!("no document {file}"));
        Loc { doc: doc.id, pointer: pointer.to_owned() }
    }

    /// Each case: (file, pointer of the schema holding the ref, ref, expected `file#pointer`).
    fn check(files: &[(&str, &str)], cases: &[(&str, &str, &str, &str)]) {
        let fx = Fixture::new(files);
        let registry = registry(&fx, files);
        for (file, from, reference, expected) in cases {
            let got = match registry.resolve(&loc(&registry, file, from), reference) {
                Ok(to) => format!("{}#{}", registry.doc(to.doc).display, to.pointer),
                Err(diagnostic) => format!("error: {diagnostic}"),
            };
            assert_eq!(&got, expected, "`{reference}` from {file}#{from}");
        }
    }

    /// Resolves one ref that must fail and returns the diagnostic.
    fn check_error(files: &[(&str, &str)], file: &str, from: &str, reference: &str) -> Diagnostic {
        let fx = Fixture::new(files);
        let registry = registry(&fx, files);
        match registry.resolve(&loc(&registry, file, from), reference) {
            Ok(to) => panic!("`{reference}` resolved to {to:?}"),
            Err(diagnostic) => diagnostic,
        }
    }

    #[test]
    fn relative_and_nested_ids() {
        let a = r##"{
            "$id": "https://example.com/root/a.json",
            "$defs": {
                "n": {
                    "$id": "nested/n.json",
                    "$defs": {"leaf": {"type": "string"}, "deeper": {"$id": "d/", "$defs": {"x": {}}, "items": {"$ref": "x.json"}}},
                    "properties": {"p": {"$ref": "#/$defs/leaf"}, "q": {"$ref": "../a.json#/$defs/other"}}
                },
                "other": {"type": "integer"},
                "inside-data": {"enum": [{"$id": "https://example.com/not-a-resource"}], "const": {"$anchor": "no"}}
            }
        }"##;
        let x = r##"{"$id": "https://example.com/root/nested/d/x.json"}"##;
        check(
            &[("a.json", a), ("x.json", x)],
            &[
                ("a.json", "/$defs/n/properties/p", "#/$defs/leaf", "a.json#/$defs/n/$defs/leaf"),
                ("a.json", "/$defs/n/properties/q", "../a.json#/$defs/other", "a.json#/$defs/other"),
                ("a.json", "", "https://example.com/root/nested/n.json#/$defs/leaf", "a.json#/$defs/n/$defs/leaf"),
                ("a.json", "", "nested/n.json", "a.json#/$defs/n"),
                ("a.json", "", "nested/d/#/$defs/x", "a.json#/$defs/n/$defs/deeper/$defs/x"),
                ("a.json", "/$defs/n/$defs/deeper/items", "x.json", "x.json#"),
                ("a.json", "/$defs/n/$defs/deeper/items", "#", "a.json#/$defs/n/$defs/deeper"),
                ("a.json", "", "https://example.com/root/a.json#", "a.json#"),
            ],
        );
        let fx = Fixture::new(&[("a.json", a), ("x.json", x)]);
        let registry = registry(&fx, &[("a.json", a), ("x.json", x)]);
        let from = loc(&registry, "a.json", "");
        let diagnostic = registry.resolve(&from, "https://example.com/not-a-resource").expect_err("data is not indexed");
        assert!(diagnostic.message.contains("no loaded schema has the URI"), "{diagnostic}");
        assert!(registry.resolve(&from, "#no").is_err(), "anchors in `const` are data");
        let base = registry.base_uri(&loc(&registry, "a.json", "/$defs/n/properties/p")).map(Url::to_string);
        assert_eq!(base.as_deref(), Some("https://example.com/root/nested/n.json"));
        assert_eq!(registry.lookup_uri("https://example.com/root/a.json#/$defs/other"), Some(loc(&registry, "a.json", "/$defs/other")));
    }

    #[test]
    fn anchors() {
        let a = r##"{
            "$id": "https://example.com/a.json",
            "$defs": {
                "x": {"$anchor": "Thing", "type": "string"},
                "d": {"$dynamicAnchor": "node"},
                "sub": {"$id": "sub.json", "$defs": {"y": {"$anchor": "Thing"}}}
            }
        }"##;
        check(
            &[("a.json", a)],
            &[
                ("a.json", "", "#Thing", "a.json#/$defs/x"),
                ("a.json", "", "#node", "a.json#/$defs/d"),
                ("a.json", "/$defs/sub", "#Thing", "a.json#/$defs/sub/$defs/y"),
                ("a.json", "", "sub.json#Thing", "a.json#/$defs/sub/$defs/y"),
            ],
        );
        let diagnostic = check_error(&[("a.json", a)], "a.json", "", "#Thnig");
        assert_eq!(
            diagnostic.message,
            "`#Thnig` resolves to https://example.com/a.json#Thnig, but https://example.com/a.json declares no anchor `Thnig`"
        );
        assert_eq!(diagnostic.hint.as_deref(), Some("its anchors are: Thing, node"));
    }

    #[test]
    fn draft_07_plain_name_ids_and_ignored_siblings() {
        let a = r##"{
            "$schema": "http://json-schema.org/draft-07/schema#",
            "definitions": {
                "x": {"$id": "#Name", "type": "string"},
                "y": {"$id": "elsewhere.json", "$ref": "#/definitions/x"}
            },
            "properties": {"a": {"$ref": "#Name"}}
        }"##;
        let b = r##"{"$schema": "http://json-schema.org/draft-04/schema#", "id": "http://example.com/b.json", "definitions": {"z": {"id": "#Z"}}}"##;
        check(
            &[("a.json", a), ("b.json", b)],
            &[
                ("a.json", "/properties/a", "#Name", "a.json#/definitions/x"),
                // The `$id` beside `$ref` is ignored, so the ref resolves against the document.
                ("a.json", "/definitions/y", "#/definitions/x", "a.json#/definitions/x"),
                ("a.json", "", "http://example.com/b.json#Z", "b.json#/definitions/z"),
                ("b.json", "", "#/definitions/z", "b.json#/definitions/z"),
            ],
        );
        let diagnostic = check_error(&[("a.json", a)], "a.json", "", "elsewhere.json");
        assert!(diagnostic.message.contains("no loaded schema has the URI"), "{diagnostic}");
    }

    #[test]
    fn defs_and_definitions_and_escapes() {
        let a = r##"{
            "$defs": {"a/b": {}, "c~d": {}, "e%f": {}, "g\"h": {}, "sp ace": {}, "é": {}},
            "definitions": {"old": {"items": [{"type": "string"}, {"type": "integer"}]}}
        }"##;
        check(
            &[("a.json", a)],
            &[
                ("a.json", "", "#/$defs/a~1b", "a.json#/$defs/a~1b"),
                ("a.json", "", "#/$defs/c~0d", "a.json#/$defs/c~0d"),
                ("a.json", "", "#/$defs/e%25f", "a.json#/$defs/e%f"),
                ("a.json", "", "#/$defs/g%22h", "a.json#/$defs/g\"h"),
                ("a.json", "", "#/$defs/g\"h", "a.json#/$defs/g\"h"),
                ("a.json", "", "#/$defs/sp%20ace", "a.json#/$defs/sp ace"),
                ("a.json", "", "#/$defs/%C3%A9", "a.json#/$defs/é"),
                ("a.json", "", "#/$defs/é", "a.json#/$defs/é"),
                ("a.json", "", "#/definitions/old", "a.json#/definitions/old"),
                ("a.json", "", "#/definitions/old/items/1", "a.json#/definitions/old/items/1"),
            ],
        );
    }

    #[test]
    fn urn_ids_and_refs_between_files() {
        let report = r##"{"$id": "urn:madoo:schema:attempts-report:v1", "$defs": {"attempt": {"type": "object"}}, "items": {"$ref": "#/$defs/attempt"}}"##;
        let user = r##"{
            "properties": {
                "r": {"$ref": "urn:madoo:schema:attempts-report:v1#/$defs/attempt"},
                "h": {"$ref": "https://example.com/schemas/h.json#/$defs/k"},
                "f": {"$ref": "h.json"}
            }
        }"##;
        let h = r##"{"$id": "https://example.com/schemas/h.json", "$defs": {"k": {}}}"##;
        check(
            &[("report.json", report), ("user.json", user), ("h.json", h)],
            &[
                ("report.json", "/items", "#/$defs/attempt", "report.json#/$defs/attempt"),
                ("report.json", "/items", "#", "report.json#"),
                ("user.json", "/properties/r", "urn:madoo:schema:attempts-report:v1#/$defs/attempt", "report.json#/$defs/attempt"),
                ("user.json", "/properties/h", "https://example.com/schemas/h.json#/$defs/k", "h.json#/$defs/k"),
                // By relative file path: the file URL of a document with an `$id` still works.
                ("user.json", "/properties/f", "h.json", "h.json#"),
            ],
        );
        let diagnostic = check_error(&[("report.json", report)], "report.json", "/items", "other.json");
        assert!(diagnostic.hint.as_deref().is_some_and(|h| h.contains("urn:")), "{diagnostic}");
    }

    #[test]
    fn unresolved_ref_messages() {
        let a = "{\n  \"$id\": \"https://example.com/a.json\",\n  \"$defs\": {\"Alpha\": {}, \"Beta\": {\"type\": \"string\"}},\n  \"properties\": {\"x\": {\"$ref\": \"#/$defs/beta\"}}\n}";
        let files = [("a.json", a)];

        let missing_file = check_error(&files, "a.json", "/properties/x", "missing.json#/$defs/y");
        assert_eq!(
            missing_file.to_string(),
            "error[unresolved-ref]: a.json:4:32 at /properties/x/$ref: `missing.json#/$defs/y` resolves to \
             https://example.com/missing.json#/$defs/y, but no loaded schema has the URI https://example.com/missing.json\n  \
             hint: schemac never fetches from the network: add the file with --schema-dir DIR or map the URL prefix with --map PREFIX=DIR"
        );

        let missing_def = check_error(&files, "a.json", "/properties/x", "#/$defs/beta");
        assert_eq!(missing_def.pointer, "/properties/x/$ref");
        assert_eq!(missing_def.position, Some((4, 32)));
        assert_eq!(missing_def.message, "`#/$defs/beta` resolves to https://example.com/a.json#/$defs/beta, but `/$defs` has no `beta`");
        assert_eq!(missing_def.hint.as_deref(), Some("did you mean `Beta`? the keys there are: Alpha, Beta"));

        let cases = [
            ("#/nope", "the schema root has no `nope`", "the keys there are: $id, $defs, properties"),
            ("#/$defs/Beta/type/x", "`/$defs/Beta/type` has no `x`", "`/$defs/Beta/type` is a string, which has no members"),
            ("#/$defs/Alpha/x", "`/$defs/Alpha` has no `x`", "`/$defs/Alpha` is an empty object"),
        ];
        for (reference, message_end, hint) in cases {
            let diagnostic = check_error(&files, "a.json", "", reference);
            assert!(diagnostic.message.ends_with(message_end), "{diagnostic}");
            assert_eq!(diagnostic.hint.as_deref(), Some(hint));
        }
    }

    #[test]
    fn draft_at_follows_embedded_schema() {
        let a = r##"{
            "$defs": {
                "old": {"$id": "old.json", "$schema": "http://json-schema.org/draft-07/schema#", "properties": {"p": {}}},
                "ignored": {"$schema": "http://json-schema.org/draft-04/schema#"}
            }
        }"##;
        let fx = Fixture::new(&[("a.json", a)]);
        let registry = registry(&fx, &[("a.json", a)]);
        for (pointer, draft) in [
            ("", Draft::Draft2020_12),
            ("/$defs/old", Draft::Draft7),
            ("/$defs/old/properties/p", Draft::Draft7),
            ("/$defs/ignored", Draft::Draft2020_12),
        ] {
            assert_eq!(registry.draft_at(&loc(&registry, "a.json", pointer)), draft, "at {pointer}");
        }
    }

    #[test]
    fn errors_carry_positions() {
        let a = "{\n  \"properties\": {\n    \"a~b\": {\"type\": 5}\n  }\n}";
        let fx = Fixture::new(&[("a.json", a)]);
        let registry = registry(&fx, &[("a.json", a)]);
        let diagnostic =
            registry.error("invalid-schema", &loc(&registry, "a.json", "").child("properties").child("a~b").child("type"), "no");
        assert_eq!((diagnostic.pointer.as_str(), diagnostic.position), ("/properties/a~0b/type", Some((3, 21))));
    }

    #[test]
    fn duplicate_ids_are_reported() {
        let files = [
            ("a.json", r##"{"$id": "https://example.com/same.json"}"##),
            ("b.json", "{\n \"$id\": \"https://example.com/same.json\"}"),
            ("c.json", r##"{"$defs": {"x": {"$anchor": "A"}, "y": {"$anchor": "A"}}}"##),
        ];
        let fx = Fixture::new(&files);
        let docs = crate::load::load(&fx.inputs(&["a.json", "b.json", "c.json"]), Draft::Draft2020_12).expect("load");
        // A duplicate anchor is an error; a URI two resources share only a warning ...
        let diagnostics = Registry::new(docs.clone()).expect_err("duplicates");
        let got: Vec<_> = diagnostics.iter().map(|d| (d.code, d.file.as_str(), d.pointer.as_str(), d.position)).collect();
        assert_eq!(got, [("duplicate-id", "c.json", "/$defs/y", Some((1, 40)))]);
        let registry = Registry::new(docs.into_iter().take(2).collect()).expect("no anchors clash");
        let warned: Vec<_> = registry.warnings.iter().map(|d| (d.code, d.file.as_str(), d.pointer.as_str(), d.position)).collect();
        assert_eq!(warned, [("duplicate-id", "b.json", "/$id", Some((2, 9)))]);
        assert!(registry.warnings[0].message.contains("a.json"), "{}", registry.warnings[0]);
        // ... until a reference needs it.
        let from = loc(&registry, "a.json", "");
        let error = registry.resolve(&from, "https://example.com/same.json").expect_err("ambiguous");
        assert_eq!(error.code, "duplicate-id");
        assert!(error.message.contains("a.json") && error.message.contains("b.json"), "{error}");
    }

    #[test]
    fn an_extensionless_url_finds_the_json_file() {
        let files = [
            ("main.json", r##"{"$ref": "https://example.com/s/other"}"##),
            ("other.json", r##"{"$id": "https://example.com/s/other.json"}"##),
        ];
        let fx = Fixture::new(&files);
        let docs = crate::load::load(&fx.inputs(&["main.json", "other.json"]), Draft::Draft2020_12).expect("load");
        let registry = Registry::new(docs).expect("index");
        let from = loc(&registry, "main.json", "");
        let target = registry.resolve(&from, "https://example.com/s/other").expect("found with .json");
        assert_eq!(target, loc(&registry, "other.json", ""));
        assert!(registry.resolve(&from, "https://example.com/s/missing").is_err());
    }

    #[test]
    fn odd_input_never_panics() {
        let a = r##"{"$id": "urn:x:y", "$defs": {"": {"items": [true]}, "a": {"$id": "https://e.example/"}}}"##;
        let fx = Fixture::new(&[("a.json", a)]);
        let registry = registry(&fx, &[("a.json", a)]);
        let refs =
            ["", "#", "#/", "#//", "#/$defs//items/0", "#/$defs//items/01", "#/$defs//items/-", "%", "#%", "#%E9", "http://[", "#/a/~2"];
        for from in ["", "/$defs/a", "/$defs/a/", "/nope/deeper", "no-slash"] {
            for reference in refs {
                let _ = registry.resolve(&loc(&registry, "a.json", from), reference);
            }
        }
        let resolved = |from: &str, reference: &str| registry.resolve(&loc(&registry, "a.json", from), reference).map(|l| l.pointer).ok();
        assert_eq!(resolved("", "#/$defs//items/0").as_deref(), Some("/$defs//items/0"));
        assert_eq!(resolved("", "#/$defs//items/00"), None);
        assert_eq!(resolved("/$defs/a", "#").as_deref(), Some("/$defs/a"));

        let nowhere = Loc { doc: DocId(9), pointer: "/x".to_owned() };
        assert_eq!(registry.draft_at(&nowhere), Draft::Draft2020_12);
        assert_eq!(registry.position(&nowhere), None);
        assert!(registry.resolve(&nowhere, "#").is_err());
        assert_eq!(registry.error("invalid-schema", &nowhere, "m").file, "");
    }

    #[test]
    fn percent_decoding() {
        for (text, expected) in [("a%20b", "a b"), ("%zz", "%zz"), ("%", "%"), ("%4", "%4"), ("%C3%A9", "é"), ("%FF", "\u{fffd}")] {
            assert_eq!(percent_decode(text), expected);
        }
    }

    #[test]
    fn anchor_names_follow_the_metaschema() {
        let files = [
            (
                "new.json",
                r##"{"$defs": {"a": {"$anchor": "1bad"}, "b": {"$anchor": 5}, "c": {"$anchor": "a:b"}, "d": {"$dynamicAnchor": "-x"},
                    "e": {"$anchor": "_ok.x-1"}}}"##,
            ),
            (
                "old.json",
                r##"{"$schema": "https://json-schema.org/draft/2019-09/schema", "$defs": {"a": {"$anchor": "a:b"}, "b": {"$anchor": "_x"}}}"##,
            ),
            // Before 2019-09 `$anchor` is no keyword: nothing to check.
            ("seven.json", r##"{"$schema": "http://json-schema.org/draft-07/schema#", "$defs": {"a": {"$anchor": "1bad"}}}"##),
        ];
        let fx = Fixture::new(&files);
        let docs = crate::load::load(&fx.inputs(&["new.json", "old.json", "seven.json"]), Draft::Draft2020_12).expect("load");
        let diagnostics = Registry::new(docs).expect_err("invalid anchors");
        let got: Vec<_> = diagnostics.iter().map(|d| (d.code, d.file.as_str(), d.pointer.as_str(), d.position)).collect();
        assert_eq!(
            got,
            [
                ("invalid-anchor", "new.json", "/$defs/a/$anchor", Some((1, 29))),
                ("invalid-anchor", "new.json", "/$defs/b/$anchor", Some((1, 55))),
                ("invalid-anchor", "new.json", "/$defs/c/$anchor", Some((1, 76))),
                ("invalid-anchor", "new.json", "/$defs/d/$dynamicAnchor", Some((1, 108))),
                ("invalid-anchor", "old.json", "/$defs/b/$anchor", Some((1, 113))),
            ]
        );
        assert_eq!(diagnostics[0].message, "`$anchor` \"1bad\" is not a valid anchor name");
        assert_eq!(diagnostics[1].message, "`$anchor` is a number, but it must be a string");
        assert!(diagnostics[0].hint.as_deref().is_some_and(|h| h.contains("^[A-Za-z_][-A-Za-z0-9._]*$")), "{:?}", diagnostics[0].hint);
        assert!(diagnostics[4].hint.as_deref().is_some_and(|h| h.contains("2019-09")), "{:?}", diagnostics[4].hint);
        for (name, draft, valid) in [
            ("A", Draft::Draft2020_12, true),
            ("_a", Draft::Draft2019_09, false),
            ("a:b", Draft::Draft2019_09, true),
            ("", Draft::Draft2020_12, false),
            ("é", Draft::Draft2020_12, false),
        ] {
            assert_eq!(valid_anchor(name, draft), valid, "{name:?} in {draft:?}");
        }
    }

    #[test]
    fn pointer_escapes_other_than_0_and_1_are_errors() {
        let a = r##"{"$defs": {"a~2b": {}, "a~": {}, "a~b": {}}}"##;
        for reference in ["#/$defs/a~2b", "#/$defs/a~", "#/$defs/a%7E2b"] {
            let diagnostic = check_error(&[("a.json", a)], "a.json", "", reference);
            assert_eq!(diagnostic.code, "invalid-ref", "{reference}: {diagnostic}");
            assert!(diagnostic.message.contains("is not a valid JSON pointer"), "{diagnostic}");
            assert!(diagnostic.hint.as_deref().is_some_and(|h| h.contains("~0")), "{diagnostic}");
        }
        check(&[("a.json", a)], &[("a.json", "", "#/$defs/a~0b", "a.json#/$defs/a~0b")]);
        // The keys exist as written, but the pointers are not pointers.
        assert!(a.contains("\"a~2b\"") && a.contains("\"a~\""));
    }

    #[test]
    fn positions_of_many_errors_match_single_lookups() {
        let a = "{\n  \"$defs\": {\"x\": {\"items\": [true, {\"type\": 5}]}, \"é\": {}},\n  \"properties\": {\"a/b\": {}}\n}";
        let fx = Fixture::new(&[("a.json", a)]);
        let registry = registry(&fx, &[("a.json", a)]);
        for pointer in
            ["", "/$defs", "/$defs/x/items/1/type", "/$defs/é", "/properties/a~1b", "/properties/nope/deeper", "/$defs/x/items/7"]
        {
            let at = loc(&registry, "a.json", pointer);
            assert_eq!(registry.position(&at), locate::position(a, pointer), "{pointer}");
        }
    }

    /// Load and resolution hold no recursion the input controls: a 100,000-long chain of refs
    /// indexes and resolves link by link on a test thread's small stack (lowering follows the
    /// chain; this is about the phases before it).
    #[test]
    fn a_long_ref_chain_resolves_link_by_link() {
        const LINKS: usize = 100_000;
        let mut defs = serde_json::Map::new();
        for i in 0..LINKS {
            defs.insert(format!("a{i}"), serde_json::json!({"$ref": format!("#/$defs/a{}", i + 1)}));
        }
        defs.insert(format!("a{LINKS}"), serde_json::json!({"type": "string"}));
        let text = serde_json::json!({"$ref": "#/$defs/a0", "$defs": defs}).to_string();
        let fx = Fixture::new(&[("chain.json", &text)]);
        let registry = registry(&fx, &[("chain.json", &text)]);
        let mut at = loc(&registry, "chain.json", "");
        for _ in 0..=LINKS {
            let reference = registry.get(&at).and_then(|schema| schema.get("$ref")).and_then(Value::as_str).expect("a ref").to_owned();
            at = registry.resolve(&at, &reference).unwrap_or_else(|d| panic!("{d}"));
        }
        assert_eq!(at.pointer, format!("/$defs/a{LINKS}"));
    }
}
