//! The MCP server (on the official Rust SDK, `rmcp`): the registry's schemas for agents.
//!
//! - tool `get_json_schema {reference, version?}`: the schema's exact text (the first content
//!   block) and its metadata (`structuredContent`, also as JSON text in the second block); an
//!   unknown reference or version is a result with `isError` naming the known ones (in its
//!   text, and as JSON in a second block; no `structuredContent`, which clients check against
//!   the output schema);
//! - tool `list_json_schemas {}`: every schema, as `GET /api/v1/json-schemas` lists them;
//! - resources: each schema's latest version as `schema://{reference}` (the template
//!   `schema://{+reference}{?version}` for the others), `application/schema+json`.
//!
//! Served over stdio ([`serve_stdio`]) or streamable HTTP ([`http_service`], which
//! [`crate::router`] mounts at `/mcp`). Each request reads the registry's current catalog, so
//! a reload is seen by the next call, and a client that did the handshake is sent
//! `notifications/resources/list_changed` when it happens.

use std::borrow::Cow;
use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData, Implementation, JsonObject,
    ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, ResourceTemplate, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{RoleServer, ServerHandler, ServiceExt as _};
use serde_json::{Value, json};

use crate::catalog::{Catalog, Missing, Registry, Schema};
use crate::http::{Options, list_item};

/// The tool that returns one schema.
pub const GET_JSON_SCHEMA: &str = "get_json_schema";
/// The tool that lists them.
pub const LIST_JSON_SCHEMAS: &str = "list_json_schemas";

const SCHEMA_JSON: &str = "application/schema+json";

/// How often a session's change notifier looks whether the session has ended.
const SESSION_LOOK: std::time::Duration = std::time::Duration::from_secs(30);

/// An MCP server over a registry; cheap to clone (one per streamable HTTP session).
#[derive(Clone, Debug)]
pub struct SchemaServer {
    registry: Registry,
    tools: Arc<[Tool]>,
}

impl SchemaServer {
    pub fn new(registry: Registry) -> SchemaServer {
        SchemaServer { registry, tools: tools().into() }
    }

    /// `get_json_schema` with these arguments, as a tool result.
    pub fn get_json_schema(&self, reference: &str, version: Option<&str>) -> CallToolResult {
        let catalog = self.registry.snapshot();
        match catalog.get(reference, version) {
            Ok(schema) => {
                let metadata = metadata(&catalog, schema);
                let mut result = CallToolResult::success(vec![ContentBlock::text(schema.text()), ContentBlock::text(metadata.to_string())]);
                result.structured_content = Some(metadata);
                result
            }
            // No `structuredContent`: a client checks it against the tool's output schema even
            // on an error (the TypeScript SDK's does), and these details are not a schema's
            // metadata. They are the second text block, as JSON, instead.
            Err(missing) => {
                let (message, details) = missing_text(reference, version, &missing);
                CallToolResult::error(vec![ContentBlock::text(message), ContentBlock::text(details.to_string())])
            }
        }
    }

    /// `list_json_schemas`, as a tool result.
    pub fn list_json_schemas(&self) -> CallToolResult {
        let catalog = self.registry.snapshot();
        let list = json!({ "schemas": catalog.iter().map(|schema| list_item(&catalog, schema)).collect::<Vec<_>>() });
        CallToolResult::structured(list)
    }
}

/// What `get_json_schema` says about a schema besides its text.
fn metadata(catalog: &Catalog, schema: &Schema) -> Value {
    json!({
        "reference": schema.reference,
        "version": schema.version,
        "versions": catalog.versions(&schema.reference).collect::<Vec<_>>(),
        "id": schema.id,
        "sha256": schema.sha256,
        "sourcePath": schema.source_path,
        "uri": schema.uri(),
        "mimeType": SCHEMA_JSON,
    })
}

/// The message of a failed lookup, naming what exists, and the same as data.
fn missing_text(reference: &str, version: Option<&str>, missing: &Missing) -> (String, Value) {
    match missing {
        Missing::Reference { known } => (
            format!("no schema is registered as {reference:?}; the known references are: {}", known.join(", ")),
            json!({ "error": "unknown reference", "reference": reference, "knownReferences": known }),
        ),
        Missing::Version { known } => (
            format!("{reference:?} is not registered in version {:?}; its versions are: {}", version.unwrap_or_default(), known.join(", ")),
            json!({ "error": "unknown version", "reference": reference, "version": version, "knownVersions": known }),
        ),
    }
}

fn object(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(map) => Arc::new(map),
        _ => Arc::new(JsonObject::new()),
    }
}

/// The two tools, with their input and output schemas.
fn tools() -> Vec<Tool> {
    let read_only = ToolAnnotations::new().read_only(true).destructive(false).idempotent(true).open_world(false);
    let get = Tool::new(
        GET_JSON_SCHEMA,
        "Returns a registered JSON Schema, byte for byte as published (the first text block), and its metadata: \
         reference, version, $id, SHA-256, source path, MCP resource URI. Without `version`, the latest.",
        object(json!({
            "type": "object",
            "properties": {
                "reference": { "type": "string", "description": "The schema's reference, e.g. madoo.attempts-report/v1 (list_json_schemas lists them)" },
                "version": { "type": "string", "description": "A registered version, e.g. 1.0.0; default the latest" }
            },
            "required": ["reference"],
            "additionalProperties": false
        })),
    )
    .with_title("Get a JSON Schema")
    .with_raw_output_schema(object(json!({
        "type": "object",
        "properties": {
            "reference": { "type": "string" },
            "version": { "type": "string" },
            "versions": { "type": "array", "items": { "type": "string" } },
            "id": { "type": "string" },
            "sha256": { "type": "string", "pattern": "^[0-9a-f]{64}$" },
            "sourcePath": { "type": "string" },
            "uri": { "type": "string" },
            "mimeType": { "type": "string" }
        },
        "required": ["reference", "version", "versions", "id", "sha256", "sourcePath", "uri", "mimeType"]
    })))
    .with_annotations(read_only.clone());
    let list = Tool::new(
        LIST_JSON_SCHEMAS,
        "Lists every registered JSON Schema: reference, version, whether it is the latest, $id, SHA-256, HTTP link and MCP resource URI.",
        object(json!({ "type": "object", "properties": {}, "additionalProperties": false })),
    )
    .with_title("List the JSON Schemas")
    .with_raw_output_schema(object(json!({
        "type": "object",
        "properties": { "schemas": { "type": "array", "items": { "type": "object" } } },
        "required": ["schemas"]
    })))
    .with_annotations(read_only);
    vec![get, list]
}

/// The arguments of `get_json_schema`: a string `reference`, an optional string `version`.
fn get_arguments(arguments: Option<&JsonObject>) -> Result<(String, Option<String>), ErrorData> {
    let empty = JsonObject::new();
    let arguments = arguments.unwrap_or(&empty);
    if let Some(unknown) = arguments.keys().find(|key| !matches!(key.as_str(), "reference" | "version")) {
        return Err(ErrorData::invalid_params(format!("unknown argument {unknown:?}; get_json_schema takes reference and version"), None));
    }
    let reference = match arguments.get("reference") {
        Some(Value::String(reference)) => reference.clone(),
        Some(_) => return Err(ErrorData::invalid_params("`reference` must be a string", None)),
        None => return Err(ErrorData::invalid_params("`reference` is required, e.g. {\"reference\": \"madoo.attempts-report/v1\"}", None)),
    };
    let version = match arguments.get("version") {
        Some(Value::String(version)) => Some(version.clone()),
        None | Some(Value::Null) => None,
        Some(_) => return Err(ErrorData::invalid_params("`version` must be a string", None)),
    };
    Ok((reference, version))
}

/// `schema://{reference}`, optionally `?version=V`.
fn parse_uri(uri: &str) -> Option<(&str, Option<&str>)> {
    let rest = uri.strip_prefix("schema://")?;
    match rest.split_once('?') {
        Some((reference, query)) => Some((reference, Some(query.strip_prefix("version=").filter(|v| !v.contains('&'))?))),
        None => Some((rest, None)),
    }
}

impl ServerHandler for SchemaServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_resources().enable_resources_list_changed().build())
            .with_server_info(Implementation::new("schemac-registry", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "JSON Schemas, each exactly as published. list_json_schemas lists them; get_json_schema {reference, version?} \
                 returns one; each is also the resource schema://{reference}.",
            )
    }

    /// From the handshake on, the client is told when the schemas change (`schemac serve`
    /// reloaded them): `notifications/resources/list_changed`, so it lists them again.
    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let mut changes = self.registry.subscribe();
        changes.mark_unchanged();
        let peer = context.peer;
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    changed = changes.changed() => {
                        if changed.is_err() || peer.notify_resource_list_changed().await.is_err() {
                            break;
                        }
                    }
                    // The session has no end to wait on: look whether it is gone, so that an
                    // ended session leaves no task behind for long.
                    () = tokio::time::sleep(SESSION_LOOK) => {
                        if peer.is_transport_closed() {
                            break;
                        }
                    }
                }
            }
        });
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.to_vec()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|tool| tool.name == name).cloned()
    }

    async fn call_tool(&self, request: CallToolRequestParams, _context: RequestContext<RoleServer>) -> Result<CallToolResponse, ErrorData> {
        match request.name.as_ref() {
            GET_JSON_SCHEMA => {
                let (reference, version) = get_arguments(request.arguments.as_ref())?;
                Ok(self.get_json_schema(&reference, version.as_deref()).into())
            }
            LIST_JSON_SCHEMAS => Ok(self.list_json_schemas().into()),
            other => Err(ErrorData::invalid_params(
                format!("no tool is named {other:?}; the tools are {GET_JSON_SCHEMA} and {LIST_JSON_SCHEMAS}"),
                None,
            )),
        }
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let catalog = self.registry.snapshot();
        let resources = catalog
            .latest()
            .map(|schema| {
                Resource::new(schema.uri(), schema.reference.clone())
                    .with_title(format!("{} {}", schema.reference, schema.version))
                    .with_description(format!("The JSON Schema {} (version {}, $id {})", schema.reference, schema.version, schema.id))
                    .with_mime_type(SCHEMA_JSON)
                    .with_size(schema.json.len() as u64)
            })
            .collect();
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let template = ResourceTemplate::new("schema://{+reference}{?version}", "json-schema")
            .with_title("A registered JSON Schema")
            .with_description("A JSON Schema by reference, optionally in a given version (default the latest)")
            .with_mime_type(SCHEMA_JSON);
        Ok(ListResourceTemplatesResult::with_all_items(vec![template]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let Some((reference, version)) = parse_uri(&request.uri) else {
            let message = format!("{:?} is not a schema URI; they are schema://{{reference}}, optionally ?version=V", request.uri);
            return Err(ErrorData::resource_not_found(message, Some(json!({ "uri": request.uri }))));
        };
        let catalog = self.registry.snapshot();
        match catalog.get(reference, version) {
            Ok(schema) => {
                let contents = ResourceContents::text(schema.text(), request.uri.clone()).with_mime_type(SCHEMA_JSON);
                Ok(ReadResourceResult::new(vec![contents]).into())
            }
            Err(missing) => {
                let (message, mut details) = missing_text(reference, version, &missing);
                details["uri"] = Value::String(request.uri.clone());
                Err(ErrorData::resource_not_found(Cow::Owned(message), Some(details)))
            }
        }
    }
}

/// Serves the MCP server over this process's stdin and stdout until the client closes them.
pub async fn serve_stdio(registry: Registry) -> std::io::Result<()> {
    let running = SchemaServer::new(registry).serve(rmcp::transport::stdio()).await.map_err(std::io::Error::other)?;
    running.waiting().await.map_err(std::io::Error::other)?;
    Ok(())
}

/// The largest request body the MCP endpoint reads: a `tools/call` of this server is a few
/// hundred bytes (rmcp's default is 4 MiB).
pub const MAX_REQUEST_BODY: usize = 64 * 1024;

/// The streamable HTTP endpoint (a `tower` service; [`crate::router`] mounts it at `/mcp`,
/// behind [`ended_session_is_ok`]).
pub fn http_service(registry: Registry, options: &Options) -> StreamableHttpService<SchemaServer, LocalSessionManager> {
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(options.mcp_allowed_hosts.clone())
        .with_max_request_body_bytes(MAX_REQUEST_BODY)
        .with_cancellation_token(options.mcp_shutdown.clone());
    StreamableHttpService::new(move || Ok(SchemaServer::new(registry.clone())), Default::default(), config)
}

/// A session ended by `DELETE /mcp` is answered `200 OK` rather than rmcp's `202 Accepted`:
/// the session is gone when the answer is sent, and the Python SDK's client logs a 202 as
/// "Session termination failed" (it takes 200 and 204; the SDKs' own servers send 200).
pub async fn ended_session_is_ok(request: axum::extract::Request, next: axum::middleware::Next) -> axum::response::Response {
    let delete = request.method() == axum::http::Method::DELETE;
    let mut response = next.run(request).await;
    if delete && response.status() == axum::http::StatusCode::ACCEPTED {
        *response.status_mut() = axum::http::StatusCode::OK;
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_uris() {
        assert_eq!(parse_uri("schema://madoo.attempts-report/v1"), Some(("madoo.attempts-report/v1", None)));
        assert_eq!(parse_uri("schema://a/b?version=1.0.0"), Some(("a/b", Some("1.0.0"))));
        assert_eq!(parse_uri("schema://a?other=1"), None);
        assert_eq!(parse_uri("file:///etc/passwd"), None);
    }

    fn server() -> SchemaServer {
        let schema = Schema::new("a/b", "1.0.0", "urn:a:b", "schemas/a/b.json", "ab".repeat(32), "{}".to_owned(), None);
        SchemaServer::new(Registry::new(Catalog::new([schema]).unwrap()))
    }

    fn texts(result: &CallToolResult) -> Vec<&str> {
        result.content.iter().map(|block| block.as_text().map(|text| text.text.as_str()).unwrap_or_default()).collect()
    }

    #[test]
    fn a_found_schema_is_its_text_and_its_metadata() {
        let result = server().get_json_schema("a/b", None);
        assert_eq!(result.is_error, Some(false));
        let metadata = result.structured_content.clone().unwrap();
        assert_eq!(metadata["sha256"], "ab".repeat(32));
        assert_eq!(texts(&result), ["{}", metadata.to_string().as_str()]);
    }

    /// An error's details are not the output schema's shape, so they are not
    /// `structuredContent` (which the TypeScript SDK's client validates even on an error).
    #[test]
    fn a_missing_schema_is_an_error_naming_the_known_ones_without_structured_content() {
        let server = server();
        let result = server.get_json_schema("a/c", None);
        assert_eq!((result.is_error, &result.structured_content), (Some(true), &None));
        let blocks = texts(&result);
        assert_eq!(blocks[0], "no schema is registered as \"a/c\"; the known references are: a/b");
        let details: Value = serde_json::from_str(blocks[1]).unwrap();
        assert_eq!(details, json!({ "error": "unknown reference", "reference": "a/c", "knownReferences": ["a/b"] }));
        let result = server.get_json_schema("a/b", Some("2.0.0"));
        assert_eq!((result.is_error, &result.structured_content), (Some(true), &None));
        assert_eq!(texts(&result)[0], "\"a/b\" is not registered in version \"2.0.0\"; its versions are: 1.0.0");
    }

    #[test]
    fn arguments() {
        let args = |value: Value| get_arguments(value.as_object());
        assert_eq!(args(json!({"reference": "a"})).unwrap(), ("a".to_owned(), None));
        assert_eq!(args(json!({"reference": "a", "version": "1.0.0"})).unwrap(), ("a".to_owned(), Some("1.0.0".to_owned())));
        assert!(args(json!({})).unwrap_err().message.contains("`reference` is required"));
        assert!(args(json!({"reference": 1})).unwrap_err().message.contains("must be a string"));
        assert!(args(json!({"reference": "a", "path": "/etc"})).unwrap_err().message.contains("unknown argument \"path\""));
    }
}
