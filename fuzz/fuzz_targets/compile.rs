//! The compiler on arbitrary bytes as a schema file: it never panics or hangs (libFuzzer's
//! `-timeout`), stays within `-rss_limit_mb`, and what it emits is well-formed Rust (the
//! emitter never falls back to its `compile_error!` for tokens it could not parse).

#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

/// A directory of this process's own, holding the one schema file.
fn dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("schemac-fuzz-compile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        dir
    })
}

fuzz_target!(|data: &[u8]| {
    let path = dir().join("s.json");
    std::fs::write(&path, data).expect("write the schema");
    let source = schemac::SchemaSource::new(path).display("s.json").module(["s"]);
    let input = schemac::Input::new([source]);
    let Ok(output) = schemac::compile(&input, &schemac::Config::default()) else { return };
    for module in &output.modules {
        assert!(!module.code.contains("schemac emitter bug"), "the emitter wrote tokens that do not parse:\n{}", module.code);
    }
    let file = output.single_file();
    assert!(!file.is_empty(), "an empty single file for {} modules", output.modules.len());
});
