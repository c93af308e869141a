//! The HTTP registry: the routes, conditional requests, content negotiation for the pages, and
//! the checks that keep every path to the registered schemas.
//!
//! | Route | Answer |
//! |---|---|
//! | `GET /api/v1/json-schemas` | the list, JSON: reference, version, `$id`, SHA-256, links |
//! | `GET /api/v1/json-schemas/{reference}[?version=V]` | the exact schema text, `application/schema+json` |
//! | `GET /json-schemas` | the list as an HTML page |
//! | `GET /json-schemas/{reference}[?version=V]` | the reference page, HTML (the schema for a client that accepts only JSON) |
//! | `/mcp` | the MCP server over streamable HTTP ([`crate::mcp`]) |
//!
//! `HEAD` is answered as `GET`; any other method is a `405`. Every answer but a schema or a
//! page is a problem ([`crate::problem`]). A reference is read from the request path as sent:
//! a percent-encoded letter, digit, `-`, `.`, `_` or `~` is that character (RFC 3986 §6.2.2.2),
//! any other encoding (`%2F`, `%00`, `%5C`, ...) is a `400`, as is a reference the catalog's
//! grammar refuses (`..`, empty segments, longer than [`MAX_REFERENCE_LEN`]); a valid one is
//! then only looked up among the registered schemas, so nothing else can be reached.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get};
use serde_json::{Value, json};
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::catalog::{Catalog, Listing, MAX_REFERENCE_LEN, Missing, Registry, Schema, check_reference, etag_of};
use crate::page::{self, CONTENT_SECURITY_POLICY};
use crate::problem::Problem;

/// Where the schemas are served; the page of `{reference}` is under [`PAGES`].
pub const API: &str = "/api/v1/json-schemas";
/// Where the reference pages are served.
pub const PAGES: &str = "/json-schemas";
/// Where the MCP server is mounted (streamable HTTP).
pub const MCP: &str = "/mcp";

const SCHEMA_JSON: &str = "application/schema+json";
const ALLOW: &str = "GET, HEAD";

/// How the router serves.
#[derive(Clone, Debug)]
pub struct Options {
    /// The `Cache-Control` of schemas, pages and lists; default `public, max-age=300`: caches
    /// keep a schema five minutes, then revalidate it with its `ETag` (a `304` when unchanged).
    pub cache_control: HeaderValue,
    /// Whether the MCP server is mounted at [`MCP`] (default yes).
    pub mcp: bool,
    /// The `Host` values the MCP endpoint accepts (rmcp guards against DNS rebinding); default
    /// the loopback names. A public deployment lists its own host names.
    pub mcp_allowed_hosts: Vec<String>,
    /// Cancelled when the server stops: it ends the MCP sessions, and with them their event
    /// streams, which a graceful shutdown would otherwise wait for as long as the client keeps
    /// them open. [`crate::serve`] cancels it; an application that mounts [`crate::router_with`]
    /// cancels it when it shuts down.
    pub mcp_shutdown: tokio_util::sync::CancellationToken,
    /// How long [`crate::serve`] waits for a request's head (from a new connection, or an idle
    /// one between requests) before closing the connection; default 30 s. A client that sends
    /// nothing, or a byte at a time, holds no connection longer.
    pub header_read_timeout: std::time::Duration,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            cache_control: HeaderValue::from_static("public, max-age=300"),
            mcp: true,
            mcp_allowed_hosts: ["localhost", "127.0.0.1", "::1"].map(str::to_owned).to_vec(),
            mcp_shutdown: tokio_util::sync::CancellationToken::new(),
            header_read_timeout: std::time::Duration::from_secs(30),
        }
    }
}

#[derive(Clone)]
struct Served {
    registry: Registry,
    cache_control: HeaderValue,
}

/// The HTTP routes over `registry`, with `options` (`crate::router_with` mounts the MCP server
/// beside them).
pub(crate) fn routes(registry: Registry, options: &Options) -> Router {
    let state = Served { registry, cache_control: options.cache_control.clone() };
    // Schemas and lists may be read from any origin's scripts, as static files are; the MCP
    // endpoint keeps rmcp's own origin and host checks.
    let cors = CorsLayer::new()
        .allow_origin(AllowOrigin::any())
        .allow_methods([Method::GET, Method::HEAD])
        .expose_headers([header::ETAG, header::CACHE_CONTROL]);
    Router::new()
        .route(API, read_only(get(list_json)))
        .route(&format!("{API}/{{*reference}}"), read_only(get(schema_json)))
        .route(PAGES, read_only(get(list_html)))
        .route(&format!("{PAGES}/{{*reference}}"), read_only(get(schema_page)))
        .fallback(not_found)
        .layer(cors)
        .with_state(state)
}

/// `GET` (and so `HEAD`) only; other methods are a `405` problem.
fn read_only(route: MethodRouter<Served>) -> MethodRouter<Served> {
    route.fallback(|method: Method, uri: Uri| async move { Problem::method_not_allowed(method.as_str(), ALLOW).at(uri.path()) })
}

async fn not_found(uri: Uri, headers: HeaderMap) -> Response {
    let detail = format!("nothing is served here; schemas are under {API}/{{reference}}, their pages under {PAGES}/{{reference}}");
    Problem::new(StatusCode::NOT_FOUND, detail).at(uri.path()).respond(names_html(&headers))
}

/// The list of every registered schema, JSON.
async fn list_json(State(served): State<Served>, headers: HeaderMap) -> Response {
    let catalog = served.registry.snapshot();
    let listing = listing(&catalog);
    cached(&served, &headers, &listing.json_etag, "application/json", listing.json.clone())
}

/// The list as an HTML page linking every page.
async fn list_html(State(served): State<Served>, headers: HeaderMap) -> Response {
    let catalog = served.registry.snapshot();
    let listing = listing(&catalog);
    let mut response = cached(&served, &headers, &listing.html_etag, "text/html; charset=utf-8", listing.html.clone());
    response.headers_mut().insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    response
}

/// A schema's exact text.
async fn schema_json(State(served): State<Served>, uri: Uri, RawQuery(query): RawQuery, headers: HeaderMap) -> Response {
    let catalog = served.registry.snapshot();
    match lookup(&catalog, &uri, API, query.as_deref()) {
        Ok(schema) => cached(&served, &headers, &schema.etag, SCHEMA_JSON, schema.json.clone()),
        Err(problem) => problem.into_response(),
    }
}

/// A schema's reference page for a browser; for a client that accepts JSON and not HTML, the
/// schema itself (`Vary: Accept`).
async fn schema_page(State(served): State<Served>, uri: Uri, RawQuery(query): RawQuery, headers: HeaderMap) -> Response {
    let html = wants_html(&headers);
    let catalog = served.registry.snapshot();
    let mut response = match lookup(&catalog, &uri, PAGES, query.as_deref()) {
        Err(problem) => problem.respond(names_html(&headers)),
        Ok(schema) if !html => cached(&served, &headers, &schema.etag, SCHEMA_JSON, schema.json.clone()),
        Ok(schema) => match &schema.html {
            Some(page) => {
                let mut response = cached(&served, &headers, &page.etag, "text/html; charset=utf-8", page.body.clone());
                response.headers_mut().insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
                response
            }
            None => Problem::new(
                StatusCode::NOT_FOUND,
                format!("{} has no reference page (its crate is generated with pages = false)", schema.reference),
            )
            .at(uri.path())
            .with("reference", schema.reference.as_str())
            .with("schema", format!("{API}/{}", schema.reference))
            .respond(names_html(&headers)),
        },
    };
    response.headers_mut().insert(header::VARY, HeaderValue::from_static("Accept"));
    response
}

/// The schema a request path (below `prefix`) and query name, or the problem to answer with.
fn lookup<'c>(catalog: &'c Catalog, uri: &Uri, prefix: &str, query: Option<&str>) -> Result<&'c Schema, Box<Problem>> {
    let path = uri.path();
    let raw = path.strip_prefix(prefix).and_then(|rest| rest.strip_prefix('/')).unwrap_or_default();
    let reference = decode_reference(raw).map_err(|detail| {
        Problem::new(StatusCode::BAD_REQUEST, format!("not a schema reference: {detail}"))
            .at(path)
            .with("reference_syntax", "segments of letters, digits, `-`, `.`, `_`, `~`, separated by `/`")
    })?;
    let version = version_of(query).map_err(|detail| Problem::new(StatusCode::BAD_REQUEST, detail).at(path))?;
    catalog.get(&reference, version.as_deref()).map_err(|missing| {
        Box::new(match missing {
            Missing::Reference { known } => Problem::new(StatusCode::NOT_FOUND, format!("no schema is registered as {reference:?}"))
                .at(path)
                .with("reference", reference.as_str())
                .with("known_references", known),
            Missing::Version { known } => {
                let version = version.unwrap_or_default();
                Problem::new(StatusCode::NOT_FOUND, format!("{reference:?} is not registered in version {version:?}"))
                    .at(path)
                    .with("reference", reference.as_str())
                    .with("version", version)
                    .with("known_versions", known)
            }
        })
    })
}

/// The reference a raw (percent-encoded) path segment spells; an error says why it is none.
pub(crate) fn decode_reference(raw: &str) -> Result<String, String> {
    // Each byte of a reference is at most one `%XX` triple.
    if raw.len() > 3 * MAX_REFERENCE_LEN {
        return Err(format!("the path is {} bytes long; a reference has at most {MAX_REFERENCE_LEN}", raw.len()));
    }
    let bytes = raw.as_bytes();
    let mut out = String::with_capacity(raw.len());
    let mut at = 0;
    while at < bytes.len() {
        let byte = bytes[at];
        if byte != b'%' {
            out.push(char::from(byte));
            at += 1;
            continue;
        }
        let decoded = bytes.get(at + 1..at + 3).and_then(|hex| u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok());
        let Some(decoded) = decoded else {
            return Err("a `%` that starts no `%XX` escape".to_owned());
        };
        if !(decoded.is_ascii_alphanumeric() || matches!(decoded, b'-' | b'.' | b'_' | b'~')) {
            let what = match decoded {
                b'/' => "an encoded `/` (%2F), which would hide a path separator".to_owned(),
                b'\\' => "an encoded `\\` (%5C)".to_owned(),
                0 => "an encoded NUL byte (%00)".to_owned(),
                other => format!("`%{other:02X}`, which encodes a character no reference holds"),
            };
            return Err(what);
        }
        out.push(char::from(decoded));
        at += 3;
    }
    check_reference(&out).map_err(str::to_owned)?;
    Ok(out)
}

/// `?version=V`: the one query parameter; others are ignored.
fn version_of(query: Option<&str>) -> Result<Option<String>, String> {
    let Some(query) = query else { return Ok(None) };
    let uri: Uri = format!("/?{query}").parse().map_err(|_| "the query is not a valid URI query".to_owned())?;
    let axum::extract::Query(pairs) =
        axum::extract::Query::<Vec<(String, String)>>::try_from_uri(&uri).map_err(|err| format!("the query does not parse: {err}"))?;
    let mut versions = pairs.into_iter().filter(|(name, _)| name == "version").map(|(_, value)| value);
    match (versions.next(), versions.next()) {
        (Some(_), Some(_)) => Err("`version` is given twice".to_owned()),
        (version, _) => Ok(version),
    }
}

/// Whether a page route should answer with the page: a browser's `Accept`, `*/*` or none,
/// unless JSON is named without HTML.
fn wants_html(headers: &HeaderMap) -> bool {
    let types = accepted(headers);
    let json = types.iter().any(|t| matches!(t.as_str(), "application/json" | SCHEMA_JSON | "application/*"));
    names_html(headers) || !json
}

/// Whether `Accept` names HTML, as a browser's does: then an error is an HTML page too, else
/// a problem document.
fn names_html(headers: &HeaderMap) -> bool {
    accepted(headers).iter().any(|t| matches!(t.as_str(), "text/html" | "application/xhtml+xml" | "text/*"))
}

/// The media types `Accept` lists, lowercased, without parameters.
fn accepted(headers: &HeaderMap) -> Vec<String> {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .filter_map(|item| item.split(';').next())
        .map(|t| t.trim().to_ascii_lowercase())
        .collect()
}

/// A `200` with `body`, or a `304` when `If-None-Match` names `etag` (weak comparison, as
/// RFC 9110 §13.1.2 has it for this header).
fn cached(served: &Served, headers: &HeaderMap, etag: &HeaderValue, content_type: &'static str, body: axum::body::Bytes) -> Response {
    let matches = headers.get_all(header::IF_NONE_MATCH).iter().filter_map(|value| value.to_str().ok()).any(|value| {
        value.split(',').map(str::trim).any(|tag| tag == "*" || tag.strip_prefix("W/").unwrap_or(tag).as_bytes() == etag.as_bytes())
    });
    let mut response = if matches {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut response = Response::new(Body::from(body));
        response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
        response
    };
    response.headers_mut().insert(header::ETAG, etag.clone());
    response.headers_mut().insert(header::CACHE_CONTROL, served.cache_control.clone());
    response
}

fn listing(catalog: &Arc<Catalog>) -> &Listing {
    catalog.listing.get_or_init(|| build_listing(catalog))
}

/// What `GET /api/v1/json-schemas` lists for each schema (also `list_json_schemas`'s items).
pub(crate) fn list_item(catalog: &Catalog, schema: &Schema) -> Value {
    let latest = catalog.get(&schema.reference, None).is_ok_and(|latest| latest.version == schema.version);
    let query = if latest { String::new() } else { format!("?version={}", schema.version) };
    json!({
        "reference": schema.reference,
        "version": schema.version,
        "latest": latest,
        "id": schema.id,
        "sha256": schema.sha256,
        "link": format!("{API}/{}{query}", schema.reference),
        "page": schema.html.as_ref().map(|_| format!("{PAGES}/{}{query}", schema.reference)),
        "uri": schema.uri(),
    })
}

fn build_listing(catalog: &Catalog) -> Listing {
    let items: Vec<Value> = catalog.iter().map(|schema| list_item(catalog, schema)).collect();
    let json = serde_json::to_string_pretty(&json!({ "schemas": items })).unwrap_or_default() + "\n";
    let mut rows = String::new();
    for schema in catalog.iter() {
        let item = list_item(catalog, schema);
        let text = |key: &str| item[key].as_str().unwrap_or_default().to_owned();
        let name = match item["page"].as_str() {
            Some(page) => format!("<a href=\"{}\">{}</a>", page::escape(page), page::escape(&schema.reference)),
            None => page::escape(&schema.reference),
        };
        rows.push_str(&format!(
            "<tr><td>{name}</td><td>{}</td><td>{}</td><td><a href=\"{}\">JSON</a></td><td><code>{}</code></td></tr>\n",
            page::escape(&schema.version),
            page::escape(&schema.id),
            page::escape(&text("link")),
            page::escape(&schema.sha256),
        ));
    }
    let html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>JSON Schemas</title>\n\
         <style>body{{font:16px/1.5 system-ui,sans-serif;max-width:72rem;margin:0 auto;padding:1rem 1.5rem}}\
         table{{border-collapse:collapse}}th,td{{border:1px solid #d0d7de;padding:.35rem .7rem;text-align:left}}\
         td code{{word-break:break-all}}</style>\n\
         </head>\n<body>\n<h1>JSON Schemas</h1>\n<table>\n<thead><tr><th>Reference</th><th>Version</th><th>Schema id</th>\
         <th>Schema</th><th>SHA-256</th></tr></thead>\n<tbody>\n{rows}</tbody>\n</table>\n</body>\n</html>\n"
    );
    Listing {
        json_etag: etag_of(json.as_bytes(), "list"),
        json: json.into(),
        html_etag: etag_of(html.as_bytes(), "index"),
        html: html.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_only_unreserved_escapes() {
        assert_eq!(decode_reference("madoo.attempts-report/v1").as_deref(), Ok("madoo.attempts-report/v1"));
        assert_eq!(decode_reference("madoo%2Eattempts%2dreport/v%31").as_deref(), Ok("madoo.attempts-report/v1"));
        for (raw, error) in [
            ("madoo.attempts-report%2Fv1", "an encoded `/` (%2F), which would hide a path separator"),
            ("madoo.attempts-report%2fv1", "an encoded `/` (%2F), which would hide a path separator"),
            ("a%00", "an encoded NUL byte (%00)"),
            ("a%5C..%5Cb", "an encoded `\\` (%5C)"),
            ("a%3Cscript%3E", "`%3C`, which encodes a character no reference holds"),
            ("a%zz", "a `%` that starts no `%XX` escape"),
            ("a%2", "a `%` that starts no `%XX` escape"),
            ("%2e%2e/%2e%2e/etc/passwd", "it has a `.` or `..` segment"),
            ("../../etc/passwd", "it has a `.` or `..` segment"),
            ("a//b", "it has an empty segment"),
        ] {
            assert_eq!(decode_reference(raw), Err(error.to_owned()), "{raw}");
        }
        let long = "a".repeat(MAX_REFERENCE_LEN * 3 + 1);
        assert_eq!(decode_reference(&long), Err("the path is 769 bytes long; a reference has at most 256".to_owned()));
        assert_eq!(decode_reference(&"a".repeat(300)), Err("it is longer than 256 bytes".to_owned()));
    }

    #[test]
    fn version_query() {
        assert_eq!(version_of(None), Ok(None));
        assert_eq!(version_of(Some("version=1.0.0")), Ok(Some("1.0.0".to_owned())));
        assert_eq!(version_of(Some("x=1&version=2.0.0%2Brc")), Ok(Some("2.0.0+rc".to_owned())));
        assert_eq!(version_of(Some("version=1&version=2")), Err("`version` is given twice".to_owned()));
    }

    #[test]
    fn html_is_for_browsers() {
        let accept = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(header::ACCEPT, HeaderValue::from_str(value).unwrap());
            wants_html(&headers)
        };
        assert!(wants_html(&HeaderMap::new()));
        assert!(accept("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"));
        assert!(accept("*/*"));
        assert!(!accept("application/schema+json"));
        assert!(!accept("application/json, */*;q=0.1"));
    }
}
