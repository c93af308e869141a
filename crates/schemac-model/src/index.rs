//! The index of a set of loaded documents: every resource by its URI (`$id`s, root and
//! embedded, file URLs, the URLs a document was loaded for), anchors and dynamic anchors, the
//! base URI and draft in scope at each resource, and every reference written. Loading indexes
//! each new batch of documents to find the files refs reach; the [`Registry`](crate::resolve::Registry)
//! resolves against the whole index.

use std::cell::OnceCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::{Map, Value};
use url::Url;

use crate::diag::{Diagnostic, kind_name};
use crate::doc::{DocId, Document, Loc};
use crate::draft::Draft;
use crate::locate;
use crate::schema::keyword::Keyword;
use crate::schema::scan;
use crate::uri::{file_url, percent_decode, without_fragment};

/// Whether `name` matches the metaschema's pattern for anchor names in `draft` (2019-09:
/// `^[A-Za-z][-A-Za-z0-9.:_]*$`, 2020-12: `^[A-Za-z_][-A-Za-z0-9._]*$`).
pub(crate) fn valid_anchor(name: &str, draft: Draft) -> bool {
    let mut chars = name.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || (c == '_' && draft >= Draft::Draft2020_12));
    first_ok && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_') || (c == ':' && draft < Draft::Draft2020_12))
}

/// A resource root (document root or embedded `$id`): its base URI and declared draft.
#[derive(Debug)]
pub(crate) struct Scope {
    pub(crate) base: Url,
    /// From a `$schema` beside the `$id`; document roots use [`Document::draft`].
    pub(crate) draft: Option<Draft>,
}

/// A `$ref` (or `$dynamicRef`, `$recursiveRef`) found in a schema position.
#[derive(Debug)]
pub(crate) struct RefSite {
    /// The location of the ref's value, e.g. `/properties/a/$ref`.
    pub(crate) at: Loc,
    pub(crate) reference: String,
    /// The ref resolved against the base in scope; `None` when that fails.
    pub(crate) target: Option<Url>,
}

/// Every resource, anchor and ref of a set of documents.
#[derive(Debug, Default)]
pub(crate) struct Index {
    /// Resource URI (without fragment) → the resource's root.
    pub(crate) resources: BTreeMap<String, Loc>,
    /// Per document: resource root pointer → scope.
    pub(crate) scopes: HashMap<DocId, BTreeMap<String, Scope>>,
    /// (resource URI, anchor name) → the schema.
    pub(crate) anchors: BTreeMap<(String, String), Loc>,
    /// (resource URI, `$dynamicAnchor` name) → the schema; the name `""` is a resource root
    /// with `"$recursiveAnchor": true`.
    pub(crate) dynamic_anchors: BTreeMap<(String, String), Loc>,
    /// The anchor names `$dynamicRef`s point at (`""` for any `$recursiveRef`).
    pub(crate) dynamic_refs: BTreeSet<String>,
    /// URIs several resources declare, with each of those resources.
    pub(crate) ambiguous: BTreeMap<String, Vec<Loc>>,
    pub(crate) refs: Vec<RefSite>,
}

impl Index {
    /// Indexes `docs` (where `docs[i]` is `DocId(i)`), reporting conflicting and invalid `$id`s.
    pub(crate) fn build(docs: &[Document]) -> (Index, Vec<Diagnostic>) {
        Index::build_from(docs, 0)
    }

    /// Indexes `docs[first..]` alone (ids as in `docs`), for loading, which indexes each new
    /// batch of documents once.
    pub(crate) fn build_from(docs: &[Document], first: usize) -> (Index, Vec<Diagnostic>) {
        let positions = docs.iter().map(|_| OnceCell::new()).collect();
        let mut builder = Builder { docs, index: Index::default(), diagnostics: Vec::new(), positions };
        let mut file_urls = Vec::new();
        for (i, doc) in docs.iter().enumerate().skip(first) {
            let root = Loc { doc: DocId(i), pointer: String::new() };
            let Some(url) = file_url(&doc.path) else {
                let message = format!("cannot form a file URL for {}", doc.path.display());
                builder.diagnostics.push(Diagnostic::new("io", doc.display.clone(), "", message));
                continue;
            };
            builder.document(doc, root.clone(), url.clone());
            file_urls.push((url, root));
        }
        // A document is also known by its file URL (refs by relative path reach a document that
        // has an `$id`), unless that URL is some resource's `$id`.
        for (url, root) in file_urls {
            builder.index.resources.entry(url.into()).or_insert(root);
        }
        // And by the URLs it was loaded for (a `--map`ped URL, an embedded metaschema's other
        // scheme), unless one is some resource's `$id`.
        for (i, doc) in docs.iter().enumerate().skip(first) {
            for alias in &doc.aliases {
                builder.index.resources.entry(alias.clone()).or_insert(Loc { doc: DocId(i), pointer: String::new() });
            }
        }
        (builder.index, builder.diagnostics)
    }

    /// The URI (without fragment) of every resource.
    pub(crate) fn uris(&self) -> impl Iterator<Item = &str> {
        self.resources.keys().map(String::as_str)
    }

    /// The root of the resource with the URI (without fragment).
    pub(crate) fn resource(&self, uri: &str) -> Option<&Loc> {
        self.resources.get(uri)
    }

    /// The resource scopes enclosing `loc`, innermost first.
    pub(crate) fn scopes_along<'s, 'l>(&'s self, loc: &'l Loc) -> impl Iterator<Item = &'s Scope> + use<'s, 'l> {
        let scopes = self.scopes.get(&loc.doc);
        let mut pointer = Some(loc.pointer.as_str());
        std::iter::from_fn(move || {
            let scopes = scopes?;
            loop {
                let current = pointer?;
                pointer = current.rfind('/').map(|i| &current[..i]);
                if let Some(scope) = scopes.get(current) {
                    return Some(scope);
                }
            }
        })
    }

    pub(crate) fn base_at(&self, loc: &Loc) -> Option<&Url> {
        self.scopes_along(loc).next().map(|scope| &scope.base)
    }
}

struct Builder<'a> {
    docs: &'a [Document],
    index: Index,
    diagnostics: Vec<Diagnostic>,
    /// As [`Registry::positions`].
    positions: Vec<OnceCell<locate::Index>>,
}

/// A schema waiting to be indexed: where it is, and the base URI and draft around it.
struct Pending<'j> {
    schema: &'j Map<String, Value>,
    loc: Loc,
    base: Url,
    draft: Draft,
    is_root: bool,
}

impl Builder<'_> {
    fn document(&mut self, doc: &Document, root: Loc, file_url: Url) {
        let Value::Object(schema) = &doc.json else {
            self.index.scopes.entry(root.doc).or_default().insert(String::new(), Scope { base: file_url.clone(), draft: None });
            self.register(file_url.into(), &root);
            return;
        };
        // A work list, not recursion, in the same (document) order: nesting costs memory, never
        // stack.
        let mut pending = vec![Pending { schema, loc: root, base: file_url, draft: doc.draft, is_root: true }];
        while let Some(next) = pending.pop() {
            let children = self.schema(next);
            pending.extend(children.into_iter().rev());
        }
    }

    /// Indexes one schema; returns its subschemas, to be indexed next.
    fn schema<'j>(&mut self, pending: Pending<'j>) -> Vec<Pending<'j>> {
        let Pending { schema, loc, base, draft, is_root } = pending;
        let declared = scan::declared_schema(schema).and_then(Value::as_str).and_then(Draft::from_schema_uri);
        // The root's draft was settled by loading; a subschema's `$schema` counts only when it
        // opens a resource (has an `$id` in the draft it declares).
        let own_draft = if is_root { draft } else { declared.unwrap_or(draft) };
        let id_keyword = scan::id_keyword(own_draft).name();
        // Up to draft 7, every keyword beside `$ref` is ignored, `$id` included.
        let id = scan::id(schema, own_draft);

        let mut base = base;
        let mut draft = draft;
        let mut opens_resource = is_root;
        let mut anchors = Vec::new();
        if let Some(id) = id {
            match base.join(id) {
                Ok(url) => {
                    if let Some(fragment) = url.fragment().map(percent_decode).filter(|f| !f.is_empty() && !f.starts_with('/')) {
                        anchors.push(fragment);
                    }
                    // `"$id": "#name"` (drafts 6/7) only names an anchor in the current resource.
                    if !id.starts_with('#') {
                        base = without_fragment(&url);
                        opens_resource = true;
                        draft = own_draft;
                    }
                }
                Err(err) => {
                    let message = format!("`{id_keyword}` \"{id}\" is not a URI reference that resolves against {base}: {err}");
                    let diagnostic = self.error("invalid-id", &loc.child(id_keyword), message);
                    let hint = "an `$id` is an absolute URI like `https://example.com/schemas/a.json` or `urn:example:a`, \
                                or a path relative to the enclosing `$id`";
                    self.diagnostics.push(diagnostic.with_hint(hint));
                }
            }
        }
        if opens_resource {
            let declared = if is_root { None } else { declared };
            self.index.scopes.entry(loc.doc).or_default().insert(loc.pointer.clone(), Scope { base: base.clone(), draft: declared });
            self.register(base.to_string(), &loc);
        }
        let anchor = self.anchor_name(schema, Keyword::Anchor, own_draft, &loc);
        let dynamic_anchor = self.anchor_name(schema, Keyword::DynamicAnchor, own_draft, &loc);
        anchors.extend(anchor.iter().chain(&dynamic_anchor).map(|name| (*name).to_owned()));
        if let Some(name) = dynamic_anchor {
            self.index.dynamic_anchors.entry((base.to_string(), name.to_owned())).or_insert_with(|| loc.clone());
        }
        if opens_resource && scan::recursive_anchor(schema) {
            self.index.dynamic_anchors.entry((base.to_string(), String::new())).or_insert_with(|| loc.clone());
        }
        for (keyword, reference) in scan::refs(schema) {
            if keyword == Keyword::DynamicRef
                && let Some((_, fragment)) = reference.split_once('#')
            {
                self.index.dynamic_refs.insert(percent_decode(fragment));
            } else if keyword == Keyword::RecursiveRef {
                self.index.dynamic_refs.insert(String::new());
            }
        }
        for name in anchors {
            self.anchor(&base, name, &loc);
        }
        for (keyword, reference) in scan::refs(schema) {
            let target = base.join(reference).ok();
            self.index.refs.push(RefSite { at: loc.child(keyword.name()), reference: reference.to_owned(), target });
        }
        let children = scan::subschemas(schema).into_iter().map(|(suffix, child)| Pending {
            schema: child,
            loc: Loc { doc: loc.doc, pointer: format!("{}{suffix}", loc.pointer) },
            base: base.clone(),
            draft,
            is_root: false,
        });
        children.collect()
    }

    /// The name `keyword` (`$anchor` or `$dynamicAnchor`) declares, when it is a valid one. In
    /// the drafts that define the keyword, a name that is not a string or breaks the
    /// metaschema's pattern is an error; before them, it is an unknown keyword and kept as it
    /// is.
    fn anchor_name<'j>(&mut self, schema: &'j Map<String, Value>, keyword: Keyword, draft: Draft, loc: &Loc) -> Option<&'j str> {
        let value = scan::anchor(schema, keyword)?;
        let defined = draft >= keyword.info().since;
        if !defined {
            return value.as_str();
        }
        let valid = value.as_str().filter(|name| valid_anchor(name, draft));
        if valid.is_none() {
            let message = match value.as_str() {
                Some(name) => format!("`{keyword}` {name:?} is not a valid anchor name"),
                None => format!("`{keyword}` is {}, but it must be a string", kind_name(value)),
            };
            let hint = if draft >= Draft::Draft2020_12 {
                "an anchor name starts with a letter or `_` and goes on with letters, digits, `-`, `_` and `.` \
                 (the metaschema's `^[A-Za-z_][-A-Za-z0-9._]*$`); a `$ref` to it is `#Name`"
            } else {
                "an anchor name starts with a letter and goes on with letters, digits, `-`, `_`, `.` and `:` \
                 (the 2019-09 metaschema's `^[A-Za-z][-A-Za-z0-9.:_]*$`); a `$ref` to it is `#Name`"
            };
            let diagnostic = self.error("invalid-anchor", &loc.child(keyword.name()), message);
            self.diagnostics.push(diagnostic.with_hint(hint));
        }
        valid
    }

    fn register(&mut self, uri: String, loc: &Loc) {
        match self.index.resources.get(&uri) {
            Some(existing) if existing != loc => {
                // Validators take such catalogs as long as nothing refers to the URI: a warning
                // here, an error at a reference that needs it.
                let existing = existing.clone();
                let other = self.describe(&existing);
                let message = format!("the URI {uri} is already the URI of {other}; a reference to it would be ambiguous");
                let at = self.id_site(loc);
                let diagnostic = self.error("duplicate-id", &at, message);
                let hint = "every schema resource needs its own URI: change or remove one of the `$id`s (or load the file only once)";
                self.diagnostics.push(Diagnostic { severity: crate::diag::Severity::Warning, ..diagnostic.with_hint(hint) });
                let sharing = self.index.ambiguous.entry(uri).or_insert_with(|| vec![existing]);
                if !sharing.contains(loc) {
                    sharing.push(loc.clone());
                }
            }
            Some(_) => {}
            None => {
                self.index.resources.insert(uri, loc.clone());
            }
        }
    }

    fn anchor(&mut self, base: &Url, name: String, loc: &Loc) {
        let key = (base.to_string(), name);
        match self.index.anchors.get(&key) {
            Some(existing) if existing != loc => {
                let other = self.describe(existing);
                let message = format!("the anchor `{}` is declared twice in {}; the other is at {other}", key.1, key.0);
                self.diagnostics
                    .push(self.error("duplicate-id", loc, message).with_hint("anchor names must be unique within a schema resource"));
            }
            Some(_) => {}
            None => {
                self.index.anchors.insert(key, loc.clone());
            }
        }
    }

    /// Points at the `$id` of the schema at `loc` when it has one, for a sharper position.
    fn id_site(&self, loc: &Loc) -> Loc {
        let schema = self.docs.get(loc.doc.0).and_then(|doc| doc.json.pointer(&loc.pointer)).and_then(Value::as_object);
        match schema.and_then(scan::id_keyword_present) {
            Some(keyword) => loc.child(keyword.name()),
            None => loc.clone(),
        }
    }

    /// `schemas/a.json at /$defs/x`.
    fn describe(&self, loc: &Loc) -> String {
        let file = self.docs.get(loc.doc.0).map_or("?", |doc| doc.display.as_str());
        if loc.pointer.is_empty() { file.to_owned() } else { format!("{file} at {}", loc.pointer) }
    }

    fn error(&self, code: &'static str, loc: &Loc, message: String) -> Diagnostic {
        let Some(doc) = self.docs.get(loc.doc.0) else {
            return Diagnostic::new(code, "", loc.pointer.clone(), message);
        };
        let diagnostic = Diagnostic::new(code, doc.display.clone(), loc.pointer.clone(), message);
        let positions = self.positions.get(loc.doc.0).map(|cell| cell.get_or_init(|| locate::Index::new(&doc.text)));
        match positions.and_then(|positions| positions.position(&doc.text, &loc.pointer)) {
            Some((line, column)) => diagnostic.at(line, column),
            None => diagnostic,
        }
    }
}
