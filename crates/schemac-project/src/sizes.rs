//! The generated `tests/sizes.rs`: `size_of` of every type of the crate is within the bound
//! the emitter laid it out for (`schemac::TypeSummary::size_bound`, at most
//! [`schemac::emit::MAX_TYPE_SIZE`] but for its documented exceptions), so a type that grows
//! past it fails the crate's tests instead of the stack of whoever reads a document.

use std::fmt::Write as _;

/// One type: its path below the crate root and its bound.
pub(crate) struct Sized {
    pub path: String,
    pub bound: usize,
}

/// The types of `module`, as [`test_file`] lists them.
pub(crate) fn of_module(module: &schemac::Module) -> impl Iterator<Item = Sized> + '_ {
    // A type replaced by the user's is the user's to size.
    module.types.iter().filter(|t| t.replaced_by.is_none()).map(move |t| {
        let mut path = module.path.clone();
        path.push(t.name.clone());
        Sized { path: path.join("::"), bound: t.size_bound }
    })
}

/// The test file, or `None` for a crate without types.
pub(crate) fn test_file(command: &str, krate: &str, types: &[Sized]) -> Option<String> {
    if types.is_empty() {
        return None;
    }
    let krate = krate.replace('-', "_");
    let mut out = super::roundtrip::header(command, "the schemas of this crate");
    out.push_str("//! Every generated type is at most its size bound (bytes, 64-bit targets): small values keep\n");
    out.push_str("//! the stack a document needs per nesting level small. Prints the five largest and a count.\n\n");
    out.push_str("/// (type, `size_of`, bound)\n#[rustfmt::skip]\nconst SIZES: &[(&str, usize, usize)] = &[\n");
    for t in types {
        let _ = writeln!(out, "    ({:?}, std::mem::size_of::<{krate}::{}>(), {}),", t.path, t.path, t.bound);
    }
    out.push_str("];\n\n");
    out.push_str(
        "#[test]\n\
         fn every_type_is_within_its_size_bound() {\n    \
             let over: Vec<String> = SIZES\n        \
                 .iter()\n        \
                 .filter(|(_, size, bound)| size > bound)\n        \
                 .map(|(name, size, bound)| format!(\"{name}: {size} bytes, bound {bound}\"))\n        \
                 .collect();\n    \
             assert!(over.is_empty(), \"types over their size bound:\\n{}\", over.join(\"\\n\"));\n    \
             let mut largest: Vec<&(&str, usize, usize)> = SIZES.iter().collect();\n    \
             largest.sort_by_key(|(name, size, _)| (std::cmp::Reverse(*size), *name));\n    \
             for (name, size, bound) in largest.iter().take(5) {\n        \
                 println!(\"{size:>6} bytes (bound {bound}): {name}\");\n    \
             }\n    \
             let over = |limit: usize| SIZES.iter().filter(|(_, size, _)| *size > limit).count();\n    \
             println!(\"{} types; {} over 1 KiB, {} over 64 KiB\", SIZES.len(), over(1 << 10), over(64 << 10));\n\
         }\n",
    );
    Some(out)
}
