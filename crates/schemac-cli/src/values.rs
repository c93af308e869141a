//! The values of command-line flags that clap does not parse itself: drafts, `URL_PREFIX=DIR`
//! maps, sizes in bytes; shared by the commands that take them.

use std::path::PathBuf;

/// A draft by its name (`2020-12`, `2019-09`, `7`, `6`, `4`).
pub(crate) fn parse_draft(name: &str) -> Result<schemac::Draft, String> {
    schemac::Draft::from_name(name).ok_or_else(|| "expected one of 2020-12, 2019-09, 7, 6, 4".to_owned())
}

/// `4096`, `512K`, `64M`, `1G`: bytes, or KiB, MiB, GiB.
pub(crate) fn parse_size(value: &str) -> Result<u64, String> {
    let (digits, unit) = match value.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => value.split_at(i),
        None => (value, ""),
    };
    let shift = match unit {
        "" => 0,
        "K" | "k" | "KiB" => 10,
        "M" | "m" | "MiB" => 20,
        "G" | "g" | "GiB" => 30,
        _ => return Err("expected a number of bytes, optionally with a K, M or G suffix, e.g. 64M".to_owned()),
    };
    let number: u64 = digits.parse().map_err(|_| "expected a number of bytes, e.g. 1048576 or 64M".to_owned())?;
    number.checked_mul(1 << shift).ok_or_else(|| "the size does not fit in 64 bits".to_owned())
}

/// `URL_PREFIX=DIR`: schemas under `URL_PREFIX` are read from `DIR`.
pub(crate) fn parse_map(value: &str) -> Result<schemac::UrlMap, String> {
    match value.split_once('=') {
        Some((prefix, dir)) if !prefix.is_empty() && !dir.is_empty() => {
            Ok(schemac::UrlMap { prefix: prefix.to_owned(), dir: PathBuf::from(dir) })
        }
        _ => Err("expected URL_PREFIX=DIR, e.g. https://example.com/schemas/=schemas".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_maps() {
        let map = parse_map("https://x.org/s/=dir/sub").unwrap();
        assert_eq!((map.prefix.as_str(), map.dir.as_path()), ("https://x.org/s/", std::path::Path::new("dir/sub")));
        assert!(parse_map("https://x.org").is_err());
        assert!(parse_map("=dir").is_err());
        assert!(parse_map("https://x.org/=").is_err());
    }

    #[test]
    fn parses_sizes() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("512K"), Ok(512 << 10));
        assert_eq!(parse_size("64M"), Ok(schemac::DEFAULT_MAX_FILE_SIZE));
        assert_eq!(parse_size("1GiB"), Ok(1 << 30));
        for bad in ["", "M", "64MB", "-1", "1.5M", "99999999999999999999G"] {
            assert!(parse_size(bad).is_err(), "{bad:?}");
        }
    }
}
