//! Compiling each group's schema with `schemac::compile`, as its own input, into one
//! self-contained Rust module for the conformance crate.

use std::fs;
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;

use anyhow::{Context, Result};

use super::cases::Group;

/// The URL prefix under which the suite's `refRemote` tests expect `json/remotes/`.
const REMOTES_URL: &str = "http://localhost:1234/";
/// The root type's name in every group module, so the driver can name it.
const ROOT_NAME: &str = "Root";

/// What schemac made of one group's schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Compiled {
    /// The module's Rust source, ending with the driver's entry point `conformance_check`.
    Code { code: String, typed: bool },
    /// schemac refused the schema (or panicked); why, in one line.
    Rejected(String),
}

/// Writes the group's schema under `schema_dir` and compiles it with the suite's remotes mapped.
pub fn compile(group: &Group, schema_dir: &Path, remotes: &Path) -> Result<Compiled> {
    let display = format!("{}.json", group.id());
    let path = schema_dir.join(&display);
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
    }
    let text = serde_json::to_string_pretty(&group.schema).context("cannot serialize a schema")?;
    fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
    let input = schemac::Input::new([schemac::SchemaSource::new(path).display(display).root_name(ROOT_NAME.to_owned())])
        .map(REMOTES_URL.to_owned(), remotes.to_path_buf());
    let config = schemac::Config::default()
        .default_draft(group.default_draft)
        .regenerate_command("cargo xtask conformance")
        .assert_formats(group.assert_formats)
        // The suite's patterns are trusted input: the few only `regress` runs exactly (such as
        // `\p{Letter}`, whose Unicode tables differ from the `regex` crate's) run there, as a
        // user who opts in with `allow-unbounded-patterns` has them; by default schemac refuses
        // them, since nothing bounds the time a hostile value takes.
        .unbounded_patterns(true);
    Ok(match catch_panic(|| schemac::compile(&input, &config)) {
        Err(panic) => Compiled::Rejected(format!("schemac panicked: {panic}")),
        Ok(Err(diagnostics)) => Compiled::Rejected(rejection(&diagnostics)),
        Ok(Ok(output)) => module_code(&output),
    })
}

/// The first diagnostic, on one line, and how many more there were.
pub(crate) fn rejection(diagnostics: &schemac::Diagnostics) -> String {
    let mut all = diagnostics.iter();
    let Some(first) = all.next() else { return "schemac rejected the schema without a diagnostic".to_owned() };
    let pointer = if first.pointer.is_empty() { "(root)" } else { &first.pointer };
    let more = all.count();
    let more = if more == 0 { String::new() } else { format!(" (+{more} more)") };
    format!("schemac rejected the schema: [{}] at {pointer}: {}{more}", first.code, one_line(&first.message))
}

fn module_code(output: &schemac::Output) -> Compiled {
    let Some((root, typed)) = find_root(output) else {
        return Compiled::Rejected("schemac emitted no root type".to_owned());
    };
    let mut code = output.single_file();
    code.push_str(&format!(
        "\n/// The driver's entry to this group: deserializes `data` as the root type.\n\
         pub fn conformance_check(data: serde_json::Value) -> crate::Outcome {{\n    crate::check::<{root}>(data)\n}}\n"
    ));
    Compiled::Code { code, typed }
}

/// The root type of the input document's module (the module at the top of the single file),
/// and whether it is a real Rust type.
fn find_root(output: &schemac::Output) -> Option<(String, bool)> {
    let top = output.modules.iter().find(|m| m.path.is_empty())?;
    let root = top.root.clone()?;
    let typed = top.types.iter().any(|t| t.name == root && !t.fallback);
    Some((root, typed))
}

/// Runs `f` with the panic hook silenced, for compiling groups, whose panics [`compile`]
/// reports as results (the hook is global, so it is swapped once around all threads).
pub fn quietly<T>(f: impl FnOnce() -> T) -> T {
    let hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    panic::set_hook(hook);
    result.unwrap_or_else(|payload| panic::resume_unwind(payload))
}

/// Runs `f`, turning a panic into its message.
pub(crate) fn catch_panic<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a non-string panic payload".to_owned());
        one_line(&message)
    })
}

pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
