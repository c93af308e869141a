//! The dynamic scope: where `$dynamicRef` (2020-12) and `$recursiveRef` (2019-09) go.
//!
//! A dynamic reference whose static target declares the `$dynamicAnchor` it names (the
//! "bookending" rule) goes instead to the *outermost* schema resource on the evaluation path
//! that declares that anchor. The path matters only through those outermost declarations, so
//! the lowering carries them as [`Bindings`]: anchor name → schema, for the names some
//! dynamic reference uses. A resource entered (through a `$ref`, or by descending into an
//! embedded `$id`) binds its anchors that are still unbound. The bindings are part of the memo
//! key: the same schema reached under different bindings is a different type.
//!
//! The bindings of the schemas being lowered are kept in frames (one per type being built), so
//! a subschema lowered from any of them finds its own from its nearest enclosing part.

use url::Url;

use super::Lowerer;
use crate::diag::Diagnostic;
use crate::resolve::Loc;
use crate::schema::{Keyword, Ref};

/// The outermost declaration of each dynamic anchor name in scope, sorted by name. Empty for
/// schemas without dynamic references.
pub(super) type Bindings = Vec<(String, Loc)>;

impl<'r> Lowerer<'r> {
    /// The bindings in force at `loc`: those of the nearest part it lies in (of the innermost
    /// type being built that has one), plus the resources between that part and `loc`; for a
    /// schema outside every part, those of the resources enclosing it.
    pub(super) fn bindings_at(&self, loc: &Loc) -> Bindings {
        if self.dynamic_names.is_empty() {
            return Bindings::new();
        }
        for frame in self.frames.iter().rev() {
            let enclosing = frame.iter().filter(|(at, _)| encloses(at, loc)).max_by_key(|(at, _)| at.pointer.len());
            if let Some((at, bindings)) = enclosing {
                return self.descend(bindings, Some(at), loc);
            }
        }
        self.descend(&Bindings::new(), None, loc)
    }

    /// The bindings at `to`, a subschema of `from` (which has `bindings`), after entering the
    /// resources between them; with no `from`, every resource enclosing `to`.
    pub(super) fn descend(&self, bindings: &Bindings, from: Option<&Loc>, to: &Loc) -> Bindings {
        if self.dynamic_names.is_empty() {
            return Bindings::new();
        }
        let depth = from.map(|f| f.pointer.len());
        let mut resources = self.reg.resources_along(to);
        resources.retain(|(root, _)| depth.is_none_or(|d| root.len() > d));
        let mut out = bindings.clone();
        for (_, uri) in resources.into_iter().rev() {
            self.enter_resource(&mut out, uri);
        }
        out
    }

    /// Follows the reference keyword `keyword` (with value `reference`) of the schema at `from`,
    /// under `bindings`: the target (a dynamic reference's rebound through the bindings), and
    /// the bindings there (its resource entered).
    // The error is the diagnostic itself, as for `Registry::resolve`.
    #[allow(clippy::result_large_err)]
    pub(super) fn follow_ref(
        &self,
        from: &Loc,
        keyword: Keyword,
        reference: &Ref,
        bindings: &Bindings,
    ) -> Result<(Loc, Bindings), Diagnostic> {
        let target = match reference.target() {
            Ok(target) => target,
            Err(Some(diagnostic)) => return Err(diagnostic.clone()),
            Err(None) => {
                let message = format!("internal error: the schema model did not reach `{}`", reference.reference);
                let hint = "this is a bug in schemac; please report it with the schema";
                return Err(self.reg.error_of(&crate::codes::INTERNAL, &from.child(keyword.name()), message).with_hint(hint));
            }
        };
        let target = match &target.dynamic {
            Some(name) => bindings.iter().find(|(n, _)| n == name).map_or_else(|| target.loc.clone(), |(_, bound)| bound.clone()),
            None => target.loc.clone(),
        };
        let mut out = bindings.clone();
        if !self.dynamic_names.is_empty()
            && let Some((_, uri)) = self.reg.resources_along(&target).first()
        {
            self.enter_resource(&mut out, uri);
        }
        Ok((target, out))
    }

    /// Binds the dynamic anchors `uri` declares that are not bound yet.
    fn enter_resource(&self, bindings: &mut Bindings, uri: &Url) {
        for name in &self.dynamic_names {
            if bindings.iter().any(|(n, _)| n == name) {
                continue;
            }
            if let Some(loc) = self.reg.dynamic_anchor(uri, name) {
                bindings.push((name.clone(), loc.clone()));
            }
        }
        bindings.sort();
    }
}

/// Whether `outer` is `inner` or one of its ancestors.
fn encloses(outer: &Loc, inner: &Loc) -> bool {
    outer.doc == inner.doc
        && (inner.pointer == outer.pointer || inner.pointer.strip_prefix(&outer.pointer).is_some_and(|rest| rest.starts_with('/')))
}
