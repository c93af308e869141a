//! The build-script API, prost-build style: a [`Builder`] compiles schemas into `OUT_DIR`, one
//! file per schema for `include!`, and tells cargo to rerun when a file it read changes.
//!
//! ```no_run
//! // build.rs
//! fn main() -> Result<(), schemac::BuildError> {
//!     schemac::Builder::new()
//!         .schema("schemas/order.json")
//!         .root_name("Order")
//!         .schema_dir("schemas/common")
//!         .map("https://example.com/", "schemas/")
//!         .compile_to_out_dir()
//! }
//! // src/lib.rs: include!(concat!(env!("OUT_DIR"), "/order.rs"));
//! ```

use std::fmt;
use std::path::PathBuf;

use crate::{Config, Diagnostics, Draft, Input, Output, SchemaSource, UrlMap};

/// Schemas to compile in a build script, and how: every [`Config`] setting through
/// [`configure`](Builder::configure) (the draft and `format` assertions also directly).
#[derive(Clone, Debug)]
pub struct Builder {
    /// Each schema with its root name; each becomes one file.
    schemas: Vec<(PathBuf, Option<String>)>,
    catalog_dirs: Vec<PathBuf>,
    maps: Vec<UrlMap>,
    /// How every schema is compiled; [`rust_type`](Builder::rust_type) adds to it per schema.
    config: Config,
    out_dir: Option<PathBuf>,
    /// The user's types, by the index of their schema in `schemas` and the pointer.
    rust_types: Vec<(usize, String, String)>,
}

/// A build that failed: the schema errors (each with file, pointer, line:column and hint), or
/// a file that could not be written.
pub struct BuildError(BuildErrorKind);

enum BuildErrorKind {
    Schemas(Diagnostics),
    Other(String),
}

impl BuildError {
    pub fn diagnostics(&self) -> Option<&Diagnostics> {
        match &self.0 {
            BuildErrorKind::Schemas(diagnostics) => Some(diagnostics),
            BuildErrorKind::Other(_) => None,
        }
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            BuildErrorKind::Schemas(diagnostics) => write!(f, "{diagnostics}"),
            BuildErrorKind::Other(message) => write!(f, "{message}"),
        }
    }
}

/// As `Display`: a build script's `main` returning the error prints this.
impl fmt::Debug for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for BuildError {}

impl Default for Builder {
    fn default() -> Self {
        Builder {
            schemas: Vec::new(),
            catalog_dirs: Vec::new(),
            maps: Vec::new(),
            config: Config::default().regenerate_command("cargo build (build.rs, schemac::Builder)"),
            out_dir: None,
            rust_types: Vec::new(),
        }
    }
}

impl Builder {
    pub fn new() -> Builder {
        Builder::default()
    }

    /// Compiles `path` (relative to the crate's directory, where build scripts run) into
    /// `OUT_DIR/<module name of its file stem>.rs`: its types at the top level, those of the
    /// schemas it references in nested modules.
    pub fn schema(mut self, path: impl Into<PathBuf>) -> Builder {
        self.schemas.push((path.into(), None));
        self
    }

    /// The root type's name of the schema added last (default: its `title`, else its file name).
    pub fn root_name(mut self, name: &str) -> Builder {
        if let Some(last) = self.schemas.last_mut() {
            last.1 = Some(name.to_owned());
        }
        self
    }

    /// Replaces the generated type of the schema at `pointer` in the schema added last with
    /// `rust_type` (`crate::Task`), which must implement `schemac_runtime::Conforms` for that
    /// node (`#[derive(Conforms)]`): the `rust-type` of `schemac.toml`.
    pub fn rust_type(mut self, pointer: &str, rust_type: &str) -> Builder {
        if let Some(last) = self.schemas.len().checked_sub(1) {
            self.rust_types.push((last, pointer.to_owned(), rust_type.to_owned()));
        }
        self
    }

    /// A directory whose schemas refs can reach by `$id`.
    pub fn schema_dir(mut self, dir: impl Into<PathBuf>) -> Builder {
        self.catalog_dirs.push(dir.into());
        self
    }

    /// Refs under `prefix` resolve to files under `dir`; nothing is fetched.
    pub fn map(mut self, prefix: &str, dir: impl Into<PathBuf>) -> Builder {
        self.maps.push(UrlMap { prefix: prefix.to_owned(), dir: dir.into() });
        self
    }

    /// The draft of schemas without `$schema` (default 2020-12): [`Config::default_draft`].
    pub fn default_draft(self, draft: Draft) -> Builder {
        self.configure(|config| config.default_draft(draft))
    }

    /// Assert `format`; the crate then needs `schemac-runtime`'s `formats` feature:
    /// [`Config::assert_formats`].
    pub fn assert_formats(self, assert: bool) -> Builder {
        self.configure(|config| config.assert_formats(assert))
    }

    /// Any other setting, through [`Config`]'s setters:
    /// `.configure(|c| c.derives(["Eq", "Hash"]).builders(false))`. The generated files' header
    /// names `cargo build` unless this sets [`Config::regenerate_command`].
    pub fn configure(mut self, change: impl FnOnce(Config) -> Config) -> Builder {
        self.config = change(self.config);
        self
    }

    /// Write here instead of `OUT_DIR`.
    pub fn out_dir(mut self, dir: impl Into<PathBuf>) -> Builder {
        self.out_dir = Some(dir.into());
        self
    }

    /// The configuration of schema number `index`, displayed as `display`: with its
    /// [`rust_type`](Builder::rust_type)s.
    fn config_of(&self, index: usize, display: &str) -> Config {
        self.rust_types.iter().filter(|(i, _, _)| *i == index).fold(self.config.clone(), |config, (_, pointer, ty)| {
            config.type_settings(display, pointer.clone(), crate::TypeSettings::default().rust_type(ty.clone()))
        })
    }

    /// Compiles every schema and writes its file; returns the files written and the files read
    /// (the schemas, and every file their refs and the catalog directories reached). Prints
    /// nothing: [`compile_to_out_dir`](Builder::compile_to_out_dir) is for build scripts.
    pub fn compile(&self) -> Result<Compiled, BuildError> {
        let out_dir = match &self.out_dir {
            Some(dir) => dir.clone(),
            None => std::env::var_os("OUT_DIR").map(PathBuf::from).ok_or_else(|| {
                BuildError(BuildErrorKind::Other("OUT_DIR is not set: call this from a build script, or set out_dir".to_owned()))
            })?,
        };
        let mut compiled = Compiled::default();
        let mut diagnostics = Diagnostics::default();
        for (index, (path, root_name)) in self.schemas.iter().enumerate() {
            let input = Input {
                schemas: vec![SchemaSource {
                    path: path.clone(),
                    display: path.display().to_string(),
                    module: Vec::new(),
                    root_name: root_name.clone(),
                    pointer: String::new(),
                }],
                catalog_dirs: self.catalog_dirs.clone(),
                maps: self.maps.clone(),
                ..Input::default()
            };
            let config = self.config_of(index, &path.display().to_string());
            let (output, read) = match crate::compile_reading(&input, &config) {
                Ok(result) => result,
                Err(errors) => {
                    diagnostics.0.extend(errors.0);
                    continue;
                }
            };
            for file in read {
                if !compiled.read.contains(&file) {
                    compiled.read.push(file);
                }
            }
            let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let target = out_dir.join(format!("{}.rs", crate::ident::module_name(&stem)));
            std::fs::write(&target, includable(&output))
                .map_err(|e| BuildError(BuildErrorKind::Other(format!("cannot write {}: {e}", target.display()))))?;
            compiled.written.push(target);
        }
        if !diagnostics.is_empty() {
            return Err(BuildError(BuildErrorKind::Schemas(diagnostics)));
        }
        Ok(compiled)
    }

    /// What a build script calls: [`compile`](Builder::compile), then
    /// `cargo::rerun-if-changed` for each file read, or each error as a `cargo::error` (with
    /// file, pointer, line:column and hint) and the error returned.
    pub fn compile_to_out_dir(&self) -> Result<(), BuildError> {
        match self.compile() {
            Ok(compiled) => {
                for file in &compiled.read {
                    println!("cargo::rerun-if-changed={}", file.display());
                }
                Ok(())
            }
            Err(error) => {
                // A failed build script runs again on the next build, whatever changed.
                for line in error.to_string().lines() {
                    println!("cargo::error={line}");
                }
                Err(error)
            }
        }
    }
}

/// What [`Builder::compile`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Compiled {
    /// The files written, one per schema.
    pub written: Vec<PathBuf>,
    /// Every file read, in the order first read.
    pub read: Vec<PathBuf>,
}

/// The output as one file that `include!` accepts, at a module's top level or inside one:
/// `include!` takes no inner attributes, so the top level's `#![allow(..)]` go onto each item
/// and its `//!` docs are left out (those of nested modules stay, inside their braces).
pub fn includable(output: &Output) -> String {
    crate::stack::on_deep_stack(|| includable_here(output))
}

fn includable_here(output: &Output) -> String {
    let text = output.single_file();
    let header: String = text.lines().take_while(|l| l.starts_with("//") && !l.starts_with("//!")).map(|l| format!("{l}\n")).collect();
    let Ok(mut file) = syn::parse_file(&text) else { return text };
    let inner: Vec<syn::Attribute> = std::mem::take(&mut file.attrs)
        .into_iter()
        .filter(|attr| !attr.path().is_ident("doc"))
        .map(|mut attr| {
            attr.style = syn::AttrStyle::Outer;
            attr
        })
        .collect();
    for item in &mut file.items {
        if let Some(attrs) = item_attrs(item) {
            attrs.splice(0..0, inner.iter().cloned());
        }
    }
    format!("{header}\n{}", crate::emit::unparse(file))
}

fn item_attrs(item: &mut syn::Item) -> Option<&mut Vec<syn::Attribute>> {
    use syn::Item;
    Some(match item {
        Item::Const(i) => &mut i.attrs,
        Item::Enum(i) => &mut i.attrs,
        Item::Fn(i) => &mut i.attrs,
        Item::Impl(i) => &mut i.attrs,
        Item::Mod(i) => &mut i.attrs,
        Item::Static(i) => &mut i.attrs,
        Item::Struct(i) => &mut i.attrs,
        Item::Trait(i) => &mut i.attrs,
        Item::Type(i) => &mut i.attrs,
        Item::Use(i) => &mut i.attrs,
        // Not a macro invocation: rustc ignores a lint attribute there and warns that it is
        // unused (in every crate that includes the file); what the runtime's macros expand to
        // is linted as an external macro's code anyway.
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("schemac-builder-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("out")).unwrap();
        dir
    }

    #[test]
    fn writes_one_includable_file_per_schema_and_lists_what_it_read() {
        let dir = temp("ok");
        std::fs::create_dir_all(dir.join("common")).unwrap();
        std::fs::write(dir.join("common/money.json"), r#"{"$id": "https://example.com/money.json", "type": "number", "minimum": 0}"#)
            .unwrap();
        std::fs::write(dir.join("common/unused.json"), r#"{"$id": "https://example.com/unused.json"}"#).unwrap();
        std::fs::write(
            dir.join("order.json"),
            r#"{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {"total": {"$ref": "https://example.com/money.json"}}}"#,
        )
        .unwrap();
        let compiled = Builder::new()
            .schema(dir.join("order.json"))
            .root_name("Order")
            .schema_dir(dir.join("common"))
            .out_dir(dir.join("out"))
            .compile()
            .unwrap();
        assert_eq!(compiled.written, [dir.join("out/order.rs")]);
        let canonical = |p: &str| std::fs::canonicalize(dir.join(p)).unwrap();
        assert_eq!(compiled.read, [canonical("order.json"), canonical("common/money.json"), canonical("common/unused.json")]);
        let code = std::fs::read_to_string(dir.join("out/order.rs")).unwrap();
        assert!(code.contains("pub struct Order"), "{code}");
        assert!(!code.contains("#!["), "include! takes no inner attributes:\n{code}");
        let file = syn::parse_file(&code).unwrap();
        let invocations: Vec<&syn::ItemMacro> =
            file.items.iter().filter_map(|i| if let syn::Item::Macro(m) = i { Some(m) } else { None }).collect();
        assert!(
            !invocations.is_empty() && invocations.iter().all(|m| m.attrs.is_empty()),
            "an attribute on a macro invocation is unused:\n{code}"
        );
        assert!(!code.lines().any(|l| l.starts_with("//!")), "{code}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn rust_type_replaces_a_type_of_the_schema_added_last() {
        let dir = temp("rust-type");
        let schema = r#"{"type": "object", "properties": {"line": {"type": "object", "properties": {"n": {"type": "integer"}}}}}"#;
        std::fs::write(dir.join("order.json"), schema).unwrap();
        std::fs::write(dir.join("other.json"), schema).unwrap();
        Builder::new()
            .schema(dir.join("order.json"))
            .root_name("Order")
            .rust_type("/properties/line", "crate::Line")
            .schema(dir.join("other.json"))
            .root_name("Other")
            .out_dir(dir.join("out"))
            .compile()
            .unwrap();
        let code = std::fs::read_to_string(dir.join("out/order.rs")).unwrap();
        assert!(code.contains("pub type OrderLine = crate::Line;"), "{code}");
        assert!(std::fs::read_to_string(dir.join("out/other.rs")).unwrap().contains("pub struct OtherLine {"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn configure_reaches_every_setting_and_keeps_the_header_of_a_build() {
        let dir = temp("configure");
        std::fs::write(dir.join("order.json"), r#"{"type": "object", "properties": {"n": {"type": "integer"}}}"#).unwrap();
        let build = |builder: Builder| {
            builder.schema(dir.join("order.json")).root_name("Order").out_dir(dir.join("out")).compile().unwrap();
            std::fs::read_to_string(dir.join("out/order.rs")).unwrap()
        };
        let plain = build(Builder::new());
        assert!(plain.contains("`cargo build (build.rs, schemac::Builder)`") && plain.contains("fn builder()"), "{plain}");
        let configured = build(Builder::new().configure(|c| c.builders(false).derives(["Eq", "Hash"]).primitive_numbers(true)));
        assert!(!configured.contains("fn builder()"), "{configured}");
        assert!(configured.contains("#[derive(Eq, Hash)]") && configured.contains("Option<i64>"), "{configured}");
        assert!(!plain.contains("#[derive(Eq, Hash)]") && !plain.contains("Option<i64>"), "{plain}");
        assert!(configured.contains("`cargo build (build.rs, schemac::Builder)`"), "{configured}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn reports_every_schema_error_with_its_position() {
        let dir = temp("bad");
        std::fs::write(dir.join("a.json"), "{\n  \"type\": \"object\",\n}").unwrap();
        std::fs::write(dir.join("b.json"), "{\"$ref\": \"#/nowhere\"}").unwrap();
        let error = Builder::new().schema(dir.join("a.json")).schema(dir.join("b.json")).out_dir(dir.join("out")).compile().unwrap_err();
        let diagnostics = error.diagnostics().unwrap();
        assert_eq!(diagnostics.iter().map(|d| d.code).collect::<Vec<_>>(), ["invalid-json", "unresolved-ref"], "{error}");
        assert_eq!(diagnostics.0[0].position, Some((3, 1)));
        assert_eq!(format!("{error:?}"), error.to_string());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
