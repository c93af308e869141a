//! The import graph of each crate, read from its `use` lines and `crate::`/`super::`/`self::`
//! paths, and the circles in it (files that import each other in a loop).
//!
//! A file imports another when it names an item the other defines: a path is resolved to the
//! longest module prefix that is a file of the crate, and a name that module only re-exports
//! (`pub use`) is followed to where it is defined, so a facade (`lib.rs`, a `mod.rs`) that
//! re-exports its children is no node between its users and them, and a `pub use` is no import
//! of the file that writes it. `mod` declarations are no imports, `$crate::` paths belong to a
//! macro's expansion, and `#[cfg(test)]` modules are left out: tests may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// One crate's files by module path (`""` is the crate root), each with what it imports.
#[derive(Debug)]
pub struct Graph {
    /// Module path → file (relative to the workspace root).
    files: BTreeMap<String, String>,
    /// Module path → its non-test code.
    code: BTreeMap<String, String>,
    /// File → the files it imports.
    pub edges: BTreeMap<String, BTreeSet<String>>,
}

/// Reads the crate whose sources are in `root/src_dir` (its `lib.rs` or `main.rs` the root).
pub fn graph(root: &Path, src_dir: &str) -> Graph {
    let src = root.join(src_dir);
    let mut files = BTreeMap::new();
    let mut code = BTreeMap::new();
    let mut todo = vec![src.clone()];
    while let Some(dir) = todo.pop() {
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                todo.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative = path.strip_prefix(&src).expect("below src").to_string_lossy().replace('\\', "/");
            let module = module_of(&relative);
            let Some(module) = module else { continue };
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let file = format!("{src_dir}/{relative}");
            files.insert(module.clone(), file);
            code.insert(module, clean(&super::code_only(&text)));
        }
    }
    assert!(files.contains_key(""), "{src_dir} has no lib.rs or main.rs");
    let mut graph = Graph { files, code, edges: BTreeMap::new() };
    let modules: Vec<String> = graph.files.keys().cloned().collect();
    for module in modules {
        let from = graph.files[&module].clone();
        let mut targets = BTreeSet::new();
        for path in paths(&graph.code[&module]) {
            if let Some(target) = graph.resolve(&module, &path, 0) {
                targets.insert(target);
            }
        }
        targets.remove(&from);
        graph.edges.insert(from, targets);
    }
    graph
}

/// The module path of a file below `src/`: `a/b.rs` and `a/b/mod.rs` are `a::b`; `lib.rs`
/// and `main.rs` the root. Files of other binaries (`bin/`) are not modules of the crate.
fn module_of(relative: &str) -> Option<String> {
    if relative == "lib.rs" || relative == "main.rs" {
        return Some(String::new());
    }
    if relative.starts_with("bin/") {
        return None;
    }
    let stem = relative.strip_suffix(".rs")?;
    let stem = stem.strip_suffix("/mod").unwrap_or(stem);
    Some(stem.replace('/', "::"))
}

impl Graph {
    /// The file that defines what `path` (as written in `module`) names, when it is a file of
    /// this crate.
    fn resolve(&self, module: &str, path: &[String], depth: usize) -> Option<String> {
        let absolute = self.absolute(module, path)?;
        // The longest prefix that is a module of the crate.
        let (end, found) = (0..=absolute.len()).rev().find_map(|end| {
            let candidate = absolute[..end].join("::");
            self.files.contains_key(&candidate).then_some((end, candidate))
        })?;
        if depth < 8
            && let Some(name) = absolute.get(end)
            && let Some(source) = reexports(&self.code[&found]).remove(name.as_str())
        {
            let mut rest = source;
            rest.extend(absolute[end + 1..].iter().cloned());
            if let Some(target) = self.resolve(&found, &rest, depth + 1) {
                return Some(target);
            }
        }
        Some(self.files[&found].clone())
    }

    /// `path` from the crate root, when it starts in this crate.
    fn absolute(&self, module: &str, path: &[String]) -> Option<Vec<String>> {
        let mut current: Vec<String> = if module.is_empty() { Vec::new() } else { module.split("::").map(str::to_owned).collect() };
        let mut rest = path;
        match rest.first().map(String::as_str) {
            Some("crate") => {
                current.clear();
                rest = &rest[1..];
            }
            Some("self") => rest = &rest[1..],
            Some("super") => {
                while rest.first().is_some_and(|s| s == "super") {
                    current.pop()?;
                    rest = &rest[1..];
                }
            }
            Some(first) => {
                // A child module named without `self::` (2018 paths), else another crate.
                let mut child = current.clone();
                child.push(first.to_owned());
                if !self.files.contains_key(&child.join("::")) {
                    return None;
                }
            }
            None => return None,
        }
        current.extend(rest.iter().cloned());
        Some(current)
    }

    /// Every circle: the files of each strongly connected component of more than one file,
    /// sorted.
    pub fn circles(&self) -> Vec<Vec<String>> {
        let nodes: Vec<&String> = self.edges.keys().collect();
        let index_of: BTreeMap<&String, usize> = nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
        let adjacency: Vec<Vec<usize>> =
            nodes.iter().map(|n| self.edges[*n].iter().filter_map(|t| index_of.get(t).copied()).collect()).collect();
        let mut out: Vec<Vec<String>> = strongly_connected(&adjacency)
            .into_iter()
            .filter(|c| c.len() > 1)
            .map(|c| {
                let mut files: Vec<String> = c.into_iter().map(|i| nodes[i].clone()).collect();
                files.sort();
                files
            })
            .collect();
        out.sort();
        out
    }

    /// Within one circle, each file → the files of the circle it imports.
    pub fn ties(&self, circle: &[String]) -> Vec<String> {
        circle
            .iter()
            .map(|file| {
                let inside: Vec<&str> = self.edges[file].iter().filter(|t| circle.contains(t)).map(String::as_str).collect();
                format!("    {file} -> {}", inside.join(", "))
            })
            .collect()
    }
}

/// Tarjan's strongly connected components, iteratively (no recursion over the graph).
fn strongly_connected(adjacency: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = adjacency.len();
    let (mut index, mut low, mut on_stack) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
    let (mut stack, mut out, mut next) = (Vec::new(), Vec::new(), 0);
    for start in 0..n {
        if index[start] != usize::MAX {
            continue;
        }
        let mut work = vec![(start, 0usize)];
        while let Some((v, child)) = work.pop() {
            if child == 0 {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = adjacency[v].get(child) {
                work.push((v, child + 1));
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                out.push(component);
            }
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
        }
    }
    out
}

/// `text` with string and character literals emptied and `//` comments removed, so that no
/// path inside them is read.
fn clean(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                i += 1;
            }
            i += 2;
            continue;
        }
        // A raw string: r"..." or r#"..."#.
        if c == 'r' && (chars.get(i + 1) == Some(&'"') || chars.get(i + 1) == Some(&'#')) && (i == 0 || !is_ident(chars[i - 1])) {
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) == Some(&'"') {
                j += 1;
                loop {
                    if j >= chars.len() {
                        break;
                    }
                    if chars[j] == '"' && (0..hashes).all(|k| chars.get(j + 1 + k) == Some(&'#')) {
                        j += 1 + hashes;
                        break;
                    }
                    j += 1;
                }
                out.push_str("\"\"");
                i = j;
                continue;
            }
        }
        if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
            continue;
        }
        // A character literal (not a lifetime): 'x', '\n', '\u{..}'.
        if c == '\'' {
            let close = if chars.get(i + 1) == Some(&'\\') {
                (i + 2..chars.len().min(i + 12)).find(|&j| chars[j] == '\'')
            } else {
                (chars.get(i + 2) == Some(&'\'')).then_some(i + 2)
            };
            if let Some(close) = close {
                out.push_str("' '");
                i = close + 1;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Every path the code names: the leaves of its `use` trees, and the `crate::`, `super::` and
/// `self::` paths written inline.
fn paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    // A re-export is not used here: it is followed to its source by whoever names it.
    for (_, tree) in use_items(code).into_iter().filter(|(public, _)| !public) {
        out.extend(expand(&tree).into_iter().map(|(path, _)| path));
    }
    // Nor is the path a re-export names, read as a path of this file's code.
    let code = without_reexports(code);
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        // `$crate::` in a macro is a path of the expansion's, not of the file that defines it.
        if !is_ident(chars[i]) || (i > 0 && (is_ident(chars[i - 1]) || chars[i - 1] == ':' || chars[i - 1] == '$')) {
            i += 1;
            continue;
        }
        let start = i;
        let mut segments = Vec::new();
        let mut j = i;
        loop {
            let begin = j;
            while j < chars.len() && is_ident(chars[j]) {
                j += 1;
            }
            if begin == j {
                break;
            }
            segments.push(chars[begin..j].iter().collect::<String>());
            if chars.get(j) == Some(&':') && chars.get(j + 1) == Some(&':') {
                j += 2;
            } else {
                break;
            }
        }
        if segments.len() > 1 && matches!(segments[0].as_str(), "crate" | "super" | "self") {
            out.push(segments);
        }
        i = j.max(start + 1);
    }
    out
}

/// `code` with its re-exports (`pub use ...;`) blanked out.
fn without_reexports(code: &str) -> String {
    let mut out = code.to_owned();
    let bytes = code.as_bytes();
    let mut i = 0;
    while let Some(found) = code[i..].find("use ") {
        let at = i + found;
        i = at + 4;
        if at > 0 && (is_ident(bytes[at - 1] as char) || bytes[at - 1] == b'#') {
            continue;
        }
        let before = code[..at].trim_end();
        let public = before.ends_with("pub") || before.ends_with("pub(crate)") || before.ends_with("pub(super)");
        let Some(end) = code[i..].find(';') else { break };
        if public {
            out.replace_range(at..i + end, &" ".repeat(i + end - at));
        }
        i += end;
    }
    out
}

/// The `use` items of `code`: whether each is a re-export (`pub`), and its tree's text.
fn use_items(code: &str) -> Vec<(bool, String)> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut i = 0;
    while let Some(found) = code[i..].find("use ") {
        let at = i + found;
        i = at + 4;
        if at > 0 && (is_ident(bytes[at - 1] as char) || bytes[at - 1] == b'#') {
            continue;
        }
        let before = code[..at].trim_end();
        let public = before.ends_with("pub") || before.ends_with("pub(crate)") || before.ends_with("pub(super)");
        let before = before.trim_end_matches("pub(crate)").trim_end_matches("pub(super)").trim_end_matches("pub").trim_end();
        if !(before.is_empty() || before.ends_with([';', '{', '}', ']'])) {
            continue;
        }
        let Some(end) = code[i..].find(';') else { break };
        out.push((public, code[i..i + end].trim().to_owned()));
        i += end;
    }
    out
}

/// The leaves of a use tree, each as a full path and the name it binds (`as` renames).
fn expand(tree: &str) -> Vec<(Vec<String>, String)> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace() || *c == ' ').collect();
    let mut out = Vec::new();
    expand_into(&[], tree.trim(), &mut out);
    out
}

fn expand_into(prefix: &[String], tree: &str, out: &mut Vec<(Vec<String>, String)>) {
    let tree = tree.trim().trim_start_matches("::");
    if tree.is_empty() {
        return;
    }
    if let Some(open) = tree.find('{') {
        let head: Vec<String> = tree[..open].split("::").map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned).collect();
        let mut base = prefix.to_vec();
        base.extend(head);
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        for part in split_top(inner) {
            if part.trim() == "self" {
                let name = base.last().cloned().unwrap_or_default();
                out.push((base.clone(), name));
            } else {
                expand_into(&base, part, out);
            }
        }
        return;
    }
    let (path, alias) = match tree.split_once(" as ") {
        Some((path, alias)) => (path.trim(), Some(alias.trim().to_owned())),
        None => (tree, None),
    };
    let mut full = prefix.to_vec();
    full.extend(path.split("::").map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned));
    if full.last().is_some_and(|s| s == "*") {
        full.pop();
        out.push((full, "*".to_owned()));
        return;
    }
    let name = alias.unwrap_or_else(|| full.last().cloned().unwrap_or_default());
    out.push((full, name));
}

/// `a, b::{c, d}, e` split at the commas outside braces.
fn split_top(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out.into_iter().filter(|p| !p.trim().is_empty()).collect()
}

/// The names a module re-exports (`pub use`), each with the path it stands for.
fn reexports(code: &str) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    for (public, tree) in use_items(code) {
        if public {
            for (path, name) in expand(&tree) {
                if name != "*" {
                    out.insert(name, path);
                }
            }
        }
    }
    out
}

#[test]
fn the_reader_resolves_use_trees_and_reexports() {
    let tree = expand("super::{a, b::{c as d, self}, e::*}");
    let names: Vec<(String, String)> = tree.into_iter().map(|(p, n)| (p.join("::"), n)).collect();
    assert_eq!(
        names,
        [
            ("super::a".to_owned(), "a".to_owned()),
            ("super::b::c".to_owned(), "d".to_owned()),
            ("super::b".to_owned(), "b".to_owned()),
            ("super::e".to_owned(), "*".to_owned()),
        ]
    );
    let code =
        clean("let s = \"crate::x::Y\"; // crate::z\nuse crate::a::B;\npub use crate::e::F;\nfn f() { crate::c::d(); $crate::g::h!() }\n");
    let found: Vec<String> = paths(&code).into_iter().map(|p| p.join("::")).collect();
    assert_eq!(found, ["crate::a::B", "crate::a::B", "crate::c::d"], "a re-export is no path of its file");
    assert_eq!(reexports("pub use inner::{Thing, other as Other};\nuse hidden::X;").len(), 2);
}

#[test]
fn a_circle_is_found_and_a_facade_is_no_node() {
    let dir = std::env::temp_dir().join(format!("schemac-tidy-imports-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let files = [
        ("src/lib.rs", "//! root\nmod a;\nmod b;\nmod c;\npub use a::A;\npub use c::C;\n"),
        ("src/a.rs", "//! a\nuse crate::b::B;\npub struct A;\n"),
        ("src/b.rs", "//! b\npub struct B(crate::C);\n"),
        ("src/c.rs", "//! c\nuse crate::A;\npub struct C;\n#[cfg(test)]\nmod tests {\n    use crate::b::B;\n}\n"),
    ];
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("create the fixture's directory");
        std::fs::write(&path, text).expect("write the fixture");
    }
    let graph = graph(&dir, "src");
    let circles = graph.circles();
    std::fs::remove_dir_all(&dir).expect("remove the fixture");
    // a → b → c (through the root's re-export of `C`) → a (through `A`); the test module's
    // import of `b` is no edge, and the root, which only re-exports, is in no circle.
    assert_eq!(circles, [vec!["src/a.rs".to_owned(), "src/b.rs".to_owned(), "src/c.rs".to_owned()]]);
}
