//! The official metaschemas (drafts 4, 6, 7, 2019-09 and 2020-12 with their vocabulary
//! metaschemas), embedded so that a `$ref` or `$schema` naming one resolves without IO. See
//! `metaschemas/README.md` for where the files come from.

use std::path::PathBuf;

use crate::draft::Draft;
use crate::schema::keyword::{Keyword, Vocabulary};

/// One embedded metaschema: its URI (the `$id` without the empty fragment) and text.
pub(crate) struct Metaschema {
    pub uri: &'static str,
    /// The file under `metaschemas/`.
    pub file: &'static str,
    pub text: &'static str,
}

macro_rules! metaschema {
    ($uri:literal, $file:literal) => {
        Metaschema { uri: $uri, file: $file, text: include_str!(concat!("../metaschemas/", $file)) }
    };
}

/// Where the embedded metaschemas' files are in the source tree: the path their documents
/// carry, which no build needs to watch.
pub(crate) fn dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/metaschemas"))
}

const METASCHEMAS: &[Metaschema] = &[
    metaschema!("http://json-schema.org/draft-04/schema", "draft-04/schema.json"),
    metaschema!("http://json-schema.org/draft-06/schema", "draft-06/schema.json"),
    metaschema!("http://json-schema.org/draft-07/schema", "draft-07/schema.json"),
    metaschema!("https://json-schema.org/draft/2019-09/schema", "draft/2019-09/schema.json"),
    metaschema!("https://json-schema.org/draft/2019-09/meta/applicator", "draft/2019-09/meta/applicator.json"),
    metaschema!("https://json-schema.org/draft/2019-09/meta/content", "draft/2019-09/meta/content.json"),
    metaschema!("https://json-schema.org/draft/2019-09/meta/core", "draft/2019-09/meta/core.json"),
    metaschema!("https://json-schema.org/draft/2019-09/meta/format", "draft/2019-09/meta/format.json"),
    metaschema!("https://json-schema.org/draft/2019-09/meta/meta-data", "draft/2019-09/meta/meta-data.json"),
    metaschema!("https://json-schema.org/draft/2019-09/meta/validation", "draft/2019-09/meta/validation.json"),
    metaschema!("https://json-schema.org/draft/2020-12/schema", "draft/2020-12/schema.json"),
    metaschema!("https://json-schema.org/draft/2020-12/meta/applicator", "draft/2020-12/meta/applicator.json"),
    metaschema!("https://json-schema.org/draft/2020-12/meta/content", "draft/2020-12/meta/content.json"),
    metaschema!("https://json-schema.org/draft/2020-12/meta/core", "draft/2020-12/meta/core.json"),
    metaschema!("https://json-schema.org/draft/2020-12/meta/format-annotation", "draft/2020-12/meta/format-annotation.json"),
    metaschema!("https://json-schema.org/draft/2020-12/meta/format-assertion", "draft/2020-12/meta/format-assertion.json"),
    metaschema!("https://json-schema.org/draft/2020-12/meta/meta-data", "draft/2020-12/meta/meta-data.json"),
    metaschema!("https://json-schema.org/draft/2020-12/meta/unevaluated", "draft/2020-12/meta/unevaluated.json"),
    metaschema!("https://json-schema.org/draft/2020-12/meta/validation", "draft/2020-12/meta/validation.json"),
];

/// The embedded metaschema with the URI `uri` (without fragment; `http` and `https` alike, as
/// both spellings are in use for every draft).
pub(crate) fn find(uri: &str) -> Option<&'static Metaschema> {
    let rest = |u: &'static str| u.trim_start_matches("https://").trim_start_matches("http://");
    let wanted = uri.trim_end_matches('#');
    let wanted = wanted.strip_prefix("https://").or_else(|| wanted.strip_prefix("http://"))?;
    METASCHEMAS.iter().find(|m| rest(m.uri) == wanted)
}

/// The keywords of each vocabulary of 2019-09 and 2020-12 (by its URI) that a schema loses
/// when its metaschema does not use the vocabulary: they are then annotations. `core` is always
/// in use; `meta-data`, `content` and format annotations are annotations anyway. `None` for a
/// vocabulary schemac does not know. Read from the keyword table.
pub(crate) fn vocabulary_keywords(uri: &str) -> Option<Vec<&'static str>> {
    let (draft, vocabulary) = Vocabulary::from_uri(uri)?;
    Some(Keyword::removable_with(vocabulary, draft).map(Keyword::name).collect())
}

/// Every keyword the vocabularies can remove, in either draft that has vocabularies.
pub(crate) fn removable() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for draft in [Draft::Draft2019_09, Draft::Draft2020_12] {
        for vocabulary in [Vocabulary::Applicator, Vocabulary::Unevaluated, Vocabulary::Validation] {
            for keyword in Keyword::removable_with(vocabulary, draft) {
                if !out.contains(&keyword.name()) {
                    out.push(keyword.name());
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_metaschema_is_json_with_its_uri_as_id() {
        for meta in METASCHEMAS {
            let json: serde_json::Value = serde_json::from_str(meta.text).unwrap_or_else(|e| panic!("{}: {e}", meta.file));
            let id = json.get("$id").or_else(|| json.get("id")).and_then(|v| v.as_str()).unwrap_or_default();
            assert_eq!(id.trim_end_matches('#'), meta.uri, "{}", meta.file);
        }
    }

    #[test]
    fn finds_both_schemes_and_the_empty_fragment() {
        assert_eq!(find("http://json-schema.org/draft-07/schema#").map(|m| m.file), Some("draft-07/schema.json"));
        assert_eq!(find("http://json-schema.org/draft/2020-12/schema").map(|m| m.file), Some("draft/2020-12/schema.json"));
        assert_eq!(find("https://json-schema.org/draft/2020-12/meta/core").map(|m| m.file), Some("draft/2020-12/meta/core.json"));
        assert!(find("https://json-schema.org/draft/2020-12/meta/nothing").is_none());
        assert!(find("urn:example").is_none());
    }
}
