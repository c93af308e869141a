//! JSON pointer → 1-based line:column in the original JSON text, for diagnostics.
//!
//! A small scanner instead of a second full parse: it is run only when an error is built, skips
//! every value it does not descend into, and never panics, even on text that is not JSON.

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

/// The byte offset of the deepest existing value along `pointer`.
fn offset(text: &str, pointer: &str) -> Option<usize> {
    let tokens: Vec<String> = match pointer {
        "" => Vec::new(),
        _ => pointer.strip_prefix('/')?.split('/').map(|t| t.replace("~1", "/").replace("~0", "~")).collect(),
    };
    let mut scanner = Scanner { bytes: text.as_bytes(), pos: 0 };
    // A byte order mark is not part of the value.
    if text.starts_with('\u{feff}') {
        scanner.pos = '\u{feff}'.len_utf8();
    }
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

struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Scanner<'_> {
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
        let mut end = start;
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
        let raw = self.bytes.get(start..end)?;
        // The literal is valid JSON string syntax; serde_json decodes its escapes exactly.
        let mut quoted = Vec::with_capacity(raw.len() + 2);
        quoted.push(b'"');
        quoted.extend_from_slice(raw);
        quoted.push(b'"');
        serde_json::from_slice(&quoted).ok()
    }

    /// Skips one value of any kind.
    fn skip_value(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' => {
                self.string()?;
            }
            b'{' | b'[' => {
                let mut depth = 0usize;
                loop {
                    match self.peek()? {
                        b'"' => {
                            self.string()?;
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
}
