//! The identity of the files the front end reads ([`FileId`]: canonical path, device and
//! inode), so that a writer can refuse to overwrite one of them ([`SourceFile`]).

use std::fs::{self, File, Metadata};
use std::io;
use std::path::{Path, PathBuf};

/// What makes a file the same file however it is named: its path with symlinks and `..`
/// resolved, and on Unix its device and inode, so a hard link is recognized too.
#[derive(Clone, Debug)]
pub struct FileId {
    canonical: Option<PathBuf>,
    device_inode: Option<(u64, u64)>,
}

impl FileId {
    /// The identity of the file at `path` (following symlinks).
    pub fn of(path: &Path) -> io::Result<FileId> {
        let canonical = fs::canonicalize(path)?;
        let metadata = fs::metadata(&canonical)?;
        Ok(FileId::from_metadata(Some(canonical), &metadata))
    }

    /// The identity of an open file (e.g. stdout), known by device and inode only.
    pub fn of_open_file(file: &File) -> io::Result<FileId> {
        Ok(FileId::from_metadata(None, &file.metadata()?))
    }

    pub(crate) fn from_metadata(canonical: Option<PathBuf>, metadata: &Metadata) -> FileId {
        FileId { canonical, device_inode: device_inode(metadata) }
    }

    /// The path with every symlink, `.` and `..` resolved, when known.
    pub fn canonical(&self) -> Option<&Path> {
        self.canonical.as_deref()
    }

    /// Whether both name one file: same device and inode where both are known, else the same
    /// canonical path.
    pub fn is_same_file(&self, other: &FileId) -> bool {
        match (self.device_inode, other.device_inode) {
            (Some(a), Some(b)) => a == b,
            _ => self.canonical.is_some() && self.canonical == other.canonical,
        }
    }
}

#[cfg(unix)]
fn device_inode(metadata: &Metadata) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt as _;
    Some((metadata.dev(), metadata.ino()))
}

#[cfg(not(unix))]
fn device_inode(_: &Metadata) -> Option<(u64, u64)> {
    None
}

/// A file the compiler read.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// How errors name it (e.g. `schemas/madoo/attempts-report.v1.json`).
    pub display: String,
    /// Where it was read from.
    pub path: PathBuf,
    pub id: FileId,
}
