//! Test support: a temporary directory of schema files to read (behind the `testing` feature
//! for other crates' tests).

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::input::{Input, SchemaSource};

/// A temporary directory of schema files, removed when dropped.
#[derive(Debug)]
pub struct Fixture {
    pub dir: PathBuf,
}

impl Fixture {
    /// The directory with each `(name, text)` written under it.
    pub fn new(files: &[(&str, &str)]) -> Fixture {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("schemac-front-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for (name, text) in files {
            let path = dir.join(name);
            std::fs::create_dir_all(path.parent().unwrap_or(&dir)).expect("create fixture dir");
            std::fs::write(&path, text).expect("write fixture file");
        }
        std::fs::create_dir_all(&dir).expect("create fixture dir");
        Fixture { dir }
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// An input schema displayed as `name`.
    pub fn source(&self, name: &str) -> SchemaSource {
        SchemaSource { path: self.path(name), display: name.to_owned(), pointer: String::new() }
    }

    pub fn inputs(&self, names: &[&str]) -> Input {
        Input { schemas: names.iter().map(|name| self.source(name)).collect(), ..Input::default() }
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
