//! `pattern` keywords as statics of generated code: an anchored run of ASCII classes as data,
//! any other pattern as its source and translation, compiled on first use.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::ir::Pattern;
use crate::pattern::AnchoredPart;

/// A `static` for a pattern, named `name`.
pub(super) fn pattern_static(name: &proc_macro2::Ident, pattern: &Pattern) -> TokenStream {
    pattern_static_in(&quote!(schemac_runtime), name, pattern)
}

/// `pattern_static` with the runtime crate spelled `rt` (the derive macro writes
/// `::schemac_runtime`). An anchored run of ASCII classes (`^run_[0-9a-f]{32}$`) is decided
/// here and emitted as its parts, which the runtime only executes; any other pattern as its
/// source and its `regex` or (for lookaround and backreferences) `fancy-regex` translation,
/// compiled on first use.
pub fn pattern_static_in(rt: &TokenStream, name: &proc_macro2::Ident, pattern: &Pattern) -> TokenStream {
    let source = &pattern.source;
    let p = quote!(#rt::__private::pattern);
    if let Some(anchored) = pattern.translated.as_deref().and_then(crate::pattern::anchored) {
        let parts = anchored.parts.iter().map(|part| match part {
            AnchoredPart::Literal(bytes) => {
                let bytes = Literal::byte_string(bytes);
                quote!(#p::Part::Literal(#bytes))
            }
            AnchoredPart::Run { ranges, min, max } => {
                let ranges = ranges.iter().map(|&(start, end)| {
                    let (start, end) = (Literal::byte_character(start), Literal::byte_character(end));
                    quote!((#start, #end))
                });
                let min = Literal::u32_unsuffixed(*min);
                match max {
                    Some(max) => {
                        let max = Literal::u32_unsuffixed(*max);
                        quote!(#p::Part::Run(#p::Run::new(&[#(#ranges),*], #min, #max)))
                    }
                    None => quote!(#p::Part::Run(#p::Run::at_least(&[#(#ranges),*], #min))),
                }
            }
        });
        let to_end = anchored.to_end;
        return quote! {
            static #name: #p::Pattern = #p::Pattern::anchored(#source, &[#(#parts),*], #to_end);
        };
    }
    let translated = match &pattern.translated {
        Some(t) => quote!(::core::option::Option::Some(#t)),
        None => match crate::pattern::bounded(source) {
            // Lookaround or backreferences: a backtracking engine, with a step limit.
            Some(bounded) => return quote! { static #name: #p::Pattern = #p::Pattern::bounded(#source, #bounded); },
            None => quote!(::core::option::Option::None),
        },
    };
    quote! {
        static #name: #p::Pattern = #p::Pattern::new(#source, #translated);
    }
}
