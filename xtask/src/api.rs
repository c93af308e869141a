//! `cargo xtask api`: each library crate's public API, as rustdoc documents it, held to the
//! snapshot committed beside the crate (`crates/<crate>/api.txt`), so that a change of the API
//! shows in review and a change nobody meant fails CI.
//!
//! The listing is read from the HTML of `cargo doc --workspace --no-deps` (CI's doc step, so in
//! CI it costs no extra rustdoc run): `all.html` names every public item, and each item's page
//! gives its declaration (a function's signature, a struct's public fields, an enum's variants,
//! `#[non_exhaustive]`), its impl blocks (inherent and trait impls written in the crate, not the
//! auto and blanket ones) and its inherent methods' signatures. Items under `#[doc(hidden)]`
//! are not listed: they are not the API (see ARCHITECTURE.md, "API boundary").

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::conformance::Mode;

/// The library crates whose API is held, by package name.
pub const CRATES: &[&str] =
    &["schemac", "schemac-model", "schemac-project", "schemac-synth", "schemac-runtime", "schemac-derive", "schemac-registry"];

/// The snapshot of `krate`, relative to the root.
fn snapshot_path(krate: &str) -> PathBuf {
    Path::new("crates").join(krate).join("api.txt")
}

/// `cargo xtask api [--bless]`: builds the docs as CI does (a no-op after CI's doc step), then
/// compares each crate's listing with its snapshot, or rewrites the snapshots.
pub fn run(root: &Path, mode: Mode) -> Result<()> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(&cargo)
        .args(["doc", "--workspace", "--no-deps"])
        .env("RUSTDOCFLAGS", "-D warnings")
        .current_dir(root)
        .status()
        .with_context(|| format!("cannot run {}", cargo.to_string_lossy()))?;
    if !status.success() {
        bail!("cargo doc --workspace --no-deps exited with {status}");
    }
    compare(root, &crate::conformance::target_dir(root).join("doc"), CRATES, mode)
}

/// Compares (or in [`Mode::Bless`] writes) the snapshot of each of `crates` with its listing
/// from the rustdoc output `doc`.
fn compare(root: &Path, doc: &Path, crates: &[&str], mode: Mode) -> Result<()> {
    let mut changed = Vec::new();
    for krate in crates {
        let listing = listing(&doc.join(krate.replace('-', "_")))?;
        let path = root.join(snapshot_path(krate));
        let counts = Counts::of(&listing);
        let old = fs::read_to_string(&path).unwrap_or_default();
        if old == listing {
            println!("{krate}: {counts}, unchanged");
            continue;
        }
        match mode {
            Mode::Bless => {
                fs::write(&path, &listing).with_context(|| format!("cannot write {}", path.display()))?;
                println!("{krate}: {counts}, snapshot written");
            }
            Mode::Check => changed.push(format!("{krate} ({counts}):\n{}", difference(&old, &listing))),
        }
    }
    if !changed.is_empty() {
        bail!(
            "the public API differs from its snapshot (crates/<crate>/api.txt); if the change is meant, run \
             `cargo xtask api --bless` and commit the snapshots:\n{}",
            changed.join("\n")
        );
    }
    Ok(())
}

/// The `cargo xtask ci` step, after the doc step.
pub fn check(root: &Path) -> Result<()> {
    run(root, Mode::Check)
}

/// How big a listing is: its items (what `all.html` names) and their inherent methods.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub items: usize,
    pub methods: usize,
}

impl Counts {
    fn of(listing: &str) -> Counts {
        let mut counts = Counts::default();
        for line in listing.lines() {
            // A method is below its impl block, below its item.
            if line.starts_with("        ") {
                counts.methods += 1;
            } else if !line.starts_with(' ') && !line.starts_with('#') && !line.is_empty() {
                counts.items += 1;
            }
        }
        counts
    }
}

impl std::fmt::Display for Counts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} items, {} inherent methods", self.items, self.methods)
    }
}

/// The lines only in `old` (`-`) and only in `new` (`+`).
fn difference(old: &str, new: &str) -> String {
    let old_lines: std::collections::BTreeSet<&str> = old.lines().collect();
    let new_lines: std::collections::BTreeSet<&str> = new.lines().collect();
    let mut out = String::new();
    for line in old_lines.difference(&new_lines) {
        let _ = writeln!(out, "  - {line}");
    }
    for line in new_lines.difference(&old_lines) {
        let _ = writeln!(out, "  + {line}");
    }
    out
}

/// The listing of the crate documented in `dir` (`target/doc/<crate>`).
fn listing(dir: &Path) -> Result<String> {
    let all = dir.join("all.html");
    let html = fs::read_to_string(&all).with_context(|| format!("cannot read {} (did cargo doc run?)", all.display()))?;
    let mut out = String::from(
        "# The public API as rustdoc documents it (`cargo xtask api`; `--bless` rewrites this file).\n\
         # Each item: its kind and path, its declaration, then its impl blocks and inherent methods.\n",
    );
    for (kind, href, path) in items(&html) {
        let _ = writeln!(out, "{kind} {path}");
        let page = fs::read_to_string(dir.join(&href)).with_context(|| format!("cannot read {}", dir.join(&href).display()))?;
        for line in page_lines(&page) {
            let _ = writeln!(out, "    {line}");
        }
    }
    Ok(out)
}

/// Every item `all.html` lists: its kind (the section, singular), its page and its path.
fn items(html: &str) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find("<h3 id=\"") {
        rest = &rest[at + "<h3 id=\"".len()..];
        let Some(end) = rest.find('"') else { break };
        let kind = section_kind(&rest[..end]);
        let list_end = rest.find("</ul>").unwrap_or(rest.len());
        let list = &rest[..list_end];
        let mut links = list;
        while let Some(at) = links.find("<a href=\"") {
            links = &links[at + "<a href=\"".len()..];
            let Some(href_end) = links.find('"') else { break };
            let href = links[..href_end].to_owned();
            let Some(text_start) = links.find('>') else { break };
            let Some(text_end) = links.find("</a>") else { break };
            let path = text(&links[text_start + 1..text_end]);
            out.push((kind.clone(), href, path));
            links = &links[text_end..];
        }
        rest = &rest[list_end..];
    }
    out.sort_by(|a, b| (&a.2, &a.0).cmp(&(&b.2, &b.0)));
    out
}

/// `structs` → `struct`, `functions` → `fn`, ...
fn section_kind(id: &str) -> String {
    match id {
        "functions" => "fn".to_owned(),
        "constants" => "const".to_owned(),
        "statics" => "static".to_owned(),
        "typedefs" | "types" => "type".to_owned(),
        "derives" => "derive".to_owned(),
        "attributes" => "attribute".to_owned(),
        other => other.strip_suffix('s').unwrap_or(other).to_owned(),
    }
}

/// What an item's page says of its API: the declaration, then each impl block written for it
/// (inherent and trait impls; not the auto-trait and blanket ones) with, for inherent ones,
/// the methods' signatures.
fn page_lines(page: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(start) = page.find("<pre class=\"rust item-decl\">") {
        let decl = &page[start..];
        let end = decl.find("</pre>").unwrap_or(decl.len());
        out.push(text(&decl[..end]));
    }
    // The sections that follow the declaration, in rustdoc's order.
    let section = |id: &str| page.find(&format!("id=\"{id}\"")).unwrap_or(page.len());
    let inherent = section("implementations");
    let traits = section("trait-implementations");
    let synthetic = section("synthetic-implementations").min(section("blanket-implementations"));
    let inherent_part = &page[inherent.min(traits)..traits.min(synthetic)];
    out.extend(headers(inherent_part, true));
    if traits < synthetic {
        out.extend(headers(&page[traits..synthetic], false));
    }
    out
}

/// The impl headers (`impl Config`) of `html`, and with `methods`, the methods' signatures
/// below each.
fn headers(html: &str, methods: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find("class=\"code-header\">") {
        let tag = &rest[..at];
        let level = if tag.ends_with("<h3 ") { 3 } else { 4 };
        rest = &rest[at + "class=\"code-header\">".len()..];
        let close = if level == 3 { "</h3>" } else { "</h4>" };
        let end = rest.find(close).unwrap_or(rest.len());
        let header = text(&rest[..end]);
        rest = &rest[end..];
        match level {
            3 => out.push(header),
            _ if methods => out.push(format!("    {header}")),
            _ => {}
        }
    }
    out
}

/// The text of an HTML fragment: tags dropped (and rustdoc's "Show 16 fields" toggles),
/// entities decoded, whitespace collapsed.
fn text(html: &str) -> String {
    let mut html = html.to_owned();
    while let Some(start) = html.find("<summary") {
        let end = html[start..].find("</summary>").map_or(html.len(), |e| start + e + "</summary>".len());
        html.replace_range(start..end, "");
    }
    let mut plain = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => plain.push(c),
            _ => {}
        }
    }
    let plain = plain
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&nbsp;", " ")
        .replace("&amp;", "&");
    plain.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_items_of_all_html_by_section() {
        let html = "<h3 id=\"structs\">Structs</h3><ul class=\"all-items\"><li><a href=\"struct.Config.html\">Config</a></li>\
                    <li><a href=\"diff/struct.Options.html\">diff::<wbr>Options</a></li></ul>\
                    <h3 id=\"functions\">Functions</h3><ul class=\"all-items\"><li><a href=\"fn.compile.html\">compile</a></li></ul>";
        assert_eq!(
            items(html),
            [
                ("struct".to_owned(), "struct.Config.html".to_owned(), "Config".to_owned()),
                ("fn".to_owned(), "fn.compile.html".to_owned(), "compile".to_owned()),
                ("struct".to_owned(), "diff/struct.Options.html".to_owned(), "diff::Options".to_owned()),
            ]
        );
    }

    #[test]
    fn a_page_gives_the_declaration_the_impls_and_the_inherent_methods_only() {
        let page = "<pre class=\"rust item-decl\"><code><div class=\"code-attribute\">#[non_exhaustive]</div>pub struct \
                    Config { <details><summary><span>Show 1 field</span></summary>pub a: u8, </details>}</code></pre>\
                    <h2 id=\"implementations\">Implementations</h2>\
                    <section id=\"impl-Config\"><h3 class=\"code-header\">impl <a>Config</a></h3></section>\
                    <section id=\"method.builders\"><h4 class=\"code-header\">pub fn <a>builders</a>(self, on: <a>bool</a>) -&gt; Self</h4></section>\
                    <h2 id=\"trait-implementations\">Trait Implementations</h2>\
                    <section id=\"impl-Debug-for-Config\"><h3 class=\"code-header\">impl <a>Debug</a> for <a>Config</a></h3></section>\
                    <section id=\"method.fmt\"><h4 class=\"code-header\">fn <a>fmt</a>(&amp;self, f: &amp;mut Formatter&lt;'_&gt;) -&gt; Result</h4></section>\
                    <h2 id=\"synthetic-implementations\">Auto Trait Implementations</h2>\
                    <section id=\"impl-Send-for-Config\"><h3 class=\"code-header\">impl Send for Config</h3></section>";
        assert_eq!(
            page_lines(page),
            [
                "#[non_exhaustive]pub struct Config { pub a: u8, }",
                "impl Config",
                "    pub fn builders(self, on: bool) -> Self",
                "impl Debug for Config",
            ]
        );
    }

    #[test]
    fn a_changed_api_fails_until_blessed() {
        let root = std::env::temp_dir().join(format!("xtask-api-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        let doc = root.join("doc/demo");
        fs::create_dir_all(&doc).unwrap();
        fs::create_dir_all(root.join("crates/demo")).unwrap();
        let all = |names: &[&str]| {
            let links: String = names.iter().map(|n| format!("<li><a href=\"fn.{n}.html\">{n}</a></li>")).collect();
            for name in names {
                fs::write(doc.join(format!("fn.{name}.html")), format!("<pre class=\"rust item-decl\"><code>pub fn {name}()</code></pre>"))
                    .unwrap();
            }
            fs::write(doc.join("all.html"), format!("<h3 id=\"functions\">Functions</h3><ul class=\"all-items\">{links}</ul>")).unwrap();
        };
        all(&["compile"]);
        compare(&root, &root.join("doc"), &["demo"], Mode::Bless).unwrap();
        compare(&root, &root.join("doc"), &["demo"], Mode::Check).unwrap();
        all(&["compile", "emit"]);
        let error = compare(&root, &root.join("doc"), &["demo"], Mode::Check).unwrap_err().to_string();
        assert!(error.contains("+ fn emit") && error.contains("+     pub fn emit()") && error.contains("--bless"), "{error}");
        compare(&root, &root.join("doc"), &["demo"], Mode::Bless).unwrap();
        compare(&root, &root.join("doc"), &["demo"], Mode::Check).unwrap();
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn counts_items_and_inherent_methods_and_a_changed_line_shows() {
        let listing = "# header\nstruct Config\n    pub struct Config\n    impl Config\n        pub fn new() -> Config\nfn compile\n    pub fn compile()\n";
        assert_eq!(Counts::of(listing), Counts { items: 2, methods: 1 });
        assert_eq!(difference("a\nb\n", "a\nc\n"), "  - b\n  + c\n");
    }
}
