//! `schemac serve` as a user runs it: the official Python MCP SDK starts
//! `schemac serve --mcp-stdio` on this repository and talks to it over stdio; and a server on a
//! scratch project picks up an edited schema, and keeps serving the last good one when an
//! edit does not compile.

mod common;

#[path = "../../schemac-registry/tests/mcp/transcript.rs"]
mod transcript;

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::TempDir;
use sha2::{Digest, Sha256};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// The virtual environment's Python with the pinned MCP SDK (see the registry's tests).
fn mcp_python() -> PathBuf {
    let make = "python3 -m venv target/mcp-venv && target/mcp-venv/bin/pip install --require-hashes --no-deps \
                -r crates/schemac-registry/tests/mcp/requirements.txt (what .ci/run does), or set SCHEMAC_MCP_PYTHON";
    let python = std::env::var_os("SCHEMAC_MCP_PYTHON").map_or_else(|| repo().join("target/mcp-venv/bin/python"), PathBuf::from);
    assert!(python.is_file(), "the MCP stdio test runs the official Python MCP SDK, and {} does not exist: {make}", python.display());
    let check = Command::new(&python).args(["-c", "import mcp"]).output().unwrap();
    assert!(check.status.success(), "{} cannot import `mcp` ({}): {make}", python.display(), String::from_utf8_lossy(&check.stderr).trim());
    python
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn python_sdk_over_stdio() {
    let python = mcp_python();
    let script = repo().join("crates/schemac-registry/tests/mcp/client.py");
    let config = repo().join("schemac.toml");
    let schemac = env!("CARGO_BIN_EXE_schemac");
    let reference = "madoo.attempts-report/v1";
    let args = ["stdio", reference, schemac, "serve", "--config", config.to_str().unwrap(), "--mcp-stdio", "--no-watch"];
    let transcript = transcript::run(&python, &script, &args);
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| repo().join("target"), PathBuf::from).join("registry-tests");
    std::fs::create_dir_all(&target).unwrap();
    std::fs::write(target.join("mcp-stdio.json"), serde_json::to_string_pretty(&transcript).unwrap()).unwrap();
    let text = std::fs::read_to_string(repo().join("schemas/madoo/attempts-report.v1.json")).unwrap();
    transcript::check(
        &transcript,
        &transcript::Expected {
            reference,
            version: "1.0.0",
            id: "urn:madoo:schema:attempts-report:v1",
            sha256: &sha256_hex(text.as_bytes()),
            text: &text,
            references: &[reference, "pi-glla/goal"],
        },
    );
}

/// A `schemac serve` child, killed when the test ends.
struct Server {
    child: Child,
    addr: SocketAddr,
    /// What it printed on stderr after its first line.
    log: std::sync::mpsc::Receiver<String>,
}

impl Server {
    fn start(config: &Path) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_schemac"))
            .args(["serve", "--addr", "127.0.0.1:0", "--config"])
            .arg(config)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut first = String::new();
        stderr.read_line(&mut first).unwrap();
        let addr = first
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .and_then(|addr| addr.parse().ok())
            .unwrap_or_else(|| panic!("no address in {first:?}"));
        let (send, log) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                let _ = send.send(line);
            }
        });
        Server { child, addr, log }
    }

    /// Status and body of `GET path`.
    fn get(&self, path: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(self.addr).unwrap();
        write!(stream, "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", self.addr).unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let (head, body) = response.split_once("\r\n\r\n").unwrap();
        (head.split(' ').nth(1).unwrap().parse().unwrap(), body.to_owned())
    }

    /// Waits (at most 20 s) for a stderr line containing `text`; every line read until then.
    fn wait_for_log(&self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        let mut seen = String::new();
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            match self.log.recv_timeout(left) {
                Ok(line) => {
                    seen.push_str(&line);
                    seen.push('\n');
                    if line.contains(text) {
                        return seen;
                    }
                }
                Err(_) => break,
            }
        }
        panic!("schemac serve did not print {text:?} within 20 s; it printed:\n{seen}");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const CONFIG: &str = r#"[crate]
name = "served-types"
version = "0.1.0"
description = "Types of a served schema"
output = "generated"

[schemas]
roots = ["schemas"]

[schema."schemas/order.json"]
reference = "shop/order"
version = "2.0.0"
"#;

#[test]
fn reloads_a_changed_schema_and_keeps_the_last_good_one() {
    let dir = TempDir::new("schemac-serve");
    let v1 = "{\n  \"$id\": \"urn:shop:order\",\n  \"type\": \"object\",\n  \"properties\": { \"id\": { \"type\": \"string\" } }\n}\n";
    let v2 = "{\n  \"$id\": \"urn:shop:order\",\n  \"type\": \"object\",\n  \"properties\": { \"id\": { \"type\": \"integer\" } }\n}\n";
    let config = dir.write("schemac.toml", CONFIG);
    let schema = dir.write("schemas/order.json", v1);
    let server = Server::start(&config);
    assert_eq!(server.get("/api/v1/json-schemas/shop/order"), (200, v1.to_owned()));

    std::fs::write(&schema, v2).unwrap();
    let log = server.wait_for_log("reloaded");
    assert!(log.contains("schemac serve: reloaded 1 schemas (new or changed: shop/order)"), "{log}");
    assert_eq!(server.get("/api/v1/json-schemas/shop/order"), (200, v2.to_owned()));
    let (status, list) = server.get("/api/v1/json-schemas");
    assert_eq!(status, 200);
    assert!(list.contains(&format!("\"sha256\": \"{}\"", sha256_hex(v2.as_bytes()))), "{list}");

    // Not JSON: reported, and the last good schema stays served.
    std::fs::write(&schema, "{ \"type\": ").unwrap();
    let log = server.wait_for_log("still serving");
    assert!(log.contains("schemas/order.json"), "the error names the file: {log}");
    assert_eq!(server.get("/api/v1/json-schemas/shop/order"), (200, v2.to_owned()));

    // A second schema appears.
    std::fs::write(&schema, v1).unwrap();
    dir.write("schemas/customer.json", "{ \"type\": \"object\" }\n");
    let log = server.wait_for_log("reloaded");
    assert!(log.contains("reloaded 2 schemas"), "{log}");
    assert_eq!(server.get("/api/v1/json-schemas/customer").0, 200);
    assert_eq!(server.get("/api/v1/json-schemas/shop/order"), (200, v1.to_owned()));
}

#[test]
fn a_missing_config_is_a_usage_error() {
    let dir = TempDir::new("schemac-serve-missing");
    let output = Command::new(env!("CARGO_BIN_EXE_schemac")).args(["serve", "--config"]).arg(dir.0.join("schemac.toml")).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("schemac.toml"), "{}", String::from_utf8_lossy(&output.stderr));
}

/// `POST /mcp` with `body` (in `session` when given) over a fresh connection: the status line
/// and headers, lowercased names.
fn mcp_post(addr: SocketAddr, session: Option<&str>, body: &str) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    let session = session.map(|id| format!("Mcp-Session-Id: {id}\r\nMcp-Protocol-Version: 2025-11-25\r\n")).unwrap_or_default();
    write!(
        stream,
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\n{session}Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response.to_ascii_lowercase()
}

/// SIGTERM stops `schemac serve` promptly and cleanly even while an MCP client holds its
/// event stream open (a graceful shutdown used to wait for that stream for as long as the
/// client kept it).
#[test]
fn sigterm_stops_the_server_with_an_mcp_stream_open() {
    let dir = TempDir::new("schemac-serve-stop");
    let config = dir.write("schemac.toml", CONFIG);
    dir.write("schemas/order.json", "{ \"$id\": \"urn:shop:order\", \"type\": \"object\" }\n");
    let mut server = Server::start(&config);
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}"#;
    let answer = mcp_post(server.addr, None, initialize);
    let session = answer
        .lines()
        .find_map(|line| line.strip_prefix("mcp-session-id:"))
        .map(|id| id.trim().to_owned())
        .unwrap_or_else(|| panic!("no session: {answer}"));
    let answer = mcp_post(server.addr, Some(&session), r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    assert!(answer.starts_with("http/1.1 202"), "{answer}");
    let mut events = TcpStream::connect(server.addr).unwrap();
    write!(
        events,
        "GET /mcp HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\nMcp-Session-Id: {session}\r\nMcp-Protocol-Version: 2025-11-25\r\n\r\n",
        server.addr
    )
    .unwrap();
    let mut head = [0u8; 15];
    events.read_exact(&mut head).unwrap();
    assert_eq!(&head, b"HTTP/1.1 200 OK", "the event stream is open");

    let started = Instant::now();
    let killed = Command::new("kill").args(["-TERM", &server.child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(started.elapsed() < Duration::from_secs(20), "schemac serve still runs 20 s after SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status}");
    assert!(started.elapsed() < Duration::from_secs(4), "it stopped only after {:?}", started.elapsed());
    // The stream was closed, not left hanging.
    events.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut rest = Vec::new();
    events.read_to_end(&mut rest).expect("the event stream ends");
}
