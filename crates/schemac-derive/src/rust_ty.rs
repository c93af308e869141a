//! The shape of a field's Rust type, as far as the JSON it reads and writes is concerned.
//!
//! Types are recognised by the last segment of their path (`Option`, `Vec`, `HashMap`, ...),
//! as serde_derive recognises `Option`: a proc macro sees tokens, not resolved types.
//! Anything else is a type of the user's, which must itself conform to the schema node.

use syn::{GenericArgument, PathArguments, Type};

#[derive(Debug)]
pub enum Shape<'a> {
    Option(&'a Type),
    Tristate(&'a Type),
    /// `Vec<T>`, `VecDeque<T>`.
    Seq(&'a Type),
    /// `HashMap<K, V>`, `BTreeMap<K, V>`, `IndexMap<K, V>`, `serde_json::Map<K, V>`.
    Map(&'a Type, &'a Type),
    /// `String`, `&str`, `Box<str>`, `Cow<str>`.
    String,
    Bool,
    Int(IntTy),
    /// `f32` (`false`) or `f64` (`true`).
    Float(bool),
    /// `serde_json::Value`.
    Value,
    /// `()`.
    Unit,
    /// A `schemac_runtime::format` type, by its name (`DateTime`, ...).
    Format(String),
    /// A type of the user's (or another crate's): a path without a special meaning.
    Named(&'a Type),
    /// A type with no JSON Schema counterpart the check knows (tuples, arrays, ...).
    Unsupported,
}

/// A Rust integer type and the values it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntTy {
    pub name: &'static str,
    pub min: i128,
    pub max: i128,
}

const INTS: &[IntTy] = &[
    IntTy { name: "u8", min: 0, max: u8::MAX as i128 },
    IntTy { name: "u16", min: 0, max: u16::MAX as i128 },
    IntTy { name: "u32", min: 0, max: u32::MAX as i128 },
    IntTy { name: "u64", min: 0, max: u64::MAX as i128 },
    IntTy { name: "u128", min: 0, max: i128::MAX },
    IntTy { name: "i8", min: i8::MIN as i128, max: i8::MAX as i128 },
    IntTy { name: "i16", min: i16::MIN as i128, max: i16::MAX as i128 },
    IntTy { name: "i32", min: i32::MIN as i128, max: i32::MAX as i128 },
    IntTy { name: "i64", min: i64::MIN as i128, max: i64::MAX as i128 },
    IntTy { name: "i128", min: i128::MIN, max: i128::MAX },
    // The target may be 32-bit: only what every target's `usize`/`isize` holds counts.
    IntTy { name: "usize", min: 0, max: u32::MAX as i128 },
    IntTy { name: "isize", min: i32::MIN as i128, max: i32::MAX as i128 },
];

impl IntTy {
    pub fn named(name: &str) -> Option<IntTy> {
        INTS.iter().find(|int| int.name == name).copied()
    }

    /// The narrowest of the fixed-size integers that holds `min..=max`, preferring unsigned.
    pub fn narrowest(min: i128, max: i128) -> IntTy {
        let fixed = INTS.iter().filter(|int| !int.name.ends_with("size"));
        let mut fitting: Vec<IntTy> = fixed.filter(|int| int.min <= min && int.max >= max).copied().collect();
        fitting.sort_by_key(|int| (int.max.abs_diff(int.min), int.min != 0));
        fitting.first().copied().unwrap_or(IntTy { name: "i128", min: i128::MIN, max: i128::MAX })
    }
}

/// The format types of `schemac_runtime::format`.
pub const FORMAT_TYPES: &[&str] = &[
    "DateTime",
    "Date",
    "Time",
    "Duration",
    "Email",
    "Hostname",
    "Ipv4",
    "Ipv6",
    "Uri",
    "UriReference",
    "Uuid",
    "JsonPointer",
    "Regex",
    "IdnEmail",
    "IdnHostname",
    "Iri",
    "IriReference",
    "UriTemplate",
    "RelativeJsonPointer",
];

/// Smart pointers serialize as what they point to.
const TRANSPARENT: &[&str] = &["Box", "Rc", "Arc"];

pub fn shape(ty: &Type) -> Shape<'_> {
    match ty {
        Type::Paren(inner) => shape(&inner.elem),
        Type::Group(inner) => shape(&inner.elem),
        Type::Tuple(tuple) if tuple.elems.is_empty() => Shape::Unit,
        Type::Reference(reference) => match &*reference.elem {
            Type::Path(path) if path.qself.is_none() && path.path.is_ident("str") => Shape::String,
            _ => Shape::Unsupported,
        },
        Type::Path(path) if path.qself.is_none() => {
            let Some(last) = path.path.segments.last() else { return Shape::Unsupported };
            let name = last.ident.to_string();
            let args = type_args(&last.arguments);
            match (name.as_str(), args.as_slice()) {
                ("Option", [inner]) => Shape::Option(inner),
                ("Tristate", [inner]) => Shape::Tristate(inner),
                ("Vec" | "VecDeque", [inner]) => Shape::Seq(inner),
                ("HashMap" | "BTreeMap" | "IndexMap" | "Map", [key, value, ..]) => Shape::Map(key, value),
                (pointer, [inner]) if TRANSPARENT.contains(&pointer) => match inner {
                    Type::Path(p) if p.path.is_ident("str") => Shape::String,
                    _ => shape(inner),
                },
                ("Cow", [Type::Path(p)]) if p.path.is_ident("str") => Shape::String,
                ("Cow", [inner]) => shape(inner),
                ("String", []) => Shape::String,
                ("bool", []) => Shape::Bool,
                ("f64", []) => Shape::Float(true),
                ("f32", []) => Shape::Float(false),
                ("Value", []) => Shape::Value,
                (int, []) if IntTy::named(int).is_some() => IntTy::named(int).map_or(Shape::Unsupported, Shape::Int),
                (format, []) if FORMAT_TYPES.contains(&format) => Shape::Format(name),
                _ => Shape::Named(ty),
            }
        }
        _ => Shape::Unsupported,
    }
}

/// The type arguments of a path segment (lifetimes skipped).
fn type_args(arguments: &PathArguments) -> Vec<&Type> {
    match arguments {
        PathArguments::AngleBracketed(args) => args
            .args
            .iter()
            .filter_map(|arg| match arg {
                GenericArgument::Type(ty) => Some(ty),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::{IntTy, shape};

    fn parse(text: &str) -> syn::Type {
        syn::parse_str(text).unwrap_or_else(|err| panic!("{text}: {err}"))
    }

    #[test]
    fn recognises_serde_shapes() {
        let cases = [
            ("Option<u8>", "Option"),
            ("schemac_runtime::Tristate<String>", "Tristate"),
            ("std::vec::Vec<Attempt>", "Seq"),
            ("BTreeMap<String, serde_json::Value>", "Map"),
            ("serde_json::Map<String, serde_json::Value>", "Map"),
            ("Box<str>", "String"),
            ("&'a str", "String"),
            ("Cow<'a, str>", "String"),
            ("Arc<Attempt>", "Named"),
            ("serde_json::Value", "Value"),
            ("schemac_runtime::format::DateTime", "Format"),
            ("chrono::DateTime<Utc>", "Named"),
            ("()", "Unit"),
            ("(u8, u8)", "Unsupported"),
        ];
        for (text, want) in cases {
            let ty = parse(text);
            let got = format!("{:?}", shape(&ty));
            assert!(got.starts_with(want), "{text}: {got}");
        }
    }

    #[test]
    fn narrowest_integer() {
        assert_eq!(IntTy::narrowest(1, 5).name, "u8");
        assert_eq!(IntTy::narrowest(0, 1000).name, "u16");
        assert_eq!(IntTy::narrowest(-1, 5).name, "i8");
        assert_eq!(IntTy::narrowest(0, u64::MAX as i128).name, "u64");
        assert_eq!(IntTy::narrowest(i64::MIN as i128, i64::MAX as i128).name, "i64");
    }
}
