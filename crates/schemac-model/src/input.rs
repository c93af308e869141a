//! What the front end reads: the input schemas, the catalog and map directories, the roots
//! below which files may be read, and the largest file it reads.

use std::path::PathBuf;

/// What to read.
///
/// Files are read only from the roots: the directory of each input schema (and below),
/// `catalog_dirs`, the directories of `maps`, and `allowed_roots`, each with its symlinks
/// resolved. A ref to any other file is an error, as is a file that is not a regular file or is
/// larger than `max_file_size`.
#[derive(Clone, Debug)]
pub struct Input {
    /// The schemas to read, each the root of what the model holds.
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

/// The default [`Input::max_file_size`]: 64 MiB.
pub const DEFAULT_MAX_FILE_SIZE: u64 = 64 << 20;

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

/// One schema file to read.
#[derive(Clone, Debug, Default)]
pub struct SchemaSource {
    /// Where to read it.
    pub path: PathBuf,
    /// How to name it in errors and generated headers (e.g. `schemas/madoo/attempts-report.v1.json`).
    pub display: String,
    /// The JSON pointer of the schema in the file that is the root (`""`, the usual: the file's
    /// schema itself). Only what that schema reaches is in the model.
    pub pointer: String,
}

/// `--map URL_PREFIX=DIR`.
#[derive(Clone, Debug)]
pub struct UrlMap {
    pub prefix: String,
    pub dir: PathBuf,
}
