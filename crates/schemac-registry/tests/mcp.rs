//! The MCP server with the official Python MCP SDK (`mcp` 2.3.0, pinned with hashes in
//! `tests/mcp/requirements.txt`) as the client, over streamable HTTP at `/mcp` of the
//! registry's router: `initialize`, `tools/list`, `tools/call get_json_schema` (a schema and an
//! unknown reference), `tools/call list_json_schemas`, `resources/list`, `resources/read`; then
//! as a 2026-07-28 client (`server/discover`, requests without a session). The
//! transcript is kept as `target/registry-tests/mcp-streamable-http.json`. (Over stdio, the same
//! client runs against `schemac serve --mcp-stdio`: `crates/schemac-cli/tests/serve.rs`.)

mod common;

#[path = "mcp/transcript.rs"]
mod transcript;

use common::{ATTEMPTS, GOAL, artifacts, mcp_client_script, mcp_python, schema_file, start_generated};

#[tokio::test(flavor = "multi_thread")]
async fn python_sdk_over_streamable_http() {
    let python = mcp_python();
    let addr = start_generated().await;
    let url = format!("http://{addr}/mcp");
    let transcript =
        tokio::task::spawn_blocking(move || transcript::run(&python, &mcp_client_script(), &["http", &url, ATTEMPTS])).await.unwrap();
    std::fs::write(artifacts().join("mcp-streamable-http.json"), serde_json::to_string_pretty(&transcript).unwrap()).unwrap();
    let entry = schema_types::find(ATTEMPTS).unwrap();
    let text = String::from_utf8(schema_file(ATTEMPTS)).unwrap();
    transcript::check(
        &transcript,
        &transcript::Expected {
            reference: ATTEMPTS,
            version: entry.version,
            id: entry.id,
            sha256: entry.sha256,
            text: &text,
            references: &[ATTEMPTS, GOAL],
        },
    );
    // The same over 2026-07-28, which has no handshake and no session.
    let modern = &transcript["discover"];
    assert!(modern["supportedVersions"].as_array().unwrap().contains(&serde_json::json!("2026-07-28")), "{modern}");
    assert_eq!(modern["tools/call get_json_schema"]["isError"], false, "{modern}");
    assert_eq!(modern["tools/call get_json_schema"]["content"][0].as_str(), Some(text.as_str()));
    assert_eq!(modern["resources/read"][0].as_str(), Some(text.as_str()));
}
