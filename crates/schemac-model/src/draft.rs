//! The JSON Schema drafts schemac reads, by their `$schema` URI and their command-line names.

/// JSON Schema drafts. Only the spelling of a few keywords differs between the older ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Draft {
    Draft4,
    Draft6,
    Draft7,
    Draft2019_09,
    Draft2020_12,
}

impl Draft {
    /// Parses the value of `$schema` (with or without a trailing `#`, http or https).
    pub fn from_schema_uri(uri: &str) -> Option<Draft> {
        let uri = uri.trim_end_matches('#').trim_start_matches("https://").trim_start_matches("http://");
        Some(match uri {
            "json-schema.org/draft-04/schema" => Draft::Draft4,
            "json-schema.org/draft-06/schema" => Draft::Draft6,
            "json-schema.org/draft-07/schema" => Draft::Draft7,
            "json-schema.org/draft/2019-09/schema" => Draft::Draft2019_09,
            "json-schema.org/draft/2020-12/schema" => Draft::Draft2020_12,
            _ => return None,
        })
    }

    /// Parses the CLI spelling: `2020-12`, `2019-09`, `7`, `6`, `4`.
    pub fn from_name(name: &str) -> Option<Draft> {
        Some(match name.trim_start_matches("draft").trim_start_matches('-') {
            "4" | "04" => Draft::Draft4,
            "6" | "06" => Draft::Draft6,
            "7" | "07" => Draft::Draft7,
            "2019-09" => Draft::Draft2019_09,
            "2020-12" => Draft::Draft2020_12,
            _ => return None,
        })
    }
}
