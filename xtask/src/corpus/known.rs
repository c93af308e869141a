//! Why a target or document that does not pass does not, where the reason is known and is not
//! schemac's to fix: a schema that refers to a URL outside the corpus (nothing is fetched), a
//! catalog bug. Each entry says what a user sees and why it is right.

/// The explanation for `id` (`generated/NAME`, `built/NAME` or a document id), if any.
pub fn why(id: &str) -> Option<&'static str> {
    KNOWN.iter().find(|(known, _)| *known == id).map(|(_, why)| *why)
}

const KNOWN: &[(&str, &str)] = &[];
