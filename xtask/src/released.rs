//! The crates of earlier releases, frozen under `tests/released/` (`tests/tests/released.rs`
//! builds each against the current runtime): `cargo xtask release` adds the crate it released,
//! and `cargo xtask check` fails when the last release's crate is not there.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

/// Where the frozen crates live, one directory `NAME-VERSION` per release.
pub const DIR: &str = "tests/released";

/// The crate name and version of the last release, from `schemac.baseline.toml` (`None` before
/// the first release).
fn last_release(root: &Path) -> Result<Option<(String, String)>> {
    let path = root.join(schemac_project::release::BASELINE_FILE);
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let baseline: toml::Table = toml::from_str(&text).with_context(|| format!("{}: not TOML", path.display()))?;
    let field = |key: &str| baseline.get("release").and_then(|r| r.get(key)).and_then(|v| v.as_str()).map(str::to_owned);
    match (field("crate"), field("version")) {
        (Some(name), Some(version)) => Ok(Some((name, version))),
        _ => bail!("{}: [release] has no `crate` and `version`", path.display()),
    }
}

/// The directory the crate of release `name` `version` is frozen in.
fn frozen_dir(root: &Path, name: &str, version: &str) -> PathBuf {
    root.join(DIR).join(format!("{name}-{version}"))
}

/// Freezes `crate_dir` (the crate just released, as generated) under [`DIR`] when the last
/// release's crate is not there yet: its files byte for byte, but for its manifest's `path` to
/// `schemac-runtime`, which `cargo package` drops too (the frozen crate takes the runtime from
/// the registry, as a downstream user has it). Returns the directory it wrote, if any.
pub fn freeze(root: &Path, crate_dir: &str) -> Result<Option<PathBuf>> {
    let Some((name, version)) = last_release(root)? else { return Ok(None) };
    let to = frozen_dir(root, &name, &version);
    if to.exists() {
        return Ok(None);
    }
    let from = root.join(crate_dir);
    let manifest = fs::read_to_string(from.join("Cargo.toml")).with_context(|| format!("cannot read {crate_dir}/Cargo.toml"))?;
    let released = format!("version = \"{version}\"");
    if !manifest.lines().any(|l| l == released) {
        bail!("{crate_dir}/Cargo.toml is not the crate of release {version} (no `{released}` line): regenerate it first");
    }
    let manifest = without_runtime_path(&manifest).with_context(|| format!("{crate_dir}/Cargo.toml"))?;
    // Written beside the destination under a dot name (which `tests/tests/released.rs` skips),
    // then renamed: an interrupted run leaves no half crate that `check` or the test would take
    // for a frozen one.
    let partial = root.join(DIR).join(format!(".{name}-{version}.partial"));
    let _ = fs::remove_dir_all(&partial);
    copy_dir(&from, &partial)?;
    fs::write(partial.join("Cargo.toml"), manifest)?;
    fs::rename(&partial, &to).with_context(|| format!("cannot rename {} to {}", partial.display(), to.display()))?;
    Ok(Some(to))
}

/// `manifest` with the `path` key of its `schemac-runtime` dependency removed.
fn without_runtime_path(manifest: &str) -> Result<String> {
    let mut found = false;
    let mut out = String::with_capacity(manifest.len());
    for line in manifest.lines() {
        if line.starts_with("schemac-runtime = {") {
            let Some(start) = line.find(", path = \"") else { bail!("its `schemac-runtime` dependency has no `path`: {line}") };
            let end = line[start + ", path = \"".len()..].find('"').context("an unterminated path")? + start + ", path = \"".len() + 1;
            out.push_str(&line[..start]);
            out.push_str(&line[end..]);
            found = true;
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    if !found {
        bail!("no `schemac-runtime = {{ … }}` dependency line");
    }
    Ok(out)
}

/// Fails unless the last release's crate is frozen under [`DIR`]; says which one is.
pub fn require(root: &Path) -> Result<String> {
    let Some((name, version)) = last_release(root)? else { return Ok(String::from("no release yet: nothing frozen to require")) };
    let dir = frozen_dir(root, &name, &version);
    if !dir.join("Cargo.toml").is_file() {
        bail!(
            "the crate of release {version} is not frozen in {}: `tests/tests/released.rs` builds each release against this runtime\n  \
             hint: `cargo xtask release` freezes the crate it releases; for an earlier release, copy the crate as of its release commit there (without the manifest's `path` to schemac-runtime)",
            dir.strip_prefix(root).unwrap_or(&dir).display()
        );
    }
    Ok(format!("the crate of release {version} is frozen in {DIR}/{name}-{version}"))
}

fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    fs::create_dir_all(to).with_context(|| format!("cannot create {}", to.display()))?;
    let mut entries: Vec<PathBuf> = fs::read_dir(from)?.map(|e| e.map(|e| e.path())).collect::<Result<_, _>>()?;
    entries.sort();
    for path in entries {
        let target = to.join(path.file_name().context("a file name")?);
        if path.is_dir() {
            copy_dir(&path, &target)?;
        } else {
            fs::copy(&path, &target).with_context(|| format!("cannot copy {}", path.display()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runtime_path_is_dropped_and_nothing_else() {
        let manifest = "[dependencies]\nschemac-runtime = { version = \"0.1.0\", path = \"../crates/schemac-runtime\" }\nproptest = { version = \"1\", optional = true }\n";
        assert_eq!(
            without_runtime_path(manifest).unwrap(),
            "[dependencies]\nschemac-runtime = { version = \"0.1.0\" }\nproptest = { version = \"1\", optional = true }\n"
        );
        let with_features = "schemac-runtime = { version = \"0.1.0\", path = \"../rt\", features = [\"formats\"] }\n";
        assert_eq!(without_runtime_path(with_features).unwrap(), "schemac-runtime = { version = \"0.1.0\", features = [\"formats\"] }\n");
        assert!(without_runtime_path("schemac-runtime = { version = \"0.1.0\" }\n").is_err());
        assert!(without_runtime_path("[dependencies]\n").is_err());
    }
}
