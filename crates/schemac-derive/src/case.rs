//! serde's `rename_all` rules, applied exactly as serde_derive applies them, so the names the
//! check compares are the names serde writes.

/// A `rename_all` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

/// Every spelling serde accepts, in serde's order (for the error listing them).
const RULES: &[(&str, RenameRule)] = &[
    ("lowercase", RenameRule::Lower),
    ("UPPERCASE", RenameRule::Upper),
    ("PascalCase", RenameRule::Pascal),
    ("camelCase", RenameRule::Camel),
    ("snake_case", RenameRule::Snake),
    ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
    ("kebab-case", RenameRule::Kebab),
    ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
];

impl RenameRule {
    pub fn parse(name: &str) -> Option<RenameRule> {
        RULES.iter().find(|(spelling, _)| *spelling == name).map(|(_, rule)| *rule)
    }

    /// `"lowercase", "UPPERCASE", ...` for error messages.
    pub fn spellings() -> String {
        RULES.iter().map(|(spelling, _)| format!("\"{spelling}\"")).collect::<Vec<_>>().join(", ")
    }

    /// The rule's own spelling, for hints.
    pub fn spelling(self) -> &'static str {
        RULES.iter().find(|(_, rule)| *rule == self).map_or("", |(spelling, _)| spelling)
    }

    /// The serialized name of a field called `field` (snake_case by convention).
    pub fn apply_to_field(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_owned(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Pascal => {
                let mut pascal = String::new();
                let mut capitalize = true;
                for ch in field.chars() {
                    if ch == '_' {
                        capitalize = true;
                    } else if capitalize {
                        pascal.push(ch.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        pascal.push(ch);
                    }
                }
                pascal
            }
            RenameRule::Camel => lower_first(&RenameRule::Pascal.apply_to_field(field)),
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => RenameRule::ScreamingSnake.apply_to_field(field).replace('_', "-"),
        }
    }

    /// The serialized name of a variant called `variant` (PascalCase by convention).
    pub fn apply_to_variant(self, variant: &str) -> String {
        match self {
            RenameRule::Pascal => variant.to_owned(),
            RenameRule::Lower => variant.to_ascii_lowercase(),
            RenameRule::Upper => variant.to_ascii_uppercase(),
            RenameRule::Camel => lower_first(variant),
            RenameRule::Snake => {
                let mut snake = String::new();
                for (i, ch) in variant.char_indices() {
                    if i > 0 && ch.is_uppercase() {
                        snake.push('_');
                    }
                    snake.push(ch.to_ascii_lowercase());
                }
                snake
            }
            RenameRule::ScreamingSnake => RenameRule::Snake.apply_to_variant(variant).to_ascii_uppercase(),
            RenameRule::Kebab => RenameRule::Snake.apply_to_variant(variant).replace('_', "-"),
            RenameRule::ScreamingKebab => RenameRule::ScreamingSnake.apply_to_variant(variant).replace('_', "-"),
        }
    }
}

fn lower_first(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::RenameRule::{self, *};

    /// serde_derive's own table (`internals/case.rs`).
    #[test]
    fn rules_match_serde() {
        let fields: &[(&str, [&str; 8])] = &[
            ("outcome", ["outcome", "OUTCOME", "Outcome", "outcome", "outcome", "OUTCOME", "outcome", "OUTCOME"]),
            ("very_tasty", ["very_tasty", "VERY_TASTY", "VeryTasty", "veryTasty", "very_tasty", "VERY_TASTY", "very-tasty", "VERY-TASTY"]),
            ("a", ["a", "A", "A", "a", "a", "A", "a", "A"]),
        ];
        let rules = [Lower, Upper, Pascal, Camel, Snake, ScreamingSnake, Kebab, ScreamingKebab];
        for (field, expected) in fields {
            for (rule, want) in rules.iter().zip(expected) {
                assert_eq!(rule.apply_to_field(field), *want, "{rule:?} of field {field}");
            }
        }
        let variants: &[(&str, [&str; 8])] = &[
            ("Outcome", ["outcome", "OUTCOME", "Outcome", "outcome", "outcome", "OUTCOME", "outcome", "OUTCOME"]),
            ("VeryTasty", ["verytasty", "VERYTASTY", "VeryTasty", "veryTasty", "very_tasty", "VERY_TASTY", "very-tasty", "VERY-TASTY"]),
            ("A", ["a", "A", "A", "a", "a", "A", "a", "A"]),
        ];
        for (variant, expected) in variants {
            for (rule, want) in rules.iter().zip(expected) {
                assert_eq!(rule.apply_to_variant(variant), *want, "{rule:?} of variant {variant}");
            }
        }
    }

    #[test]
    fn parses_serde_spellings() {
        assert_eq!(RenameRule::parse("camelCase"), Some(Camel));
        assert_eq!(RenameRule::parse("camelcase"), None);
        assert_eq!(Camel.spelling(), "camelCase");
    }
}
