//! What the registry's integration tests share: a server on a loopback port, the repository's
//! schema files, and a raw HTTP/1.1 client that sends a path exactly as written (as
//! `curl --path-as-is` does; `reqwest` would normalize `..` and `%2e%2e` away first).

#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};

pub const ATTEMPTS: &str = "madoo.attempts-report/v1";
pub const GOAL: &str = "pi-glla/goal";

/// Serves `router` on an ephemeral loopback port for the rest of the test.
pub async fn start(router: axum::Router) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind a loopback port");
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router).await.expect("the test server runs") });
    addr
}

/// The registry over this repository's generated crate.
pub async fn start_generated() -> SocketAddr {
    start(schemac_registry::router(schema_types::SCHEMAS)).await
}

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// The bytes of the schema file `schema_types` registers as `reference`.
pub fn schema_file(reference: &str) -> Vec<u8> {
    let entry = schema_types::find(reference).unwrap_or_else(|| panic!("{reference} is registered"));
    std::fs::read(repo().join(entry.source_path)).unwrap()
}

/// Where test artifacts go: `target/registry-tests/`.
pub fn artifacts() -> PathBuf {
    let dir = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(target) => PathBuf::from(target),
        None => repo().join("target"),
    }
    .join("registry-tests");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[derive(Debug)]
pub struct Raw {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Raw {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// `METHOD target HTTP/1.1` with `headers`, the target sent byte for byte.
pub async fn raw(addr: SocketAddr, method: &str, target: &str, headers: &[(&str, &str)]) -> Raw {
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let mut request = format!("{method} {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut bytes = Vec::new();
    stream.read_to_end(&mut bytes).await.unwrap();
    let split = bytes.windows(4).position(|w| w == b"\r\n\r\n").expect("a complete response head");
    let head = String::from_utf8_lossy(&bytes[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers = lines.filter_map(|line| line.split_once(':')).map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned())).collect();
    Raw { status, headers, body: bytes[split + 4..].to_vec() }
}

/// The Python of the virtual environment that holds the pinned MCP SDK: `SCHEMAC_MCP_PYTHON`,
/// else `target/mcp-venv/bin/python` (which `.ci/run` makes). Fails, saying how to make it,
/// when it is missing or cannot import `mcp`.
pub fn mcp_python() -> PathBuf {
    let requirements = "crates/schemac-registry/tests/mcp/requirements.txt";
    let make = format!(
        "python3 -m venv target/mcp-venv && target/mcp-venv/bin/pip install --require-hashes --no-deps -r {requirements} \
         (what .ci/run does), or set SCHEMAC_MCP_PYTHON to a Python that has it"
    );
    let python = std::env::var_os("SCHEMAC_MCP_PYTHON").map_or_else(|| repo().join("target/mcp-venv/bin/python"), PathBuf::from);
    assert!(python.is_file(), "the MCP client test runs the official Python MCP SDK, and {} does not exist: {make}", python.display());
    let check = std::process::Command::new(&python).args(["-c", "import importlib.metadata as m, mcp; print(m.version('mcp'))"]).output();
    match check {
        Ok(output) if output.status.success() => python,
        Ok(output) => {
            panic!("{} cannot import the `mcp` package ({}): {make}", python.display(), String::from_utf8_lossy(&output.stderr).trim())
        }
        Err(err) => panic!("cannot run {}: {err}: {make}", python.display()),
    }
}

/// The client script (`tests/mcp/client.py`).
pub fn mcp_client_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/client.py")
}
