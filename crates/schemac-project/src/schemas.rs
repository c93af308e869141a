//! The schema files of a crate: found below its roots (a root may be one file), sorted by
//! path, each with the module path segments it gets.

use std::fs;
use std::path::Path;

use super::error::{Context, Error, bail};

/// A schema found under a root.
#[derive(Clone, Debug)]
pub(crate) struct Found {
    /// Root-relative path with `/`, e.g. `schemas/madoo/attempts-report.v1.json`.
    pub(crate) display: String,
    /// Path segments below the root, the last without its extension.
    pub(crate) segments: Vec<String>,
}

/// The paths (relative to `root`, with `/`) of the schemas under `roots`, sorted: what a
/// [`Unit`](crate::Unit) with those roots compiles. Missing roots have none.
pub fn schema_paths(root: &Path, roots: &[String]) -> Result<Vec<String>, Error> {
    Ok(find_schemas(root, roots, false, "")?.into_iter().map(|found| found.display).collect())
}

/// Every schema under the roots, sorted by path so the output does not depend on the order a
/// file system lists directories in.
pub(crate) fn find_schemas(root: &Path, roots: &[String], required: bool, config_file: &str) -> Result<Vec<Found>, Error> {
    let mut found = Vec::new();
    for schema_root in roots {
        let dir = root.join(schema_root);
        // A root may also be one schema file.
        if let Some(stem) = strip_schema_extension(schema_root).filter(|_| dir.is_file()) {
            let stem = stem.rsplit('/').next().unwrap_or(stem);
            found.push(Found { display: schema_root.clone(), segments: vec![stem.to_owned()] });
            continue;
        }
        if !dir.is_dir() {
            if required {
                bail!("{config_file}: schema root `{schema_root}` is not a directory");
            }
            continue;
        }
        let mut relative = Vec::new();
        walk_json(&dir, &mut Vec::new(), &mut relative)?;
        found.extend(relative.into_iter().map(|mut segments| {
            let display = format!("{schema_root}/{}", segments.join("/"));
            if let Some(last) = segments.last_mut() {
                *last = strip_schema_extension(last).unwrap_or(last).to_owned();
            }
            Found { display, segments }
        }));
    }
    found.sort_by(|a, b| a.display.cmp(&b.display));
    Ok(found)
}

/// Collects the paths (as segments below the walk's start) of the schema files (`*.json`,
/// `*.yaml`, `*.yml`) under `dir`.
fn walk_json(dir: &Path, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) -> Result<(), Error> {
    let entries = fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("cannot list {}", dir.display()))?;
        let path = entry.path();
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            bail!("{}: file names must be UTF-8", path.display());
        };
        let file_type = entry.file_type().with_context(|| format!("cannot stat {}", path.display()))?;
        prefix.push(name);
        // `<schema>.examples/` holds a schema's instance fixtures, not schemas.
        if file_type.is_dir() && !prefix.last().is_some_and(|n| n.ends_with(".examples")) {
            walk_json(&path, prefix, out)?;
        } else if prefix.last().is_some_and(|n| strip_schema_extension(n).is_some()) {
            out.push(prefix.clone());
        }
        prefix.pop();
    }
    Ok(())
}

/// `name` without its schema extension (`.json`, `.yaml`, `.yml`); `None` if it has none.
pub(crate) fn strip_schema_extension(name: &str) -> Option<&str> {
    schemac::model::syntax::EXTENSIONS.iter().find_map(|ext| name.strip_suffix(ext)?.strip_suffix('.'))
}
