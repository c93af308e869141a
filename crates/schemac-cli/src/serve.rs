//! `schemac serve`: the schemas `schemac.toml` describes, served where their reference pages
//! say (the HTTP registry and the MCP server of `schemac_registry`), from the schema files
//! themselves, and read again whenever a schema or `schemac.toml` changes.
//!
//! What is served is what the generated crate's `SCHEMAS` would hold (`Project::served`): the
//! schemas are compiled as for `codegen`, so a change that `codegen` would reject is reported
//! and the last good catalog stays served.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, SystemTime};

use clap::Args;
use schemac_project::Project;
use schemac_registry::{Catalog, Options, Registry, Schema};

/// How often the schemas are looked at for a change.
const POLL: Duration = Duration::from_millis(300);

/// `schemac serve`.
#[derive(Debug, Args)]
#[command(after_long_help = "\
Serves every schema of the crate schemac.toml describes, byte for byte as in its file:
  GET /api/v1/json-schemas                         the list (reference, version, $id, SHA-256, links), JSON
  GET /api/v1/json-schemas/{reference}[?version=V] the schema (application/schema+json, ETag, 304)
  GET /json-schemas/{reference}                    its reference page, HTML
  /mcp                                             MCP over streamable HTTP: tools get_json_schema and
                                                   list_json_schemas, resources schema://{reference}
With --mcp-stdio the MCP server speaks on stdin and stdout instead (for a client that starts
`schemac serve --mcp-stdio`); HTTP is then served only when --addr is given. Logs go to stderr.

A change to a schema under the roots or to schemac.toml is picked up within a second: the schemas
are compiled again as `schemac codegen` would, and served if they compile; otherwise the error is
printed and the previous schemas stay served. --no-watch serves the schemas as they were at start.

Examples:
  schemac serve
  schemac serve --addr 0.0.0.0:8080 --mcp-allowed-host schemas.example.com
  schemac serve --mcp-stdio")]
pub struct ServeArgs {
    /// The project's config file.
    #[arg(long, value_name = "FILE", default_value = "schemac.toml")]
    pub config: PathBuf,

    /// Serve HTTP on this address (default 127.0.0.1:8080; port 0 picks a free port, printed).
    #[arg(long, value_name = "ADDR")]
    pub addr: Option<SocketAddr>,

    /// Serve MCP over stdin and stdout.
    #[arg(long)]
    pub mcp_stdio: bool,

    /// A `Host` the MCP endpoint accepts besides the loopback names (repeatable), for a server
    /// reached by name; rmcp refuses others, against DNS rebinding.
    #[arg(long, value_name = "HOST")]
    pub mcp_allowed_host: Vec<String>,

    /// Do not reload when a schema changes.
    #[arg(long)]
    pub no_watch: bool,
}

pub fn serve(args: &ServeArgs) -> ExitCode {
    let (catalog, fingerprint) = match load(&args.config) {
        Ok(loaded) => loaded,
        Err(Failure::Project(error)) => return crate::project::fail(&error),
        Err(Failure::Catalog(error)) => {
            eprintln!("error: {error}");
            return ExitCode::FAILURE;
        }
    };
    let registry = Registry::new(catalog);
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("error: cannot start the server's runtime: {err}");
            return ExitCode::FAILURE;
        }
    };
    if !args.no_watch {
        let (config, registry) = (args.config.clone(), registry.clone());
        std::thread::spawn(move || watch(&config, &registry, fingerprint));
    }
    let mut options = Options::default();
    options.mcp_allowed_hosts.extend(args.mcp_allowed_host.iter().cloned());
    match runtime.block_on(run(args, registry, &options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::FAILURE
        }
    }
}

/// Serves HTTP and/or MCP over stdio until the stdio client leaves or the process is stopped.
async fn run(args: &ServeArgs, registry: Registry, options: &Options) -> std::io::Result<()> {
    let addr = match (args.addr, args.mcp_stdio) {
        (Some(addr), _) => Some(addr),
        (None, false) => Some(SocketAddr::from(([127, 0, 0, 1], 8080))),
        (None, true) => None,
    };
    let http = match addr {
        Some(addr) => {
            let listener = tokio::net::TcpListener::bind(addr)
                .await
                .map_err(|err| std::io::Error::new(err.kind(), format!("cannot listen on {addr}: {err}")))?;
            let bound = listener.local_addr()?;
            eprintln!(
                "schemac serve: {} schemas at http://{bound}/api/v1/json-schemas, pages at http://{bound}/json-schemas, MCP at http://{bound}/mcp",
                registry.snapshot().len()
            );
            Some(tokio::spawn(schemac_registry::serve(listener, registry.clone(), options)))
        }
        None => None,
    };
    if args.mcp_stdio {
        eprintln!("schemac serve: MCP on stdin and stdout ({} schemas)", registry.snapshot().len());
        // The client closing stdin ends the server, HTTP included.
        return schemac_registry::mcp::serve_stdio(registry).await;
    }
    match http {
        Some(http) => http.await.map_err(std::io::Error::other)?,
        None => Ok(()),
    }
}

enum Failure {
    Project(schemac_project::Error),
    Catalog(schemac_registry::CatalogError),
}

/// The catalog of the project at `config`, and the fingerprint of the files it came from.
fn load(config: &Path) -> Result<(Catalog, Fingerprint), Failure> {
    // Taken first: a file that changes while it is compiled is seen by the next look.
    let project = Project::load(config).map_err(Failure::Project)?;
    let fingerprint = Fingerprint::of(config, &project);
    let schemas = project.served().map_err(Failure::Project)?;
    let catalog = Catalog::new(schemas.into_iter().map(|served| {
        Schema::new(served.reference, served.version, served.id, served.source_path, served.sha256, served.json, served.page)
    }))
    .map_err(Failure::Catalog)?;
    Ok((catalog, fingerprint))
}

/// Reloads the catalog whenever the files it came from change, until the process ends.
fn watch(config: &Path, registry: &Registry, mut served: Fingerprint) {
    loop {
        std::thread::sleep(POLL);
        if Fingerprint::now(config) != served {
            served = reload(config, registry);
        }
    }
}

/// Waits for the files to settle (an editor writes a file in steps), then loads and serves
/// them; on an error, prints it and keeps serving what was served. Returns the fingerprint of
/// what it loaded (or failed to), so the same files are not loaded again.
fn reload(config: &Path, registry: &Registry) -> Fingerprint {
    let mut last = Fingerprint::now(config);
    loop {
        std::thread::sleep(POLL);
        let now = Fingerprint::now(config);
        if now == last {
            break;
        }
        last = now;
    }
    match load(config) {
        Ok((catalog, fingerprint)) => {
            let before = registry.snapshot();
            let changed: Vec<&str> = catalog
                .iter()
                .filter(|schema| before.get(&schema.reference, Some(&schema.version)).map_or(true, |old| old.sha256 != schema.sha256))
                .map(|schema| schema.reference.as_str())
                .collect();
            let changed = if changed.is_empty() { "none".to_owned() } else { changed.join(", ") };
            let count = catalog.len();
            // Served before it is said: whoever reads the line finds the new schemas served.
            registry.replace(catalog);
            eprintln!("schemac serve: reloaded {count} schemas (new or changed: {changed})");
            fingerprint
        }
        Err(failure) => {
            match failure {
                Failure::Project(error) => match error.diagnostics() {
                    Some(diagnostics) => eprintln!("{diagnostics}"),
                    None => eprintln!("error: {error}"),
                },
                Failure::Catalog(error) => eprintln!("error: {error}"),
            }
            eprintln!("schemac serve: still serving the schemas as they were before the change");
            last
        }
    }
}

/// Every file the served schemas come from, with its length and modification time: the
/// config and everything under the schema roots.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Fingerprint {
    config: Option<(u64, SystemTime)>,
    files: Vec<(PathBuf, u64, SystemTime)>,
}

impl Fingerprint {
    /// The fingerprint now; of the config alone while it does not load.
    fn now(config: &Path) -> Fingerprint {
        match Project::load(config) {
            Ok(project) => Fingerprint::of(config, &project),
            Err(_) => Fingerprint { config: Fingerprint::of_config(config), files: Vec::new() },
        }
    }

    fn of(config: &Path, project: &Project) -> Fingerprint {
        let mut files = Vec::new();
        for root in &project.config().schemas.roots {
            walk(&project.root().join(root), &mut files);
        }
        files.sort();
        Fingerprint { config: Fingerprint::of_config(config), files }
    }

    fn of_config(config: &Path) -> Option<(u64, SystemTime)> {
        let metadata = std::fs::metadata(config).ok()?;
        Some((metadata.len(), metadata.modified().ok()?))
    }
}

/// The files under `path` (or `path` itself), with a work list: no recursion the tree controls.
fn walk(path: &Path, out: &mut Vec<(PathBuf, u64, SystemTime)>) {
    let mut pending = vec![path.to_path_buf()];
    while let Some(path) = pending.pop() {
        let Ok(metadata) = std::fs::metadata(&path) else { continue };
        if metadata.is_dir() {
            if let Ok(entries) = std::fs::read_dir(&path) {
                pending.extend(entries.filter_map(|entry| entry.ok().map(|entry| entry.path())));
            }
        } else if let Ok(modified) = metadata.modified() {
            out.push((path, metadata.len(), modified));
        }
    }
}
