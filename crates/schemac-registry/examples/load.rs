//! The registry under load, on loopback: `N` requests (default 10,000) at `C` at a time
//! (default 64) of `GET /api/v1/json-schemas/madoo.attempts-report/v1`, then the same number of
//! MCP `tools/call get_json_schema` over streamable HTTP; for each, requests per second, p50,
//! p99 and the slowest latency, errors (a status other than 200, or a body other than the
//! schema), and the server's resident memory before and after; MCP twice: as a 2026-07-28
//! client sends it (each request standing alone), and in sessions as a 2025-11-25 client does
//! (one per concurrent worker, ended with `DELETE` after the phase, memory read again then).
//! A benchmark run by hand, never a test (figures in BENCHMARKS.md):
//!
//! ```text
//! cargo run --release -p schemac-registry --example load                     # server in this process
//! cargo run --release -p schemac-registry --example load -- --url http://127.0.0.1:8080 --pid PID
//! ```
//!
//! With `--url` it loads a server already running (`schemac serve`), whose memory it reads
//! from `/proc/PID/status` when given `--pid`; without it, a server in this process, on
//! `schemac_registry::serve` or, with `--axum-serve`, on `axum::serve` (the baseline). It sends only to loopback addresses, at most
//! 100,000 requests per phase, each with a 10 s timeout, and stops a phase after 120 s.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const REFERENCE: &str = "madoo.attempts-report/v1";
const MAX_REQUESTS: usize = 100_000;
const MAX_CONCURRENCY: usize = 256;
const PHASE_DEADLINE: Duration = Duration::from_secs(120);

struct Args {
    url: Option<String>,
    pid: Option<u32>,
    requests: usize,
    concurrency: usize,
    /// In this process, serve with `axum::serve` instead of `schemac_registry::serve`.
    axum_serve: bool,
}

fn args() -> Result<Args, String> {
    let mut args = Args { url: None, pid: None, requests: 10_000, concurrency: 64, axum_serve: false };
    let mut iter = std::env::args().skip(1);
    while let Some(flag) = iter.next() {
        let mut value = || iter.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--url" => args.url = Some(value()?),
            "--pid" => args.pid = Some(value()?.parse().map_err(|_| "--pid takes a process id")?),
            "--requests" => args.requests = value()?.parse().map_err(|_| "--requests takes a number")?,
            "--concurrency" => args.concurrency = value()?.parse().map_err(|_| "--concurrency takes a number")?,
            "--axum-serve" => args.axum_serve = true,
            other => return Err(format!("unknown argument {other}; see the example's docs")),
        }
    }
    if !(1..=MAX_REQUESTS).contains(&args.requests) || !(1..=MAX_CONCURRENCY).contains(&args.concurrency) {
        return Err(format!("at most {MAX_REQUESTS} requests and {MAX_CONCURRENCY} at a time"));
    }
    if let Some(url) = &args.url {
        let host = url.strip_prefix("http://").and_then(|rest| rest.split(['/', ':']).next()).unwrap_or_default();
        let loopback = host == "localhost" || host.starts_with("127.") || url.starts_with("http://[::1]");
        if !loopback {
            return Err(format!("{url}: this benchmark sends only to loopback addresses (127.0.0.0/8, localhost, [::1])"));
        }
    }
    Ok(args)
}

/// `VmRSS` and `VmHWM` (peak) of a process, in KiB.
type Memory = Option<(u64, u64)>;

fn memory(pid: Option<u32>) -> Memory {
    let path = match pid {
        Some(pid) => format!("/proc/{pid}/status"),
        None => "/proc/self/status".to_owned(),
    };
    let status = std::fs::read_to_string(path).ok()?;
    let field = |name: &str| status.lines().find_map(|line| line.strip_prefix(name)?.trim().strip_suffix("kB")?.trim().parse().ok());
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

struct Outcome {
    latencies: Vec<Duration>,
    errors: usize,
    first_error: Option<String>,
    elapsed: Duration,
}

/// Runs `requests` calls of `call` with `concurrency` in flight.
async fn phase<F, Fut>(requests: usize, concurrency: usize, call: F) -> Outcome
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<(), String>> + Send,
{
    let call = Arc::new(call);
    let next = Arc::new(AtomicUsize::new(0));
    let start = Instant::now();
    let workers: Vec<_> = (0..concurrency)
        .map(|_| {
            let (call, next) = (call.clone(), next.clone());
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                let (mut errors, mut first_error) = (0, None);
                while next.fetch_add(1, Ordering::Relaxed) < requests && start.elapsed() < PHASE_DEADLINE {
                    let sent = Instant::now();
                    let result = tokio::time::timeout(Duration::from_secs(10), call())
                        .await
                        .unwrap_or_else(|_| Err("timed out after 10 s".to_owned()));
                    latencies.push(sent.elapsed());
                    if let Err(err) = result {
                        errors += 1;
                        first_error.get_or_insert(err);
                    }
                }
                (latencies, errors, first_error)
            })
        })
        .collect();
    let mut outcome = Outcome { latencies: Vec::with_capacity(requests), errors: 0, first_error: None, elapsed: Duration::ZERO };
    for worker in workers {
        let (latencies, errors, first_error) = worker.await.expect("a worker panicked");
        outcome.latencies.extend(latencies);
        outcome.errors += errors;
        if outcome.first_error.is_none() {
            outcome.first_error = first_error;
        }
    }
    outcome.elapsed = start.elapsed();
    outcome
}

fn report(name: &str, concurrency: usize, mut outcome: Outcome, memory: (&str, Memory, Memory)) {
    let (whose, before, after) = memory;
    outcome.latencies.sort();
    let n = outcome.latencies.len();
    let at = |q: f64| outcome.latencies[((n as f64 * q).ceil() as usize).clamp(1, n) - 1];
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!("{name}");
    println!(
        "  requests {n} at {concurrency} concurrent in {:.2} s: {:.0} requests/s",
        outcome.elapsed.as_secs_f64(),
        n as f64 / outcome.elapsed.as_secs_f64()
    );
    println!("  latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms", ms(at(0.50)), ms(at(0.99)), ms(outcome.latencies[n - 1]));
    println!("  errors {}{}", outcome.errors, outcome.first_error.map(|e| format!(" (first: {e})")).unwrap_or_default());
    match (before, after) {
        (Some((rss_before, _)), Some((rss_after, peak))) => {
            println!("  {whose} memory: RSS {rss_before} KiB before, {rss_after} KiB after, peak {peak} KiB")
        }
        _ => println!("  {whose} memory: unknown"),
    }
}

/// The text of the first `data:` event (or the JSON body) of a streamable HTTP response.
fn mcp_message(body: &str) -> Result<Value, String> {
    // A session's stream opens with an empty priming event (`data:` with an `id` to resume from).
    let json =
        body.lines().filter_map(|line| line.strip_prefix("data:")).map(str::trim).find(|data| !data.is_empty()).unwrap_or(body.trim());
    serde_json::from_str(json).map_err(|err| format!("not a JSON-RPC message ({err}): {}", &body[..body.len().min(200)]))
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let args = args()?;
    let (base, pid) = match &args.url {
        Some(url) => (url.trim_end_matches('/').to_owned(), args.pid),
        None => {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.map_err(|e| e.to_string())?;
            let addr = listener.local_addr().map_err(|e| e.to_string())?;
            let registry = schemac_registry::Registry::from_entries(schema_types::SCHEMAS).map_err(|e| e.to_string())?;
            let options = schemac_registry::Options::default();
            if args.axum_serve {
                // The baseline: the same routes on `axum::serve` (with TCP_NODELAY), as
                // `schemac_registry::serve` was before it had its own accept loop.
                use schemac_registry::axum::serve::ListenerExt as _;
                let listener = listener.tap_io(|stream| {
                    let _ = stream.set_nodelay(true);
                });
                let router = schemac_registry::router_with(registry, &options);
                tokio::spawn(async move { schemac_registry::axum::serve(listener, router).await });
            } else {
                tokio::spawn(schemac_registry::serve(listener, registry, &options));
            }
            (format!("http://{addr}"), None)
        }
    };
    let client = reqwest::Client::builder().pool_max_idle_per_host(args.concurrency).build().map_err(|e| e.to_string())?;
    let schema_url = format!("{base}/api/v1/json-schemas/{REFERENCE}");
    let expected =
        client.get(&schema_url).send().await.map_err(|e| format!("{schema_url}: {e}"))?.bytes().await.map_err(|e| e.to_string())?;
    println!("loading {base} ({} bytes of schema), {} requests per phase", expected.len(), args.requests);
    // In this process the figures are the client's and the server's together.
    let whose = match (&args.url, pid) {
        (None, _) => "process (client and server)",
        (Some(_), Some(_)) => "server",
        (Some(_), None) => "server (no --pid)",
    };

    let before = memory(pid);
    let outcome = phase(args.requests, args.concurrency, {
        let (client, url, expected) = (client.clone(), schema_url.clone(), expected.clone());
        move || {
            let (client, url, expected) = (client.clone(), url.clone(), expected.clone());
            async move {
                let response = client.get(&url).send().await.map_err(|e| e.to_string())?;
                let status = response.status();
                let body = response.bytes().await.map_err(|e| e.to_string())?;
                if status != reqwest::StatusCode::OK || body != expected { Err(format!("{status}, {} bytes", body.len())) } else { Ok(()) }
            }
        }
    })
    .await;
    report(&format!("HTTP GET {schema_url}"), args.concurrency, outcome, (whose, before, memory(pid)));

    // MCP: `tools/call` as a 2026-07-28 client sends it, each request standing alone.
    let mcp_url = format!("{base}/mcp");
    let expected_text = String::from_utf8(expected.to_vec()).map_err(|e| e.to_string())?;
    let id = Arc::new(AtomicUsize::new(1));
    let before = memory(pid);
    let outcome = phase(args.requests, args.concurrency, {
        let (client, url, text) = (client.clone(), mcp_url.clone(), expected_text.clone());
        move || {
            let (client, url, text) = (client.clone(), url.clone(), text.clone());
            let id = id.fetch_add(1, Ordering::Relaxed);
            async move {
                let request = json!({
                    "jsonrpc": "2.0", "id": id, "method": "tools/call",
                    "params": {
                        "name": "get_json_schema", "arguments": { "reference": REFERENCE },
                        "_meta": {
                            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                            "io.modelcontextprotocol/clientInfo": { "name": "schemac-registry-load", "version": "0.1.0" },
                            "io.modelcontextprotocol/clientCapabilities": {}
                        }
                    }
                });
                let response = client
                    .post(&url)
                    .header("content-type", "application/json")
                    .header("accept", "application/json, text/event-stream")
                    .header("mcp-protocol-version", "2026-07-28")
                    .header("mcp-method", "tools/call")
                    .header("mcp-name", "get_json_schema")
                    .body(request.to_string())
                    .send()
                    .await
                    .map_err(|e| e.to_string())?;
                let status = response.status();
                let body = response.text().await.map_err(|e| e.to_string())?;
                let message = mcp_message(&body)?;
                let result = &message["result"];
                let ok = status == reqwest::StatusCode::OK
                    && message["id"] == json!(id)
                    && result["isError"] != json!(true)
                    && result["content"][0]["text"].as_str() == Some(text.as_str());
                if ok { Ok(()) } else { Err(format!("{status}: {}", &body[..body.len().min(200)])) }
            }
        }
    })
    .await;
    report(
        &format!("MCP tools/call get_json_schema at {mcp_url} (2026-07-28, no session)"),
        args.concurrency,
        outcome,
        (whose, before, memory(pid)),
    );

    // MCP in sessions, as a 2025-11-25 client (the Python SDK's default) talks: one session per
    // worker, opened before the phase and ended (`DELETE`) after it.
    let before = memory(pid);
    let mut sessions = Vec::with_capacity(args.concurrency);
    for n in 0..args.concurrency {
        sessions.push(open_session(&client, &mcp_url, n).await?);
    }
    let sessions: Arc<[String]> = sessions.into();
    // Request ids are unique within a session (several may be in flight in one).
    let next = Arc::new(AtomicUsize::new(2));
    let outcome = phase(args.requests, args.concurrency, {
        let (client, url, text, sessions) = (client.clone(), mcp_url.clone(), expected_text.clone(), sessions.clone());
        move || {
            let (client, url, text) = (client.clone(), url.clone(), text.clone());
            let id = next.fetch_add(1, Ordering::Relaxed);
            let session = sessions[id % sessions.len()].clone();
            async move {
                let request = json!({
                    "jsonrpc": "2.0", "id": id, "method": "tools/call",
                    "params": { "name": "get_json_schema", "arguments": { "reference": REFERENCE } }
                });
                let response = mcp_post(&client, &url, Some(&session), request.to_string()).await?;
                let status = response.status();
                let body = response.text().await.map_err(|e| e.to_string())?;
                let message = mcp_message(&body)?;
                let result = &message["result"];
                let ok = status == reqwest::StatusCode::OK
                    && message["id"] == json!(id)
                    && result["isError"] != json!(true)
                    && result["content"][0]["text"].as_str() == Some(text.as_str());
                if ok { Ok(()) } else { Err(format!("{status}: {}", &body[..body.len().min(200)])) }
            }
        }
    })
    .await;
    let after = memory(pid);
    for session in sessions.iter() {
        let ended = client
            .delete(&mcp_url)
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", "2025-11-25")
            .send()
            .await
            .map_err(|e| e.to_string())?;
        if ended.status() != reqwest::StatusCode::OK {
            return Err(format!("DELETE of session {session}: {}", ended.status()));
        }
    }
    // Sessions end in the background; give their tasks a moment to go.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let ended = memory(pid);
    report(
        &format!("MCP tools/call get_json_schema at {mcp_url} (2025-11-25, {} sessions)", sessions.len()),
        args.concurrency,
        outcome,
        (whose, before, after),
    );
    match ended {
        Some((rss, peak)) => println!("  {whose} memory after the sessions ended: RSS {rss} KiB, peak {peak} KiB"),
        None => println!("  {whose} memory after the sessions ended: unknown"),
    }
    Ok(())
}

/// A POST to the MCP endpoint, in `session` when given.
async fn mcp_post(client: &reqwest::Client, url: &str, session: Option<&str>, body: String) -> Result<reqwest::Response, String> {
    let mut request = client
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-11-25");
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    request.body(body).send().await.map_err(|e| e.to_string())
}

/// `initialize` and `notifications/initialized`: a session's id.
async fn open_session(client: &reqwest::Client, url: &str, n: usize) -> Result<String, String> {
    let initialize = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": { "name": format!("schemac-registry-load-{n}"), "version": "0.1.0" }
        }
    });
    let response = mcp_post(client, url, None, initialize.to_string()).await?;
    let session = response
        .headers()
        .get("mcp-session-id")
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned)
        .ok_or_else(|| format!("initialize: {} without a session id", response.status()))?;
    mcp_message(&response.text().await.map_err(|e| e.to_string())?)?;
    let initialized = json!({ "jsonrpc": "2.0", "method": "notifications/initialized" });
    let response = mcp_post(client, url, Some(&session), initialized.to_string()).await?;
    if response.status() != reqwest::StatusCode::ACCEPTED {
        return Err(format!("notifications/initialized: {}", response.status()));
    }
    Ok(session)
}
