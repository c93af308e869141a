//! The keyword table: every JSON Schema keyword schemac knows, with the drafts where it exists,
//! its vocabulary, what it does (assertion, applicator, annotation, identifier, reference) and
//! the kind of value it applies to. Lowering, synthesis, the schemars bundling, the derive, the
//! diff and the reference pages all consult this one table.

use std::fmt;

use super::kinds::Kind;
use crate::draft::Draft;

/// A keyword of some draft. Matches over it are exhaustive: a keyword added here is a compile
/// error wherever a reader has not decided what it means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Keyword {
    // Core: identifiers and references.
    Schema,
    Id,
    /// Draft 4's spelling of `$id`.
    LegacyId,
    Anchor,
    DynamicAnchor,
    RecursiveAnchor,
    Vocabulary,
    Comment,
    Defs,
    /// `definitions`, the container before `$defs` (still where refs reach in every draft).
    Definitions,
    Ref,
    DynamicRef,
    RecursiveRef,
    // Applicators.
    AllOf,
    AnyOf,
    OneOf,
    Not,
    If,
    Then,
    Else,
    DependentSchemas,
    /// Draft ≤ 7: each value a list of names (`dependentRequired`) or a schema (`dependentSchemas`).
    Dependencies,
    PrefixItems,
    Items,
    AdditionalItems,
    Contains,
    Properties,
    PatternProperties,
    AdditionalProperties,
    PropertyNames,
    UnevaluatedItems,
    UnevaluatedProperties,
    // Validation.
    Type,
    Enum,
    Const,
    MultipleOf,
    Maximum,
    ExclusiveMaximum,
    Minimum,
    ExclusiveMinimum,
    MaxLength,
    MinLength,
    Pattern,
    MaxItems,
    MinItems,
    UniqueItems,
    MaxContains,
    MinContains,
    MaxProperties,
    MinProperties,
    Required,
    DependentRequired,
    // Format, content and meta-data annotations.
    Format,
    ContentEncoding,
    ContentMediaType,
    ContentSchema,
    Title,
    Description,
    Default,
    Deprecated,
    ReadOnly,
    WriteOnly,
    Examples,
}

/// What a keyword does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Names a resource or an anchor, or says which draft and vocabularies apply.
    Identifier,
    /// Applies the schema it refers to.
    Reference,
    /// Applies subschemas to the instance or its children.
    Applicator,
    /// Decides alone whether the instance is valid.
    Assertion,
    /// Only describes (docs, defaults, examples, `format` unless asserted).
    Annotation,
    /// Holds schemas that apply nowhere by themselves (`$defs`): only refs reach them.
    Container,
}

/// The vocabulary a keyword belongs to, as 2020-12 splits them (older drafts had no
/// vocabularies; their keywords are listed where 2020-12 put them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vocabulary {
    Core,
    Applicator,
    Unevaluated,
    Validation,
    FormatAnnotation,
    Content,
    MetaData,
}

/// The kind of instance a keyword says something about; other kinds pass it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applies {
    /// Any instance (or none: identifiers and containers).
    Any,
    Number,
    String,
    Array,
    Object,
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct Info {
    pub name: &'static str,
    /// The first draft that has the keyword.
    pub since: Draft,
    /// The last draft that has it.
    pub until: Draft,
    pub vocabulary: Vocabulary,
    pub class: Class,
    pub applies: Applies,
}

use Applies as A;
use Class as C;
use Draft::{Draft4 as D4, Draft6 as D6, Draft7 as D7, Draft2019_09 as D2019, Draft2020_12 as D2020};
use Vocabulary as V;

const fn row(name: &'static str, since: Draft, until: Draft, vocabulary: Vocabulary, class: Class, applies: Applies) -> Info {
    Info { name, since, until, vocabulary, class, applies }
}

impl Keyword {
    /// Every keyword, in table order.
    pub const ALL: [Keyword; 63] = [
        Keyword::Schema,
        Keyword::Id,
        Keyword::LegacyId,
        Keyword::Anchor,
        Keyword::DynamicAnchor,
        Keyword::RecursiveAnchor,
        Keyword::Vocabulary,
        Keyword::Comment,
        Keyword::Defs,
        Keyword::Definitions,
        Keyword::Ref,
        Keyword::DynamicRef,
        Keyword::RecursiveRef,
        Keyword::AllOf,
        Keyword::AnyOf,
        Keyword::OneOf,
        Keyword::Not,
        Keyword::If,
        Keyword::Then,
        Keyword::Else,
        Keyword::DependentSchemas,
        Keyword::Dependencies,
        Keyword::PrefixItems,
        Keyword::Items,
        Keyword::AdditionalItems,
        Keyword::Contains,
        Keyword::Properties,
        Keyword::PatternProperties,
        Keyword::AdditionalProperties,
        Keyword::PropertyNames,
        Keyword::UnevaluatedItems,
        Keyword::UnevaluatedProperties,
        Keyword::Type,
        Keyword::Enum,
        Keyword::Const,
        Keyword::MultipleOf,
        Keyword::Maximum,
        Keyword::ExclusiveMaximum,
        Keyword::Minimum,
        Keyword::ExclusiveMinimum,
        Keyword::MaxLength,
        Keyword::MinLength,
        Keyword::Pattern,
        Keyword::MaxItems,
        Keyword::MinItems,
        Keyword::UniqueItems,
        Keyword::MaxContains,
        Keyword::MinContains,
        Keyword::MaxProperties,
        Keyword::MinProperties,
        Keyword::Required,
        Keyword::DependentRequired,
        Keyword::Format,
        Keyword::ContentEncoding,
        Keyword::ContentMediaType,
        Keyword::ContentSchema,
        Keyword::Title,
        Keyword::Description,
        Keyword::Default,
        Keyword::Deprecated,
        Keyword::ReadOnly,
        Keyword::WriteOnly,
        Keyword::Examples,
    ];

    /// The keyword's row of the table.
    pub const fn info(self) -> Info {
        match self {
            Keyword::Schema => row("$schema", D4, D2020, V::Core, C::Identifier, A::Any),
            Keyword::Id => row("$id", D6, D2020, V::Core, C::Identifier, A::Any),
            Keyword::LegacyId => row("id", D4, D4, V::Core, C::Identifier, A::Any),
            Keyword::Anchor => row("$anchor", D2019, D2020, V::Core, C::Identifier, A::Any),
            Keyword::DynamicAnchor => row("$dynamicAnchor", D2020, D2020, V::Core, C::Identifier, A::Any),
            Keyword::RecursiveAnchor => row("$recursiveAnchor", D2019, D2019, V::Core, C::Identifier, A::Any),
            Keyword::Vocabulary => row("$vocabulary", D2019, D2020, V::Core, C::Identifier, A::Any),
            Keyword::Comment => row("$comment", D7, D2020, V::Core, C::Annotation, A::Any),
            Keyword::Defs => row("$defs", D2019, D2020, V::Core, C::Container, A::Any),
            Keyword::Definitions => row("definitions", D4, D7, V::Core, C::Container, A::Any),
            Keyword::Ref => row("$ref", D4, D2020, V::Core, C::Reference, A::Any),
            Keyword::DynamicRef => row("$dynamicRef", D2020, D2020, V::Core, C::Reference, A::Any),
            Keyword::RecursiveRef => row("$recursiveRef", D2019, D2019, V::Core, C::Reference, A::Any),
            Keyword::AllOf => row("allOf", D4, D2020, V::Applicator, C::Applicator, A::Any),
            Keyword::AnyOf => row("anyOf", D4, D2020, V::Applicator, C::Applicator, A::Any),
            Keyword::OneOf => row("oneOf", D4, D2020, V::Applicator, C::Applicator, A::Any),
            Keyword::Not => row("not", D4, D2020, V::Applicator, C::Applicator, A::Any),
            Keyword::If => row("if", D7, D2020, V::Applicator, C::Applicator, A::Any),
            Keyword::Then => row("then", D7, D2020, V::Applicator, C::Applicator, A::Any),
            Keyword::Else => row("else", D7, D2020, V::Applicator, C::Applicator, A::Any),
            Keyword::DependentSchemas => row("dependentSchemas", D2019, D2020, V::Applicator, C::Applicator, A::Object),
            // Split into `dependentRequired` and `dependentSchemas` in 2019-09; a later schema
            // that still writes it means the same to validators (the suite's
            // `optional/dependencies-compatibility`), so it is read in every draft.
            Keyword::Dependencies => row("dependencies", D4, D2020, V::Applicator, C::Applicator, A::Object),
            Keyword::PrefixItems => row("prefixItems", D2020, D2020, V::Applicator, C::Applicator, A::Array),
            Keyword::Items => row("items", D4, D2020, V::Applicator, C::Applicator, A::Array),
            Keyword::AdditionalItems => row("additionalItems", D4, D2019, V::Applicator, C::Applicator, A::Array),
            Keyword::Contains => row("contains", D6, D2020, V::Applicator, C::Applicator, A::Array),
            Keyword::Properties => row("properties", D4, D2020, V::Applicator, C::Applicator, A::Object),
            Keyword::PatternProperties => row("patternProperties", D4, D2020, V::Applicator, C::Applicator, A::Object),
            Keyword::AdditionalProperties => row("additionalProperties", D4, D2020, V::Applicator, C::Applicator, A::Object),
            Keyword::PropertyNames => row("propertyNames", D6, D2020, V::Applicator, C::Applicator, A::Object),
            Keyword::UnevaluatedItems => row("unevaluatedItems", D2019, D2020, V::Unevaluated, C::Applicator, A::Array),
            Keyword::UnevaluatedProperties => row("unevaluatedProperties", D2019, D2020, V::Unevaluated, C::Applicator, A::Object),
            Keyword::Type => row("type", D4, D2020, V::Validation, C::Assertion, A::Any),
            Keyword::Enum => row("enum", D4, D2020, V::Validation, C::Assertion, A::Any),
            Keyword::Const => row("const", D6, D2020, V::Validation, C::Assertion, A::Any),
            Keyword::MultipleOf => row("multipleOf", D4, D2020, V::Validation, C::Assertion, A::Number),
            Keyword::Maximum => row("maximum", D4, D2020, V::Validation, C::Assertion, A::Number),
            Keyword::ExclusiveMaximum => row("exclusiveMaximum", D4, D2020, V::Validation, C::Assertion, A::Number),
            Keyword::Minimum => row("minimum", D4, D2020, V::Validation, C::Assertion, A::Number),
            Keyword::ExclusiveMinimum => row("exclusiveMinimum", D4, D2020, V::Validation, C::Assertion, A::Number),
            Keyword::MaxLength => row("maxLength", D4, D2020, V::Validation, C::Assertion, A::String),
            Keyword::MinLength => row("minLength", D4, D2020, V::Validation, C::Assertion, A::String),
            Keyword::Pattern => row("pattern", D4, D2020, V::Validation, C::Assertion, A::String),
            Keyword::MaxItems => row("maxItems", D4, D2020, V::Validation, C::Assertion, A::Array),
            Keyword::MinItems => row("minItems", D4, D2020, V::Validation, C::Assertion, A::Array),
            Keyword::UniqueItems => row("uniqueItems", D4, D2020, V::Validation, C::Assertion, A::Array),
            Keyword::MaxContains => row("maxContains", D2019, D2020, V::Validation, C::Assertion, A::Array),
            Keyword::MinContains => row("minContains", D2019, D2020, V::Validation, C::Assertion, A::Array),
            Keyword::MaxProperties => row("maxProperties", D4, D2020, V::Validation, C::Assertion, A::Object),
            Keyword::MinProperties => row("minProperties", D4, D2020, V::Validation, C::Assertion, A::Object),
            Keyword::Required => row("required", D4, D2020, V::Validation, C::Assertion, A::Object),
            Keyword::DependentRequired => row("dependentRequired", D2019, D2020, V::Validation, C::Assertion, A::Object),
            Keyword::Format => row("format", D4, D2020, V::FormatAnnotation, C::Annotation, A::String),
            Keyword::ContentEncoding => row("contentEncoding", D7, D2020, V::Content, C::Annotation, A::String),
            Keyword::ContentMediaType => row("contentMediaType", D7, D2020, V::Content, C::Annotation, A::String),
            Keyword::ContentSchema => row("contentSchema", D2019, D2020, V::Content, C::Annotation, A::String),
            Keyword::Title => row("title", D4, D2020, V::MetaData, C::Annotation, A::Any),
            Keyword::Description => row("description", D4, D2020, V::MetaData, C::Annotation, A::Any),
            Keyword::Default => row("default", D4, D2020, V::MetaData, C::Annotation, A::Any),
            Keyword::Deprecated => row("deprecated", D2019, D2020, V::MetaData, C::Annotation, A::Any),
            Keyword::ReadOnly => row("readOnly", D7, D2020, V::MetaData, C::Annotation, A::Any),
            Keyword::WriteOnly => row("writeOnly", D7, D2020, V::MetaData, C::Annotation, A::Any),
            Keyword::Examples => row("examples", D6, D2020, V::MetaData, C::Annotation, A::Any),
        }
    }

    pub const fn name(self) -> &'static str {
        self.info().name
    }

    /// The keyword spelled `name` that means something in `draft`.
    ///
    /// A keyword means something in the drafts of its row. Two kinds are read in every draft,
    /// as validators read them: annotations (a `readOnly` in a draft-04 schema documents it just
    /// the same) and containers (refs reach into `definitions` and `$defs` alike).
    pub fn in_draft(name: &str, draft: Draft) -> Option<Keyword> {
        let keyword = Keyword::from_name(name)?;
        let info = keyword.info();
        let in_row = info.since <= draft && draft <= info.until;
        (in_row || matches!(info.class, Class::Annotation | Class::Container)).then_some(keyword)
    }

    /// The keyword spelled `name` in any draft.
    pub fn from_name(name: &str) -> Option<Keyword> {
        Keyword::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The keywords of a 2019-09 or 2020-12 vocabulary that become annotations when a
    /// metaschema does not use it. `core` is always in use; meta-data, content and format
    /// annotations are annotations anyway, so only applicators and assertions can be removed.
    pub fn removable_with(vocabulary: Vocabulary, draft: Draft) -> impl Iterator<Item = Keyword> {
        Keyword::ALL.into_iter().filter(move |k| {
            let info = k.info();
            let belongs = info.vocabulary == vocabulary
                // 2019-09 put `unevaluated*` in the applicator vocabulary.
                || (draft == Draft::Draft2019_09 && vocabulary == Vocabulary::Applicator && info.vocabulary == Vocabulary::Unevaluated);
            belongs && matches!(info.class, Class::Applicator | Class::Assertion) && info.since <= draft && draft <= info.until
        })
    }

    /// The kind of value the keyword is about, when it is about one kind.
    pub fn applies_to(self) -> Option<Kind> {
        match self.info().applies {
            Applies::Any => None,
            Applies::Number => Some(Kind::Number),
            Applies::String => Some(Kind::String),
            Applies::Array => Some(Kind::Array),
            Applies::Object => Some(Kind::Object),
        }
    }
}

impl Vocabulary {
    /// The vocabulary a 2019-09/2020-12 `$vocabulary` URI names (`None` for unknown ones).
    pub fn from_uri(uri: &str) -> Option<(Draft, Vocabulary)> {
        let (draft, name) = if let Some(name) = uri.strip_prefix("https://json-schema.org/draft/2019-09/vocab/") {
            (Draft::Draft2019_09, name)
        } else {
            (Draft::Draft2020_12, uri.strip_prefix("https://json-schema.org/draft/2020-12/vocab/")?)
        };
        let vocabulary = match (draft, name) {
            (_, "core") => Vocabulary::Core,
            (_, "applicator") => Vocabulary::Applicator,
            (Draft::Draft2020_12, "unevaluated") => Vocabulary::Unevaluated,
            (_, "validation") => Vocabulary::Validation,
            (Draft::Draft2019_09, "format") | (Draft::Draft2020_12, "format-annotation" | "format-assertion") => {
                Vocabulary::FormatAnnotation
            }
            (_, "content") => Vocabulary::Content,
            (_, "meta-data") => Vocabulary::MetaData,
            _ => return None,
        };
        Some((draft, vocabulary))
    }
}

impl fmt::Display for Keyword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a keyword holds its subschemas, for reading a pointer through it.
pub(crate) enum Step {
    /// One schema (`not`, `items` as a schema, ...).
    One,
    /// A schema per name (`properties`, `$defs`, ...).
    Named,
    /// A schema per index (`allOf`, `prefixItems`, ...).
    Indexed,
    /// No subschemas: the pointer leaves the schema grammar here.
    None,
}

pub(crate) fn step(keyword: Keyword) -> Step {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_lists_every_keyword_once_with_a_distinct_name() {
        let mut names: Vec<&str> = Keyword::ALL.iter().map(|k| k.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Keyword::ALL.len());
        for keyword in Keyword::ALL {
            assert_eq!(Keyword::from_name(keyword.name()), Some(keyword));
            assert!(keyword.info().since <= keyword.info().until, "{keyword}");
        }
    }

    #[test]
    fn drafts_decide_what_a_name_means() {
        assert_eq!(Keyword::in_draft("const", Draft::Draft4), None);
        assert_eq!(Keyword::in_draft("const", Draft::Draft6), Some(Keyword::Const));
        assert_eq!(Keyword::in_draft("dependencies", Draft::Draft2019_09), Some(Keyword::Dependencies));
        assert_eq!(Keyword::in_draft("prefixItems", Draft::Draft2019_09), None);
        assert_eq!(Keyword::in_draft("$recursiveRef", Draft::Draft2020_12), None);
        assert_eq!(Keyword::in_draft("id", Draft::Draft7), None);
        // Annotations and containers are read in every draft.
        assert_eq!(Keyword::in_draft("readOnly", Draft::Draft4), Some(Keyword::ReadOnly));
        assert_eq!(Keyword::in_draft("$defs", Draft::Draft7), Some(Keyword::Defs));
        assert_eq!(Keyword::in_draft("x-anything", Draft::Draft2020_12), None);
    }

    #[test]
    fn vocabularies_remove_their_applicators_and_assertions() {
        let names = |v, d| Keyword::removable_with(v, d).map(Keyword::name).collect::<Vec<_>>();
        let applicator_2020 = names(Vocabulary::Applicator, Draft::Draft2020_12);
        assert!(applicator_2020.contains(&"prefixItems") && !applicator_2020.contains(&"unevaluatedItems"));
        assert!(!applicator_2020.contains(&"additionalItems"));
        let applicator_2019 = names(Vocabulary::Applicator, Draft::Draft2019_09);
        assert!(applicator_2019.contains(&"unevaluatedProperties") && applicator_2019.contains(&"additionalItems"));
        assert!(names(Vocabulary::Validation, Draft::Draft2020_12).contains(&"dependentRequired"));
        assert!(names(Vocabulary::MetaData, Draft::Draft2020_12).is_empty());
    }
}
