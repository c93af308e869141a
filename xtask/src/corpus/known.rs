//! Why a target or document that does not pass does not, where the reason is known and is not
//! schemac's to fix: a catalog bug, or a YAML reader's convention. Each entry says what a user
//! sees and why it is right. (Targets that refer to a URL outside the corpus are explained
//! from `outside-refs.tsv`.)

/// The explanation for `id` (`generated/NAME`, `built/NAME` or a document id), if any.
pub fn why(id: &str) -> Option<&'static str> {
    KNOWN.iter().find(|(known, _)| *known == id).map(|(_, why)| *why)
}

const KNOWN: &[(&str, &str)] = &[
    (
        "generated/base-04",
        "a catalog bug: base-04.json's `license` refers to `osi-license` relative to its own URL, i.e. to \
         https://json.schemastore.org/osi-license, a schema in neither the catalog nor the corpus (its draft-07 twin \
         base.json writes `#/definitions/osi-license`); jsonschema refuses the schema for the same ref, and a located \
         `unresolved-ref` is right",
    ),
    (
        "test/tmuxinator/nameless_window.yml",
        "a YAML convention: the key `~` (null) is \"null\" in the document's JSON form, as the catalog's YAML reader \
         names it, but serde_norway hands it to the type as the text \"~\"; read from JSON, the type agrees",
    ),
    (
        "test/tmuxinator/sample_alias.yml",
        "a YAML reader's limit: serde_norway applies no merge keys (`<<: *defaults`) when it reads a type (only \
         `Value::apply_merge` does), so read natively the merged properties are absent; read from the JSON form, \
         merges applied as the catalog applies them, the type agrees",
    ),
    (
        "test/tmuxinator/sample_literals_as_window_name.yml",
        "a YAML reader's limit: serde_norway cannot read the integer 111222333444555666777 (beyond 64 bits) at all, \
         so the document has no JSON form and no native reading to judge",
    ),
    ("negative_test/clang-format-18.x/empty.clang-format.yml", EMPTY_DOCUMENT),
    ("negative_test/clang-format-21.x/empty.clang-format.yml", EMPTY_DOCUMENT),
    ("negative_test/metricshub-connector/metricshub-connector.yaml", EMPTY_DOCUMENT),
    ("test/openutau-ustx/bulaomeng.ustx.yaml#2", BOM_AFTER_COMMENT),
    ("test/venvironment-schema-v2.2.0/unicode-1.yaml#2", BOM_AFTER_COMMENT),
    ("test/venvironment-schema-v3.2.0/unicode-1.yaml#2", BOM_AFTER_COMMENT),
    ("test/venvironment-schema-v4.0.0/unicode-1.yaml#2", BOM_AFTER_COMMENT),
];

/// A YAML file of comments only, read natively and from its JSON form.
const EMPTY_DOCUMENT: &str = "a YAML reader's convention: the file holds comments only, an empty document, which is null in its JSON \
         form (the referee rejects it); serde_norway hands an empty document to a struct as an empty mapping, so \
         read natively it is `{}`; read from the JSON form, the type rejects it as the referee does";

/// A byte-order mark at the start of a later line, which libyaml misreads.
const BOM_AFTER_COMMENT: &str = "a YAML reader's limit: the file's second line starts with a byte-order mark, after a comment and before the \
         first document's content (YAML 1.2 allows one there); libyaml, behind serde_norway, takes it for the start \
         of a second document without `---` and stops at it, so this part has no JSON form to judge";
