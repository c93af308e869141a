//! The HTTP registry over this repository's generated crate, with real clients: `reqwest`
//! for what a program does (status, headers, bytes equal to the schema file, `304` on a
//! matching ETag, the problem JSON) and a raw HTTP/1.1 client for paths no URL library sends
//! as written (`..`, `%2e%2e`, `%2F`, `%00`, overlong).

mod common;

use common::{ATTEMPTS, GOAL, raw, schema_file, start, start_generated};
use reqwest::StatusCode;
use schemac_registry::{Catalog, Options, Registry, Schema, router_with};
use serde_json::{Value, json};

fn url(addr: std::net::SocketAddr, path: &str) -> String {
    format!("http://{addr}{path}")
}

#[tokio::test]
async fn serves_each_schema_byte_for_byte_with_its_etag() {
    let addr = start_generated().await;
    let client = reqwest::Client::new();
    for entry in schema_types::SCHEMAS {
        let response = client.get(url(addr, &format!("/api/v1/json-schemas/{}", entry.reference))).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{}", entry.reference);
        let headers = response.headers().clone();
        assert_eq!(headers["content-type"], "application/schema+json");
        assert_eq!(headers["etag"], format!("\"sha256-{}\"", entry.sha256).as_str());
        assert_eq!(headers["cache-control"], "public, max-age=300");
        assert_eq!(headers["x-content-type-options"], "nosniff");
        assert_eq!(headers["access-control-allow-origin"], "*");
        let body = response.bytes().await.unwrap();
        assert_eq!(body.as_ref(), schema_file(entry.reference).as_slice(), "{}", entry.reference);
        assert_eq!(headers["content-length"], body.len().to_string().as_str());
    }
}

#[tokio::test]
async fn a_matching_etag_is_a_304() {
    let addr = start_generated().await;
    let client = reqwest::Client::new();
    let path = url(addr, &format!("/api/v1/json-schemas/{ATTEMPTS}"));
    let etag = client.get(&path).send().await.unwrap().headers()["etag"].to_str().unwrap().to_owned();
    for if_none_match in [etag.clone(), format!("W/{etag}"), format!("\"other\", {etag}"), "*".to_owned()] {
        let response = client.get(&path).header("if-none-match", &if_none_match).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::NOT_MODIFIED, "{if_none_match}");
        assert_eq!(response.headers()["etag"], etag.as_str());
        assert_eq!(response.headers()["cache-control"], "public, max-age=300");
        assert!(response.bytes().await.unwrap().is_empty());
    }
    let stale = client.get(&path).header("if-none-match", "\"sha256-0000\"").send().await.unwrap();
    assert_eq!(stale.status(), StatusCode::OK);
    // HEAD is GET without the body.
    let head = client.head(&path).send().await.unwrap();
    assert_eq!((head.status(), head.headers()["etag"].to_str().unwrap()), (StatusCode::OK, etag.as_str()));
}

#[tokio::test]
async fn lists_every_schema() {
    let addr = start_generated().await;
    let response = reqwest::get(url(addr, "/api/v1/json-schemas")).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "application/json");
    assert!(response.headers()["etag"].to_str().unwrap().starts_with("\"list-sha256-"));
    let list: Value = response.json().await.unwrap();
    let attempts = schema_types::find(ATTEMPTS).unwrap();
    let goal = schema_types::find(GOAL).unwrap();
    assert_eq!(
        list,
        json!({ "schemas": [
            {
                "reference": ATTEMPTS, "version": "1.0.0", "latest": true, "id": "urn:madoo:schema:attempts-report:v1",
                "sha256": attempts.sha256, "link": "/api/v1/json-schemas/madoo.attempts-report/v1",
                "page": "/json-schemas/madoo.attempts-report/v1", "uri": "schema://madoo.attempts-report/v1",
            },
            {
                "reference": GOAL, "version": goal.version, "latest": true, "id": goal.id,
                "sha256": goal.sha256, "link": "/api/v1/json-schemas/pi-glla/goal",
                "page": "/json-schemas/pi-glla/goal", "uri": "schema://pi-glla/goal",
            },
        ]})
    );
    let index = reqwest::get(url(addr, "/json-schemas")).await.unwrap();
    assert_eq!(index.headers()["content-type"], "text/html; charset=utf-8");
    let html = index.text().await.unwrap();
    assert!(html.contains("<a href=\"/json-schemas/madoo.attempts-report/v1\">madoo.attempts-report/v1</a>"), "{html}");
}

/// Two versions of one reference: the latest by default, another with `?version=`.
#[tokio::test]
async fn versions() {
    let schema =
        |version: &str, text: &str| Schema::new("a/b", version, "urn:a:b", "schemas/a/b.json", "ab".repeat(32), text.to_owned(), None);
    let catalog = Catalog::new([schema("1.2.0", "{\"old\":true}"), schema("1.10.0", "{\"new\":true}")]).unwrap();
    let addr = start(router_with(Registry::new(catalog), &Options::default())).await;
    let get = |path: &str| reqwest::get(url(addr, path));
    assert_eq!(get("/api/v1/json-schemas/a/b").await.unwrap().text().await.unwrap(), "{\"new\":true}");
    assert_eq!(get("/api/v1/json-schemas/a/b?version=1.2.0").await.unwrap().text().await.unwrap(), "{\"old\":true}");
    let missing = get("/api/v1/json-schemas/a/b?version=2.0.0").await.unwrap();
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    assert_eq!(missing.headers()["content-type"], "application/problem+json");
    let problem: Value = missing.json().await.unwrap();
    assert_eq!(problem["known_versions"], json!(["1.2.0", "1.10.0"]));
    assert_eq!(problem["detail"], "\"a/b\" is not registered in version \"2.0.0\"");
    let list: Value = get("/api/v1/json-schemas").await.unwrap().json().await.unwrap();
    let links: Vec<(&str, bool)> =
        list["schemas"].as_array().unwrap().iter().map(|s| (s["link"].as_str().unwrap(), s["latest"].as_bool().unwrap())).collect();
    assert_eq!(links, [("/api/v1/json-schemas/a/b?version=1.2.0", false), ("/api/v1/json-schemas/a/b", true)]);
    // No page: the crate was generated without them.
    let page = get("/json-schemas/a/b").await.unwrap();
    assert_eq!(page.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn an_unknown_reference_is_a_problem_naming_the_known_ones() {
    let addr = start_generated().await;
    let response = reqwest::get(url(addr, "/api/v1/json-schemas/madoo.attempts-report/v2")).await.unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    assert_eq!(response.headers()["content-type"], "application/problem+json");
    let problem: Value = response.json().await.unwrap();
    assert_eq!(
        problem,
        json!({
            "type": "about:blank",
            "title": "Not Found",
            "status": 404,
            "detail": "no schema is registered as \"madoo.attempts-report/v2\"",
            "instance": "/api/v1/json-schemas/madoo.attempts-report/v2",
            "reference": "madoo.attempts-report/v2",
            "known_references": [ATTEMPTS, GOAL],
        })
    );
}

#[tokio::test]
async fn other_methods_are_405() {
    let addr = start_generated().await;
    let client = reqwest::Client::new();
    for method in ["POST", "PUT", "DELETE", "PATCH"] {
        for path in ["/api/v1/json-schemas", "/api/v1/json-schemas/madoo.attempts-report/v1", "/json-schemas/pi-glla/goal"] {
            let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
            let response = client.request(method.clone(), url(addr, path)).body("{}").send().await.unwrap();
            assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED, "{method} {path}");
            assert_eq!(response.headers()["allow"], "GET, HEAD");
            assert_eq!(response.headers()["content-type"], "application/problem+json");
            let problem: Value = response.json().await.unwrap();
            assert_eq!(problem["status"], 405);
        }
    }
}

#[tokio::test]
async fn the_page_is_html_for_a_browser_and_the_schema_for_json_clients() {
    let addr = start_generated().await;
    let client = reqwest::Client::new();
    let path = url(addr, &format!("/json-schemas/{ATTEMPTS}"));
    let page = client.get(&path).header("accept", "text/html,application/xhtml+xml,*/*;q=0.8").send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert_eq!(page.headers()["content-type"], "text/html; charset=utf-8");
    assert_eq!(page.headers()["vary"], "Accept");
    assert!(page.headers()["content-security-policy"].to_str().unwrap().starts_with("default-src 'none'"));
    let etag = page.headers()["etag"].to_str().unwrap().to_owned();
    assert!(etag.starts_with("\"page-sha256-"), "{etag}");
    let html = page.text().await.unwrap();
    assert!(html.contains("<h1 id=\"madooattempts-reportv1\">madoo.attempts-report/v1</h1>"), "{html}");
    assert!(html.contains("<h2 id=\"fields\">Fields</h2>"), "{html}");
    assert!(html.contains("<tr><td>Reference</td><td>madoo.attempts-report/v1</td></tr>"), "{html}");
    assert!(!html.contains("@generated"), "the codegen comment is not part of the page");
    assert!(!html.contains("<script"), "{html}");
    let again = client.get(&path).header("if-none-match", &etag).send().await.unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    let json = client.get(&path).header("accept", "application/schema+json").send().await.unwrap();
    assert_eq!(json.headers()["content-type"], "application/schema+json");
    assert_eq!(json.bytes().await.unwrap().as_ref(), schema_file(ATTEMPTS).as_slice());
}

/// Paths that try to reach something else: each is a `400` or `404` problem, never a file.
#[tokio::test]
async fn hostile_paths() {
    let addr = start_generated().await;
    let overlong = format!("/api/v1/json-schemas/{}", "a/".repeat(5000));
    let long_segment = format!("/api/v1/json-schemas/{}", "a".repeat(300));
    let cases: &[(&str, u16, &str)] = &[
        ("/api/v1/json-schemas/../../../../etc/passwd", 400, "it has a `.` or `..` segment"),
        ("/api/v1/json-schemas/%2e%2e/%2e%2e/%2e%2e/etc/passwd", 400, "it has a `.` or `..` segment"),
        ("/api/v1/json-schemas/madoo.attempts-report/v1/../../pi-glla/goal", 400, "it has a `.` or `..` segment"),
        ("/api/v1/json-schemas/madoo.attempts-report%2Fv1", 400, "an encoded `/` (%2F)"),
        ("/api/v1/json-schemas/madoo.attempts-report%2fv1", 400, "an encoded `/` (%2F)"),
        ("/api/v1/json-schemas/..%2F..%2Fetc%2Fpasswd", 400, "an encoded `/` (%2F)"),
        ("/api/v1/json-schemas/..%5C..%5CCargo.toml", 400, "an encoded `\\` (%5C)"),
        ("/api/v1/json-schemas/madoo.attempts-report/v1%00", 400, "an encoded NUL byte (%00)"),
        ("/api/v1/json-schemas/madoo.attempts-report/v1%00.json", 400, "an encoded NUL byte (%00)"),
        ("/api/v1/json-schemas//etc/passwd", 400, "it has an empty segment"),
        ("/api/v1/json-schemas/a%", 400, "a `%` that starts no `%XX` escape"),
        (&long_segment, 400, "it is longer than 256 bytes"),
        (&overlong, 400, "the path is 10000 bytes long"),
        ("/api/v1/json-schemas/schemas/madoo/attempts-report.v1.json", 404, "no schema is registered as"),
        ("/api/v1/json-schemas/Cargo.toml", 404, "no schema is registered as"),
        ("/api/v1/json-schemas/madoo.attempts-report/v2", 404, "no schema is registered as"),
        ("/json-schemas/%2e%2e/%2e%2e/README.md", 400, "it has a `.` or `..` segment"),
        ("/etc/passwd", 404, "nothing is served here"),
        ("/api/v1/../../etc/passwd", 404, "nothing is served here"),
        ("/generated/docs/madoo/attempts-report.v1.md", 404, "nothing is served here"),
    ];
    let mut report = String::new();
    for (path, status, detail) in cases {
        let response = raw(addr, "GET", path, &[]).await;
        report.push_str(&format!("{} {}\n", response.status, if path.len() > 80 { &path[..80] } else { path }));
        assert_eq!(response.status, *status, "{path}: {}", response.text());
        assert_eq!(response.header("content-type"), Some("application/problem+json"), "{path}");
        let problem: Value = serde_json::from_slice(&response.body).unwrap_or_else(|err| panic!("{path}: {err}: {}", response.text()));
        assert_eq!(problem["status"], *status, "{path}");
        assert!(problem["detail"].as_str().unwrap().contains(detail), "{path}: {problem}");
    }
    // Past hyper's limit on a request target (64 KiB), the request is refused before routing.
    let huge = format!("/api/v1/json-schemas/{}", "a".repeat(100_000));
    let response = raw(addr, "GET", &huge, &[]).await;
    assert_eq!(response.status, 414, "{}", response.text());
    report.push_str(&format!("{} {}... (100,021 bytes)\n", response.status, &huge[..40]));
    std::fs::write(common::artifacts().join("hostile-paths.txt"), report).unwrap();
}

/// A browser asking for a hostile page gets an HTML error in which nothing it sent is markup.
#[tokio::test]
async fn errors_never_echo_markup() {
    let addr = start_generated().await;
    let accept = [("Accept", "text/html")];
    for path in ["/json-schemas/%3Cscript%3Ealert(1)%3C%2Fscript%3E", "/json-schemas/x%22onmouseover=%22alert(1)", "/%3Cscript%3E"] {
        let response = raw(addr, "GET", path, &accept).await;
        assert!(matches!(response.status, 400 | 404), "{path}: {}", response.status);
        assert_eq!(response.header("content-type"), Some("text/html; charset=utf-8"), "{path}");
        assert!(response.header("content-security-policy").is_some_and(|csp| csp.contains("default-src 'none'")), "{path}");
        let html = response.text();
        assert!(!html.contains("<script") && !html.contains("\"alert"), "{path}: {html}");
    }
    // A version is echoed too (it is any text): escaped, in the detail and in its row.
    let response = raw(addr, "GET", "/json-schemas/pi-glla/goal?version=%3Cscript%3Ealert(1)%3C/script%3E%22'", &accept).await;
    assert_eq!(response.status, 404);
    let html = response.text();
    assert!(!html.contains("<script") && !html.contains("\"'"), "{html}");
    assert!(html.contains("<tr><th>version</th><td>&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;</td></tr>"), "{html}");
    // An unknown reference with markup-like characters that are valid in a reference.
    let response = raw(addr, "GET", "/json-schemas/a~b/c", &accept).await;
    assert_eq!(response.status, 404);
    assert!(response.text().contains("no schema is registered as &quot;a~b/c&quot;"), "{}", response.text());
}

/// The MCP endpoint as plain HTTP: a session ended with `DELETE` is a `200` (the Python SDK
/// logs rmcp's `202` as a failure), and a body past 64 KiB is refused unread.
#[tokio::test]
async fn mcp_sessions_end_with_200_and_bodies_are_bounded() {
    let addr = start_generated().await;
    let client = reqwest::Client::new();
    let mcp = url(addr, "/mcp");
    let post = |body: String| {
        client.post(&mcp).header("content-type", "application/json").header("accept", "application/json, text/event-stream").body(body)
    };
    let initialize = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": { "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "test", "version": "1" } }
    });
    let response = post(initialize.to_string()).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let session = response.headers()["mcp-session-id"].to_str().unwrap().to_owned();
    assert!(response.text().await.unwrap().contains("\"serverInfo\":{\"name\":\"schemac-registry\""));
    let end = |session: String| client.delete(&mcp).header("mcp-session-id", session).header("mcp-protocol-version", "2025-11-25").send();
    assert_eq!(end(session.clone()).await.unwrap().status(), StatusCode::OK);
    // The session is gone: using it again is a 404, as the protocol has it.
    let again = post(json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/list" }).to_string())
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::NOT_FOUND);

    let padding = "x".repeat(schemac_registry::mcp::MAX_REQUEST_BODY);
    let huge = json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": { "_meta": { "padding": padding } } });
    assert_eq!(post(huge.to_string()).send().await.unwrap().status(), StatusCode::PAYLOAD_TOO_LARGE);
}

/// Each page's "Served at" row is a promise this registry keeps: every `GET path` it names
/// answers with the schema's bytes, every `MCP tool` is a tool of the MCP server.
#[tokio::test]
async fn the_pages_served_at_claims_hold() {
    let addr = start_generated().await;
    let mut kept = 0;
    for entry in schema_types::SCHEMAS {
        let page = entry.page.expect("this repository's crate has pages");
        let Some(row) = page.lines().find_map(|line| line.strip_prefix("| Served at | ")) else { continue };
        for claim in row.trim_end_matches(" |").split(" · ") {
            let claim = claim.replace("\\_", "_");
            match claim.split_once(' ') {
                Some(("GET", path)) => {
                    let response = reqwest::get(url(addr, path)).await.unwrap();
                    assert_eq!(response.status(), StatusCode::OK, "{claim}");
                    assert_eq!(response.bytes().await.unwrap().as_ref(), schema_file(entry.reference).as_slice(), "{claim}");
                }
                Some(("MCP", tool)) => {
                    assert!([schemac_registry::mcp::GET_JSON_SCHEMA, schemac_registry::mcp::LIST_JSON_SCHEMAS].contains(&tool), "{claim}");
                }
                _ => panic!("{}: a Served at claim this test cannot check: {claim}", entry.reference),
            }
            kept += 1;
        }
    }
    assert!(kept >= 2, "the attempts report's page names where it is served");
}

/// `serve` closes a connection whose request head does not arrive in time: a new one that
/// sends half a head, and a kept-alive one that sends nothing after its first request.
#[tokio::test]
async fn serve_closes_connections_that_send_no_head_in_time() {
    use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let registry = Registry::from_entries(schema_types::SCHEMAS).unwrap();
    let options = Options { header_read_timeout: std::time::Duration::from_millis(300), ..Options::default() };
    tokio::spawn(schemac_registry::serve_until(listener, registry, &options, std::future::pending()));
    let closed_within = |mut stream: tokio::net::TcpStream| async move {
        let started = std::time::Instant::now();
        let mut rest = Vec::new();
        let read = tokio::time::timeout(std::time::Duration::from_secs(10), stream.read_to_end(&mut rest)).await;
        assert!(read.is_ok(), "the connection is still open after 10 s");
        (started.elapsed(), String::from_utf8_lossy(&rest).into_owned())
    };

    let mut slow = tokio::net::TcpStream::connect(addr).await.unwrap();
    slow.write_all(b"GET /api/v1/json-schemas HTTP/1.1\r\nHost: x\r\n").await.unwrap();
    let (waited, answer) = closed_within(slow).await;
    assert!(waited < std::time::Duration::from_secs(5), "closed after {waited:?}");
    assert!(answer.is_empty() || answer.starts_with("HTTP/1.1 408"), "{answer}");

    let mut idle = tokio::net::TcpStream::connect(addr).await.unwrap();
    idle.write_all(b"GET /api/v1/json-schemas HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
    let (waited, answer) = closed_within(idle).await;
    assert!(waited < std::time::Duration::from_secs(5), "closed after {waited:?}");
    assert!(answer.starts_with("HTTP/1.1 200 OK\r\n"), "the request was answered first: {answer}");
}

/// At shutdown an MCP client's open event stream does not keep the server alive: its session
/// is ended, the stream closes, and `serve` returns well before its grace period runs out.
#[tokio::test]
async fn shutdown_ends_mcp_sessions_and_returns() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let registry = Registry::from_entries(schema_types::SCHEMAS).unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(schemac_registry::serve_until(listener, registry, &Options::default(), async {
        let _ = stopped.await;
    }));
    let client = reqwest::Client::new();
    let mcp = url(addr, "/mcp");
    let initialize = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": { "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "test", "version": "1" } }
    });
    let post = |body: String, session: Option<&str>| {
        let request = client.post(&mcp).header("content-type", "application/json").header("accept", "application/json, text/event-stream");
        let request = match session {
            Some(session) => request.header("mcp-session-id", session).header("mcp-protocol-version", "2025-11-25"),
            None => request,
        };
        request.body(body).send()
    };
    let response = post(initialize.to_string(), None).await.unwrap();
    let session = response.headers()["mcp-session-id"].to_str().unwrap().to_owned();
    response.text().await.unwrap();
    let initialized = post(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }).to_string(), Some(&session)).await.unwrap();
    assert_eq!(initialized.status(), StatusCode::ACCEPTED);
    // The stream a client keeps open for the server's own messages.
    let mut events = client
        .get(&mcp)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .unwrap();
    assert_eq!(events.status(), StatusCode::OK);

    let started = std::time::Instant::now();
    stop.send(()).unwrap();
    let returned = tokio::time::timeout(std::time::Duration::from_secs(20), server).await;
    let waited = started.elapsed();
    assert!(returned.is_ok(), "serve has not returned 20 s after shutdown began");
    assert!(waited < schemac_registry::SHUTDOWN_GRACE, "serve returned only after its grace period ({waited:?})");
    // The stream ended (or broke off) rather than staying open.
    let ended = tokio::time::timeout(std::time::Duration::from_secs(5), async { while let Ok(Some(_)) = events.chunk().await {} }).await;
    assert!(ended.is_ok(), "the event stream is still open");
    assert!(reqwest::get(url(addr, "/api/v1/json-schemas")).await.is_err(), "nothing listens any more");
}

/// A client in a session hears of a reload: `notifications/resources/list_changed` on its event
/// stream, and the next `resources/list` has the new schema.
#[tokio::test]
async fn a_reload_is_announced_to_mcp_sessions() {
    let registry = Registry::from_entries(schema_types::SCHEMAS).unwrap();
    let addr = start(router_with(registry.clone(), &Options::default())).await;
    let client = reqwest::Client::new();
    let mcp = url(addr, "/mcp");
    let post = |body: Value, session: Option<&str>| {
        let request = client.post(&mcp).header("content-type", "application/json").header("accept", "application/json, text/event-stream");
        let request = match session {
            Some(session) => request.header("mcp-session-id", session).header("mcp-protocol-version", "2025-11-25"),
            None => request,
        };
        request.body(body.to_string()).send()
    };
    let initialize = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": { "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "test", "version": "1" } }
    });
    let response = post(initialize, None).await.unwrap();
    let session = response.headers()["mcp-session-id"].to_str().unwrap().to_owned();
    let answer = response.text().await.unwrap();
    assert!(answer.contains("\"resources\":{\"listChanged\":true}"), "the capability is declared: {answer}");
    post(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }), Some(&session)).await.unwrap();
    let mut events = client
        .get(&mcp)
        .header("accept", "text/event-stream")
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .unwrap();
    assert_eq!(events.status(), StatusCode::OK);

    let added = Schema::new("shop/order", "1.0.0", "urn:shop:order", "schemas/shop/order.json", "cd".repeat(32), "{}".to_owned(), None);
    let mut schemas: Vec<Schema> = registry.snapshot().iter().cloned().collect();
    schemas.push(added);
    registry.replace(Catalog::new(schemas).unwrap());
    let heard = tokio::time::timeout(std::time::Duration::from_secs(10), async {
        let mut seen = String::new();
        while let Some(chunk) = events.chunk().await.unwrap() {
            seen.push_str(&String::from_utf8_lossy(&chunk));
            if seen.contains("notifications/resources/list_changed") {
                return seen;
            }
        }
        panic!("the event stream ended without the notification: {seen}");
    })
    .await;
    assert!(heard.is_ok(), "no notifications/resources/list_changed within 10 s of the reload");
    let listed = post(json!({ "jsonrpc": "2.0", "id": 2, "method": "resources/list" }), Some(&session)).await.unwrap();
    assert!(listed.text().await.unwrap().contains("\"uri\":\"schema://shop/order\""));
}
