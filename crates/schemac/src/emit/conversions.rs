//! String conversions for the types that are strings: string enums get `FromStr`,
//! `TryFrom<&str>`, `TryFrom<String>` and `AsRef<str>` beside their `as_str()` and `Display`;
//! pattern newtypes get `FromStr` beside their `TryFrom`s. A string that is not a value says
//! what was expected.

use proc_macro2::TokenStream;
use quote::quote;

use super::ty::{Ctx, ident};
use crate::ir::{DefId, DefKind, Ty};

pub(super) fn for_def(ctx: &Ctx<'_>, id: DefId) -> TokenStream {
    let def = ctx.def(id);
    let name = ident(&def.name);
    // The runtime's `string_enum!` and `string_newtype!` include these.
    if super::items::uses_string_enum(ctx, id) || super::items::uses_string_newtype(ctx, id) {
        return quote!();
    }
    match &def.kind {
        // An open enum has its own (infallible) conversions.
        DefKind::StringEnum(values) if !ctx.is_open(id) => {
            let expected = format!("one of {}", values.iter().map(|v| format!("{v:?}")).collect::<Vec<_>>().join(", "));
            quote! {
                impl std::str::FromStr for #name {
                    type Err = schemac_runtime::ConstraintError;
                    /// The value whose JSON string is `text`.
                    fn from_str(text: &str) -> Result<Self, schemac_runtime::ConstraintError> {
                        #name::ALL.iter().copied().find(|v| v.as_str() == text).ok_or_else(|| schemac_runtime::ConstraintError::expected(text, #expected))
                    }
                }

                impl TryFrom<&str> for #name {
                    type Error = schemac_runtime::ConstraintError;
                    fn try_from(text: &str) -> Result<Self, schemac_runtime::ConstraintError> {
                        text.parse()
                    }
                }

                impl TryFrom<String> for #name {
                    type Error = schemac_runtime::ConstraintError;
                    fn try_from(text: String) -> Result<Self, schemac_runtime::ConstraintError> {
                        text.parse()
                    }
                }

                impl AsRef<str> for #name {
                    fn as_ref(&self) -> &str {
                        self.as_str()
                    }
                }
            }
        }
        DefKind::Newtype(newtype) if matches!(newtype.inner, Ty::String) => quote! {
            impl std::str::FromStr for #name {
                type Err = schemac_runtime::ConstraintError;
                fn from_str(text: &str) -> Result<Self, schemac_runtime::ConstraintError> {
                    #name::try_from(text)
                }
            }
        },
        _ => quote!(),
    }
}
