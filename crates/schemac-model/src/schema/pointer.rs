//! JSON pointers read as schema grammar: which keyword each step passes through.

use super::keyword::{Keyword, Step, step};
use super::{Model, SchemaId};
use crate::doc::Loc;

/// Where a location in a schema document stands in the schema grammar: the schema object whose
/// keyword holds it, and that keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeywordAt {
    pub schema: SchemaId,
    pub keyword: Keyword,
    /// Whether the location is the keyword's whole value (`/additionalProperties`, `/minimum`)
    /// rather than a part of it (`/properties/a`, `/dependentRequired/card`).
    pub whole: bool,
}

impl Model {
    /// The keyword whose value holds `loc` (a keyword's location, or a subschema's), read from
    /// the nearest enclosing schema object of the model, so that a property named like a keyword
    /// (`/properties/minimum`) is not mistaken for one. `None` outside every schema object, and
    /// where that schema has no such keyword (a member that is no keyword in its draft).
    ///
    /// A validator reports where a keyword failed as such a location; this says which keyword.
    pub fn keyword_at(&self, loc: &Loc) -> Option<KeywordAt> {
        let mut end = loc.pointer.len();
        while let Some(slash) = loc.pointer[..end].rfind('/') {
            let parent = Loc { doc: loc.doc, pointer: loc.pointer[..slash].to_owned() };
            if let Some(id) = self.id_at(&parent) {
                let node = self.node(id);
                let schema = node.schema()?;
                let rest = &loc.pointer[slash + 1..];
                let (token, whole) = rest.split_once('/').map_or((rest, true), |(token, _)| (token, false));
                let token = token.replace("~1", "/").replace("~0", "~");
                let keyword = Keyword::in_draft(&token, node.draft).filter(|k| schema.has(*k))?;
                return Some(KeywordAt { schema: id, keyword, whole });
            }
            end = slash;
        }
        None
    }
}

/// The `$defs`/`definitions` key when the schema at `pointer` is declared directly under one.
/// The pointer is read as schema grammar, so a property *named* `$defs` is not mistaken for it.
pub fn defs_key(pointer: &str) -> Option<String> {
    let tokens: Vec<String> = pointer.split('/').skip(1).map(|t| t.replace("~1", "/").replace("~0", "~")).collect();
    let mut key = None;
    let mut i = 0;
    while let Some(token) = tokens.get(i) {
        key = None;
        let keyword = Keyword::from_name(token)?;
        match step(keyword) {
            Step::Named => {
                let name = tokens.get(i + 1)?;
                if matches!(keyword, Keyword::Defs | Keyword::Definitions) {
                    key = Some(name.clone());
                }
                i += 2;
            }
            Step::Indexed => i += 2,
            // `items` is a schema, or (before 2020-12) an array of schemas.
            Step::One if keyword == Keyword::Items && tokens.get(i + 1).is_some_and(|t| is_index(t)) => i += 2,
            // `contentSchema` is read as grammar, but `items`'s tuple index is handled above.
            Step::One => i += 1,
            Step::None => return None,
        }
    }
    key
}

/// The key of the `$defs`/`definitions` entry `pointer` ends in, whatever comes before it
/// (the bundled schema keeps a definition's name).
pub fn entry_key(pointer: &str) -> Option<String> {
    let (parent, key) = pointer.rsplit_once('/')?;
    let keyword = Keyword::from_name(parent.rsplit('/').next()?)?;
    matches!(keyword, Keyword::Defs | Keyword::Definitions).then(|| key.replace("~1", "/").replace("~0", "~"))
}

fn is_index(token: &str) -> bool {
    !token.is_empty() && token.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defs_keys_follow_the_grammar() {
        assert_eq!(defs_key("/$defs/a").as_deref(), Some("a"));
        assert_eq!(defs_key("/definitions/a~1b~0c").as_deref(), Some("a/b~c"));
        assert_eq!(defs_key("/properties/$defs"), None);
        assert_eq!(defs_key("/properties/$defs/$defs/x").as_deref(), Some("x"));
        assert_eq!(defs_key("/items/0/$defs/x").as_deref(), Some("x"));
        assert_eq!(defs_key("/$defs/a/properties/b"), None);
        assert_eq!(defs_key("/components/schemas/a"), None);
        assert_eq!(defs_key(""), None);
    }
}
