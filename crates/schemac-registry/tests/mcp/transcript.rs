//! Checks what `client.py` (the Python MCP SDK) printed: a transcript of `initialize`,
//! `tools/list`, `tools/call` and `resources/*` against a registry. Shared by the registry's
//! streamable HTTP test and the CLI's `schemac serve --mcp-stdio` test.

use serde_json::{Value, json};

/// Runs `client.py` with `args` and returns its transcript; fails with the client's output.
pub fn run(python: &std::path::Path, script: &std::path::Path, args: &[&str]) -> Value {
    let output = std::process::Command::new(python)
        .arg(script)
        .args(args)
        .output()
        .unwrap_or_else(|err| panic!("cannot run {}: {err}", python.display()));
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "the Python MCP client failed ({}):\nstdout:\n{stdout}\nstderr:\n{stderr}", output.status);
    serde_json::from_str(&stdout).unwrap_or_else(|err| panic!("the client printed no transcript ({err}):\n{stdout}\nstderr:\n{stderr}"))
}

/// The schema the transcript asked for, and what else the registry holds.
pub struct Expected<'a> {
    pub reference: &'a str,
    pub version: &'a str,
    pub id: &'a str,
    pub sha256: &'a str,
    /// The schema file's text.
    pub text: &'a str,
    pub references: &'a [&'a str],
}

pub fn check(transcript: &Value, expected: &Expected<'_>) {
    let sdk = transcript["sdk"].as_str().unwrap();
    assert_eq!(sdk, "2.3.0", "the pinned SDK");
    // The client had nothing to complain of (it logs, for one, a session end it takes as failed).
    assert_eq!(transcript["logged"], json!([]), "the MCP client logged warnings");
    let init = &transcript["initialize"];
    assert_eq!(init["serverInfo"]["name"], "schemac-registry", "{init}");
    let capabilities = init["capabilities"].as_array().unwrap();
    assert!(capabilities.contains(&json!("tools")) && capabilities.contains(&json!("resources")), "{init}");
    assert_eq!(
        transcript["tools/list"],
        json!([
            { "name": "get_json_schema", "required": ["reference"], "hasOutputSchema": true },
            { "name": "list_json_schemas", "required": [], "hasOutputSchema": true },
        ])
    );

    let found = &transcript["tools/call get_json_schema"];
    assert_eq!(found["isError"], false, "{found}");
    let content = found["content"].as_array().unwrap();
    assert_eq!(content[0].as_str(), Some(expected.text), "the first block is the schema, byte for byte");
    let metadata = &found["structuredContent"];
    assert_eq!(
        *metadata,
        json!({
            "reference": expected.reference,
            "version": expected.version,
            "versions": [expected.version],
            "id": expected.id,
            "sha256": expected.sha256,
            "sourcePath": metadata["sourcePath"],
            "uri": format!("schema://{}", expected.reference),
            "mimeType": "application/schema+json",
        })
    );
    assert!(metadata["sourcePath"].as_str().unwrap().ends_with(".json"), "{metadata}");
    let text_metadata: Value = serde_json::from_str(content[1].as_str().unwrap()).unwrap();
    assert_eq!(&text_metadata, metadata, "the second block is the metadata as JSON text");

    let missing = &transcript["tools/call get_json_schema (unknown)"];
    assert_eq!(missing["isError"], true, "{missing}");
    let message = missing["content"][0].as_str().unwrap();
    assert_eq!(
        message,
        format!("no schema is registered as \"no/such-schema\"; the known references are: {}", expected.references.join(", "))
    );
    let details: Value = serde_json::from_str(missing["content"][1].as_str().unwrap()).unwrap();
    assert_eq!(details, json!({ "error": "unknown reference", "reference": "no/such-schema", "knownReferences": expected.references }));
    // Not the output schema's shape, so not structured content (which a client validates).
    assert_eq!(missing["structuredContent"], Value::Null, "{missing}");
    assert_eq!(transcript["outputSchemaViolations"], json!([]), "every structuredContent matches its tool's outputSchema");

    let listing = &transcript["tools/call list_json_schemas"];
    assert_eq!(listing["isError"], false);
    let listed: Vec<&str> =
        listing["structuredContent"]["schemas"].as_array().unwrap().iter().map(|s| s["reference"].as_str().unwrap()).collect();
    assert_eq!(listed, expected.references);

    let resources: Vec<&str> = transcript["resources/list"].as_array().unwrap().iter().map(|r| r["uri"].as_str().unwrap()).collect();
    let uris: Vec<String> = expected.references.iter().map(|r| format!("schema://{r}")).collect();
    assert_eq!(resources, uris);
    assert_eq!(
        transcript["resources/read"],
        json!([{ "uri": format!("schema://{}", expected.reference), "mimeType": "application/schema+json", "text": expected.text }])
    );
}
