//! URIs and JSON pointer tokens: percent-decoding, fragments, `file:` URLs of paths, escaping.

use std::path::{Component, Path, PathBuf};

use url::Url;

/// Escapes a JSON pointer token.
pub(crate) fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Percent-decodes `text`; malformed escapes are kept as written, bytes that are not UTF-8
/// become U+FFFD (and then match no key, which is reported as such).
pub(crate) fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let byte = bytes[i];
        if byte == b'%' {
            let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
            if let Some(decoded) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(decoded);
                i += 3;
                continue;
            }
        }
        out.push(byte);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `url` without its fragment: the URI of the resource it names.
pub(crate) fn without_fragment(url: &Url) -> Url {
    let mut url = url.clone();
    url.set_fragment(None);
    url
}

/// The `file:` URL of a document path, made absolute against the current directory and
/// normalized lexically (so `a/../b.json` and `b.json` are the same document).
pub(crate) fn file_url(path: &Path) -> Option<Url> {
    let absolute = if path.is_absolute() { path.to_path_buf() } else { std::env::current_dir().ok()?.join(path) };
    let mut normal = PathBuf::new();
    for component in absolute.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                normal.pop();
            }
            other => normal.push(other),
        }
    }
    Url::from_file_path(&normal).ok()
}
