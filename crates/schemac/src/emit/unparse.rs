//! A file's text: `prettyplease`, then the runtime's macro calls laid out as Rust.
//!
//! `prettyplease` prints the tokens of a macro call as a paragraph (`Plain:: < String >
//! ::new(); optional count ...`), since it cannot know their grammar. The calls of the
//! runtime's macros are written so that their contents parse as Rust: a brace call
//! (`object! { .. }`) holds statements, a parenthesized one (`json_schema!(..)`) call
//! arguments. Each such call in the printed text is printed again from its tokens as that
//! Rust, a row per statement, so a struct's `Deserialize` reads as its table of properties.

use proc_macro2::TokenStream;

/// The runtime's macros whose calls are laid out as Rust.
const MACROS: &[&str] = &[
    "object",
    "json_schema",
    "string_enum",
    "one_of",
    "first_match",
    "by_kind",
    "newtype",
    "constrained_newtype",
    "checked",
    "refined",
    "tuple",
];

/// The name prefix of the functions that stand in for the runtime's brace calls at the top
/// level while `prettyplease` prints (see [`stand_ins`]).
const STAND_IN: &str = "__schemac_relayout_";

/// `file` as text: `prettyplease`, then [`relayout`].
pub(crate) fn unparse(mut file: syn::File) -> String {
    stand_ins(&mut file.items);
    relayout(&prettyplease::unparse(&file))
}

/// Replaces each brace call of one of [`MACROS`] among `items` (a file's top level) by a
/// function `__schemac_relayout_NAME() { .. }` holding its contents as statements, which
/// `prettyplease` prints as [`layout`] would lay the call out, and [`relayout`] names back.
/// Printing them in place spares printing the contents as a paragraph, then parsing that text
/// and printing it again; the text is the same (at the top level a function's body is printed
/// at four spaces, as [`layout`]'s is).
fn stand_ins(items: &mut [syn::Item]) {
    for item in items {
        let syn::Item::Macro(call) = item else { continue };
        let Some(name) = runtime_macro(&call.mac.path) else { continue };
        if !call.attrs.is_empty()
            || call.ident.is_some()
            || !matches!(call.mac.delimiter, syn::MacroDelimiter::Brace(_))
            || call.mac.tokens.is_empty()
        {
            continue;
        }
        let tokens = &call.mac.tokens;
        let Ok(block) = syn::parse2::<syn::Block>(quote::quote!({ #tokens })) else { continue };
        if block.stmts.is_empty() {
            continue;
        }
        *item = stand_in(name, block);
    }
}

/// The function that stands in for a brace call of the runtime's macro `name` holding `block`'s
/// statements (one at least), for [`relayout`] to name back.
pub(super) fn stand_in(name: &'static str, block: syn::Block) -> syn::Item {
    let ident = syn::Ident::new(&format!("{STAND_IN}{name}"), proc_macro2::Span::call_site());
    let sig: syn::Signature = syn::parse_quote!(fn #ident());
    syn::Item::Fn(syn::ItemFn { attrs: Vec::new(), vis: syn::Visibility::Inherited, sig, block: Box::new(block) })
}

/// The name of the runtime macro `path` is (`::schemac_runtime::__private::NAME`), one of
/// [`MACROS`].
pub(super) fn runtime_macro(path: &syn::Path) -> Option<&'static str> {
    let [krate, private, name] = path.segments.iter().collect::<Vec<_>>()[..] else { return None };
    let plain = [krate, private, name].iter().all(|s| s.arguments.is_none());
    if path.leading_colon.is_none() || !plain || krate.ident != "schemac_runtime" || private.ident != "__private" {
        return None;
    }
    MACROS.iter().copied().find(|m| name.ident == m)
}

/// Lays out each call of one of [`MACROS`] in `text` (printed by `prettyplease`) as Rust.
fn relayout(text: &str) -> String {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if let Some(name) = line.strip_prefix("fn ").and_then(|l| l.strip_prefix(STAND_IN)).and_then(|rest| rest.strip_suffix("() {\n"))
            && MACROS.contains(&name)
        {
            out.push_str("::schemac_runtime::__private::");
            out.push_str(name);
            out.push_str("! {\n");
            i += 1;
            continue;
        }
        let indent = &line[..line.len() - line.trim_start().len()];
        let trimmed = line.trim();
        let call = trimmed.strip_prefix("::schemac_runtime::__private::").and_then(|after| {
            let rest = MACROS.iter().find_map(|name| after.strip_prefix(name)?.strip_prefix('!'))?;
            match rest {
                " {" => Some(Delim::Brace),
                "(" => Some(Delim::Paren),
                _ => None,
            }
        });
        let Some(delim) = call else {
            out.push_str(line);
            i += 1;
            continue;
        };
        let close = match delim {
            Delim::Brace => format!("{indent}}}"),
            Delim::Paren => format!("{indent});"),
        };
        let Some(end) = (i + 1..lines.len()).find(|&j| lines[j].trim_end() == close) else {
            out.push_str(line);
            i += 1;
            continue;
        };
        let inner: String = lines[i + 1..end].concat();
        // Plain arguments (names, strings, `&SCHEMA_VALUE`) read well as `prettyplease` fills
        // them; paths with generics, struct literals and lists do not.
        if matches!(delim, Delim::Paren) && !inner.contains(['<', '{', '[']) {
            lines[i..=end].iter().for_each(|l| out.push_str(l));
            i = end + 1;
            continue;
        }
        match inner.parse::<TokenStream>().ok().and_then(|tokens| layout(delim, tokens)) {
            Some(body) => {
                let head = trimmed.trim_end_matches(['{', '(']).trim_end();
                out.push_str(indent);
                out.push_str(head);
                out.push_str(match delim {
                    Delim::Brace => " {\n",
                    Delim::Paren => "(\n",
                });
                for row in body.lines() {
                    if !row.is_empty() {
                        out.push_str(indent);
                    }
                    out.push_str(row);
                    out.push('\n');
                }
                out.push_str(&close);
                out.push('\n');
            }
            None => lines[i..=end].iter().for_each(|l| out.push_str(l)),
        }
        i = end + 1;
    }
    out
}

#[derive(Clone, Copy)]
enum Delim {
    Brace,
    Paren,
}

/// The contents of a call, indented by four spaces: statements (a brace call) or arguments
/// (a parenthesized one, one per line with their commas). `None` when they are not Rust of
/// that shape, and the call keeps `prettyplease`'s layout.
fn layout(delim: Delim, tokens: TokenStream) -> Option<String> {
    let item: syn::ItemFn = match delim {
        Delim::Brace => syn::parse2(quote::quote!(fn f() { #tokens })).ok()?,
        Delim::Paren => syn::parse2(quote::quote!(fn f() { f(#tokens); })).ok()?,
    };
    let file = syn::File { shebang: None, attrs: Vec::new(), items: vec![syn::Item::Fn(item)] };
    let text = prettyplease::unparse(&file);
    // `fn f() {` ... `}`: the body, at four spaces already.
    let body = text.strip_prefix("fn f() {\n")?.strip_suffix("}\n")?;
    match delim {
        Delim::Brace => Some(body.to_owned()),
        Delim::Paren => {
            // `    f(a, b);` on one line, or `    f(` + a line per argument + `    );`.
            let args = body.strip_prefix("    f(")?.strip_suffix(");\n")?;
            if let Some(args) = args.strip_prefix('\n') {
                let args = args.strip_suffix("    ")?;
                Some(args.lines().map(|l| format!("{}\n", l.strip_prefix("    ").unwrap_or(l))).collect())
            } else {
                Some(format!("    {args}\n"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_brace_call_is_a_row_per_statement() {
        let file: syn::File = syn::parse_quote! {
            ::schemac_runtime::__private::object! {
                Point; closed;
                required(x, "x", ::schemac_runtime::__private::de::Plain::<f64>::new());
                optional(label, "label", ::schemac_runtime::__private::de::Plain::<String>::new());
            }
            struct After;
        };
        assert_eq!(
            unparse(file.clone()),
            "::schemac_runtime::__private::object! {\n    Point;\n    closed;\n    \
             required(x, \"x\", ::schemac_runtime::__private::de::Plain::<f64>::new());\n    \
             optional(label, \"label\", ::schemac_runtime::__private::de::Plain::<String>::new());\n}\nstruct After;\n"
        );
    }

    #[test]
    fn a_parenthesized_call_is_its_arguments() {
        let file: syn::File = syn::parse_quote! {
            mod m {
                ::schemac_runtime::__private::string_enum!(Status, "one of \"active\", \"paused\", \"archived\", \"deleted\", \"pending\"", [Active = "active", Paused = "paused", Archived = "archived"]);
            }
        };
        let text = unparse(file.clone());
        assert!(text.contains("    ::schemac_runtime::__private::string_enum!(\n        Status,\n"), "{text}");
        assert!(text.contains("\n    );\n}\n"), "{text}");
        // What it lays out parses again, and lays out the same (`single_file` formats modules
        // a second time); only a trailing comma was added, which the macros accept.
        let again: syn::File = syn::parse_str(&text).unwrap();
        assert_eq!(unparse(again.clone()), text);
        assert_eq!(quote::quote!(#again).to_string().replace(" ,)", ")"), quote::quote!(#file).to_string());
    }

    /// A top-level brace call printed through its stand-in function reads as the call laid out
    /// from its printed paragraph (the way calls at other places still go), rows that wrap too.
    #[test]
    fn stand_ins_print_as_relayout_does() {
        let file: syn::File = syn::parse_quote! {
            struct Before;
            ::schemac_runtime::__private::object! {
                Point; closed;
                required(a_rather_long_field_name, "aRatherLongFieldName", ::schemac_runtime::__private::de::Plain::<::std::vec::Vec<::std::string::String>>::new());
                optional(label, "label", ::schemac_runtime::__private::de::Checked::new(::schemac_runtime::__private::de::Plain::<String>::new(), |v: &String| v.len() < 3 && v.chars().all(|c| c.is_ascii_lowercase())));
            }
            ::schemac_runtime::__private::object! {}
            other::object! { a b c }
            ::schemac_runtime::__private::string_enum! { Status; [Active = "active"]; }
        };
        let text = unparse(file.clone());
        assert!(!text.contains(STAND_IN), "{text}");
        assert!(text.contains("::schemac_runtime::__private::object! {\n    Point;\n"), "{text}");
        assert_eq!(text, relayout(&prettyplease::unparse(&file)));
    }

    #[test]
    fn other_macros_keep_their_layout() {
        let file: syn::File = syn::parse_quote! { other::object! { a b c } };
        assert_eq!(unparse(file.clone()), prettyplease::unparse(&file));
    }
}
