//! JSON pointers read as schema grammar: which keyword each step passes through.

use super::Keyword;

/// How a keyword holds its subschemas, for reading a pointer through it.
enum Step {
    /// One schema (`not`, `items` as a schema, ...).
    One,
    /// A schema per name (`properties`, `$defs`, ...).
    Named,
    /// A schema per index (`allOf`, `prefixItems`, ...).
    Indexed,
    /// No subschemas: the pointer leaves the schema grammar here.
    None,
}

fn step(keyword: Keyword) -> Step {
    match keyword {
        Keyword::Properties
        | Keyword::PatternProperties
        | Keyword::DependentSchemas
        | Keyword::Dependencies
        | Keyword::Defs
        | Keyword::Definitions => Step::Named,
        Keyword::AllOf | Keyword::AnyOf | Keyword::OneOf | Keyword::PrefixItems => Step::Indexed,
        Keyword::Items
        | Keyword::AdditionalItems
        | Keyword::AdditionalProperties
        | Keyword::Not
        | Keyword::If
        | Keyword::Then
        | Keyword::Else
        | Keyword::Contains
        | Keyword::PropertyNames
        | Keyword::UnevaluatedProperties
        | Keyword::UnevaluatedItems
        | Keyword::ContentSchema => Step::One,
        Keyword::Schema
        | Keyword::Id
        | Keyword::LegacyId
        | Keyword::Anchor
        | Keyword::DynamicAnchor
        | Keyword::RecursiveAnchor
        | Keyword::Vocabulary
        | Keyword::Comment
        | Keyword::Ref
        | Keyword::DynamicRef
        | Keyword::RecursiveRef
        | Keyword::Type
        | Keyword::Enum
        | Keyword::Const
        | Keyword::MultipleOf
        | Keyword::Maximum
        | Keyword::ExclusiveMaximum
        | Keyword::Minimum
        | Keyword::ExclusiveMinimum
        | Keyword::MaxLength
        | Keyword::MinLength
        | Keyword::Pattern
        | Keyword::MaxItems
        | Keyword::MinItems
        | Keyword::UniqueItems
        | Keyword::MaxContains
        | Keyword::MinContains
        | Keyword::MaxProperties
        | Keyword::MinProperties
        | Keyword::Required
        | Keyword::DependentRequired
        | Keyword::Format
        | Keyword::ContentEncoding
        | Keyword::ContentMediaType
        | Keyword::Title
        | Keyword::Description
        | Keyword::Default
        | Keyword::Deprecated
        | Keyword::ReadOnly
        | Keyword::WriteOnly
        | Keyword::Examples => Step::None,
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
