//! Every problem found, collected and reported together: one `compile_error!` per mismatch,
//! each spanned on what it is about.

use std::fmt::Display;

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;

#[derive(Debug, Default)]
pub struct Errors(Vec<syn::Error>);

impl Errors {
    pub fn push(&mut self, error: syn::Error) {
        self.0.push(error);
    }

    /// An error at `span` with a `hint:` line.
    pub fn at(&mut self, span: Span, message: impl Display, hint: impl Display) {
        self.0.push(syn::Error::new(span, format!("{message}\nhint: {hint}")));
    }

    /// An error spanning `tokens` (e.g. a whole type) with a `hint:` line.
    pub fn on(&mut self, tokens: impl ToTokens, message: impl Display, hint: impl Display) {
        self.0.push(syn::Error::new_spanned(tokens, format!("{message}\nhint: {hint}")));
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn to_tokens(&self) -> TokenStream {
        self.0.iter().map(syn::Error::to_compile_error).collect()
    }
}
