//! Reading schema files: JSON parsing with line:column errors, the draft of each document,
//! and the transitive closure of files reachable through `--schema-dir`/`--map`.
//! This is the only phase that does IO; it never touches the network.
//!
//! Files are read only from the roots the caller gave ([`Input`]), with symlinks resolved
//! before the check, only when they are regular files, and only up to
//! [`Input::max_file_size`]: a schema from elsewhere cannot make the compiler read
//! `/etc/shadow`, hang on a FIFO or exhaust memory on `/dev/zero`.

use std::collections::{HashMap, HashSet};
use std::fs::{self, File, Metadata};
use std::io::{self, Read as _};
use std::path::{Component, Path, PathBuf};

use serde_json::Value;
use sha2::{Digest, Sha256};
use url::Url;

use crate::diag::{Diagnostic, kind_name};
pub use crate::doc::Document;
use crate::doc::{DocId, Loc};
use crate::draft::Draft;
use crate::index::{Index, RefSite};
use crate::input::{Input, SchemaSource, UrlMap};
use crate::locate;
use crate::metaschemas;
use crate::schema::scan::{self, subschemas};
use crate::source::{FileId, SourceFile};
use crate::syntax::{self, Syntax};
use crate::uri::{percent_decode, without_fragment};

/// What [`load_with_sources`] returns: the documents, and every file read to get them.
#[derive(Debug)]
pub struct Loaded {
    pub docs: Vec<Document>,
    /// Each file read from disk, in the order read (embedded metaschemas are not files).
    pub sources: Vec<SourceFile>,
}

/// Reads every input schema and every document they reference through the catalog.
///
/// Documents come in a deterministic order: the inputs as given, then the catalog directories'
/// files (sorted), then the files `--map` and relative file refs reach, in the order of the
/// refs. Every problem in every file is reported, not just the first.
pub fn load(input: &Input, default_draft: Draft) -> Result<Vec<Document>, Vec<Diagnostic>> {
    load_with_sources(input, default_draft).map(|loaded| loaded.docs)
}

/// [`load`], also saying which files were read, so that a writer can refuse to overwrite one.
pub fn load_with_sources(input: &Input, default_draft: Draft) -> Result<Loaded, Vec<Diagnostic>> {
    let mut loader = Loader::new(default_draft, input.max_file_size);
    loader.roots(input);
    for source in &input.schemas {
        loader.input(source);
    }
    for dir in &input.catalog_dirs {
        loader.catalog(dir);
    }
    loader.follow_refs(&input.maps);
    loader.settle_metaschemas();
    if loader.diagnostics.is_empty() { Ok(Loaded { docs: loader.docs, sources: loader.sources }) } else { Err(loader.diagnostics) }
}

struct Loader {
    default_draft: Draft,
    max_file_size: u64,
    docs: Vec<Document>,
    sources: Vec<SourceFile>,
    diagnostics: Vec<Diagnostic>,
    /// Canonical path → display of every file read, so none is read twice.
    seen: HashMap<PathBuf, String>,
    cwd: Option<PathBuf>,
    /// The directories files may be read from.
    roots: Vec<Root>,
    /// Documents whose `$schema` names no draft, with that URI: a metaschema to load, which
    /// settles their draft and vocabularies.
    custom: Vec<(DocId, String)>,
}

/// Where a file comes from: what it is called and whether it is an input.
struct Origin {
    display: String,
    is_input: bool,
    root_pointer: String,
    /// For a file read because a ref names it: which ref, where (added to its errors).
    via: Option<String>,
}

/// A directory below which files may be read.
#[derive(Debug)]
struct Root {
    /// With symlinks resolved: what the canonical path of a file is checked against.
    canonical: PathBuf,
    /// Absolute, with `.` and `..` removed: for paths that do not exist.
    lexical: PathBuf,
    /// Why it is a root, e.g. `--schema-dir`.
    origin: String,
}

/// Why a file is not read.
#[derive(Debug)]
enum Refusal {
    Missing,
    /// Outside every root once symlinks are resolved (the canonical path, or the lexical one
    /// when it does not exist).
    Outside(PathBuf),
    /// The symlink at this path leads back to itself.
    SymlinkLoop(PathBuf),
    /// The path is a symlink to this target, which does not exist.
    Dangling(PathBuf),
    /// A directory, FIFO, device or socket: what it is.
    NotAFile(&'static str),
    /// The file's size, over the limit.
    TooLarge(u64),
    Io(io::Error),
}

impl Loader {
    fn new(default_draft: Draft, max_file_size: u64) -> Loader {
        Loader {
            default_draft,
            max_file_size,
            docs: Vec::new(),
            sources: Vec::new(),
            diagnostics: Vec::new(),
            seen: HashMap::new(),
            cwd: std::env::current_dir().ok(),
            roots: Vec::new(),
            custom: Vec::new(),
        }
    }

    /// The roots: each input's directory, the catalog and map directories, and the allowed
    /// roots. Only an allowed root that does not exist is an error here; a missing input or
    /// catalog directory is reported where it is read.
    fn roots(&mut self, input: &Input) {
        for source in &input.schemas {
            let dir = source.path.parent().filter(|dir| !dir.as_os_str().is_empty()).unwrap_or(Path::new("."));
            self.add_root(dir, "the directory of an input schema", false);
        }
        for dir in &input.catalog_dirs {
            self.add_root(dir, "--schema-dir", false);
        }
        for map in &input.maps {
            self.add_root(&map.dir, &format!("--map {}", map.prefix), false);
        }
        for dir in &input.allowed_roots {
            self.add_root(dir, "--allow-root", true);
        }
    }

    fn add_root(&mut self, dir: &Path, origin: &str, must_exist: bool) {
        match fs::canonicalize(dir) {
            Ok(canonical) => {
                if !self.roots.iter().any(|root| root.canonical == canonical) {
                    self.roots.push(Root { canonical, lexical: self.lexical(dir), origin: origin.to_owned() });
                }
            }
            Err(err) if must_exist => {
                let message = format!("cannot allow reading below {}: {err}", dir.display());
                let diagnostic = Diagnostic::new("io", self.display_path(dir), "", message);
                self.diagnostics.push(diagnostic.with_hint("--allow-root (`Input::allowed_roots`) names a directory that exists"));
            }
            Err(_) => {}
        }
    }

    /// `path` made absolute against the current directory, `.` and `..` removed without
    /// looking at the disk.
    fn lexical(&self, path: &Path) -> PathBuf {
        let absolute = match &self.cwd {
            Some(cwd) if path.is_relative() => cwd.join(path),
            _ => path.to_path_buf(),
        };
        let mut normal = PathBuf::new();
        for component in absolute.components() {
            match component {
                Component::CurDir => {}
                Component::ParentDir => {
                    normal.pop();
                }
                other => normal.push(other),
            }
        }
        normal
    }

    /// Whether a canonical path is below a root.
    fn within(&self, canonical: &Path) -> bool {
        self.roots.iter().any(|root| canonical.starts_with(&root.canonical))
    }

    /// Checks `path` before it is read: it exists, is a regular file no larger than the limit
    /// and, when `confined`, lies below a root with its symlinks resolved. Returns its
    /// canonical path. Confinement comes first, so whether a file outside the roots exists is
    /// never told.
    fn inspect(&self, path: &Path, confined: bool) -> Result<PathBuf, Refusal> {
        let canonical = match fs::canonicalize(path) {
            Ok(canonical) => canonical,
            Err(err) => {
                let lexical = self.lexical(path);
                let lexically_within = self.roots.iter().any(|r| lexical.starts_with(&r.lexical) || lexical.starts_with(&r.canonical));
                if confined && !lexically_within {
                    return Err(Refusal::Outside(lexical));
                }
                if let Some(link) = symlink_loop(path) {
                    return Err(Refusal::SymlinkLoop(link));
                }
                if let Ok(target) = fs::read_link(path) {
                    return Err(Refusal::Dangling(target));
                }
                return Err(if err.kind() == io::ErrorKind::NotFound { Refusal::Missing } else { Refusal::Io(err) });
            }
        };
        if confined && !self.within(&canonical) {
            return Err(Refusal::Outside(canonical));
        }
        let metadata = fs::metadata(&canonical).map_err(Refusal::Io)?;
        self.check_kind_and_size(&metadata)?;
        Ok(canonical)
    }

    fn check_kind_and_size(&self, metadata: &Metadata) -> Result<(), Refusal> {
        if let Some(kind) = not_a_file(metadata) {
            return Err(Refusal::NotAFile(kind));
        }
        if metadata.len() > self.max_file_size {
            return Err(Refusal::TooLarge(metadata.len()));
        }
        Ok(())
    }

    /// Reads an inspected file, at most one byte more than the limit (a file may grow, or be
    /// replaced, after it was inspected).
    fn read_bytes(&self, canonical: &Path) -> Result<(Vec<u8>, FileId), Refusal> {
        let file = File::open(canonical).map_err(Refusal::Io)?;
        let metadata = file.metadata().map_err(Refusal::Io)?;
        self.check_kind_and_size(&metadata)?;
        let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0));
        file.take(self.max_file_size.saturating_add(1)).read_to_end(&mut bytes).map_err(Refusal::Io)?;
        let read = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
        if read > self.max_file_size {
            return Err(Refusal::TooLarge(read.max(metadata.len())));
        }
        Ok((bytes, FileId::from_metadata(Some(canonical.to_path_buf()), &metadata)))
    }

    /// What a refusal says about the file at `path` (`{path} {phrase}`), with its code and hint.
    fn refusal(&self, path: &Path, refusal: &Refusal) -> (&'static str, String, String) {
        match refusal {
            Refusal::Missing => {
                ("io", "does not exist".to_owned(), "check the path; a relative path is relative to the current directory".to_owned())
            }
            Refusal::Outside(resolved) => {
                let roots: Vec<String> =
                    self.roots.iter().map(|root| format!("{} ({})", self.display_path(&root.lexical), root.origin)).collect();
                let roots = if roots.is_empty() { "none".to_owned() } else { roots.join(", ") };
                let resolved = if self.lexical(path) == *resolved { String::new() } else { format!(" (it is {})", resolved.display()) };
                (
                    "outside-roots",
                    format!("is outside the directories schemac may read{resolved}; those are: {roots}"),
                    "schemac reads only files below the input schemas' directories and the --schema-dir and --map directories, \
                     symlinks resolved; if the file is trusted, allow its directory with --allow-root DIR"
                        .to_owned(),
                )
            }
            Refusal::SymlinkLoop(link) if link == path => {
                ("symlink-loop", "is a symlink that leads back to itself".to_owned(), "fix or remove the symlink loop".to_owned())
            }
            Refusal::SymlinkLoop(link) => (
                "symlink-loop",
                format!("cannot be reached: the symlink {} on the way leads back to itself", self.display_path(link)),
                "fix or remove the symlink loop".to_owned(),
            ),
            Refusal::Dangling(target) => (
                "io",
                format!("is a symlink to {}, which does not exist", target.display()),
                "fix the symlink, or put the file it names in place".to_owned(),
            ),
            Refusal::NotAFile(kind) => {
                let hint = if *kind == "a directory" {
                    "name a `.json` file; to make the schemas in a directory reachable by `$id`, pass it with --schema-dir DIR"
                } else {
                    "schemac reads schemas only from regular files, so that a schema can neither hang the compiler on a pipe nor \
                     make it read a device"
                };
                ("not-a-file", format!("is {kind}, not a schema file"), hint.to_owned())
            }
            Refusal::TooLarge(size) => (
                "file-too-large",
                format!("is {size} bytes, more than the limit of {} bytes", self.max_file_size),
                "raise the limit with --max-file-size BYTES (`Input::max_file_size`) if the schema really is this large".to_owned(),
            ),
            Refusal::Io(err) => ("io", format!("cannot be read: {err}"), "check that the file exists and is readable".to_owned()),
        }
    }

    /// The diagnostic for a file that is not read, named by itself (an input, a catalog file).
    fn refused_file(&self, display: &str, path: &Path, refusal: &Refusal) -> Diagnostic {
        let (code, phrase, hint) = self.refusal(path, refusal);
        Diagnostic::new(code, display, "", format!("{} {phrase}", path.display())).with_hint(hint)
    }

    fn input(&mut self, source: &SchemaSource) {
        let origin = Origin { display: source.display.clone(), is_input: true, root_pointer: source.pointer.clone(), via: None };
        // An input is read wherever it is: the user named it.
        match self.inspect(&source.path, false) {
            Ok(canonical) => {
                self.read(&source.path, canonical, origin);
            }
            Err(refusal) => {
                let diagnostic = self.refused_file(&origin.display, &source.path, &refusal);
                self.diagnostics.push(diagnostic);
            }
        }
    }

    /// Loads every `*.json` below `dir`, skipping files already loaded.
    fn catalog(&mut self, dir: &Path) {
        let mut files = Vec::new();
        let mut visited = HashSet::new();
        // A work list, not recursion: a deep tree costs memory, never stack.
        let mut pending = vec![dir.to_path_buf()];
        while let Some(dir) = pending.pop() {
            // Symlinked directories may form a cycle; each real directory is walked once.
            if let Ok(canonical) = fs::canonicalize(&dir) {
                if !visited.insert(canonical.clone()) {
                    continue;
                }
                if !self.within(&canonical) {
                    let diagnostic = self.refused_file(&self.display_path(&dir), &dir, &Refusal::Outside(canonical));
                    self.diagnostics.push(diagnostic);
                    continue;
                }
            }
            let entries = match fs::read_dir(&dir) {
                Ok(entries) => entries,
                Err(err) => {
                    let message = format!("cannot read the schema directory {}: {err}", self.display_path(&dir));
                    let diagnostic = Diagnostic::new("io", self.display_path(&dir), "", message);
                    self.diagnostics.push(diagnostic.with_hint("--schema-dir names a directory that exists and can be listed"));
                    continue;
                }
            };
            for entry in entries {
                let path = match entry {
                    Ok(entry) => entry.path(),
                    Err(err) => {
                        let message = format!("cannot list the schema directory {}: {err}", self.display_path(&dir));
                        let diagnostic = Diagnostic::new("io", self.display_path(&dir), "", message);
                        self.diagnostics.push(diagnostic.with_hint("check the directory's permissions"));
                        continue;
                    }
                };
                // Follows symlinks, so a linked file or directory counts as what it points to.
                // Anything else named like a schema (a FIFO, a symlink loop) is reported when read.
                match fs::metadata(&path) {
                    Ok(metadata) if metadata.is_dir() => pending.push(path),
                    _ if syntax::is_schema_file(&path) => files.push(path),
                    _ => {}
                }
            }
        }
        files.sort();
        for file in files {
            let origin = self.dependency(&file, None);
            match self.inspect(&file, true) {
                Ok(canonical) => {
                    self.read(&file, canonical, origin);
                }
                Err(refusal) => {
                    let diagnostic = self.refused_file(&origin.display, &file, &refusal);
                    self.diagnostics.push(diagnostic);
                }
            }
        }
    }

    /// Reads, parses and checks the inspected file at `path` (`canonical` with symlinks
    /// resolved); problems become diagnostics. Returns whether a new document was added.
    fn read(&mut self, path: &Path, canonical: PathBuf, mut origin: Origin) -> bool {
        if let Some(first) = self.seen.get(&canonical) {
            if origin.is_input {
                let message = format!("this schema is listed twice (also as {first})");
                let diagnostic = Diagnostic::new("duplicate-input", origin.display, "", message);
                self.diagnostics.push(diagnostic.with_hint("list each schema once"));
            }
            return false;
        }
        self.seen.insert(canonical.clone(), origin.display.clone());
        let via = origin.via.take();
        let first_new = self.diagnostics.len();
        let added = match self.read_bytes(&canonical) {
            Ok((bytes, id)) => {
                self.sources.push(SourceFile { display: origin.display.clone(), path: path.to_path_buf(), id });
                match self.parse(&origin.display, bytes, Syntax::of(path)) {
                    Some((text, sha256, json)) => self.add(path.to_path_buf(), origin, text, sha256, json),
                    None => false,
                }
            }
            Err(refusal) => {
                let diagnostic = self.refused_file(&origin.display, path, &refusal);
                self.diagnostics.push(diagnostic);
                false
            }
        };
        // The file's own errors say which ref brought it in.
        if let Some(via) = via {
            for diagnostic in &mut self.diagnostics[first_new..] {
                diagnostic.message.push_str(&format!(" (read for {via})"));
            }
        }
        added
    }

    /// The text, SHA-256 and JSON of a file's bytes; `None` (with diagnostics) when they are
    /// not JSON. Duplicate keys are reported, and the document is still returned, so that the
    /// rest of the file is checked too.
    fn parse(&mut self, display: &str, bytes: Vec<u8>, syntax: Syntax) -> Option<(String, String, Value)> {
        let sha256 = Sha256::digest(&bytes).iter().map(|byte| format!("{byte:02x}")).collect();
        let text = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(err) => {
                self.diagnostics.push(not_utf8(display, err.as_bytes(), err.utf8_error().valid_up_to()));
                return None;
            }
        };
        // serde_json rejects a byte order mark, which some editors write.
        let text = text.strip_prefix('\u{feff}').map(str::to_owned).unwrap_or(text);
        let (json, text) = match parse(display, text, syntax) {
            Ok(parsed) => parsed,
            Err(diagnostic) => {
                self.diagnostics.push(*diagnostic);
                return None;
            }
        };
        for duplicate in locate::duplicate_keys(&text) {
            self.diagnostics.push(duplicate_key(display, &text, &duplicate));
        }
        Some((text, sha256, json))
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
        let Origin { display, is_input, root_pointer, via: _ } = origin;
        let aliases = Vec::new();
        self.docs.push(Document { id, path, display, text, sha256, json, draft, is_input, root_pointer, aliases });
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
        let path = metaschemas::dir().join(meta.file);
        let origin = Origin { display: meta.uri.to_owned(), is_input: false, root_pointer: String::new(), via: None };
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
        let Some(uri) = scan::declared_schema(schema) else { return Some(Declared::Draft(self.default_draft)) };
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
                let vocabularies = meta_doc.json.as_object().and_then(scan::vocabulary).cloned();
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
    /// in, since each new document may have refs of its own; each round indexes only the
    /// documents the previous one added, so a chain of files costs time in proportion to it.
    fn follow_refs(&mut self, maps: &[UrlMap]) {
        let mut tried: HashSet<String> = HashSet::new();
        let mut known: HashSet<String> = HashSet::new();
        let mut indexed = 0;
        loop {
            let (index, _) = Index::build_from(&self.docs, indexed);
            indexed = self.docs.len();
            known.extend(index.uris().map(str::to_owned));
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
                if known.contains(document.as_str()) || !tried.insert(document.to_string()) {
                    continue;
                }
                if let Some((map, rest)) = longest_match(maps, document.as_str()) {
                    added |= self.load_mapped(site, target, &document, map, rest);
                } else if let Some(meta) = metaschemas::find(document.as_str()) {
                    added |= self.embedded(meta, &document);
                } else if document.scheme() == "file"
                    && let Ok(path) = document.to_file_path()
                {
                    added |= self.load_file_ref(site, &path);
                }
            }
            if !added {
                break;
            }
        }
    }

    /// Loads the file a `file:` URL (usually a relative ref) names, when it may be read.
    fn load_file_ref(&mut self, site: &RefSite, path: &Path) -> bool {
        match self.inspect(path, true) {
            Ok(canonical) => {
                let origin = self.dependency(path, Some(site));
                self.read(path, canonical, origin)
            }
            // Resolution reports it as a ref that no loaded schema answers to.
            Err(Refusal::Missing) => false,
            Err(refusal) => {
                let (code, phrase, hint) = self.refusal(path, &refusal);
                let message = format!("`{}` names the file {}, which {phrase}", site.reference, path.display());
                let diagnostic = Diagnostic { code, ..self.site_error(site, message) };
                self.diagnostics.push(diagnostic.with_hint(hint));
                false
            }
        }
    }

    /// Loads the file `map` maps `document` to; `rest` is the URL after the prefix.
    fn load_mapped(&mut self, site: &RefSite, target: &Url, document: &Url, map: &UrlMap, rest: &str) -> bool {
        let mapping = format!("`{}` resolves to {target}, which --map {}={}", site.reference, map.prefix, map.dir.display());
        let path = match mapped_path(&map.dir, rest) {
            Ok(path) => syntax::with_schema_extension(path),
            Err(why) => {
                let diagnostic = self.site_error(site, format!("{mapping} cannot map: {why}"));
                self.diagnostics.push(diagnostic.with_hint("refs under a mapped prefix must name a file below the directory"));
                return false;
            }
        };
        let canonical =
            match self.inspect(&path, true) {
                Ok(canonical) => canonical,
                Err(Refusal::Missing) => {
                    let message = format!("{mapping} maps to {}, but that file does not exist", path.display());
                    let diagnostic = self.site_error(site, message);
                    self.diagnostics.push(diagnostic.with_hint(
                        "schemac never fetches from the network: put the schema file there, or fix the ref or the --map directory",
                    ));
                    return false;
                }
                Err(refusal) => {
                    let (code, phrase, hint) = self.refusal(&path, &refusal);
                    let diagnostic = self.site_error(site, format!("{mapping} maps to {}, which {phrase}", path.display()));
                    self.diagnostics.push(Diagnostic { code, ..diagnostic }.with_hint(hint));
                    return false;
                }
            };
        let origin = self.dependency(&path, Some(site));
        if self.seen.contains_key(&canonical) {
            // Already loaded, e.g. from a `--schema-dir` that is also the `--map` directory:
            // the document answers to the mapped URL too.
            let same = |doc: &&mut Document| std::fs::canonicalize(&doc.path).is_ok_and(|p| p == canonical);
            let Some(doc) = self.docs.iter_mut().find(same) else { return false };
            if !doc.aliases.contains(&document.to_string()) {
                doc.aliases.push(document.to_string());
            }
            return true;
        }
        if !self.read(&path, canonical, origin) {
            return false;
        }
        let Some(doc) = self.docs.last_mut() else { return false };
        let id_keyword = scan::id_keyword(doc.draft).name();
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

    /// The origin of a file loaded only to resolve refs (`site`, when a ref names it).
    fn dependency(&self, path: &Path, site: Option<&RefSite>) -> Origin {
        let via = site.map(|site| {
            let at = self.site_error(site, String::new());
            let position = at.position.map(|(line, column)| format!(":{line}:{column}")).unwrap_or_default();
            format!("`{}` at {}{position} {}", site.reference, at.file, at.pointer)
        });
        Origin { display: self.display_path(path), is_input: false, root_pointer: String::new(), via }
    }

    /// `path` relative to the current directory when it is below it, else as it is.
    fn display_path(&self, path: &Path) -> String {
        let relative = self.cwd.as_deref().and_then(|cwd| path.strip_prefix(cwd).ok());
        match relative {
            Some(relative) if relative.as_os_str().is_empty() => ".".to_owned(),
            Some(relative) => relative.display().to_string(),
            None => path.display().to_string(),
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
    let used: Vec<&'static str> = vocabularies.keys().filter_map(|uri| metaschemas::vocabulary_keywords(uri)).flatten().collect();
    Ok(metaschemas::removable().into_iter().filter(|k| !used.contains(k)).collect())
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

/// The diagnostic for a serde_json error, at its line:column, with a hint for what it most
/// likely is: a file that ends early, a comment, a trailing comma, `NaN`, or valid JSON that
/// schemac cannot hold (a number beyond `f64`, nesting deeper than serde_json's limit).
fn invalid_json(display: &str, text: &str, err: &serde_json::Error) -> Diagnostic {
    let full = err.to_string();
    // serde_json appends the position, which the diagnostic shows on its own.
    let suffix = format!(" at line {} column {}", err.line(), err.column());
    let message = full.strip_suffix(&suffix).unwrap_or(&full);
    let (line, column) = locate::char_column(text, err.line(), err.column());
    let offset = locate::byte_offset(text, err.line(), err.column());
    let at = text.get(offset.saturating_sub(1)..).unwrap_or("");
    let (code, message, hint) = match (err.classify(), message) {
        (serde_json::error::Category::Eof, _) if text.trim().is_empty() => (
            "invalid-json",
            "the file is empty".to_owned(),
            "a schema file holds one JSON value, e.g. `{}` (a schema that accepts anything)".to_owned(),
        ),
        (serde_json::error::Category::Eof, _) => {
            ("invalid-json", format!("invalid JSON: {message}"), "the file ends early: look for an unclosed `{`, `[` or string".to_owned())
        }
        (_, "number out of range") => {
            let start = text[..offset.min(text.len())]
                .rfind(|c: char| !(c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E')))
                .map_or(0, |i| i + 1);
            let end = text[start..]
                .find(|c: char| !(c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E')))
                .map_or(text.len(), |i| start + i);
            let number = &text[start..end];
            let (line, column) = locate::line_column(text, start);
            let diagnostic = Diagnostic::new(
                "number-out-of-range",
                display,
                "",
                format!(
                    "the number {number} is valid JSON, but beyond the range of a 64-bit float (about ±1.8e308), in which schemac reads numbers"
                ),
            );
            return diagnostic.at(line, column).with_hint("write a number within ±1.8e308; no schema needs a larger bound than that");
        }
        (_, "recursion limit exceeded") => (
            "too-deep",
            "the JSON is nested deeper than 127 arrays and objects".to_owned(),
            "schemac reads JSON nested at most 127 levels deep (serde_json's limit), which keeps the compiler's stack bounded; \
             move deep parts into `$defs` and refer to them with `$ref`"
                .to_owned(),
        ),
        _ if display.ends_with(".yaml") || display.ends_with(".yml") => (
            "invalid-json",
            format!("invalid JSON: {message}"),
            "schemac reads JSON Schemas written as JSON, not YAML: convert the file to JSON".to_owned(),
        ),
        _ if at.starts_with('\u{feff}') => (
            "invalid-json",
            format!("invalid JSON: {message}"),
            "the file starts with more than one byte order mark (U+FEFF): remove them".to_owned(),
        ),
        _ if ["NaN", "Infinity", "-Infinity"].iter().any(|word| at.starts_with(word)) => (
            "invalid-json",
            format!("invalid JSON: {message}"),
            "`NaN` and `Infinity` are not JSON numbers; a schema can only use finite numbers".to_owned(),
        ),
        _ if at.starts_with("//") || at.starts_with("/*") => (
            "invalid-json",
            format!("invalid JSON: {message}"),
            "JSON has no comments: remove them, or move the text into a `description` or `$comment`".to_owned(),
        ),
        (_, "trailing comma") => {
            ("invalid-json", format!("invalid JSON: {message}"), "remove the comma after the last member or item".to_owned())
        }
        _ => (
            "invalid-json",
            format!("invalid JSON: {message}"),
            "schemas must be strict JSON: no comments, no trailing commas, strings and keys in double quotes".to_owned(),
        ),
    };
    Diagnostic::new(code, display, "", message).at(line, column).with_hint(hint)
}

/// The diagnostic for bytes that are not UTF-8 from byte `valid` on.
fn not_utf8(display: &str, bytes: &[u8], valid: usize) -> Diagnostic {
    let (line, column) = locate::line_column(&String::from_utf8_lossy(&bytes[..valid]), valid);
    let utf16 = bytes.starts_with(&[0xff, 0xfe]) || bytes.starts_with(&[0xfe, 0xff]) || bytes.get(..2).is_some_and(|two| two.contains(&0));
    let hint = if utf16 {
        "the file looks like UTF-16; JSON text must be encoded as UTF-8: save it as UTF-8"
    } else {
        "JSON text must be encoded as UTF-8; the file may be in Latin-1 or Windows-1252: save it as UTF-8"
    };
    let message = format!("the file is not UTF-8 (invalid byte 0x{:02x} at offset {valid})", bytes.get(valid).copied().unwrap_or(0));
    Diagnostic::new("invalid-json", display, "", message).at(line, column).with_hint(hint)
}

/// The diagnostic for a key that appears again in the same object.
fn duplicate_key(display: &str, text: &str, duplicate: &locate::DuplicateKey) -> Diagnostic {
    let (first_line, first_column) = locate::line_column(text, duplicate.first);
    let (line, column) = locate::line_column(text, duplicate.again);
    let message = format!("the key {:?} appears twice in one object (first at {first_line}:{first_column})", duplicate.key);
    Diagnostic::new("duplicate-key", display, duplicate.pointer.clone(), message).at(line, column).with_hint(
        "JSON tools disagree on which of the two counts (serde_json, and so schemac, would silently keep the last one): \
         remove one, or merge them",
    )
}

/// What `metadata` is when it is not a regular file.
fn not_a_file(metadata: &Metadata) -> Option<&'static str> {
    let kind = metadata.file_type();
    if kind.is_file() {
        return None;
    }
    if kind.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if kind.is_fifo() {
            return Some("a FIFO (named pipe)");
        }
        if kind.is_char_device() || kind.is_block_device() {
            return Some("a device");
        }
        if kind.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a regular file")
}

/// The first symlink along `path` (the path itself or a directory on the way) that leads back
/// to itself, which the OS reports only as "too many levels of symbolic links".
fn symlink_loop(path: &Path) -> Option<PathBuf> {
    let mut prefixes: Vec<&Path> = path.ancestors().filter(|p| !p.as_os_str().is_empty()).collect();
    prefixes.reverse();
    prefixes.into_iter().find(|prefix| loops(prefix)).map(Path::to_path_buf)
}

/// Whether following the symlink at `link` (and the links it leads to) comes back to one
/// already followed, or goes on longer than the 40 links Linux follows.
fn loops(link: &Path) -> bool {
    let mut seen = HashSet::new();
    let mut current = link.to_path_buf();
    for _ in 0..40 {
        let Ok(target) = fs::read_link(&current) else { return false };
        if !seen.insert(current.clone()) {
            return true;
        }
        let base = current.parent().unwrap_or(Path::new(""));
        let mut next = PathBuf::new();
        for component in base.join(target).components() {
            match component {
                Component::CurDir => {}
                Component::ParentDir if matches!(next.components().next_back(), Some(Component::Normal(_))) => {
                    next.pop();
                }
                other => next.push(other),
            }
        }
        current = next;
    }
    true
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Fixture;

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
        let got: Vec<_> = docs.iter().map(|d| (d.id, d.display.as_str(), d.draft, d.is_input)).collect();
        assert_eq!(
            got,
            [
                (DocId(0), "a.json", Draft::Draft2020_12, true),
                (DocId(1), "b.json", Draft::Draft7, true),
                (DocId(2), "c.json", Draft::Draft2020_12, true),
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
    fn a_directory_both_mapped_and_in_the_catalog_is_read_once_and_answers_to_both() {
        let fx =
            Fixture::new(&[("main.json", r#"{"$ref": "http://example.com/other.json"}"#), ("remote/other.json", r#"{"type": "string"}"#)]);
        let mut input = mapped_input(&fx);
        input.catalog_dirs = vec![fx.path("remote")];
        let docs = load_ok(&input);
        assert_eq!(docs.len(), 2, "{docs:#?}");
        assert_eq!(docs[1].aliases, ["http://example.com/other.json"]);
        let registry = crate::resolve::Registry::new(docs).unwrap_or_else(|d| panic!("index: {d:#?}"));
        assert!(registry.lookup_uri("http://example.com/other.json").is_some());
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
        assert_eq!((docs[1].is_input, docs[1].path.ends_with("lib/common.json")), (false, true));
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

    #[test]
    fn refs_read_only_below_the_roots() {
        let fx = Fixture::new(&[
            (
                "in/main.json",
                "{\n  \"properties\": {\n    \"a\": {\"$ref\": \"../outside/x.json\"},\n    \"b\": {\"$ref\": \"file:///etc/passwd\"}\n  }\n}",
            ),
            ("in/sub/ok.json", "{}"),
            ("outside/x.json", r#"{"type": "string"}"#),
        ]);
        let input = fx.inputs(&["in/main.json"]);
        let diagnostics = load_errors(&input);
        assert_eq!(
            summary(&diagnostics),
            ["in/main.json:3:19 outside-roots /properties/a/$ref", "in/main.json:4:19 outside-roots /properties/b/$ref"]
        );
        let message = &diagnostics[0].message;
        assert!(message.starts_with("`../outside/x.json` names the file "), "{message}");
        assert!(
            message.contains(&fx.path("in").display().to_string()) && message.contains("the directory of an input schema"),
            "{message}"
        );
        assert!(diagnostics[0].hint.as_deref().is_some_and(|h| h.contains("--allow-root")));
        assert!(diagnostics[1].message.contains("/etc/passwd"), "{}", diagnostics[1].message);

        // Below the input's directory, and below an allowed root, files are read.
        let fx = Fixture::new(&[
            ("in/main.json", r#"{"properties": {"a": {"$ref": "sub/ok.json"}, "b": {"$ref": "../outside/x.json"}}}"#),
            ("in/sub/ok.json", "{}"),
            ("outside/x.json", r#"{"type": "string"}"#),
        ]);
        let mut input = fx.inputs(&["in/main.json"]);
        input.allowed_roots = vec![fx.path("outside")];
        assert_eq!(load_ok(&input).len(), 3);
        input.allowed_roots = vec![fx.path("nowhere")];
        let diagnostics = load_errors(&input);
        assert_eq!(diagnostics[0].code, "io");
        assert!(diagnostics[0].message.contains("nowhere"), "{}", diagnostics[0].message);
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_resolved_before_the_check() {
        let fx = Fixture::new(&[
            ("main.json", r#"{"properties": {"a": {"$ref": "http://example.com/x.json"}, "b": {"$ref": "inside.json"}}}"#),
            ("remote/ok.json", "{}"),
            ("cat/ok.json", r#"{"$id": "urn:ok"}"#),
            ("elsewhere/secret.json", r#"{"type": "string"}"#),
        ]);
        let link = |target: &str, name: &str| std::os::unix::fs::symlink(fx.path(target), fx.path(name)).expect("symlink");
        link("elsewhere/secret.json", "remote/x.json");
        link("elsewhere/secret.json", "cat/linked.json");
        link("elsewhere", "cat/dir");
        link("remote/ok.json", "inside.json");
        let mut input = Input { schemas: vec![fx.source("main.json")], ..mapped_input(&fx) };
        input.schemas[0].path = fx.path("main.json");
        input.catalog_dirs = vec![fx.path("cat")];
        // `main.json`'s directory is the fixture's, which holds `elsewhere/`: confine to `main/`.
        std::fs::create_dir(fx.path("main")).expect("mkdir");
        std::fs::rename(fx.path("main.json"), fx.path("main/main.json")).expect("move");
        std::fs::rename(fx.path("inside.json"), fx.path("main/inside.json")).expect("move");
        input.schemas[0].path = fx.path("main/main.json");
        let diagnostics = load_errors(&input);
        let got: Vec<(&str, &str)> = diagnostics.iter().map(|d| (d.code, d.pointer.as_str())).collect();
        // The linked directory, the linked catalog file and the mapped link are refused; the
        // link to a file below a root (`remote/ok.json`) is read.
        assert_eq!(got, [("outside-roots", ""), ("outside-roots", ""), ("outside-roots", "/properties/a/$ref")], "{diagnostics:#?}");
        assert!(diagnostics[2].message.contains(&fx.path("elsewhere/secret.json").display().to_string()), "{}", diagnostics[2].message);
    }

    #[cfg(unix)]
    #[test]
    fn only_regular_files_within_the_limit_are_read() {
        let fx = Fixture::new(&[
            (
                "main.json",
                r#"{"properties": {"a": {"$ref": "pipe.json"}, "b": {"$ref": "loop.json"}, "c": {"$ref": "dangling.json"}, "d": {"$ref": "big.json"}}}"#,
            ),
            (
                "big.json",
                r#"{"description": "a schema of more than 200 bytes ....................................................................................................................................................................."}"#,
            ),
            ("dir.json/x", ""),
        ]);
        let status = std::process::Command::new("mkfifo").arg(fx.path("pipe.json")).status().expect("mkfifo runs");
        assert!(status.success(), "mkfifo failed");
        std::os::unix::fs::symlink("loop.json", fx.path("loop.json")).expect("symlink");
        std::os::unix::fs::symlink("nothing.json", fx.path("dangling.json")).expect("symlink");
        let mut input = fx.inputs(&["main.json", "dir.json", "pipe.json", "loop.json"]);
        input.max_file_size = 200;
        let diagnostics = load_errors(&input);
        let got: Vec<(&str, &str, &str)> = diagnostics.iter().map(|d| (d.code, d.file.as_str(), d.pointer.as_str())).collect();
        assert_eq!(
            got,
            [
                ("not-a-file", "dir.json", ""),
                ("not-a-file", "pipe.json", ""),
                ("symlink-loop", "loop.json", ""),
                ("not-a-file", "main.json", "/properties/a/$ref"),
                // The loop through the ref is named as such, not as a missing file.
                ("symlink-loop", "main.json", "/properties/b/$ref"),
                ("io", "main.json", "/properties/c/$ref"),
                ("file-too-large", "main.json", "/properties/d/$ref"),
            ],
            "{diagnostics:#?}"
        );
        let messages: Vec<&str> = diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert!(messages[0].ends_with("dir.json is a directory, not a schema file"), "{}", messages[0]);
        assert!(messages[1].ends_with("is a FIFO (named pipe), not a schema file"), "{}", messages[1]);
        assert!(messages[2].ends_with("loop.json is a symlink that leads back to itself"), "{}", messages[2]);
        assert!(messages[5].ends_with("is a symlink to nothing.json, which does not exist"), "{}", messages[5]);
        assert!(messages[6].contains("more than the limit of 200 bytes"), "{}", messages[6]);
        assert!(diagnostics[0].hint.as_deref().is_some_and(|h| h.contains("--schema-dir")), "{:?}", diagnostics[0].hint);
    }

    #[test]
    fn errors_in_a_referenced_file_name_the_ref() {
        let fx = Fixture::new(&[("main.json", "{\n  \"$ref\": \"dep.json\"\n}"), ("dep.json", "{,}")]);
        let diagnostics = load_errors(&fx.inputs(&["main.json"]));
        assert_eq!(summary(&diagnostics), [format!("{}:1:2 invalid-json ", fx.path("dep.json").display())]);
        assert!(diagnostics[0].message.ends_with("(read for `dep.json` at main.json:2:11 /$ref)"), "{}", diagnostics[0].message);
    }

    #[test]
    fn every_file_read_is_a_source() {
        let fx = Fixture::new(&[
            ("main.json", r#"{"$ref": "lib/a.json"}"#),
            ("lib/a.json", r#"{"$ref": "http://example.com/b.json"}"#),
            ("remote/b.json", "{}"),
            ("cat/c.json", r#"{"$id": "urn:c"}"#),
        ]);
        let mut input = mapped_input(&fx);
        input.catalog_dirs = vec![fx.path("cat")];
        let loaded = load_with_sources(&input, Draft::Draft2020_12).unwrap_or_else(|d| panic!("{d:#?}"));
        let names: Vec<&str> = loaded.sources.iter().map(|source| source.display.as_str()).collect();
        assert_eq!(names.len(), 4, "{names:?}");
        for (source, expected) in loaded.sources.iter().zip(["main.json", "cat/c.json", "lib/a.json", "remote/b.json"]) {
            let id = crate::source::FileId::of(&fx.path(expected)).expect("exists");
            assert!(source.id.is_same_file(&id), "{} is not {expected}", source.display);
        }
        // Embedded metaschemas are not files.
        let fx = Fixture::new(&[("main.json", r#"{"$ref": "https://json-schema.org/draft/2020-12/schema"}"#)]);
        let loaded = load_with_sources(&fx.inputs(&["main.json"]), Draft::Draft2020_12).unwrap_or_else(|d| panic!("{d:#?}"));
        assert!(loaded.docs.len() > 1);
        assert_eq!(loaded.sources.len(), 1);
    }

    #[test]
    fn duplicate_keys_are_errors_with_both_positions() {
        let fx = Fixture::new(&[(
            "main.json",
            "{\n  \"type\": \"object\",\n  \"properties\": {\"a\": {}, \"b\": {}, \"a\": {\"type\": \"string\"}},\n  \"type\": \"string\"\n}",
        )]);
        let diagnostics = load_errors(&fx.inputs(&["main.json"]));
        assert_eq!(summary(&diagnostics), ["main.json:3:36 duplicate-key /properties/a", "main.json:4:3 duplicate-key /type"]);
        assert_eq!(diagnostics[0].message, "the key \"a\" appears twice in one object (first at 3:18)");
        assert!(diagnostics[1].hint.as_deref().is_some_and(|h| h.contains("last one")), "{:?}", diagnostics[1].hint);
    }

    #[test]
    fn json_errors_say_what_they_most_likely_are() {
        let deep = format!("{}{}", "[".repeat(128), "]".repeat(128));
        let fx = Fixture::new(&[
            ("empty.json", " \n"),
            ("nan.json", "{\"maximum\": NaN}"),
            ("big.json", "{\"maximum\": -1.5e400}"),
            ("deep.json", &deep),
            ("comment.json", "{\n  // a comment\n}"),
            ("trailing.json", "{\"a\": 1,}"),
        ]);
        std::fs::write(fx.path("utf16.json"), b"\xff\xfe{\x00}\x00").expect("write");
        let input = fx.inputs(&["empty.json", "nan.json", "big.json", "deep.json", "comment.json", "trailing.json", "utf16.json"]);
        let diagnostics = load_errors(&input);
        assert_eq!(
            summary(&diagnostics),
            [
                "empty.json:2:1 invalid-json ",
                "nan.json:1:13 invalid-json ",
                "big.json:1:13 number-out-of-range ",
                "deep.json:1:128 too-deep ",
                "comment.json:2:3 invalid-json ",
                "trailing.json:1:9 invalid-json ",
                "utf16.json:1:1 invalid-json ",
            ]
        );
        let hint = |i: usize| diagnostics[i].hint.clone().unwrap_or_default();
        assert_eq!(diagnostics[0].message, "the file is empty");
        assert!(hint(1).contains("`NaN` and `Infinity` are not JSON"), "{}", hint(1));
        assert!(diagnostics[2].message.starts_with("the number -1.5e400 is valid JSON, but beyond the range of a 64-bit float"));
        assert!(!hint(2).contains("comments"), "{}", hint(2));
        assert!(diagnostics[3].message.contains("deeper than 127"), "{}", diagnostics[3].message);
        assert!(hint(4).starts_with("JSON has no comments"), "{}", hint(4));
        assert!(hint(5).starts_with("remove the comma"), "{}", hint(5));
        assert!(hint(6).contains("UTF-16"), "{}", hint(6));
    }

    #[test]
    fn a_chain_of_files_loads_every_link() {
        let files: Vec<(String, String)> = (0..300)
            .map(|i| {
                (format!("f{i}.json"), if i < 299 { format!(r#"{{"items": {{"$ref": "f{}.json"}}}}"#, i + 1) } else { "{}".to_owned() })
            })
            .collect();
        let borrowed: Vec<(&str, &str)> = files.iter().map(|(name, text)| (name.as_str(), text.as_str())).collect();
        let fx = Fixture::new(&borrowed);
        let docs = load_ok(&fx.inputs(&["f0.json"]));
        assert_eq!(docs.len(), 300);
        assert!(docs[299].path.ends_with("f299.json"), "{}", docs[299].path.display());
    }
}
