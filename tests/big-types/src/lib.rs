//! The types of a generated few-megabyte draft-07 schema (`generator.rs`: deep unions, many
//! optional configuration objects, big enums), compiled by `build.rs` into `OUT_DIR`; the
//! root type is `chart::Chart`.

include!(concat!(env!("OUT_DIR"), "/lib.rs"));

/// The generated schema's text, and its documents by name (deep ones nest 120 levels).
pub mod inputs {
    pub const SCHEMA: &str = include_str!(concat!(env!("OUT_DIR"), "/input/schemas/chart.json"));
    pub const DOCUMENTS: &[(&str, &str)] = &[
        ("simple", include_str!(concat!(env!("OUT_DIR"), "/documents/simple.json"))),
        ("configured", include_str!(concat!(env!("OUT_DIR"), "/documents/configured.json"))),
        ("layers", include_str!(concat!(env!("OUT_DIR"), "/documents/layers.json"))),
        ("facets", include_str!(concat!(env!("OUT_DIR"), "/documents/facets.json"))),
        ("predicates", include_str!(concat!(env!("OUT_DIR"), "/documents/predicates.json"))),
    ];
}
