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
//! - [`serve`]: the routes on a listener, until Ctrl-C or SIGTERM ([`serve_until`]: until a
//!   future resolves), with `TCP_NODELAY` on every connection, a timeout on each request's head,
//!   and a shutdown that ends the MCP sessions and waits at most [`SHUTDOWN_GRACE`].
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
mod server;

pub use axum;
pub use rmcp;
pub use tokio_util::sync::CancellationToken;

pub use catalog::{Catalog, CatalogError, Registry, Schema};
pub use http::Options;
pub use server::{SHUTDOWN_GRACE, serve, serve_until};

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

/// The registry's routes over `registry`, with `options`: the routes of [`http`], and the MCP
/// server at [`http::MCP`] over streamable HTTP unless [`Options::mcp`] is off.
pub fn router_with(registry: Registry, options: &Options) -> axum::Router {
    let api = http::routes(registry.clone(), options);
    let router = if options.mcp {
        let mcp = axum::Router::new()
            .fallback_service(mcp::http_service(registry, options))
            .layer(axum::middleware::from_fn(mcp::ended_session_is_ok));
        api.nest_service(http::MCP, mcp)
    } else {
        api
    };
    let nosniff = axum::http::HeaderValue::from_static("nosniff");
    router.layer(tower_http::set_header::SetResponseHeaderLayer::overriding(axum::http::header::X_CONTENT_TYPE_OPTIONS, nosniff))
}

/// The generated crate's README, whose "Serving" snippet is compiled here (where
/// `schemac-registry` and `tokio` are dependencies) by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../../../generated/README.md")]
struct GeneratedReadme;
