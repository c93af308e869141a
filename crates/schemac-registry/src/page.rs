//! A schema's reference page (the Markdown of the generated crate's `docs/`) as an HTML
//! document, laid out like the publisher's page: the reference as the heading, the facts table,
//! where the documents appear, the Fields table, definitions, the complete schema.
//!
//! The Markdown comes from the schemas, so nothing in it becomes markup the registry did not
//! write: raw HTML is shown as text, links go only to `http`, `https`, `mailto` or a heading
//! of the page, images become their text. The page carries no script, and its
//! `Content-Security-Policy` ([`CONTENT_SECURITY_POLICY`]) allows none.

use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// What an HTML page may load: its own inline style, nothing else.
pub const CONTENT_SECURITY_POLICY: &str =
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const STYLE: &str = "\
:root{color-scheme:light dark;--line:#d0d7de;--muted:#57606a;--code:#f6f8fa}\
@media (prefers-color-scheme:dark){:root{--line:#3d444d;--muted:#9198a1;--code:#151b23}}\
body{margin:0;font:16px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans',sans-serif}\
nav{padding:.6rem 1.5rem;border-bottom:1px solid var(--line);font-size:.9rem;color:var(--muted)}\
nav a{color:inherit}\
main{max-width:72rem;margin:0 auto;padding:1rem 1.5rem 3rem}\
h1{font-size:1.8rem;margin:.8rem 0;word-break:break-word}\
h2{font-size:1.3rem;margin-top:2rem;padding-bottom:.3rem;border-bottom:1px solid var(--line)}\
h3{font-size:1.1rem;margin-top:1.5rem}\
.table{overflow-x:auto}\
table{border-collapse:collapse;margin:.8rem 0}\
th,td{border:1px solid var(--line);padding:.35rem .7rem;text-align:left;vertical-align:top}\
th{background:var(--code)}\
thead~tbody td:first-child{white-space:nowrap;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}\
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}\
pre{background:var(--code);padding:1rem;overflow-x:auto;border-radius:6px}\
";

/// The HTML document of the page of the schema `reference` at `version`, whose Markdown is
/// `markdown`.
pub(crate) fn render(reference: &str, version: &str, markdown: &str) -> String {
    let body = markdown_to_html(strip_generated_comment(markdown));
    let json = format!("/api/v1/json-schemas/{reference}?version={version}");
    let (reference, version) = (escape(reference), escape(version));
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{reference} {version} · JSON Schema</title>\n\
         <link rel=\"alternate\" type=\"application/schema+json\" href=\"{href}\">\n\
         <style>{STYLE}</style>\n</head>\n<body>\n\
         <nav><a href=\"/json-schemas\">Schemas</a> · <a href=\"{href}\">{reference} {version} as JSON</a></nav>\n\
         <main>\n{body}</main>\n</body>\n</html>\n",
        href = escape(&json),
    )
}

/// The page without the `<!-- @generated … -->` line codegen puts first.
fn strip_generated_comment(markdown: &str) -> &str {
    match markdown.strip_prefix("<!--").and_then(|rest| rest.split_once("-->")) {
        Some((_, rest)) => rest.trim_start_matches(['\r', '\n']),
        None => markdown,
    }
}

/// The page's Markdown as HTML, made safe and given heading anchors (see the module docs).
pub(crate) fn markdown_to_html(markdown: &str) -> String {
    let events: Vec<Event<'_>> = Parser::new_ext(markdown, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH).collect();
    let events = anchor_headings(drop_empty_table_heads(make_safe(events)));
    let mut html = String::with_capacity(markdown.len() * 2);
    pulldown_cmark::html::push_html(&mut html, events.into_iter());
    html
}

/// Raw HTML as text; links to other schemes and images as their text.
fn make_safe(events: Vec<Event<'_>>) -> Vec<Event<'_>> {
    let mut out = Vec::with_capacity(events.len());
    // Whether each open link was kept, innermost last.
    let mut links = Vec::new();
    let mut image_depth = 0usize;
    for event in events {
        match event {
            Event::Html(text) | Event::InlineHtml(text) => out.push(Event::Text(text)),
            Event::Start(Tag::Image { .. }) => image_depth += 1,
            Event::End(TagEnd::Image) => image_depth = image_depth.saturating_sub(1),
            Event::Start(Tag::Link { link_type, dest_url, title, id }) => {
                let kept = safe_url(&dest_url);
                links.push(kept);
                if kept {
                    out.push(Event::Start(Tag::Link { link_type, dest_url, title, id }));
                }
            }
            Event::End(TagEnd::Link) => {
                if links.pop().unwrap_or(false) {
                    out.push(Event::End(TagEnd::Link));
                }
            }
            // An image's alt text stays, as text.
            event if image_depth > 0 => {
                if let Event::Text(text) | Event::Code(text) = event {
                    out.push(Event::Text(text));
                }
            }
            event => out.push(event),
        }
    }
    out
}

fn safe_url(url: &str) -> bool {
    let lower = url.trim_start().to_ascii_lowercase();
    url.starts_with('#') && !url.contains(':')
        || lower.starts_with("https://")
        || lower.starts_with("http://")
        || lower.starts_with("mailto:")
}

/// A table whose header cells are all empty (the page's facts table, `| | |`) has no header
/// row, as on the publisher's page; every table scrolls sideways on a narrow screen instead of
/// widening the page.
fn drop_empty_table_heads(events: Vec<Event<'_>>) -> Vec<Event<'_>> {
    let mut out = Vec::with_capacity(events.len());
    let mut iter = events.into_iter();
    while let Some(event) = iter.next() {
        let Event::Start(Tag::Table(alignments)) = event else {
            out.push(event);
            continue;
        };
        let mut table = Vec::new();
        for event in iter.by_ref() {
            if matches!(event, Event::End(TagEnd::Table)) {
                break;
            }
            table.push(event);
        }
        let head_end = table.iter().position(|e| matches!(e, Event::End(TagEnd::TableHead))).unwrap_or(0);
        let empty_head =
            !table[..head_end].iter().any(|e| matches!(e, Event::Text(_) | Event::Code(_) | Event::Html(_) | Event::InlineHtml(_)));
        out.push(Event::Html(CowStr::Borrowed("<div class=\"table\">")));
        if empty_head {
            // pulldown-cmark's writer always writes a head row, so this table is written here;
            // only its cells' inline contents go through the writer.
            out.push(Event::Html(CowStr::Borrowed("<table><tbody>\n")));
            for event in table.into_iter().skip(head_end + 1) {
                out.push(match event {
                    Event::Start(Tag::TableRow) => Event::Html(CowStr::Borrowed("<tr>")),
                    Event::End(TagEnd::TableRow) => Event::Html(CowStr::Borrowed("</tr>\n")),
                    Event::Start(Tag::TableCell) => Event::Html(CowStr::Borrowed("<td>")),
                    Event::End(TagEnd::TableCell) => Event::Html(CowStr::Borrowed("</td>")),
                    event => event,
                });
            }
            out.push(Event::Html(CowStr::Borrowed("</tbody></table>\n")));
        } else {
            out.push(Event::Start(Tag::Table(alignments)));
            out.extend(table);
            out.push(Event::End(TagEnd::Table));
        }
        out.push(Event::Html(CowStr::Borrowed("</div>\n")));
    }
    out
}

/// Each heading gets the id the pages' links use (`[task](#task)`): its text, lowercased,
/// spaces as `-`, other punctuation dropped; a repeated id gets `-1`, `-2`, ...
fn anchor_headings(mut events: Vec<Event<'_>>) -> Vec<Event<'_>> {
    let mut used = std::collections::BTreeMap::<String, usize>::new();
    let mut index = 0;
    while index < events.len() {
        if let Event::Start(Tag::Heading { level, id: None, .. }) = &events[index] {
            let level: HeadingLevel = *level;
            let mut text = String::new();
            for event in &events[index + 1..] {
                match event {
                    Event::End(TagEnd::Heading(end)) if *end == level => break,
                    Event::Text(t) | Event::Code(t) => text.push_str(t),
                    _ => {}
                }
            }
            let mut id = slug(&text);
            let count = used.entry(id.clone()).or_insert(0);
            if *count > 0 {
                id = format!("{id}-{count}");
            }
            *count += 1;
            if let Event::Start(Tag::Heading { id: slot, .. }) = &mut events[index] {
                *slot = Some(CowStr::from(id));
            }
        }
        index += 1;
    }
    events
}

/// As `schemac::docs` spells a definition's anchor.
fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_alphanumeric() || c == '-' || c == '_' {
            out.extend(c.to_lowercase());
        } else if c == ' ' {
            out.push('-');
        }
    }
    if out.is_empty() { "section".to_owned() } else { out }
}

/// Text for HTML content or a quoted attribute value.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(markdown: &str, expected: &str) {
        assert_eq!(markdown_to_html(markdown), expected, "{markdown}");
    }

    #[test]
    fn raw_html_is_text() {
        check("<script>alert(1)</script>\n", "&lt;script&gt;alert(1)&lt;/script&gt;\n");
        check("a <img src=x onerror=alert(1)> b\n", "<p>a &lt;img src=x onerror=alert(1)&gt; b</p>\n");
    }

    #[test]
    fn links_only_to_the_web_and_the_page() {
        check("[x](javascript:alert(1))\n", "<p>x</p>\n");
        check("[x](JaVaScRiPt:alert(1)) [y](data:text/html,hi)\n", "<p>x y</p>\n");
        check("<https://example.com/a>\n", "<p><a href=\"https://example.com/a\">https://example.com/a</a></p>\n");
        check("[task](#task)\n", "<p><a href=\"#task\">task</a></p>\n");
        check("![alt `c`](https://example.com/i.png)\n", "<p>alt c</p>\n");
    }

    #[test]
    fn headings_get_the_pages_anchors() {
        check(
            "## Fields\n\n### task\n\n### task\n",
            "<h2 id=\"fields\">Fields</h2>\n<h3 id=\"task\">task</h3>\n<h3 id=\"task-1\">task</h3>\n",
        );
        check("## Where it appears\n", "<h2 id=\"where-it-appears\">Where it appears</h2>\n");
    }

    #[test]
    fn a_table_with_an_empty_head_has_no_head_row() {
        check(
            "| | |\n|---|---|\n| Reference | a/b |\n",
            "<div class=\"table\"><table><tbody>\n<tr><td>Reference</td><td>a/b</td></tr>\n</tbody></table>\n</div>\n",
        );
        let fields = markdown_to_html("| Field | Type |\n|---|---|\n| a\\_b | x |\n");
        assert!(fields.contains("<thead><tr><th>Field</th><th>Type</th></tr></thead>"), "{fields}");
        assert!(fields.contains("<td>a_b</td>"), "{fields}");
    }

    #[test]
    fn the_generated_comment_is_dropped() {
        assert_eq!(strip_generated_comment("<!-- @generated x -->\n\n# a\n"), "# a\n");
        assert_eq!(strip_generated_comment("# a\n"), "# a\n");
    }
}
