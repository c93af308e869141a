//! How much stack reading a document of the big schema takes: the least thread stack size (to
//! 4 KiB) on which `schemac_runtime::from_str::<Chart>` reads it, found by bisection in child
//! processes (an overflow aborts the process that has it), for each of the generator's deep
//! documents at two depths; the difference over the depths is the stack per nesting level.
//!
//! ```sh
//! cargo run -p big-types --example stack [-- DEPTH1 DEPTH2]             # debug, depths 10 and 40
//! cargo run -p big-types --example stack --release [-- DEPTH1 DEPTH2]
//! ```
//!
//! The depth is the document's JSON nesting (a layer is two levels, an object and an array).

#[path = "../generator.rs"]
#[allow(dead_code, clippy::all)]
mod generator;

use std::process::Command;

use big_types::chart::Chart;

const KINDS: &[&str] = &["simple", "configured", "layers", "facets", "predicates"];
const GRAIN: usize = 4 << 10;
const MOST: usize = 4 << 30;

fn document(kind: &str, depth: usize) -> String {
    let documents = generator::documents(generator::Shape::FULL, depth);
    documents.into_iter().find(|(name, _)| name == kind).map(|(_, doc)| doc.to_string()).expect("a kind of document")
}

/// In a child: read the document on a thread of `stack` bytes; exit 0 when it is accepted.
fn attempt(kind: &str, depth: usize, stack: usize) -> ! {
    let text = document(kind, depth);
    let thread = std::thread::Builder::new().stack_size(stack).spawn(move || {
        let read = schemac_runtime::from_str::<Chart>(&text);
        if let Err(error) = &read {
            eprintln!("rejected: {error}");
        }
        read.is_ok()
    });
    let accepted = thread.map(|t| t.join().unwrap_or(false)).unwrap_or(false);
    std::process::exit(if accepted { 0 } else { 3 })
}

/// Whether the document reads on `stack` bytes, in a child process.
fn reads(kind: &str, depth: usize, stack: usize) -> bool {
    let exe = std::env::current_exe().expect("the example's path");
    let status = Command::new(exe)
        .args(["--try", kind, &depth.to_string(), &stack.to_string()])
        .stderr(std::process::Stdio::null())
        .status()
        .expect("the example runs itself");
    status.success()
}

/// The least stack, to [`GRAIN`], on which the document reads; `None` past [`MOST`].
fn least_stack(kind: &str, depth: usize) -> Option<usize> {
    let (mut low, mut high) = (GRAIN, 1 << 20);
    while !reads(kind, depth, high) {
        low = high;
        high *= 2;
        if high > MOST {
            return None;
        }
    }
    while high - low > GRAIN {
        let middle = (low + high) / 2 / GRAIN * GRAIN;
        if reads(kind, depth, middle) { high = middle } else { low = middle }
    }
    Some(high)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--try") {
        let number = |i: usize| args[i].parse::<usize>().expect("a number");
        attempt(&args[1], number(2), number(3));
    }
    let depth = |i: usize, default: usize| args.get(i).map_or(default, |a| a.parse().expect("a depth"));
    let (shallow, deep) = (depth(0, 10), depth(1, 40));
    let profile = if cfg!(debug_assertions) { "debug" } else { "release" };
    println!("least stack to read each document ({profile}), KiB; per level = difference / {} levels", deep - shallow);
    let kib = |s: Option<usize>| s.map_or_else(|| format!("> {}", MOST >> 10), |s| (s >> 10).to_string());
    for kind in KINDS {
        let (a, b) = (least_stack(kind, shallow), least_stack(kind, deep));
        let per_level = match (a, b) {
            (Some(a), Some(b)) if deep > shallow => format!("{:.1} KiB", (b as f64 - a as f64) / 1024.0 / (deep - shallow) as f64),
            _ => "-".to_owned(),
        };
        println!("{kind:>10}: depth {shallow}: {}  depth {deep}: {}  per level: {per_level}", kib(a), kib(b));
    }
}
