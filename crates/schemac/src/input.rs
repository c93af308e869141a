//! What to compile: the input schemas, each with the Rust module its types go into and its
//! root type's name, and where the front end may read the files they refer to.

use std::path::PathBuf;

pub use schemac_model::{DEFAULT_MAX_FILE_SIZE, UrlMap};

/// What to compile: [`Input::new`] with the schemas, then a setter per setting (or assign
/// the public fields).
///
/// Files are read only from the roots: the directory of each input schema (and below),
/// `catalog_dirs`, the directories of `maps`, and `allowed_roots`, each with its symlinks
/// resolved. A ref to any other file is an error, as is a file that is not a regular file or is
/// larger than `max_file_size`.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Input {
    /// The schemas to compile; each becomes a module.
    pub schemas: Vec<SchemaSource>,
    /// Directories whose schemas join the catalog (by `$id`) so refs can reach them.
    pub catalog_dirs: Vec<PathBuf>,
    /// Refs under a URL prefix resolve to files under a directory; nothing is fetched.
    pub maps: Vec<UrlMap>,
    /// More directories whose files refs may read (`--allow-root`, a project's schema roots).
    pub allowed_roots: Vec<PathBuf>,
    /// The largest schema file read, in bytes; a larger one is an error.
    pub max_file_size: u64,
}

impl Default for Input {
    fn default() -> Self {
        Input {
            schemas: Vec::new(),
            catalog_dirs: Vec::new(),
            maps: Vec::new(),
            allowed_roots: Vec::new(),
            max_file_size: DEFAULT_MAX_FILE_SIZE,
        }
    }
}

/// One schema file to compile: [`SchemaSource::new`], then a setter per setting.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct SchemaSource {
    /// Where to read it.
    pub path: PathBuf,
    /// How to name it in errors and generated headers (e.g. `schemas/madoo/attempts-report.v1.json`).
    pub display: String,
    /// The module its types go into, e.g. `["madoo", "attempts_report_v1"]`.
    pub module: Vec<String>,
    /// The name of its root type; otherwise taken from `title` or the file name.
    pub root_name: Option<String>,
    /// The JSON pointer of the schema in the file that is the root (`""`, the usual: the file's
    /// schema itself). Only what that schema reaches is compiled.
    pub pointer: String,
}

impl Input {
    /// `schemas` to compile, every other setting at its default.
    pub fn new(schemas: impl IntoIterator<Item = SchemaSource>) -> Input {
        Input { schemas: schemas.into_iter().collect(), ..Input::default() }
    }

    /// A directory whose schemas join the catalog (by `$id`) so refs can reach them.
    pub fn catalog_dir(mut self, dir: impl Into<PathBuf>) -> Input {
        self.catalog_dirs.push(dir.into());
        self
    }

    /// Refs under the URL `prefix` resolve to files under `dir`; nothing is fetched.
    pub fn map(mut self, prefix: impl Into<String>, dir: impl Into<PathBuf>) -> Input {
        self.maps.push(UrlMap { prefix: prefix.into(), dir: dir.into() });
        self
    }

    /// One more directory whose files refs may read.
    pub fn allowed_root(mut self, dir: impl Into<PathBuf>) -> Input {
        self.allowed_roots.push(dir.into());
        self
    }

    /// The largest schema file read, in bytes (default [`DEFAULT_MAX_FILE_SIZE`]).
    pub fn max_file_size(mut self, bytes: u64) -> Input {
        self.max_file_size = bytes;
        self
    }

    /// What the model's front end reads: the same files and roots, without the Rust names.
    pub(crate) fn to_model(&self) -> schemac_model::Input {
        schemac_model::Input {
            schemas: self
                .schemas
                .iter()
                .map(|s| schemac_model::SchemaSource { path: s.path.clone(), display: s.display.clone(), pointer: s.pointer.clone() })
                .collect(),
            catalog_dirs: self.catalog_dirs.clone(),
            maps: self.maps.clone(),
            allowed_roots: self.allowed_roots.clone(),
            max_file_size: self.max_file_size,
        }
    }
}

impl SchemaSource {
    /// The schema file at `path`, named by that path in errors and headers, its types at the
    /// top level, the root type named from its `title` or file name.
    pub fn new(path: impl Into<PathBuf>) -> SchemaSource {
        let path = path.into();
        SchemaSource { display: path.display().to_string(), path, ..SchemaSource::default() }
    }

    /// How to name it in errors and generated headers (`schemas/order.json`).
    pub fn display(mut self, name: impl Into<String>) -> SchemaSource {
        self.display = name.into();
        self
    }

    /// The module its types go into (`["madoo", "order"]`); empty: the top level.
    pub fn module<S: Into<String>>(mut self, path: impl IntoIterator<Item = S>) -> SchemaSource {
        self.module = path.into_iter().map(Into::into).collect();
        self
    }

    /// The name of its root type.
    pub fn root_name(mut self, name: impl Into<String>) -> SchemaSource {
        self.root_name = Some(name.into());
        self
    }

    /// The JSON pointer of the schema in the file that is the root (default `""`, the file's
    /// schema itself).
    pub fn pointer(mut self, pointer: impl Into<String>) -> SchemaSource {
        self.pointer = pointer.into();
        self
    }
}
