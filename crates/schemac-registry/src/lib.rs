//! Serves the schemas of a schemac-generated crate where its reference pages say they are
//! served: an HTTP registry (on `axum`) and an MCP server (on `rmcp`, the official Rust SDK),
//! both answering with the exact bytes the types were generated from.
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let registry = schemac_registry::Registry::from_entries(schema_types::SCHEMAS)?;
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! // GET /api/v1/json-schemas/{reference}, GET /json-schemas/{reference} (HTML), MCP at /mcp
//! schemac_registry::serve(listener, registry, &schemac_registry::Options::default()).await?;
//! # Ok(())
//! # }
//! ```
//!
//! - [`serve`]: the routes on a listener, until Ctrl-C or SIGTERM, with `TCP_NODELAY` on every
//!   connection (an MCP answer is written in pieces, which Nagle's algorithm would hold back).
//! - [`router`] (or [`router_with`] for a [`Registry`] that can be replaced, and [`Options`]):
//!   the routes of [`http`], and the MCP server at `/mcp` over streamable HTTP, as an
//!   `axum::Router` to mount in an application.
//! - [`mcp::serve_stdio`]: the MCP server over stdin and stdout, for a client that starts it.
//! - [`Catalog`]: what is served, built from `SCHEMAS` ([`Catalog::from_entries`]) or from
//!   [`Schema`]s (what `schemac serve` builds from a repository, reloading on change).
//!
//! The registry serves nothing but the registered schemas' bytes and the pages rendered from
//! their Markdown: there is no file system behind any route, a reference is checked against the
//! reference grammar before it is looked up, and every error is a problem document
//! (`application/problem+json`, or escaped HTML for a browser).

pub mod catalog;
pub mod http;
pub mod mcp;
mod page;
pub mod problem;

pub use axum;
use axum::serve::ListenerExt as _;
pub use rmcp;

pub use catalog::{Catalog, CatalogError, Registry, Schema};
pub use http::{Options, router_with};

/// The routes serving `entries` (a generated crate's `SCHEMAS`) with the default [`Options`].
///
/// # Panics
///
/// When two entries share a reference and version, or a reference is not one `schemac.toml`
/// accepts; a generated crate's `SCHEMAS` never has either ([`Catalog::from_entries`] returns
/// the error instead).
pub fn router(entries: &'static [schemac_runtime::SchemaEntry]) -> axum::Router {
    match Registry::from_entries(entries) {
        Ok(registry) => router_with(registry, &Options::default()),
        Err(err) => panic!("cannot serve these schemas: {err}"),
    }
}

/// Serves `registry` on `listener` with `options` until the process gets Ctrl-C (or SIGTERM).
/// The routes are built before the returned future first runs, so it borrows nothing.
pub fn serve(
    listener: tokio::net::TcpListener,
    registry: Registry,
    options: &Options,
) -> impl Future<Output = std::io::Result<()>> + Send + 'static {
    let router = router_with(registry, options);
    // A response written in pieces (an MCP answer as server-sent events) goes out at once,
    // instead of waiting for the client's delayed ACK (40 ms on Linux) under Nagle's algorithm.
    let listener = listener.tap_io(|stream| {
        let _ = stream.set_nodelay(true);
    });
    async move { axum::serve(listener, router).with_graceful_shutdown(shutdown()).await }
}

/// Resolves on Ctrl-C or, on Unix, SIGTERM.
async fn shutdown() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
}

/// The generated crate's README, whose "Serving" snippet is compiled here (where
/// `schemac-registry` and `tokio` are dependencies) by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../../../generated/README.md")]
struct GeneratedReadme;
