//! Open string enums (`Config::open_enums`): a string enum with an `Other(String)` variant that
//! keeps a value the schema does not list, as read, and writes it back. This is a reader-side
//! tolerance that knowingly accepts what the schema rejects, so it is opt-in, said in the
//! type's rustdoc, and `validate()` reports an `Other` value as the `enum` violation it is.

use std::collections::BTreeSet;

use proc_macro2::TokenStream;
use quote::quote;

use super::items::variant_idents;
use super::ty::{Ctx, docs, ident};
use crate::Config;
use crate::ir::{DefId, DefKind, Ir};

/// The string enums that are open: those whose schema says `x-schemac-open-enum: true`, else
/// all of them with `open_enums`, or those of the schemas `open_enums_by_schema` names (by
/// displayed path), which override `open_enums` (and `x-schemac-open-enum: false` all of it).
pub(super) fn open_enums(ir: &Ir, config: &Config) -> BTreeSet<DefId> {
    ir.defs
        .iter()
        .enumerate()
        .filter(|(_, def)| matches!(def.kind, DefKind::StringEnum(_)))
        .filter(|(i, def)| {
            if let Some(&marked) = ir.open_enum_marks.get(&DefId(*i)) {
                return marked;
            }
            let display = ir.sources.documents.get(&def.origin.doc).map(|d| d.display.as_str()).unwrap_or_default();
            config.open_enums_by_schema.get(display).copied().unwrap_or(config.open_enums)
        })
        .map(|(i, _)| DefId(i))
        .collect()
}

/// The enum, its conversions and its `Validate`.
pub(super) fn def(ctx: &Ctx<'_>, id: DefId, values: &[String]) -> TokenStream {
    let def = ctx.def(id);
    let name = ident(&def.name);
    let mut doc_source = def.docs.clone();
    let note = "Open enum: a value the schema does not list is kept as `Other`, exactly as read, and written back \
                unchanged. This is a reader-side tolerance (`open-enums` in `schemac.toml`, or `x-schemac-open-enum` in the \
                schema): the schema rejects such a value, and `validate()` reports it.";
    doc_source.description = Some(match doc_source.description {
        Some(description) => format!("{description}\n\n{note}"),
        None => note.to_owned(),
    });
    let doc = docs(&doc_source, &def.unenforced);
    let variants = variant_idents(values);
    let taken: Vec<String> = variants.iter().map(ToString::to_string).collect();
    let taken: Vec<&str> = taken.iter().map(String::as_str).collect();
    let other = ident(&crate::ident::Namespace::with_reserved(&taken).claim("Other".to_owned()));
    let value_docs = values.iter().map(|v| format!(" `{v:?}`"));
    let expected = format!("one of {}", values.iter().map(|v| format!("{v:?}")).collect::<Vec<_>>().join(", "));
    let keyword = crate::schema::Keyword::Enum.name();
    quote! {
        #doc
        #[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum #name {
            #(#[doc = #value_docs] #variants,)*
            /// A value the schema does not list, as read.
            #other(String),
        }

        impl #name {
            /// Every value the schema lists, in schema order.
            pub const ALL: &'static [#name] = &[#(#name::#variants),*];

            /// The JSON string of this value.
            pub fn as_str(&self) -> &str {
                match self {
                    #(#name::#variants => #values,)*
                    #name::#other(text) => text,
                }
            }

            /// Whether the schema lists this value (it is not `Other`).
            pub fn is_known(&self) -> bool {
                !matches!(self, #name::#other(_))
            }
        }

        impl From<&str> for #name {
            fn from(text: &str) -> Self {
                match text {
                    #(#values => #name::#variants,)*
                    _ => #name::#other(text.to_owned()),
                }
            }
        }

        impl From<String> for #name {
            fn from(text: String) -> Self {
                match #name::from(text.as_str()) {
                    #name::#other(_) => #name::#other(text),
                    known => known,
                }
            }
        }

        impl std::str::FromStr for #name {
            type Err = std::convert::Infallible;
            fn from_str(text: &str) -> Result<Self, std::convert::Infallible> {
                Ok(#name::from(text))
            }
        }

        impl AsRef<str> for #name {
            fn as_ref(&self) -> &str {
                self.as_str()
            }
        }

        impl std::fmt::Display for #name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl serde::Serialize for #name {
            fn serialize<__S: serde::Serializer>(&self, serializer: __S) -> Result<__S::Ok, __S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for #name {
            fn deserialize<__D: serde::Deserializer<'de>>(deserializer: __D) -> Result<Self, __D::Error> {
                <String as serde::Deserialize>::deserialize(deserializer).map(#name::from)
            }
        }

        impl schemac_runtime::Validate for #name {
            fn validate_at(&self, at: &schemac_runtime::__private::validate::Path<'_>, errors: &mut schemac_runtime::ValidationErrors) {
                if let #name::#other(text) = self {
                    let message = format!("{text:?} is not {}", #expected);
                    errors.push(schemac_runtime::ValidationError::new(at.pointer(), #keyword, message));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::compile_one;
    use crate::Config;

    #[test]
    fn the_extension_opens_one_enum_and_a_value_that_is_no_boolean_is_a_warning() {
        let schema =
            |value: &str| format!(r#"{{"type": "object", "properties": {{"e": {{"enum": ["a", "b"], "x-schemac-open-enum": {value}}}}}}}"#);
        let open = compile_one(&schema("true"), &Config::default()).unwrap();
        assert!(open.single_file().contains("Other(::std::string::String)"), "{}", open.single_file());
        assert!(open.warnings.is_empty(), "{:?}", open.warnings);

        let ignored = compile_one(&schema("\"yes\""), &Config::default()).unwrap();
        assert!(!ignored.single_file().contains("Other("), "{}", ignored.single_file());
        let [warning] = ignored.warnings.as_slice() else { panic!("one warning: {:?}", ignored.warnings) };
        assert_eq!((warning.code, warning.pointer.as_str()), ("bad-extension", "/properties/e/x-schemac-open-enum"));
        assert!(warning.message.contains("must be `true` or `false`, not `\"yes\"`"), "{}", warning.message);
    }
}
