//! The front end as the compiler sees it: the model's [`schemac_model::Front`] with the Rust
//! module and root type name of every document, and the compiler's pipeline on it: lower
//! (which names and attaches what emission needs), then emit.

use std::ops::Deref;
use std::path::PathBuf;

use crate::config::Config;
use crate::diag::{Diagnostic, Diagnostics, Severity};
use crate::emit::Flavor;
use crate::input::Input;
use crate::ir::{DocId, Ir};
use crate::modules::Modules;
use crate::output::Output;
use crate::stack::on_deep_stack;
use crate::{emit, extensions, lower, name, rust_type, sources};

/// What the front end makes of the inputs: the model (read through [`Deref`]: `registry`,
/// `model`, `sources`, `warnings`), and each document's Rust module. Synthesis, the derive,
/// the diff and the reference pages read schemas through it; [`compile`] lowers it to Rust.
#[derive(Debug)]
pub struct Front {
    schemas: schemac_model::Front,
    modules: Modules,
}

impl Deref for Front {
    type Target = schemac_model::Front;

    fn deref(&self) -> &schemac_model::Front {
        &self.schemas
    }
}

/// The front end (the model's: load, resolve, build the model), and the Rust module of every document it loaded:
/// the configured one for an input, one named after the file for the others.
pub fn front(input: &Input, config: &Config) -> Result<Front, Diagnostics> {
    let schemas = schemac_model::front(&input.to_model(), config.default_draft)?;
    let modules = Modules::new(&input.schemas, &schemas.registry.docs);
    Ok(Front { schemas, modules })
}

impl Front {
    /// The model's front end, without the Rust names.
    pub fn schemas(&self) -> &schemac_model::Front {
        &self.schemas
    }

    /// The model's front end, owned: what a reader keeps once it has lowered.
    pub fn into_schemas(self) -> schemac_model::Front {
        self.schemas
    }

    /// The Rust module path document `doc`'s types go into.
    pub fn module(&self, doc: DocId) -> &[String] {
        self.modules.path(doc)
    }

    /// Lowers the model to the IR, every type named: what [`compile`] emits, and what the
    /// derive checks hand-written types against.
    pub fn lower(&self, config: &Config) -> Result<Ir, Diagnostics> {
        let mut ir = lower::lower(&self.registry, &self.model, &self.modules, config)?;
        name::name(&mut ir, &self.modules);
        sources::attach(&self.registry, &self.modules, &mut ir);
        extensions::mark_open_enums(&self.model, &mut ir);
        Diagnostics(rust_type::attach(&self.model, config, &mut ir)).into_result(ir)
    }

    /// Lowers and emits: what [`compile`] returns for the inputs this front end read. A caller
    /// that also renders reference pages ([`docs::page`](crate::docs::page)) reads the schemas
    /// once this way.
    pub fn compile(&self, config: &Config) -> Result<Output, Diagnostics> {
        on_deep_stack(|| self.compile_here(config, Flavor::Checked))
    }

    /// The same shapes with plain `#[derive(Deserialize, Serialize)]`, primitive numbers and no
    /// checks: only the reference point of the deserialization benchmark (`bench/plain-types`,
    /// which `schemac-project` builds for `cargo xtask codegen`). Hidden because no user wants
    /// types that accept what their schema rejects.
    #[doc(hidden)]
    pub fn compile_plain_serde(&self, config: &Config) -> Result<Output, Diagnostics> {
        let config = config.clone().primitive_numbers(true);
        on_deep_stack(|| self.compile_here(&config, Flavor::PlainSerde))
    }

    fn compile_here(&self, config: &Config, flavor: Flavor) -> Result<Output, Diagnostics> {
        let ir = self.lower(config)?;
        let impossible = emit::check_derives(&ir, config);
        if !impossible.is_empty() {
            return Err(Diagnostics(impossible));
        }
        let mut output = emit::emit(&ir, config, flavor);
        // What emission refuses (a pattern no bounded engine runs exactly), located now that
        // the registry can say where.
        let (refused, emitted): (Vec<Diagnostic>, Vec<Diagnostic>) = output.warnings.drain(..).partition(|d| d.severity == Severity::Error);
        if !refused.is_empty() {
            return Err(Diagnostics(refused.into_iter().map(|d| self.registry.locate(d)).collect()));
        }
        output.warnings = emitted;
        let mut warnings = self.warnings.clone();
        warnings.extend(ir.warnings.iter().cloned());
        warnings.append(&mut output.warnings);
        if config.deny_warnings && !warnings.is_empty() {
            let denied = warnings.into_iter().map(|w| Diagnostic { severity: Severity::Error, ..w }).collect();
            return Err(Diagnostics(denied));
        }
        Ok(Output { sources: self.sources.clone(), warnings, ..output })
    }
}

/// Compiles the input schemas to Rust modules, reporting every schema error found.
pub fn compile(input: &Input, config: &Config) -> Result<Output, Diagnostics> {
    compile_reading(input, config).map(|(output, _)| output)
}

/// [`compile`], also returning every file it read (the inputs and what the catalog and refs
/// reached), for a build's rerun-if-changed.
pub fn compile_reading(input: &Input, config: &Config) -> Result<(Output, Vec<PathBuf>), Diagnostics> {
    let front = front(input, config)?;
    let read = front.files_read();
    Ok((front.compile(config)?, read))
}
