//! `json_schema!` as generated modules call it: the bundling plan as rows, a ref target
//! without a type of its own, and a type `like` another at the same place.

use schemac_runtime::schemars::SchemaGenerator;
use serde_json::json;

mod module {
    schemac_runtime::__private::schema_source!(
        r##"{"type": "object", "properties": {"n": {"$ref": "#/$defs/n"}, "m": {"$ref": "#/$defs/m"}}, "$defs": {"n": {"type": "integer"}, "m": {"type": "string"}}}"##
    );

    pub struct Root;
    pub struct RootObject;
    pub struct N;

    schemac_runtime::__private::json_schema! {
        Root;
        at("");
        reference("/properties/n", N);
        reference("/properties/m", "$ref", false, __JsonSchemaRef0);
        moved("/$defs/n");
        moved("/$defs/m");
    }
    schemac_runtime::__private::json_schema!(RootObject, like = Root);
    schemac_runtime::__private::json_schema!(N, "n", "/$defs/n");
    schemac_runtime::__private::json_schema! {
        __JsonSchemaRef0;
        target("m", "module.json#/$defs/m");
        at("/$defs/m");
    }
}

#[test]
fn rows_bundle_references_and_a_type_like_another_has_its_schema() {
    let root = SchemaGenerator::default().root_schema_for::<module::Root>().to_value();
    let like = SchemaGenerator::default().root_schema_for::<module::RootObject>().to_value();
    assert_eq!(root["properties"], json!({"n": {"$ref": "#/$defs/n"}, "m": {"$ref": "#/$defs/m"}}), "{root:#}");
    assert_eq!(root["$defs"], json!({"n": {"type": "integer"}, "m": {"type": "string"}}), "{root:#}");
    // The same schema; only the title schemars derives from the name differs, if any.
    let strip = |mut v: serde_json::Value| {
        v.as_object_mut().map(|o| o.remove("title"));
        v
    };
    assert_eq!(strip(like), strip(root));
}
