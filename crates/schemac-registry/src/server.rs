//! The routes on a TCP listener, until Ctrl-C or SIGTERM: the accept loop `axum::serve` would
//! be, with what a server facing other people's clients needs and `axum::serve` cannot set.
//!
//! - every connection has `TCP_NODELAY` (an MCP answer is written in pieces, which Nagle's
//!   algorithm would hold back for the client's delayed ACK, 40 ms on Linux);
//! - a request's head must arrive within [`Options::header_read_timeout`], on a new connection
//!   and on an idle one between requests, so a client that sends nothing, or a byte at a time,
//!   holds no connection (and no file descriptor) for longer;
//! - at shutdown, no new connection is accepted, the MCP sessions are ended (their event
//!   streams with them), connections finish the request in flight, and after
//!   [`SHUTDOWN_GRACE`] whatever is left is dropped: a client never keeps the process alive.

use std::pin::pin;
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::catalog::Registry;
use crate::http::Options;
use crate::router_with;

/// How long a shutdown waits for the requests in flight.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// Serves `registry` on `listener` with `options` until the process gets Ctrl-C (or SIGTERM).
/// The routes are built before the returned future first runs, so it borrows nothing.
pub fn serve(listener: TcpListener, registry: Registry, options: &Options) -> impl Future<Output = std::io::Result<()>> + Send + 'static {
    serve_until(listener, registry, options, shutdown_signal())
}

/// [`serve`], until `stop` resolves instead of a signal.
pub fn serve_until(
    listener: TcpListener,
    registry: Registry,
    options: &Options,
    stop: impl Future<Output = ()> + Send + 'static,
) -> impl Future<Output = std::io::Result<()>> + Send + 'static {
    let router = router_with(registry, options);
    let (header_read_timeout, mcp_shutdown) = (options.header_read_timeout, options.mcp_shutdown.clone());
    async move {
        let mut stop = pin!(stop);
        // Told to each connection at shutdown: finish the request in flight, then close.
        let (closing, closing_seen) = watch::channel(());
        let mut connections = JoinSet::new();
        loop {
            let stream = tokio::select! {
                () = &mut stop => break,
                // Finished connections are reaped as they end, so the set holds the open ones.
                Some(_) = connections.join_next(), if !connections.is_empty() => continue,
                accepted = listener.accept() => match accepted {
                    Ok((stream, _)) => stream,
                    Err(err) => {
                        // A connection that failed before it was accepted is that client's
                        // problem; anything else (out of file descriptors) passes with time.
                        if !matches!(
                            err.kind(),
                            std::io::ErrorKind::ConnectionAborted | std::io::ErrorKind::ConnectionReset | std::io::ErrorKind::ConnectionRefused
                        ) {
                            eprintln!("schemac-registry: cannot accept a connection: {err}");
                            tokio::time::sleep(Duration::from_millis(100)).await;
                        }
                        continue;
                    }
                },
            };
            let _ = stream.set_nodelay(true);
            let service = TowerToHyperService::new(router.clone());
            let mut closing = closing_seen.clone();
            connections.spawn(async move {
                let mut builder = hyper::server::conn::http1::Builder::new();
                builder.timer(TokioTimer::new()).header_read_timeout(header_read_timeout);
                let mut connection = pin!(builder.serve_connection(TokioIo::new(stream), service));
                tokio::select! {
                    _ = connection.as_mut() => return,
                    _ = closing.changed() => connection.as_mut().graceful_shutdown(),
                }
                let _ = connection.await;
            });
        }
        drop(listener);
        mcp_shutdown.cancel();
        let _ = closing.send(());
        let drained = tokio::time::timeout(SHUTDOWN_GRACE, async { while connections.join_next().await.is_some() {} }).await;
        if drained.is_err() {
            eprintln!(
                "schemac-registry: {} connections still open {} s after shutdown began; closing them",
                connections.len(),
                SHUTDOWN_GRACE.as_secs()
            );
        }
        connections.shutdown().await;
        Ok(())
    }
}

/// Resolves on Ctrl-C or, on Unix, SIGTERM.
async fn shutdown_signal() {
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
