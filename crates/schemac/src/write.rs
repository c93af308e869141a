//! Writing generated files safely: never over a file the compiler read, and atomically, so a
//! failed write leaves the old file whole.
//!
//! Every writer of generated code (the CLI, codegen, a build script) does the same two steps:
//!
//! ```no_run
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let (input, config) = (schemac::Input::default(), schemac::Config::default());
//! let output = schemac::compile(&input, &config)?;
//! let out = std::path::Path::new("src/types.rs");
//! schemac::write::ensure_not_input(out, &output.sources)?; // a schema is never overwritten
//! schemac::write::write_atomic(out, output.single_file().as_bytes())?;
//! # Ok(())
//! # }
//! ```

use std::fmt;
use std::fs::{self, OpenOptions};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

pub use schemac_model::source::{FileId, SourceFile};

/// `out` names a file the compiler read: writing it would destroy a schema.
#[derive(Clone, Debug)]
pub struct Clobber {
    /// The output path as given.
    pub out: PathBuf,
    /// The schema it would overwrite.
    pub source: SourceFile,
}

impl fmt::Display for Clobber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (out, schema) = (self.out.display(), &self.source.display);
        if self.out == self.source.path || self.out.as_os_str() == schema.as_str() {
            write!(f, "refusing to write {out}: it is the schema {schema}, which this compilation read")?;
        } else {
            write!(f, "refusing to write {out}: it is another name for the schema {schema}, which this compilation read")?;
        }
        let suggestion = Path::new(schema).with_extension("rs");
        write!(f, "\n  hint: write the generated code to a file of its own, e.g. `{}`", suggestion.display())
    }
}

impl std::error::Error for Clobber {}

/// `Err` when `out` is (by path, symlink, `..` or hard link) one of the files in `sources`,
/// usually [`crate::Output::sources`]. A path that does not exist yet is no source.
pub fn ensure_not_input(out: &Path, sources: &[SourceFile]) -> Result<(), Clobber> {
    // A path that cannot be inspected is no file that was read; writing it reports why.
    let Ok(id) = FileId::of(out) else { return Ok(()) };
    ensure_not_input_id(out, &id, sources)
}

/// Like [`ensure_not_input`], for an output already open (stdout redirected to a file):
/// `out` is how the error names it.
pub fn ensure_not_input_id(out: &Path, id: &FileId, sources: &[SourceFile]) -> Result<(), Clobber> {
    match sources.iter().find(|source| source.id.is_same_file(id)) {
        Some(source) => Err(Clobber { out: out.to_path_buf(), source: source.clone() }),
        None => Ok(()),
    }
}

/// Writes `contents` to `path` atomically: into a new temporary file in the same directory,
/// flushed to disk (so a full disk is an error here, not a truncated file later), then renamed
/// over `path`. A reader sees the old file or the new one, never a part; on error the old file
/// is untouched and the temporary file removed.
///
/// A symlink is written through (its target is replaced, the link kept), an existing file keeps
/// its permissions, and a path that is not a regular file (`/dev/null`, a FIFO) is written in
/// place, as nothing can be renamed over it.
pub fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    let target = match fs::canonicalize(path) {
        Ok(real) => real,
        Err(err) if err.kind() == io::ErrorKind::NotFound => path.to_path_buf(),
        Err(err) => return Err(err),
    };
    let existing = fs::metadata(&target).ok();
    if let Some(metadata) = &existing {
        if metadata.is_dir() {
            return Err(io::Error::new(io::ErrorKind::IsADirectory, "it is a directory"));
        }
        if !metadata.is_file() {
            let mut file = OpenOptions::new().write(true).open(&target)?;
            return file.write_all(contents).and_then(|()| file.flush());
        }
    }
    let Some(name) = target.file_name() else {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"));
    };
    let dir = match target.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let temp = dir.join(format!(".{}.{}-{n}.tmp", name.to_string_lossy(), std::process::id()));
    let result = (|| {
        let mut file = OpenOptions::new().write(true).create_new(true).open(&temp)?;
        file.write_all(contents)?;
        if let Some(metadata) = &existing {
            file.set_permissions(metadata.permissions())?;
        }
        file.sync_all()?;
        drop(file);
        fs::rename(&temp, &target)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use schemac_model::testing::Fixture;

    fn source(fx: &Fixture, name: &str) -> SourceFile {
        let path = fx.path(name);
        SourceFile { display: name.to_owned(), id: FileId::of(&path).expect("exists"), path }
    }

    /// The names of the entries of the fixture's directory, sorted.
    fn entries(fx: &Fixture) -> Vec<String> {
        let mut names: Vec<String> =
            fs::read_dir(&fx.dir).expect("dir").map(|e| e.expect("entry").file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        names
    }

    #[test]
    fn every_name_of_a_source_is_refused() {
        let fx = Fixture::new(&[("s.json", "{}"), ("other.json", "{}"), ("sub/x", "")]);
        let sources = [source(&fx, "s.json")];
        let refused = |name: &str| ensure_not_input(&fx.path(name), &sources).map_err(|c| c.to_string());
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(fx.path("s.json"), fx.path("link.rs")).expect("symlink");
            fs::hard_link(fx.path("s.json"), fx.path("hard.rs")).expect("hard link");
            for name in ["link.rs", "hard.rs"] {
                assert!(refused(name).is_err(), "{name}");
            }
        }
        for name in ["s.json", "sub/../s.json", "./s.json"] {
            let message = refused(name).expect_err(name);
            assert!(message.contains("the schema s.json, which") && message.contains("hint:"), "{message}");
        }
        for name in ["other.json", "new.rs", "nowhere/new.rs"] {
            assert_eq!(refused(name), Ok(()), "{name}");
        }
    }

    #[test]
    fn writes_replace_the_file_and_leave_nothing_behind() {
        let fx = Fixture::new(&[("out.rs", "old")]);
        write_atomic(&fx.path("out.rs"), b"new").expect("write");
        assert_eq!(fs::read_to_string(fx.path("out.rs")).expect("read"), "new");
        write_atomic(&fx.path("fresh.rs"), b"fresh").expect("write");
        assert_eq!(fs::read_to_string(fx.path("fresh.rs")).expect("read"), "fresh");
        assert_eq!(entries(&fx), ["fresh.rs", "out.rs"]);

        // Errors: a directory, a missing directory; the temporary file is gone either way.
        fs::create_dir(fx.path("dir.rs")).expect("mkdir");
        assert_eq!(write_atomic(&fx.path("dir.rs"), b"x").expect_err("a directory").kind(), io::ErrorKind::IsADirectory);
        assert_eq!(write_atomic(&fx.path("missing/out.rs"), b"x").expect_err("no directory").kind(), io::ErrorKind::NotFound);
        assert_eq!(entries(&fx), ["dir.rs", "fresh.rs", "out.rs"]);
    }

    #[cfg(unix)]
    #[test]
    fn writes_go_through_symlinks_and_keep_permissions() {
        use std::os::unix::fs::PermissionsExt as _;
        let fx = Fixture::new(&[("real.rs", "old")]);
        fs::set_permissions(fx.path("real.rs"), fs::Permissions::from_mode(0o640)).expect("chmod");
        std::os::unix::fs::symlink("real.rs", fx.path("link.rs")).expect("symlink");
        write_atomic(&fx.path("link.rs"), b"new").expect("write");
        assert!(fs::symlink_metadata(fx.path("link.rs")).expect("link").file_type().is_symlink());
        assert_eq!(fs::read_to_string(fx.path("real.rs")).expect("read"), "new");
        assert_eq!(fs::metadata(fx.path("real.rs")).expect("meta").permissions().mode() & 0o777, 0o640);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn devices_are_written_in_place() {
        write_atomic(Path::new("/dev/null"), b"x").expect("/dev/null takes anything");
        let full = write_atomic(Path::new("/dev/full"), b"x").expect_err("/dev/full is full");
        assert_eq!(full.kind(), io::ErrorKind::StorageFull, "{full}");
        assert!(Path::new("/dev/null").exists() && !fs::metadata("/dev/null").expect("meta").is_file());
    }
}
