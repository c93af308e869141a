//! JSON pointer → 1-based line:column in the original JSON text, for diagnostics, and the
//! duplicate keys of a text, which parsing into a `serde_json::Value` silently drops.
//!
//! A small scanner instead of a second full parse: it is run only when an error is built, skips
//! every value it does not descend into, and never panics, even on text that is not JSON. It
//! never recurses: nesting costs a counter or a stack entry, not a stack frame. One lookup
//! scans the text ([`position`]); many lookups into one text go through an [`Index`] built in
//! one scan, so reporting thousands of errors costs time in proportion to the text.

use std::collections::HashMap;

/// The line and column (1-based, columns counted in characters) of the value at `pointer`.
///
/// When the pointer does not exist all the way down, this is the position of the deepest value
/// that does, which is where a reader should look. `None` only when `text` holds no value at all
/// or the pointer is not a JSON pointer.
pub fn position(text: &str, pointer: &str) -> Option<(usize, usize)> {
    let offset = offset(text, pointer)?;
    Some(line_column(text, offset))
}

/// The 1-based line and character column of byte `offset` in `text`.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    // Editors do not show a byte order mark, so it takes no column.
    let line_text = before[line_start..].trim_start_matches('\u{feff}');
    let column = line_text.chars().count() + 1;
    (line, column)
}

/// Turns a serde_json error position (1-based line, column counted in bytes) into one counted
/// in characters, like every other position schemac reports.
pub fn char_column(text: &str, line: usize, byte_column: usize) -> (usize, usize) {
    let Some(line_text) = text.split('\n').nth(line.saturating_sub(1)) else {
        return (line.max(1), byte_column.max(1));
    };
    let mut end = byte_column.min(line_text.len());
    while !line_text.is_char_boundary(end) {
        end -= 1;
    }
    (line.max(1), line_text[..end].chars().count().max(1))
}

/// The byte offset just past byte column `byte_column` (1-based, as serde_json counts) of line
/// `line`, within `text`.
pub fn byte_offset(text: &str, line: usize, byte_column: usize) -> usize {
    let line_start: usize = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    (line_start + byte_column).min(text.len())
}

/// The unescaped tokens of a JSON pointer; `None` when it is not one.
fn tokens(pointer: &str) -> Option<Vec<String>> {
    Some(match pointer {
        "" => Vec::new(),
        _ => pointer.strip_prefix('/')?.split('/').map(|t| t.replace("~1", "/").replace("~0", "~")).collect(),
    })
}

/// The byte offset of the deepest existing value along `pointer`.
fn offset(text: &str, pointer: &str) -> Option<usize> {
    let tokens = tokens(pointer)?;
    let mut scanner = Scanner::new(text);
    scanner.skip_whitespace();
    scanner.peek()?;
    let mut found = scanner.pos;
    for token in &tokens {
        let child = match scanner.peek() {
            Some(b'{') => scanner.find_member(token),
            Some(b'[') => scanner.find_element(token),
            _ => None,
        };
        match child {
            Some(at) => {
                found = at;
                scanner.pos = at;
            }
            None => break,
        }
    }
    Some(found)
}

/// A key that appears a second (or later) time in one object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DuplicateKey {
    /// The JSON pointer of the member (serde_json keeps this occurrence's value).
    pub pointer: String,
    pub key: String,
    /// Byte offsets of the first occurrence's key and of this one's.
    pub first: usize,
    pub again: usize,
}

/// Every key of `text` that its object already has, in document order.
pub fn duplicate_keys(text: &str) -> Vec<DuplicateKey> {
    // Per open object: its pointer and its keys so far (arrays have none).
    let mut open: Vec<(String, Option<HashMap<String, usize>>)> = Vec::new();
    let mut found = Vec::new();
    walk(text, |visit| {
        open.truncate(visit.depth);
        let pointer = match (&visit.step, open.last_mut()) {
            (Some(Step::Key { name, at }), Some((parent, Some(keys)))) => {
                let pointer = format!("{parent}/{}", escape(name));
                let first = *keys.entry(name.clone()).or_insert(*at);
                if first != *at {
                    found.push(DuplicateKey { pointer: pointer.clone(), key: name.clone(), first, again: *at });
                }
                pointer
            }
            (Some(Step::Index(i)), Some((parent, _))) => format!("{parent}/{i}"),
            _ => String::new(),
        };
        match visit.kind {
            Kind::Object => open.push((pointer, Some(HashMap::new()))),
            Kind::Array => open.push((pointer, None)),
            Kind::Scalar => {}
        }
    });
    found
}

/// Line:column lookups of many pointers into one text: one scan records where each value
/// starts, each lookup then follows the pointer's tokens and finds its line by binary search.
/// Lookups agree with [`position`] (the last of duplicate keys wins, as in serde_json).
#[derive(Debug, Default)]
pub struct Index {
    /// `nodes[0]` is the root value.
    nodes: Vec<Node>,
    /// The byte offset where each line starts (after a byte order mark, for the first).
    line_starts: Vec<usize>,
    /// Every [`CHECKPOINT`] bytes: (byte offset, characters before it), for character columns
    /// of long lines without counting from the line's start.
    checkpoints: Vec<(usize, usize)>,
}

/// The spacing of [`Index::checkpoints`], in bytes.
const CHECKPOINT: usize = 4096;

#[derive(Debug)]
struct Node {
    offset: usize,
    members: Members,
}

#[derive(Debug)]
enum Members {
    None,
    Object(HashMap<String, usize>),
    Array(Vec<usize>),
}

impl Index {
    pub fn new(text: &str) -> Index {
        let mut nodes: Vec<Node> = Vec::new();
        let mut open: Vec<usize> = Vec::new();
        walk(text, |visit| {
            open.truncate(visit.depth);
            let id = nodes.len();
            let members = match visit.kind {
                Kind::Object => Members::Object(HashMap::new()),
                Kind::Array => Members::Array(Vec::new()),
                Kind::Scalar => Members::None,
            };
            nodes.push(Node { offset: visit.offset, members });
            if let Some(&parent) = open.last() {
                match (&mut nodes[parent].members, visit.step) {
                    (Members::Object(members), Some(Step::Key { name, .. })) => {
                        members.insert(name, id);
                    }
                    (Members::Array(items), Some(Step::Index(_))) => items.push(id),
                    _ => {}
                }
            }
            if !matches!(visit.kind, Kind::Scalar) {
                open.push(id);
            }
        });
        let bom = if text.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
        let mut line_starts = vec![bom];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        let mut checkpoints = vec![(0, 0)];
        let (mut at, mut chars) = (0, 0);
        while at + CHECKPOINT < text.len() {
            let mut next = at + CHECKPOINT;
            while !text.is_char_boundary(next) {
                next += 1;
            }
            chars += text[at..next].chars().count();
            at = next;
            checkpoints.push((at, chars));
        }
        Index { nodes, line_starts, checkpoints }
    }

    /// Like [`position`], for the `text` this index was built from.
    pub fn position(&self, text: &str, pointer: &str) -> Option<(usize, usize)> {
        let tokens = tokens(pointer)?;
        let mut node = self.nodes.first()?;
        for token in &tokens {
            let child = match &node.members {
                Members::Object(members) => members.get(token),
                Members::Array(items) => token.parse::<usize>().ok().and_then(|i| items.get(i)),
                Members::None => None,
            };
            match child.and_then(|&id| self.nodes.get(id)) {
                Some(child) => node = child,
                None => break,
            }
        }
        Some(self.line_column(text, node.offset))
    }

    fn line_column(&self, text: &str, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_starts.partition_point(|&start| start <= offset).max(1);
        let line_start = self.line_starts[line - 1].min(offset);
        (line, self.chars_before(text, offset) - self.chars_before(text, line_start) + 1)
    }

    /// The number of characters before byte `offset` (a character boundary).
    fn chars_before(&self, text: &str, offset: usize) -> usize {
        let (at, chars) = self.checkpoints[self.checkpoints.partition_point(|&(at, _)| at <= offset).max(1) - 1];
        chars + text.get(at..offset).map_or(0, |part| part.chars().count())
    }
}

/// How a value is reached from its container.
enum Step {
    /// The member `name`, whose key starts at byte `at`.
    Key {
        name: String,
        at: usize,
    },
    Index(usize),
}

enum Kind {
    Object,
    Array,
    Scalar,
}

/// One value met by [`walk`].
struct Visit {
    /// How many containers enclose it.
    depth: usize,
    /// `None` for the root.
    step: Option<Step>,
    offset: usize,
    kind: Kind,
}

/// Calls `visit` for every value of `text` in document order, without recursion; stops at the
/// first thing that is not JSON.
fn walk(text: &str, mut visit: impl FnMut(Visit)) {
    let mut scanner = Scanner::new(text);
    // Per open container: whether it is an object, and how many values it has had.
    let mut open: Vec<(bool, usize)> = Vec::new();
    let mut step = None;
    scanner.skip_whitespace();
    loop {
        let kind = match scanner.peek() {
            Some(b'{') => Kind::Object,
            Some(b'[') => Kind::Array,
            Some(_) => Kind::Scalar,
            None => return,
        };
        let is_object = matches!(kind, Kind::Object);
        let is_scalar = matches!(kind, Kind::Scalar);
        visit(Visit { depth: open.len(), step: step.take(), offset: scanner.pos, kind });
        if is_scalar {
            if scanner.skip_value().is_none() {
                return;
            }
        } else {
            scanner.pos += 1;
            open.push((is_object, 0));
        }
        // On to the next value: past commas, closing brackets and a member's key.
        loop {
            scanner.skip_whitespace();
            let Some((in_object, count)) = open.last_mut() else { return };
            match scanner.peek() {
                None => return,
                Some(b',') => scanner.pos += 1,
                Some(b'}' | b']') => {
                    scanner.pos += 1;
                    open.pop();
                }
                Some(b'"') if *in_object => {
                    let at = scanner.pos;
                    let Some(name) = scanner.string() else { return };
                    scanner.skip_whitespace();
                    if scanner.peek() != Some(b':') {
                        return;
                    }
                    scanner.pos += 1;
                    scanner.skip_whitespace();
                    *count += 1;
                    step = Some(Step::Key { name, at });
                    break;
                }
                Some(_) if !*in_object => {
                    step = Some(Step::Index(*count));
                    *count += 1;
                    break;
                }
                Some(_) => return,
            }
        }
    }
}

/// Escapes a JSON pointer token.
fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Scanner<'_> {
    /// At the start of `text`, past a byte order mark, which is not part of the value.
    fn new(text: &str) -> Scanner<'_> {
        let pos = if text.starts_with('\u{feff}') { '\u{feff}'.len_utf8() } else { 0 };
        Scanner { bytes: text.as_bytes(), pos }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// At `{`: the offset of the value of member `key`. The last one wins, as in serde_json.
    fn find_member(&mut self, key: &str) -> Option<usize> {
        self.pos += 1;
        let mut found = None;
        loop {
            self.skip_whitespace();
            match self.peek()? {
                b'}' => return found,
                b',' => {
                    self.pos += 1;
                    continue;
                }
                b'"' => {}
                _ => return found,
            }
            let name = self.string()?;
            self.skip_whitespace();
            if self.peek()? != b':' {
                return found;
            }
            self.pos += 1;
            self.skip_whitespace();
            if name == key {
                found = Some(self.pos);
            }
            self.skip_value()?;
        }
    }

    /// At `[`: the offset of element `token` (a decimal index).
    fn find_element(&mut self, token: &str) -> Option<usize> {
        let index: usize = token.parse().ok()?;
        self.pos += 1;
        let mut i = 0;
        loop {
            self.skip_whitespace();
            match self.peek()? {
                b']' => return None,
                b',' => {
                    self.pos += 1;
                    continue;
                }
                _ => {}
            }
            if i == index {
                return Some(self.pos);
            }
            self.skip_value()?;
            i += 1;
        }
    }

    /// At `"`: the decoded string; leaves `pos` after the closing quote.
    fn string(&mut self) -> Option<String> {
        let start = self.pos + 1;
        self.skip_string()?;
        let raw = self.bytes.get(start..self.pos - 1)?;
        // The literal is valid JSON string syntax; serde_json decodes its escapes exactly.
        let mut quoted = Vec::with_capacity(raw.len() + 2);
        quoted.push(b'"');
        quoted.extend_from_slice(raw);
        quoted.push(b'"');
        serde_json::from_slice(&quoted).ok()
    }

    /// At `"`: moves `pos` past the closing quote, without decoding the string.
    fn skip_string(&mut self) -> Option<()> {
        let mut end = self.pos + 1;
        let mut escaped = false;
        loop {
            match *self.bytes.get(end)? {
                b'\\' if !escaped => escaped = true,
                b'"' if !escaped => break,
                _ => escaped = false,
            }
            end += 1;
        }
        self.pos = end + 1;
        Some(())
    }

    /// Skips one value of any kind.
    fn skip_value(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => self.skip_string()?,
            b'{' | b'[' => {
                let mut depth = 0usize;
                loop {
                    match self.peek()? {
                        b'"' => {
                            self.skip_string()?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth = depth.checked_sub(1)?;
                            if depth == 0 {
                                self.pos += 1;
                                return Some(());
                            }
                        }
                        _ => {}
                    }
                    self.pos += 1;
                }
            }
            _ => {
                while !matches!(self.peek(), None | Some(b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')) {
                    self.pos += 1;
                }
            }
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"{
  "a": {"b~c": [1, {"x/y": "s"}]},
  "k": "\u00e9\"",
  "é": true,
  "dup": 1, "dup": 2
}"#;

    #[test]
    fn positions() {
        let cases: &[(&str, Option<(usize, usize)>)] = &[
            ("", Some((1, 1))),
            ("/a", Some((2, 8))),
            ("/a/b~0c", Some((2, 16))),
            ("/a/b~0c/0", Some((2, 17))),
            ("/a/b~0c/1/x~1y", Some((2, 28))),
            ("/k", Some((3, 8))),
            ("/é", Some((4, 8))),
            ("/dup", Some((5, 20))),
            // Missing parts: the deepest existing value.
            ("/a/b~0c/7", Some((2, 16))),
            ("/a/nope/deeper", Some((2, 8))),
            ("/k/0", Some((3, 8))),
            ("no-slash", None),
        ];
        for (pointer, expected) in cases {
            assert_eq!(position(TEXT, pointer), *expected, "pointer {pointer:?}");
        }
    }

    #[test]
    fn never_panics_on_garbage() {
        for text in ["", "   ", "{", "{\"a\"", "{\"a\":", "[[[", "\"unterminated", "{\"a\\", "\u{feff}{\"é\":1}"] {
            let _ = position(text, "/a/0/é");
        }
        assert_eq!(position("\u{feff}{\"é\":1}", "/é"), Some((1, 6)));
    }

    #[test]
    fn serde_columns_become_char_columns() {
        assert_eq!(char_column("ab\n\"éé\" x", 2, 7), (2, 5));
        assert_eq!(char_column("x", 9, 0), (9, 1));
    }

    /// Every pointer into `value`, the root included.
    fn pointers(value: &serde_json::Value, pointer: String, out: &mut Vec<String>) {
        out.push(pointer.clone());
        match value {
            serde_json::Value::Object(map) => {
                for (key, child) in map {
                    pointers(child, format!("{pointer}/{}", escape(key)), out);
                }
            }
            serde_json::Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    pointers(child, format!("{pointer}/{i}"), out);
                }
            }
            _ => {}
        }
    }

    #[test]
    fn the_index_agrees_with_single_lookups() {
        let long_line = format!("{{\"a\": \"{}\", \"é\": [1, {{\"b\": \"{}\"}}]}}", "é".repeat(5000), "x—".repeat(3000));
        let texts = [TEXT, "\u{feff}{\"é\":1}", &long_line, "[[], {}, [[\"a\"]]]", "7", "\"s\""];
        for text in texts {
            let index = Index::new(text);
            let json: serde_json::Value = serde_json::from_str(text.trim_start_matches('\u{feff}')).expect("JSON");
            let mut all = Vec::new();
            pointers(&json, String::new(), &mut all);
            all.extend(["/nope", "/a/nope/deeper", "/0/7", "no-slash"].map(str::to_owned));
            for pointer in &all {
                assert_eq!(index.position(text, pointer), position(text, pointer), "{pointer:?} in {text:.40}");
            }
        }
        // Text that is not JSON never panics (the index is only built for parsed documents, so
        // what it finds there need not agree).
        for garbage in ["", "   ", "{", "{\"a\"", "{\"a\":", "[[[", "\"unterminated", "{\"a\\", "{\"a\": [1, }", "]]", "{]"] {
            for pointer in ["", "/a", "/a/0/é", "x"] {
                let _ = Index::new(garbage).position(garbage, pointer);
            }
            let _ = duplicate_keys(garbage);
        }
        assert_eq!(Index::new("").position("", ""), None);
    }

    #[test]
    fn duplicate_keys_anywhere() {
        let text =
            "{\"a\": 1, \"b\": [{\"x\": 1, \"x\": 2, \"x\": 3}], \"a\\u0062\": 0, \"ab\": 0, \"c/d\": {\"k\": {}, \"k\": []}, \"a\": 2}";
        let found: Vec<(String, String, usize, usize)> =
            duplicate_keys(text).into_iter().map(|d| (d.pointer, d.key, d.first, d.again)).collect();
        let at = |needle: &str, nth: usize| text.match_indices(needle).nth(nth).map(|(i, _)| i).expect("present");
        assert_eq!(
            found,
            [
                ("/b/0/x".to_owned(), "x".to_owned(), at("\"x\"", 0), at("\"x\"", 1)),
                ("/b/0/x".to_owned(), "x".to_owned(), at("\"x\"", 0), at("\"x\"", 2)),
                // Keys are compared decoded: `a\u0062` is `ab`.
                ("/ab".to_owned(), "ab".to_owned(), at("\"a\\u0062\"", 0), at("\"ab\"", 0)),
                ("/c~1d/k".to_owned(), "k".to_owned(), at("\"k\"", 0), at("\"k\"", 1)),
                ("/a".to_owned(), "a".to_owned(), at("\"a\"", 0), at("\"a\"", 1)),
            ]
        );
        assert!(duplicate_keys(r#"{"a": {"a": {"a": 1}}, "b": [{"a": 1}, {"a": 2}]}"#).is_empty());
    }
}
