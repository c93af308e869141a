//! The reference page in a real browser: headless Chromium (Debian's `chromium`, which
//! `.ci/run` installs when it is missing) loads `GET /json-schemas/madoo.attempts-report/v1`
//! from the registry; the Fields table of the DOM it rendered is compared, cell for cell, with
//! the publisher's page (`tests/docs/madoo.attempts-report.v1.seed.md`, the text of the page
//! the publisher serves), as is the facts table under its heading (reference, `$id`, version,
//! where it is served); its screenshot is kept as a test artifact,
//! `target/registry-tests/madoo.attempts-report.v1.png`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{ATTEMPTS, artifacts, repo, start_generated};

/// Debian's Chromium, or the one `SCHEMAC_CHROMIUM` names.
fn chromium() -> PathBuf {
    let path = std::env::var_os("SCHEMAC_CHROMIUM").map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    assert!(
        path.is_file(),
        "this test loads the reference page in headless Chromium, and {} does not exist: install Debian's package \
         (`apt-get install -y chromium`, as .ci/run does) or set SCHEMAC_CHROMIUM to a Chromium binary",
        path.display()
    );
    path
}

/// Chromium, headless, in a profile of its own that nothing outlives, with no network but the
/// page's (no updates, sync or component downloads).
fn headless(profile: &Path) -> Command {
    let mut command = Command::new(chromium());
    command.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
    ]);
    command.arg(format!("--user-data-dir={}", profile.display()));
    command
}

fn run(mut command: Command) -> String {
    let output = command.output().unwrap_or_else(|err| panic!("cannot run {command:?}: {err}"));
    assert!(output.status.success(), "{command:?} failed ({}):\n{}", output.status, String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

/// The publisher's Fields rows: the header, then each field's five cells (the publisher's text
/// leaves trailing empty cells out).
fn publisher_rows() -> Vec<Vec<String>> {
    let seed = std::fs::read_to_string(repo().join("tests/docs/madoo.attempts-report.v1.seed.md")).unwrap();
    let fields = seed.split("\nFields\n").nth(1).expect("the publisher's page has a Fields section");
    fields
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let mut cells: Vec<String> = line.split('\t').map(str::to_owned).collect();
            cells.resize(5, String::new());
            cells
        })
        .collect()
}

/// The publisher's facts: the tab-separated lines between the summary and "Where it appears"
/// (Reference, Schema id, Version, Served at).
fn publisher_facts() -> Vec<Vec<String>> {
    let seed = std::fs::read_to_string(repo().join("tests/docs/madoo.attempts-report.v1.seed.md")).unwrap();
    let head = seed.split("\nWhere it appears\n").next().unwrap();
    head.lines().filter(|line| line.contains('\t')).map(|line| line.split('\t').map(str::to_owned).collect()).collect()
}

/// The rows of the first `<table>` after `marker` in the DOM Chromium serialized, each cell's
/// text content (tags dropped, entities decoded, whitespace collapsed).
fn table_rows(dom: &str, marker: &str) -> Vec<Vec<String>> {
    let start = dom.find(marker).unwrap_or_else(|| panic!("the rendered page has no {marker}:\n{dom}"));
    let table = &dom[start..];
    let table = &table[table.find("<table").expect("a table after Fields")..];
    let table = &table[..table.find("</table>").expect("the table ends")];
    table
        .split("<tr")
        .skip(1)
        .map(|row| {
            row.split("<t")
                .skip(1)
                .filter(|cell| cell.starts_with("d>") || cell.starts_with("h>") || cell.starts_with("d ") || cell.starts_with("h "))
                .map(|cell| {
                    let inner = &cell[cell.find('>').unwrap() + 1..];
                    let inner = inner.split("</t").next().unwrap();
                    text_of(inner)
                })
                .collect()
        })
        .collect()
}

fn text_of(html: &str) -> String {
    let mut text = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    let decoded = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&");
    decoded.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[tokio::test(flavor = "multi_thread")]
async fn chromium_renders_the_publishers_fields_table() {
    let chromium = chromium();
    let addr = start_generated().await;
    let url = format!("http://{addr}/json-schemas/{ATTEMPTS}");
    let out = artifacts();
    let profile = out.join(format!("chromium-profile-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&profile);
    let screenshot = out.join("madoo.attempts-report.v1.png");
    let _ = std::fs::remove_file(&screenshot);
    let (dom, version) = tokio::task::spawn_blocking({
        let (url, profile, screenshot) = (url.clone(), profile.clone(), screenshot.clone());
        move || {
            let version = run({
                let mut command = Command::new(&chromium);
                command.arg("--version");
                command
            });
            // One start of the browser for both (each start is most of this test's time).
            let mut load = headless(&profile);
            load.args(["--window-size=1280,2000", &format!("--screenshot={}", screenshot.display()), "--dump-dom", &url]);
            (run(load), version)
        }
    })
    .await
    .unwrap();
    let _ = std::fs::remove_dir_all(&profile);
    std::fs::write(out.join("madoo.attempts-report.v1.dom.html"), &dom).unwrap();

    assert!(dom.contains("<title>madoo.attempts-report/v1 1.0.0 · JSON Schema</title>"), "{version}: {dom}");
    // The facts table under the heading, as on the publisher's page: where it is served included.
    let facts = table_rows(&dom, "<h1 ");
    assert_eq!(facts, publisher_facts(), "{}: the facts table", version.trim());
    let rendered = table_rows(&dom, "<h2 id=\"fields\">");
    let publisher = publisher_rows();
    assert_eq!(rendered.len(), publisher.len(), "rows: rendered {rendered:#?}\npublisher {publisher:#?}");
    for (ours, theirs) in rendered.iter().zip(&publisher) {
        assert_eq!(ours, theirs, "{} renders a row other than the publisher's", version.trim());
    }
    let text: Vec<String> = rendered.iter().map(|row| row.join("\t").trim_end().to_owned()).collect();
    std::fs::write(out.join("madoo.attempts-report.v1.fields.txt"), text.join("\n") + "\n").unwrap();

    // The screenshot is a PNG of the requested size (its IHDR chunk: width, height).
    let png = std::fs::read(&screenshot).unwrap_or_else(|err| panic!("{}: no screenshot: {err}", screenshot.display()));
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    let (width, height) = (u32::from_be_bytes(png[16..20].try_into().unwrap()), u32::from_be_bytes(png[20..24].try_into().unwrap()));
    assert_eq!((width, height), (1280, 2000));
    assert!(png.len() > 20_000, "a {}-byte screenshot of a page of text is blank", png.len());
}
