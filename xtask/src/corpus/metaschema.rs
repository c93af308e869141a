//! The official metaschemas as targets of their own: each is compiled by schemac like a
//! catalog schema, and every schema file of the corpus that declares that draft in `$schema`
//! is one of its documents. Real schemas are large, varied documents full of numbers (bounds
//! beyond 2^53, `multipleOf` fractions), patterns and nested applicators: reading each
//! losslessly with the metaschema's generated types is a fidelity test nobody here wrote.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde_json::Value;

/// The folder of the embedded metaschemas, below the checkout.
pub const DIR: &str = "crates/schemac-model/metaschemas";

/// The metaschema targets: the target's name, its file below [`DIR`], and the URI its
/// schemas' `$schema` names (scheme and empty fragment aside).
pub const TARGETS: [(&str, &str, &str); 5] = [
    ("metaschema-draft-04", "draft-04/schema.json", "json-schema.org/draft-04/schema"),
    ("metaschema-draft-06", "draft-06/schema.json", "json-schema.org/draft-06/schema"),
    ("metaschema-draft-07", "draft-07/schema.json", "json-schema.org/draft-07/schema"),
    ("metaschema-2019-09", "draft/2019-09/schema.json", "json-schema.org/draft/2019-09/schema"),
    ("metaschema-2020-12", "draft/2020-12/schema.json", "json-schema.org/draft/2020-12/schema"),
];

/// The folder of a metaschema target's documents in ids: `metaschema/NAME/FILE.json`.
pub const FOLDER: &str = "metaschema";

/// The metaschema file of a target, if it is a metaschema target.
pub fn file(root: &Path, target: &str) -> Option<PathBuf> {
    TARGETS.iter().find(|(name, ..)| *name == target).map(|(_, file, _)| root.join(DIR).join(file))
}

/// The metaschema target whose URI a `$schema` value names, if any.
pub fn target_of_schema(dialect: &str) -> Option<&'static str> {
    let uri = dialect.trim_end_matches('#');
    let uri = uri.strip_prefix("https://").or_else(|| uri.strip_prefix("http://"))?;
    TARGETS.iter().find(|(_, _, u)| *u == uri).map(|(name, ..)| *name)
}

/// The corpus's schema files (`schemas/json/*.json`) that declare the draft of `target`, by
/// file name.
pub fn documents(schema_dir: &Path, target: &str) -> Result<Vec<(String, String)>> {
    let mut files: Vec<PathBuf> = fs::read_dir(schema_dir)
        .with_context(|| format!("cannot list {}", schema_dir.display()))?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .with_context(|| format!("cannot list {}", schema_dir.display()))?;
    files.retain(|path| path.extension().is_some_and(|e| e == "json"));
    files.sort();
    let mut documents = Vec::new();
    for path in files {
        let text = fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
        let dialect =
            serde_json::from_str::<Value>(&text).ok().and_then(|value| value.get("$schema").and_then(Value::as_str).map(str::to_owned));
        if dialect.as_deref().and_then(target_of_schema) == Some(target) {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            documents.push((name, text));
        }
    }
    Ok(documents)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dialects_name_their_target_whatever_the_scheme_and_fragment() {
        assert_eq!(target_of_schema("http://json-schema.org/draft-07/schema#"), Some("metaschema-draft-07"));
        assert_eq!(target_of_schema("https://json-schema.org/draft-07/schema"), Some("metaschema-draft-07"));
        assert_eq!(target_of_schema("https://json-schema.org/draft/2020-12/schema"), Some("metaschema-2020-12"));
        assert_eq!(target_of_schema("http://json-schema.org/draft-04/schema#"), Some("metaschema-draft-04"));
        assert_eq!(target_of_schema("http://json-schema.org/schema#"), None);
        assert_eq!(target_of_schema("json-schema.org/draft-07/schema"), None);
    }

    #[test]
    fn every_target_file_is_an_embedded_metaschema() {
        let root = crate::codegen::project_root();
        for (name, ..) in TARGETS {
            let path = file(&root, name).unwrap();
            assert!(path.is_file(), "{}", path.display());
        }
        assert_eq!(file(&root, "cargo"), None);
    }
}
