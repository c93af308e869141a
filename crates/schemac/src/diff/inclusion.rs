//! Set inclusion between two schemas: whether every document one accepts, the other accepts
//! too. Readers need `old ⊆ new`, writers `new ⊆ old`; [`Prover::check`] answers one of them
//! for a pair of roots, proving it with the [`Rule`]s below or listing where it fails.
//!
//! Both sides are normalized the same way first: at each place of an instance, every subschema
//! that applies there is gathered into a conjunction ([`Conj`]: `$ref`s followed, `allOf` parts
//! merged). Then `A ⊆ B` is decided conjunct by conjunct of `B`, keyword by keyword, with the
//! combinators as set operations: a left `anyOf`/`oneOf`/`if` is split into its cases (a union),
//! a right one needs a branch (or each JSON kind a branch) that holds the left side; `not` is
//! the complement. Objects are compared name by name (each name's schema: its `properties`
//! entry, else the `patternProperties` it matches, else `additionalProperties`), arrays position
//! by position. Recursion is coinductive: an inclusion met again deeper in the document while it
//! is being proved is assumed (it is used on a strictly smaller document).
//!
//! Where no rule decides, the place becomes a [`Failure`] with candidate documents built from
//! the schemas themselves (a removed `enum` value, a value at a moved bound, the literal of a
//! changed pattern, `examples` and `default`, a property of another type in an open object),
//! which the caller confirms with a validator ([`Oracle`]) and lifts to a whole document along
//! the path from the root. A failure nobody confirms is `unknown`, never `breaking`.

use std::collections::{BTreeSet, HashMap};

use serde_json::{Map, Number, Value, json};

use super::{ChangeKind, Oracle, Policy, Side};
use crate::Front;
use crate::ir::Kind;
use crate::resolve::Loc;
use crate::schema::{Body, Dependency, Exclusive, Items, KindSet, Model, Schema, SchemaId};

/// A rule that proves an inclusion `A ⊆ B`. Each is a sentence about sets of documents; the
/// fixture table (`tests/diff/`) has pairs that each rule decides, in both directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    /// `A ⊆ B` when `B` asserts nothing: `true`, `{}`, or only annotations and identifiers.
    AnyRight,
    /// `A ⊆ B` when `A` accepts nothing: `false`, or `type`s, `enum`/`const` values or bounds
    /// that contradict each other (an unsatisfiable schema is diffable: its set is empty).
    EmptyLeft,
    /// `A ∧ X ⊆ B ∧ X`: a conjunct of `B` that `A` has too (the same assertions, subschemas the
    /// same recursively; annotations aside) adds no condition. Identical schemas are the case
    /// where every conjunct is shared.
    SharedConjunct,
    /// When `A` allows finitely many values (`enum`, `const`), `A ⊆ B` is decided value by value
    /// by the validator.
    FiniteValues,
    /// `A₁ ∨ … ∨ Aₙ ⊆ B` when each `Aᵢ ⊆ B`: a left `anyOf` or `oneOf` is at most the union of
    /// its branches, a left `if`/`then`/`else` at most `then ∨ else`.
    LeftUnion,
    /// `A ⊆ B₁ ∨ … ∨ Bₙ` (`anyOf`) when `A ⊆ Bⱼ` for one branch, or when each JSON kind `A`
    /// allows is included in some branch.
    RightBranch,
    /// `A ⊆ oneOf(B₁ … Bₙ)` when `A ⊆ Bⱼ` and `A` shares no value with any other branch
    /// (disjoint kinds, disjoint values, or a branch the left `oneOf` already excluded).
    RightExclusiveBranch,
    /// `A ⊆ ¬N` when `A` and `N` share no value (disjoint kinds or values), or when `A` has a
    /// conjunct `¬M` with `N ⊆ M` (the complement reverses inclusion).
    Negation,
    /// `A ⊆ (if I then T else E)` when `A ⊆ T` and `A ⊆ E`, or when `A` shares no value with
    /// `I` and `A ⊆ E`.
    Conditional,
    /// The JSON kinds (`type`) `A` allows are among `B`'s; an integer is a number.
    Kinds,
    /// Numbers: `A`'s lower and upper bounds lie inside `B`'s (exclusive bounds and integer
    /// rounding considered), and each `multipleOf` of `B` divides one of `A`'s.
    NumberBounds,
    /// Strings: `A`'s `minLength`/`maxLength` lie inside `B`'s, and each `pattern` (each asserted
    /// `format`) of `B` is one of `A`'s or matches every string.
    StringBounds,
    /// Objects, name by name: for every property name `A`'s schema for it (`properties` entry,
    /// else matching `patternProperties`, else `additionalProperties`) is included in `B`'s;
    /// `B`'s `required` names are required by `A` (or impossible in it); `B`'s counts,
    /// `propertyNames`, `dependentRequired` and `dependentSchemas` follow from `A`'s.
    Properties,
    /// Lenient policy only: an object whose schema is open (`additionalProperties` absent or
    /// `true`) carries only the properties its schema declares; producers do not send names the
    /// schema never had. So a property added to or removed from an open object is compatible.
    LenientUndeclared,
    /// Arrays, position by position: `A`'s schema for each item position (`prefixItems`, then
    /// `items`) is included in `B`'s; `minItems`/`maxItems`, `uniqueItems` and `contains` follow
    /// from `A`'s.
    Items,
    /// Recursive schemas: an inclusion met again while it is being proved is assumed; it is
    /// used on a strictly smaller document (a property or item), so the proof is an induction on
    /// the document's depth.
    Coinduction,
}

impl Rule {
    pub const ALL: [Rule; 16] = [
        Rule::AnyRight,
        Rule::EmptyLeft,
        Rule::SharedConjunct,
        Rule::FiniteValues,
        Rule::LeftUnion,
        Rule::RightBranch,
        Rule::RightExclusiveBranch,
        Rule::Negation,
        Rule::Conditional,
        Rule::Kinds,
        Rule::NumberBounds,
        Rule::StringBounds,
        Rule::Properties,
        Rule::LenientUndeclared,
        Rule::Items,
        Rule::Coinduction,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Rule::AnyRight => "any-right",
            Rule::EmptyLeft => "empty-left",
            Rule::SharedConjunct => "shared-conjunct",
            Rule::FiniteValues => "finite-values",
            Rule::LeftUnion => "left-union",
            Rule::RightBranch => "right-branch",
            Rule::RightExclusiveBranch => "right-exclusive-branch",
            Rule::Negation => "negation",
            Rule::Conditional => "conditional",
            Rule::Kinds => "kinds",
            Rule::NumberBounds => "number-bounds",
            Rule::StringBounds => "string-bounds",
            Rule::Properties => "properties",
            Rule::LenientUndeclared => "lenient-undeclared",
            Rule::Items => "items",
            Rule::Coinduction => "coinduction",
        }
    }
}

/// One step from a value to a value inside it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    Key(String),
    Index(usize),
}

/// Where an inclusion fails, or could not be decided: a place in the instance (the path from
/// the root, with the left side's schemas at each level for building the rest of a document
/// around a value), the keywords on each side, and what may show it.
#[derive(Clone, Debug)]
pub struct Failure {
    /// From the root: the left conjunction's locations at each level, and the step down.
    pub path: Vec<(Vec<Loc>, Step)>,
    /// The left conjunction at the failing place (what a local witness must satisfy) ...
    pub left: Vec<Loc>,
    /// ... and the right one (what it must violate).
    pub right: Vec<Loc>,
    /// The keyword (or subschema) that fails, on the left side and on the right.
    pub at_left: Option<Loc>,
    pub at_right: Option<Loc>,
    pub kind: ChangeKind,
    pub detail: String,
    /// Local values to try first (built from the schemas), then samples of the left side.
    pub candidates: Vec<Value>,
    /// Why no rule decides, for an `unknown` verdict when no candidate is confirmed.
    pub reason: String,
    /// The places (left, right) of the properties and items it is inside, outermost first: the
    /// changes there are the ones it belongs to when none is at its own place.
    pub origins: Vec<(Option<Loc>, Option<Loc>)>,
}

/// A conjunction of subschemas on one side that all apply at one place of an instance.
#[derive(Clone, Debug)]
struct Conj {
    side: Side,
    /// As given (for the validator: exactly the schemas that apply).
    locs: Vec<Loc>,
    /// Schema objects after following `$ref` and `allOf`.
    atoms: Vec<SchemaId>,
    /// `false` among them, or a reference that resolves to nothing on the left.
    impossible: bool,
    /// Left choice points already split (`anyOf`, `oneOf`, `if` atoms).
    decided: Vec<SchemaId>,
    /// Schemas the left side is known not to match (the other branches of a split `oneOf`).
    excluded: Vec<SchemaId>,
    /// The JSON kinds it is narrowed to (one kind of a left side spread over right branches).
    only: Option<KindSet>,
}

/// Bounds on one JSON kind, the tighter of every conjunct's.
#[derive(Clone, Debug, Default)]
struct Facts {
    kinds: Option<KindSet>,
    values: Option<Vec<Value>>,
    lo: Option<(f64, bool)>,
    hi: Option<(f64, bool)>,
    multiples: Vec<f64>,
    min_len: u64,
    max_len: Option<u64>,
    patterns: Vec<String>,
    formats: Vec<String>,
    min_props: u64,
    max_props: Option<u64>,
    required: BTreeSet<String>,
    min_items: u64,
    max_items: Option<u64>,
    unique: bool,
}

/// How far a proof may go before it gives up with `unknown` (checks of subschema pairs).
const STEP_BUDGET: usize = 200_000;
/// The deepest a proof follows a document (properties and items): past it, undecided.
const MAX_PATH: usize = 100;
/// How many places may ask the synthesizer for values, and how many values each.
const SAMPLE_CALLS: usize = 48;
const SAMPLES_PER_PLACE: usize = 12;
/// The most cases a left side is split into at one place.
const SPLIT_LIMIT: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Memo {
    InProgress,
    Holds,
    /// Failed, and its failures were recorded.
    Fails,
    /// Failed inside a trial: to be run again where its failures are recorded.
    FailsUnrecorded,
}

type ConjKey = (Side, Vec<SchemaId>, Vec<SchemaId>, Side, Vec<SchemaId>);

pub(super) struct Prover<'a> {
    old: &'a Front,
    new: &'a Front,
    oracle: &'a dyn Oracle,
    policy: Policy,
    formats_assert: bool,
    same_memo: HashMap<(Side, SchemaId, Side, SchemaId), bool>,
    same_log: Vec<(Side, SchemaId, Side, SchemaId)>,
    memo: HashMap<ConjKey, Memo>,
    memo_log: Vec<ConjKey>,
    steps: usize,
    /// How many more times the synthesizer may be asked for values (it is the slow part).
    samples_left: usize,
    /// Trial depth: inside a trial (one branch of several tried), failures are not recorded.
    trial: usize,
    pub rules: Vec<Rule>,
    /// Places where the lenient policy's rule decided (the left object's location).
    pub lenient_at: Vec<Loc>,
    pub failures: Vec<Failure>,
    /// The places of the properties and items the proof is inside (left, right), outermost first.
    origins: Vec<(Option<Loc>, Option<Loc>)>,
    /// For each failed descent, its failures (a range of `failures`) and the depth it was at.
    failed_at: HashMap<ConjKey, (usize, usize, usize)>,
}

impl<'a> Prover<'a> {
    pub(super) fn new(old: &'a Front, new: &'a Front, oracle: &'a dyn Oracle, policy: Policy, formats_assert: bool) -> Prover<'a> {
        Prover {
            old,
            new,
            oracle,
            policy,
            formats_assert,
            same_memo: HashMap::new(),
            same_log: Vec::new(),
            memo: HashMap::new(),
            memo_log: Vec::new(),
            steps: 0,
            samples_left: SAMPLE_CALLS,
            trial: 0,
            rules: Vec::new(),
            lenient_at: Vec::new(),
            failures: Vec::new(),
            origins: Vec::new(),
            failed_at: HashMap::new(),
        }
    }

    /// Whether every document the schema at `left` (on `left_side`) accepts, the schema at
    /// `right` accepts too. The rules used are in `self.rules`, the failures in `self.failures`.
    pub(super) fn check(&mut self, left_side: Side, left: &Loc, right: &Loc) -> bool {
        self.rules.clear();
        self.failures.clear();
        self.lenient_at.clear();
        self.memo.clear();
        self.memo_log.clear();
        self.failed_at.clear();
        self.steps = 0;
        self.samples_left = SAMPLE_CALLS;
        let right_side = left_side.other();
        let a = self.conj(left_side, vec![left.clone()]);
        let b = self.conj(right_side, vec![right.clone()]);
        let mut path = Vec::new();
        self.sub(&a, &b, &mut path)
    }

    /// Whether the schema at `loc` of `side` provably accepts nothing.
    pub(super) fn accepts_nothing(&self, side: Side, loc: &Loc) -> bool {
        let conj = self.conj(side, vec![loc.clone()]);
        self.empty(&conj)
    }

    fn front(&self, side: Side) -> &'a Front {
        match side {
            Side::Old => self.old,
            Side::New => self.new,
        }
    }

    fn model(&self, side: Side) -> &'a Model {
        &self.front(side).model
    }

    fn schema(&self, side: Side, id: SchemaId) -> Option<&'a Schema> {
        self.model(side).node(id).schema()
    }

    fn loc(&self, side: Side, id: SchemaId) -> Loc {
        self.model(side).loc(id).clone()
    }

    // ---------------------------------------------------------------- normalization

    /// The conjunction of the schemas at `locs`: `$ref`s followed and `allOf` parts merged.
    fn conj(&self, side: Side, locs: Vec<Loc>) -> Conj {
        let model = self.model(side);
        let mut conj =
            Conj { side, locs: Vec::new(), atoms: Vec::new(), impossible: false, decided: Vec::new(), excluded: Vec::new(), only: None };
        for loc in locs {
            match model.id_at(&loc) {
                Some(id) => self.add(&mut conj, id),
                None => conj.impossible = true,
            }
            conj.locs.push(loc);
        }
        self.prune(&mut conj);
        conj
    }

    /// Drops atoms that constrain nothing the others leave possible: a `type` the others
    /// already imply and keywords only of kinds the others exclude (a `{"$ref": "#", "type":
    /// "object", "items": …}` beside the object schema it refers to). The set is the same; the
    /// conjunction is smaller, so an inclusion met again deeper is recognized (coinduction).
    fn prune(&self, conj: &mut Conj) {
        let mut i = 0;
        while i < conj.atoms.len() && conj.atoms.len() > 1 {
            let id = conj.atoms[i];
            let others = Conj { atoms: conj.atoms.iter().copied().filter(|x| *x != id).collect(), ..conj.clone() };
            let facts = self.facts(&others);
            let kinds = self.kinds(&others, &facts);
            if self.schema(conj.side, id).is_some_and(|s| !self.relevant(s, kinds)) {
                conj.atoms.remove(i);
            } else {
                i += 1;
            }
        }
    }

    /// Whether the schema object says anything about values of `kinds` (besides what its
    /// `$ref`s and `allOf` bring in, which are atoms of their own).
    fn relevant(&self, s: &Schema, kinds: KindSet) -> bool {
        use crate::schema::Keyword as K;
        let numeric = kinds.contains(Kind::Number) || kinds.contains(Kind::Integer);
        s.keywords().any(|k| match k {
            K::Type => s.types.is_some_and(|t| kinds.intersect(t) != kinds),
            K::Enum | K::Const | K::AnyOf | K::OneOf | K::Not | K::If | K::Then | K::Else | K::DependentSchemas | K::Dependencies => true,
            K::UnevaluatedProperties | K::UnevaluatedItems | K::DynamicRef | K::RecursiveRef => true,
            K::Minimum | K::Maximum | K::ExclusiveMinimum | K::ExclusiveMaximum | K::MultipleOf => numeric,
            K::MinLength | K::MaxLength | K::Pattern => kinds.contains(Kind::String),
            K::Format => self.formats_assert && kinds.contains(Kind::String),
            K::Properties
            | K::PatternProperties
            | K::AdditionalProperties
            | K::PropertyNames
            | K::MinProperties
            | K::MaxProperties
            | K::Required
            | K::DependentRequired => kinds.contains(Kind::Object),
            K::Items
            | K::PrefixItems
            | K::AdditionalItems
            | K::Contains
            | K::MinContains
            | K::MaxContains
            | K::MinItems
            | K::MaxItems
            | K::UniqueItems => kinds.contains(Kind::Array),
            K::Ref => s.ref_.as_ref().is_some_and(|r| r.target().is_err()),
            _ => false,
        })
    }

    /// Adds `id` and everything it brings in place (`$ref`, `allOf`) to `conj`.
    fn add(&self, conj: &mut Conj, id: SchemaId) {
        let model = self.model(conj.side);
        let mut work = vec![id];
        while let Some(id) = work.pop() {
            if conj.atoms.contains(&id) {
                continue;
            }
            match &model.node(id).body {
                Body::Bool(true) => {}
                Body::Bool(false) => conj.impossible = true,
                // Reported where it is; as a schema it is taken for what validators make of it.
                Body::Invalid => {}
                Body::Object(schema) => {
                    conj.atoms.push(id);
                    for (_, reference) in schema.refs() {
                        // Unresolved, it stands for an unknown schema (`atom` says so on the right).
                        if let Ok(target) = reference.target() {
                            work.push(target.id);
                        }
                    }
                    for part in schema.all_of.iter().flatten().rev() {
                        work.push(*part);
                    }
                }
            }
        }
    }

    /// `conj` with more subschemas in place.
    fn with(&self, conj: &Conj, ids: &[SchemaId]) -> Conj {
        let mut out = conj.clone();
        for id in ids {
            out.locs.push(self.loc(conj.side, *id));
            self.add(&mut out, *id);
        }
        // Atoms a split already decided stay (the choice is recorded by them).
        let decided: Vec<SchemaId> = out.decided.clone();
        let kept: Vec<SchemaId> = out.atoms.iter().copied().filter(|a| decided.contains(a)).collect();
        self.prune(&mut out);
        for atom in kept {
            if !out.atoms.contains(&atom) {
                out.atoms.push(atom);
            }
        }
        out
    }

    fn atoms<'s>(&'s self, conj: &'s Conj) -> impl Iterator<Item = (SchemaId, &'a Schema)> + 's {
        conj.atoms.iter().filter_map(move |id| Some((*id, self.schema(conj.side, *id)?)))
    }

    fn atom_list(&self, conj: &Conj) -> Vec<(SchemaId, &'a Schema)> {
        self.atoms(conj).collect()
    }

    /// Whether an atom asserts nothing about instances beyond what `$ref`/`allOf` brought in.
    fn asserts_nothing(&self, schema: &Schema) -> bool {
        schema.keywords().all(|k| {
            matches!(k.info().class, crate::schema::Class::Annotation | crate::schema::Class::Identifier | crate::schema::Class::Container)
                || matches!(k, crate::schema::Keyword::AllOf | crate::schema::Keyword::Ref)
                || (k == crate::schema::Keyword::Format && !self.formats_assert)
                || (k == crate::schema::Keyword::Ref && schema.ref_.as_ref().is_some_and(|r| r.target().is_ok()))
        }) && schema.ref_.as_ref().is_none_or(|r| r.target().is_ok())
    }

    fn facts(&self, conj: &Conj) -> Facts {
        let mut f = Facts::default();
        for (_, s) in self.atoms(conj) {
            if let Some(types) = s.types {
                f.kinds = Some(f.kinds.map_or(types, |k| k.intersect(types)));
            }
            if let Some(values) = s.allowed_values() {
                f.values = Some(match f.values.take() {
                    None => values,
                    Some(list) => list.into_iter().filter(|v| values.iter().any(|w| same_value(v, w))).collect(),
                });
            }
            if let Some((x, e)) = lower(s) {
                f.lo = Some(match f.lo {
                    Some((y, ye)) if y > x || (y == x && ye) => (y, ye),
                    _ => (x, e),
                });
            }
            if let Some((x, e)) = upper(s) {
                f.hi = Some(match f.hi {
                    Some((y, ye)) if y < x || (y == x && ye) => (y, ye),
                    _ => (x, e),
                });
            }
            if let Some(m) = s.multiple_of.as_ref().and_then(Number::as_f64) {
                f.multiples.push(m);
            }
            f.min_len = f.min_len.max(s.min_length.unwrap_or(0));
            f.max_len = min_opt(f.max_len, s.max_length);
            f.patterns.extend(s.pattern.clone());
            if self.formats_assert {
                f.formats.extend(s.format.clone());
            }
            f.min_props = f.min_props.max(s.min_properties.unwrap_or(0));
            f.max_props = min_opt(f.max_props, s.max_properties);
            f.required.extend(s.required.iter().flatten().cloned());
            f.min_items = f.min_items.max(s.min_items.unwrap_or(0));
            f.max_items = min_opt(f.max_items, s.max_items);
            f.unique |= s.unique_items == Some(true);
        }
        if let (Some(values), Some(kinds)) = (&mut f.values, f.kinds) {
            values.retain(|v| kinds.accepts(v));
        }
        f
    }

    /// The kinds the conjunction may take, narrowed by what its facts make impossible.
    fn kinds(&self, conj: &Conj, f: &Facts) -> KindSet {
        let mut kinds = f.kinds.unwrap_or(KindSet::ALL);
        if let Some(only) = conj.only {
            kinds = kinds.intersect(only);
        }
        // A whole `multipleOf` leaves only integers.
        if f.multiples.iter().any(|m| m.fract() == 0.0) && kinds.contains(Kind::Number) {
            kinds = kinds.without(Kind::Number).union(KindSet::of(Kind::Integer));
        }
        if let Some(values) = &f.values {
            kinds = kinds.intersect(values.iter().map(KindSet::of_value).fold(KindSet::EMPTY, KindSet::union));
        }
        let numbers_empty = match (f.lo, f.hi) {
            (Some((lo, le)), Some((hi, he))) => {
                lo > hi || (lo == hi && (le || he)) || (integers_only(kinds) && ceil_int(lo, le) > floor_int(hi, he))
            }
            _ => false,
        };
        if numbers_empty {
            kinds = kinds.without(Kind::Number).without(Kind::Integer);
        }
        if f.max_len.is_some_and(|max| max < f.min_len) {
            kinds = kinds.without(Kind::String);
        }
        if f.max_props.is_some_and(|max| max < f.min_props) {
            kinds = kinds.without(Kind::Object);
        }
        if f.max_items.is_some_and(|max| max < f.min_items) {
            kinds = kinds.without(Kind::Array);
        }
        kinds
    }

    /// Whether the conjunction provably accepts nothing.
    fn empty(&self, conj: &Conj) -> bool {
        if conj.impossible {
            return true;
        }
        let f = self.facts(conj);
        if matches!(&f.values, Some(values) if values.is_empty()) {
            return true;
        }
        self.kinds(conj, &f).is_empty()
    }

    // ---------------------------------------------------------------- sameness

    /// Whether two subschemas are the same schema (annotations aside), coinductively.
    fn same(&mut self, sa: Side, a: SchemaId, sb: Side, b: SchemaId) -> bool {
        if sa == sb && a == b {
            return true;
        }
        let key = (sa, a, sb, b);
        if let Some(result) = self.same_memo.get(&key) {
            return *result;
        }
        let mark = self.same_log.len();
        self.same_memo.insert(key, true);
        self.same_log.push(key);
        let result = self.same_bodies(sa, a, sb, b);
        if !result {
            // Whatever was concluded while assuming this pair is suspect.
            for k in self.same_log.drain(mark..) {
                self.same_memo.remove(&k);
            }
            self.same_memo.insert(key, false);
        }
        result
    }

    fn same_opt(&mut self, sa: Side, a: Option<SchemaId>, sb: Side, b: Option<SchemaId>) -> bool {
        match (a, b) {
            (None, None) => true,
            (Some(a), Some(b)) => self.same(sa, a, sb, b),
            _ => false,
        }
    }

    fn same_list(&mut self, sa: Side, a: Option<&[SchemaId]>, sb: Side, b: Option<&[SchemaId]>) -> bool {
        let (a, b) = (a.unwrap_or_default(), b.unwrap_or_default());
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| self.same(sa, *x, sb, *y))
    }

    fn same_named(&mut self, sa: Side, a: Option<&[(String, SchemaId)]>, sb: Side, b: Option<&[(String, SchemaId)]>) -> bool {
        let (a, b) = (a.unwrap_or_default(), b.unwrap_or_default());
        a.len() == b.len() && a.iter().all(|(name, x)| b.iter().find(|(m, _)| m == name).is_some_and(|(_, y)| self.same(sa, *x, sb, *y)))
    }

    fn same_bodies(&mut self, sa: Side, a: SchemaId, sb: Side, b: SchemaId) -> bool {
        let (ma, mb) = (self.model(sa), self.model(sb));
        let (x, y) = match (&ma.node(a).body, &mb.node(b).body) {
            (Body::Bool(x), Body::Bool(y)) => return x == y,
            (Body::Object(x), Body::Object(y)) => (&**x, &**y),
            (Body::Object(x), Body::Bool(true)) | (Body::Bool(true), Body::Object(x)) => {
                return self.asserts_nothing(x) && x.all_of.is_none();
            }
            _ => return false,
        };
        if ma.node(a).draft != mb.node(b).draft && (x.items.is_some() || y.items.is_some()) {
            return false;
        }
        let set = |r: &Option<Vec<String>>| r.iter().flatten().cloned().collect::<BTreeSet<String>>();
        let plain = x.types == y.types
            && values_eq(x.allowed_values(), y.allowed_values())
            && lower(x) == lower(y)
            && upper(x) == upper(y)
            && x.multiple_of.as_ref().and_then(Number::as_f64) == y.multiple_of.as_ref().and_then(Number::as_f64)
            && x.min_length.unwrap_or(0) == y.min_length.unwrap_or(0)
            && x.max_length == y.max_length
            && x.pattern == y.pattern
            && (!self.formats_assert || x.format == y.format)
            && x.min_items.unwrap_or(0) == y.min_items.unwrap_or(0)
            && x.max_items == y.max_items
            && (x.unique_items == Some(true)) == (y.unique_items == Some(true))
            && x.min_contains == y.min_contains
            && x.max_contains == y.max_contains
            && x.min_properties.unwrap_or(0) == y.min_properties.unwrap_or(0)
            && x.max_properties == y.max_properties
            && set(&x.required) == set(&y.required)
            && x.dependent_required == y.dependent_required;
        if !plain {
            return false;
        }
        let target = |s: &Schema| s.refs().next().map(|(_, r)| r.target().map(|t| t.id).ok());
        let refs = match (target(x), target(y)) {
            (None, None) => true,
            (Some(Some(p)), Some(Some(q))) => self.same(sa, p, sb, q),
            _ => false,
        };
        let items = |s: &Schema| match &s.items {
            Some(Items::Schema(id)) => (None, Some(*id)),
            Some(Items::Tuple(list)) => (Some(list.clone()), None),
            None => (None, None),
        };
        let ((xt, xi), (yt, yi)) = (items(x), items(y));
        let dependencies = |s: &Schema| {
            let mut names = Vec::new();
            let mut schemas = Vec::new();
            for (name, d) in s.dependencies.iter().flatten() {
                match d {
                    Dependency::Names(list) => names.push((name.clone(), list.clone())),
                    Dependency::Schema(id) => schemas.push((name.clone(), *id)),
                }
            }
            (names, schemas)
        };
        let ((xn, xs), (yn, ys)) = (dependencies(x), dependencies(y));
        refs && xn == yn
            && self.same_named(sa, Some(&xs), sb, Some(&ys))
            && self.same_list(sa, x.all_of.as_deref(), sb, y.all_of.as_deref())
            && self.same_list(sa, x.any_of.as_deref(), sb, y.any_of.as_deref())
            && self.same_list(sa, x.one_of.as_deref(), sb, y.one_of.as_deref())
            && self.same_opt(sa, x.not, sb, y.not)
            && self.same_opt(sa, x.if_, sb, y.if_)
            && self.same_opt(sa, x.then, sb, y.then)
            && self.same_opt(sa, x.else_, sb, y.else_)
            && self.same_named(sa, x.dependent_schemas.as_deref(), sb, y.dependent_schemas.as_deref())
            && self.same_list(sa, x.prefix_items.as_deref(), sb, y.prefix_items.as_deref())
            && self.same_list(sa, xt.as_deref(), sb, yt.as_deref())
            && self.same_opt(sa, xi, sb, yi)
            && self.same_opt(sa, x.additional_items, sb, y.additional_items)
            && self.same_opt(sa, x.contains, sb, y.contains)
            && self.same_named(sa, x.properties.as_deref(), sb, y.properties.as_deref())
            && self.same_named(sa, x.pattern_properties.as_deref(), sb, y.pattern_properties.as_deref())
            && self.same_opt(sa, x.additional_properties, sb, y.additional_properties)
            && self.same_opt(sa, x.property_names, sb, y.property_names)
            && self.same_opt(sa, x.unevaluated_items, sb, y.unevaluated_items)
            && self.same_opt(sa, x.unevaluated_properties, sb, y.unevaluated_properties)
    }

    // ---------------------------------------------------------------- inclusion

    fn rule(&mut self, rule: Rule) {
        if self.trial == 0 && !self.rules.contains(&rule) {
            self.rules.push(rule);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn fail(
        &mut self,
        a: &Conj,
        b: &Conj,
        path: &[(Vec<Loc>, Step)],
        at_left: Option<Loc>,
        at_right: Option<Loc>,
        kind: ChangeKind,
        detail: String,
        candidates: Vec<Value>,
        reason: String,
    ) -> bool {
        if self.trial == 0 {
            self.failures.push(Failure {
                path: path.to_vec(),
                left: a.locs.clone(),
                right: b.locs.clone(),
                at_left,
                at_right,
                kind,
                detail,
                candidates,
                reason,
                origins: self.origins.clone(),
            });
        }
        false
    }

    /// Runs `check` without recording failures or rules: whether it holds.
    fn try_sub(&mut self, a: &Conj, b: &Conj, path: &mut Vec<(Vec<Loc>, Step)>) -> bool {
        self.trial += 1;
        let held = self.sub(a, b, path);
        self.trial -= 1;
        held
    }

    /// `A ⊆ B`.
    fn sub(&mut self, a: &Conj, b: &Conj, path: &mut Vec<(Vec<Loc>, Step)>) -> bool {
        self.steps += 1;
        if self.steps > STEP_BUDGET {
            let reason = "the proof went past its budget of subschema comparisons".to_owned();
            return self.fail(a, b, path, None, None, ChangeKind::SchemaNarrowed, reason.clone(), Vec::new(), reason);
        }
        if !b.impossible && self.atoms(b).all(|(_, s)| self.asserts_nothing(s)) {
            self.rule(Rule::AnyRight);
            return true;
        }
        if self.empty(a) {
            self.rule(Rule::EmptyLeft);
            return true;
        }
        if b.impossible {
            let at = b.locs.first().cloned();
            let candidates = self.candidates(a);
            let detail = "now `false`: nothing is valid".to_owned();
            let reason = "no value of the old schema was found to show it".to_owned();
            return self.fail(a, b, path, a.locs.first().cloned(), at, ChangeKind::SchemaNarrowed, detail, candidates, reason);
        }
        // A asserts nothing (a name an open object never declared): one failure for the whole of
        // B, shown by a simple value B rejects, rather than one per keyword of B.
        if a.atoms.is_empty() && self.trial == 0 {
            let simple = [
                json!(null),
                json!(true),
                json!(0),
                json!(0.5),
                json!(""),
                json!("schemac"),
                json!([]),
                json!({}),
                json!({"schemac": null}),
            ];
            let rejected: Vec<Value> = simple.into_iter().filter(|v| self.valid_all(b.side, &b.locs, v) == Some(false)).collect();
            if !rejected.is_empty() {
                let detail = "was any value, now constrained".to_owned();
                let at = b.locs.first().cloned();
                return self.fail(a, b, path, None, at, ChangeKind::SchemaNarrowed, detail, rejected, String::new());
            }
        }
        // Conjuncts of B that A has too.
        let mut rest = Vec::new();
        let mut shared = false;
        for &x in &b.atoms {
            let Some(xs) = self.schema(b.side, x) else { continue };
            if self.asserts_nothing(xs) {
                continue;
            }
            if a.atoms.iter().any(|&y| self.same(a.side, y, b.side, x)) {
                shared = true;
            } else {
                rest.push(x);
            }
        }
        if rest.is_empty() {
            self.rule(Rule::SharedConjunct);
            return true;
        }
        if shared {
            self.rule(Rule::SharedConjunct);
        }
        // Finitely many values: the validator decides each.
        let facts = self.facts(a);
        if let Some(values) = &facts.values
            && let Some(held) = self.finite(a, b, values, path)
        {
            return held;
        }
        // A left choice: each case on its own.
        if let Some((choice, cases)) = self.split(a) {
            if cases.len() <= SPLIT_LIMIT {
                self.rule(Rule::LeftUnion);
                let mut held = true;
                for case in cases {
                    let mut next = case;
                    next.decided.push(choice);
                    held &= self.sub(&next, b, path);
                }
                return held;
            }
            // Too many: dropping the choice keeps the left side a superset (sound).
            let mut next = a.clone();
            next.decided.push(choice);
            return self.sub(&next, b, path);
        }
        let mut held = true;
        for x in rest {
            held &= self.atom(a, b, x, &facts, path);
        }
        held
    }

    /// `A ⊆ B` value by value when `A` is finite; `None` when the validator cannot say.
    fn finite(&mut self, a: &Conj, b: &Conj, values: &[Value], path: &[(Vec<Loc>, Step)]) -> Option<bool> {
        let mut bad = Vec::new();
        for value in values {
            let in_a = self.valid_all(a.side, &a.locs, value)?;
            if !in_a {
                continue;
            }
            if !self.valid_all(b.side, &b.locs, value)? {
                bad.push(value.clone());
            }
        }
        if bad.is_empty() {
            self.rule(Rule::FiniteValues);
            return Some(true);
        }
        let at_right = self.keyword_loc(b, |s| s.allowed_values().is_some()).or_else(|| b.locs.first().cloned());
        let at_left = self.keyword_loc(a, |s| s.allowed_values().is_some());
        let detail = format!("{} no longer valid", bad.iter().map(Value::to_string).collect::<Vec<_>>().join(", "));
        Some(self.fail(a, b, path, at_left, at_right, ChangeKind::EnumValuesRemoved, detail, bad, String::new()))
    }

    fn valid_all(&self, side: Side, locs: &[Loc], value: &Value) -> Option<bool> {
        let mut all = true;
        for loc in locs {
            all &= self.oracle.valid(side, loc, value)?;
            if !all {
                break;
            }
        }
        Some(all)
    }

    /// The location of the keyword of the first atom that has it.
    fn keyword_loc(&self, conj: &Conj, has: impl Fn(&Schema) -> bool) -> Option<Loc> {
        self.atoms(conj).find(|(_, s)| has(s)).map(|(id, _)| self.loc(conj.side, id))
    }

    /// The first undecided choice on the left: its atom and the conjunctions of its cases.
    fn split(&self, a: &Conj) -> Option<(SchemaId, Vec<Conj>)> {
        for (id, s) in self.atoms(a) {
            if a.decided.contains(&id) {
                continue;
            }
            if let Some(branches) = s.any_of.as_deref().filter(|b| !b.is_empty()) {
                return Some((id, branches.iter().map(|b| self.with(a, &[*b])).collect()));
            }
            if let Some(branches) = s.one_of.as_deref().filter(|b| !b.is_empty()) {
                let cases = branches
                    .iter()
                    .map(|b| {
                        let mut case = self.with(a, &[*b]);
                        // A document of `oneOf` matches no other branch.
                        case.excluded.extend(branches.iter().filter(|o| *o != b));
                        case
                    })
                    .collect();
                return Some((id, cases));
            }
            if let Some(condition) = s.if_ {
                let then = s.then.map_or_else(|| self.with(a, &[condition]), |t| self.with(a, &[condition, t]));
                let mut otherwise = s.else_.map_or_else(|| a.clone(), |e| self.with(a, &[e]));
                otherwise.excluded.push(condition);
                return Some((id, vec![then, otherwise]));
            }
        }
        None
    }

    /// `A ⊆ X` for one schema object `X` of the right side.
    fn atom(&mut self, a: &Conj, b: &Conj, x: SchemaId, facts: &Facts, path: &mut Vec<(Vec<Loc>, Step)>) -> bool {
        let side = b.side;
        let Some(xs) = self.schema(side, x) else { return true };
        let at = self.loc(side, x);
        let kinds = self.kinds(a, facts);
        let mut held = true;
        for (_, reference) in xs.refs() {
            if reference.target().is_err() {
                let reason = format!("`{}` resolves to no schema here", reference.reference);
                held &= self.fail(a, b, path, None, Some(at.child("$ref")), ChangeKind::RefRetargeted, reason.clone(), Vec::new(), reason);
            }
        }
        // type
        if let Some(types) = xs.types {
            if kinds.intersect(types) == kinds {
                self.rule(Rule::Kinds);
            } else {
                let extra = kinds_minus(kinds, types);
                let mut candidates = self.kind_values(a, facts, extra);
                candidates.extend(self.candidates(a));
                let detail = format!("{} no longer allowed", kind_words(extra));
                let at_left = self.keyword_loc(a, |s| s.types.is_some());
                held &= self.fail(a, b, path, at_left, Some(at.child("type")), ChangeKind::TypeNarrowed, detail, candidates, String::new());
            }
        }
        // enum / const (a finite left side was decided before)
        if xs.allowed_values().is_some() {
            let candidates = self.candidates(a);
            let reason = "the old schema allows values the new list may not have".to_owned();
            let keyword = if xs.enum_values.is_some() { "enum" } else { "const" };
            held &= self.fail(
                a,
                b,
                path,
                None,
                Some(at.child(keyword)),
                ChangeKind::EnumValuesRemoved,
                "now a list of values".to_owned(),
                candidates,
                reason,
            );
        }
        let numeric = kinds.contains(Kind::Number) || kinds.contains(Kind::Integer);
        if numeric {
            held &= self.numbers(a, b, xs, &at, facts, kinds, path);
        }
        if kinds.contains(Kind::String) {
            held &= self.strings(a, b, xs, &at, facts, path);
        }
        if kinds.contains(Kind::Object) {
            held &= self.objects(a, b, x, xs, &at, facts, path);
        }
        if kinds.contains(Kind::Array) {
            held &= self.arrays(a, b, x, xs, &at, facts, path);
        }
        if let Some(branches) = xs.any_of.as_deref() {
            held &= self.right_union(a, b, branches, false, &at.child("anyOf"), kinds, path);
        }
        if let Some(branches) = xs.one_of.as_deref() {
            held &= self.right_union(a, b, branches, true, &at.child("oneOf"), kinds, path);
        }
        if let Some(n) = xs.not {
            held &= self.negation(a, b, n, &at.child("not"), path);
        }
        if let Some(condition) = xs.if_ {
            held &= self.conditional(a, b, condition, xs.then, xs.else_, &at, path);
        }
        held
    }

    #[allow(clippy::too_many_arguments)]
    fn numbers(&mut self, a: &Conj, b: &Conj, xs: &Schema, at: &Loc, facts: &Facts, kinds: KindSet, path: &[(Vec<Loc>, Step)]) -> bool {
        let ints = integers_only(kinds);
        let mut held = true;
        let mut candidates = Vec::new();
        let mut detail = Vec::new();
        let mut where_ = None;
        if let Some((lo, le)) = lower(xs) {
            let ok = match facts.lo {
                Some((alo, ale)) if ints => ceil_int(alo, ale) as f64 > lo || (ceil_int(alo, ale) as f64 == lo && !le),
                Some((alo, ale)) => alo > lo || (alo == lo && (ale || !le)),
                None => false,
            };
            if !ok {
                detail.push(format!("lower bound {}{lo}", if le { "exclusive " } else { "" }));
                candidates.extend(numbers_around(lo, ints, true));
                if let Some((alo, ale)) = facts.lo {
                    candidates.extend(numbers_around(alo, ints, !ale));
                }
                where_ = Some(at.child(if xs.minimum.is_some() { "minimum" } else { "exclusiveMinimum" }));
            }
        }
        if let Some((hi, he)) = upper(xs) {
            let ok = match facts.hi {
                Some((ahi, ahe)) if ints => (floor_int(ahi, ahe) as f64) < hi || (floor_int(ahi, ahe) as f64 == hi && !he),
                Some((ahi, ahe)) => ahi < hi || (ahi == hi && (ahe || !he)),
                None => false,
            };
            if !ok {
                detail.push(format!("upper bound {}{hi}", if he { "exclusive " } else { "" }));
                candidates.extend(numbers_around(hi, ints, false));
                if let Some((ahi, ahe)) = facts.hi {
                    candidates.extend(numbers_around(ahi, ints, ahe));
                }
                where_ = where_.or(Some(at.child(if xs.maximum.is_some() { "maximum" } else { "exclusiveMaximum" })));
            }
        }
        if let Some(m) = xs.multiple_of.as_ref().and_then(Number::as_f64) {
            let ok = facts.multiples.iter().any(|a| divides(*a, m)) || (ints && divides(1.0, m));
            if !ok {
                detail.push(format!("multipleOf {m}"));
                for base in facts.multiples.iter().copied().chain([1.0, 0.5]) {
                    candidates.push(number(base));
                    candidates.push(number(base * 3.0));
                    candidates.push(number(base * 7.0));
                }
                where_ = where_.or(Some(at.child("multipleOf")));
            }
        }
        if detail.is_empty() {
            if lower(xs).is_some() || upper(xs).is_some() || xs.multiple_of.is_some() {
                self.rule(Rule::NumberBounds);
            }
        } else {
            candidates.extend(self.examples(a).into_iter().filter(Value::is_number));
            candidates.extend(self.candidates(a));
            let at_left = self.keyword_loc(a, |s| lower(s).is_some() || upper(s).is_some() || s.multiple_of.is_some());
            let kind = ChangeKind::BoundTightened;
            held &=
                self.fail(a, b, path, at_left, where_, kind, format!("numbers now need {}", detail.join(", ")), candidates, String::new());
        }
        held
    }

    fn strings(&mut self, a: &Conj, b: &Conj, xs: &Schema, at: &Loc, facts: &Facts, path: &[(Vec<Loc>, Step)]) -> bool {
        let mut held = true;
        let mut checked = false;
        if let Some(min) = xs.min_length.filter(|m| *m > 0) {
            checked = true;
            if facts.min_len < min {
                let candidates = self.strings_of(a, |len| len < min as usize, min.saturating_sub(1) as usize);
                let at_left = self.keyword_loc(a, |s| s.min_length.is_some());
                let detail = format!("strings now need at least {min} characters");
                held &= self.fail(
                    a,
                    b,
                    path,
                    at_left,
                    Some(at.child("minLength")),
                    ChangeKind::BoundTightened,
                    detail,
                    candidates,
                    String::new(),
                );
            }
        }
        if let Some(max) = xs.max_length {
            checked = true;
            if facts.max_len.is_none_or(|m| m > max) {
                let candidates = self.strings_of(a, |len| len > max as usize, max as usize + 1);
                let at_left = self.keyword_loc(a, |s| s.max_length.is_some());
                let detail = format!("strings now have at most {max} characters");
                held &= self.fail(
                    a,
                    b,
                    path,
                    at_left,
                    Some(at.child("maxLength")),
                    ChangeKind::BoundTightened,
                    detail,
                    candidates,
                    String::new(),
                );
            }
        }
        if let Some(pattern) = &xs.pattern {
            checked = true;
            if !facts.patterns.contains(pattern) && !matches_everything(pattern) {
                // The literal of the old pattern, and strings made from it, first.
                let mut candidates: Vec<Value> = facts.patterns.iter().map(|p| Value::String(p.clone())).collect();
                candidates.extend(facts.patterns.iter().filter_map(|p| literal_of(p)).map(Value::String));
                candidates.extend(self.examples(a).into_iter().filter(Value::is_string));
                candidates.extend(self.strings_of(a, |_| true, facts.min_len as usize));
                let at_left = self.keyword_loc(a, |s| s.pattern.is_some());
                let (kind, detail) = match facts.patterns.first() {
                    Some(old) => (ChangeKind::PatternChanged, format!("pattern “{old}” → “{pattern}”")),
                    None => (ChangeKind::PatternAdded, format!("pattern “{pattern}” added")),
                };
                let reason = match facts.patterns.first() {
                    Some(old) => format!("whether every string matching “{old}” matches “{pattern}” was not decided"),
                    None => format!("no string of the old schema was found that “{pattern}” rejects"),
                };
                held &= self.fail(a, b, path, at_left, Some(at.child("pattern")), kind, detail, candidates, reason);
            }
        }
        if self.formats_assert
            && let Some(format) = &xs.format
        {
            checked = true;
            if !facts.formats.contains(format) {
                let candidates = self.strings_of(a, |_| true, facts.min_len as usize);
                let reason = format!("whether every string of the old schema is a `{format}` was not decided");
                let at_left = self.keyword_loc(a, |s| s.format.is_some());
                let detail = format!("format `{format}` now asserted");
                held &= self.fail(a, b, path, at_left, Some(at.child("format")), ChangeKind::FormatAdded, detail, candidates, reason);
            }
        }
        if checked && held {
            self.rule(Rule::StringBounds);
        }
        held
    }

    /// Strings of the left side whose length passes `keep`; one of `length` characters first.
    fn strings_of(&mut self, a: &Conj, keep: impl Fn(usize) -> bool, length: usize) -> Vec<Value> {
        if self.trial > 0 {
            return Vec::new();
        }
        let mut out = vec![Value::String("a".repeat(length.min(4096)))];
        out.extend(self.examples(a).into_iter().filter(Value::is_string));
        out.extend(self.candidates(a).into_iter().filter(|v| v.is_string()));
        out.retain(|v| v.as_str().is_some_and(|s| keep(s.chars().count())));
        out
    }

    /// The schema for the property `name` in the conjunction: each atom's `properties` entry
    /// and the `patternProperties` it matches, else its `additionalProperties`; and where no
    /// atom declares the name and none has `additionalProperties`, their
    /// `unevaluatedProperties` (every atom is in place, so what one declares is evaluated).
    fn property(&self, conj: &Conj, name: &str) -> (Vec<SchemaId>, bool) {
        let mut ids = Vec::new();
        let mut declared = false;
        let mut rests = Vec::new();
        for (_, s) in self.atoms(conj) {
            let mut matched = false;
            if let Some((_, id)) = s.properties.iter().flatten().find(|(n, _)| n == name) {
                ids.push(*id);
                matched = true;
            }
            for (pattern, id) in s.pattern_properties.iter().flatten() {
                if pattern_matches(pattern, name) {
                    ids.push(*id);
                    matched = true;
                }
            }
            if matched {
                declared = true;
            } else if let Some(rest) = s.additional_properties {
                ids.push(rest);
                rests.push(rest);
            }
        }
        if !declared && rests.is_empty() {
            ids.extend(self.atoms(conj).filter_map(|(_, s)| s.unevaluated_properties));
        }
        (ids, declared)
    }

    /// The schema for `name` in the one schema object `x` alone (its own `properties`,
    /// `patternProperties` and `additionalProperties`; `unevaluatedProperties` is checked with
    /// the parts around it).
    fn own_property(&self, side: Side, x: &Schema, name: &str) -> Vec<SchemaId> {
        let _ = side;
        let mut ids: Vec<SchemaId> = x.properties.iter().flatten().filter(|(n, _)| n == name).map(|(_, id)| *id).collect();
        ids.extend(x.pattern_properties.iter().flatten().filter(|(p, _)| pattern_matches(p, name)).map(|(_, id)| *id));
        if ids.is_empty() {
            ids.extend(x.additional_properties);
        }
        ids
    }

    /// Whether no object of the conjunction has the property `name`: its schema accepts
    /// nothing, or a dependent schema for it that no object satisfies.
    fn never_has(&self, conj: &Conj, name: &str) -> bool {
        let (ids, _) = self.property(conj, name);
        if ids.iter().any(|id| self.impossible(conj.side, *id)) {
            return true;
        }
        // A name `propertyNames` rejects.
        let text = Value::String(name.to_owned());
        if self
            .atoms(conj)
            .any(|(_, s)| s.property_names.is_some_and(|p| self.oracle.valid(conj.side, &self.loc(conj.side, p), &text) == Some(false)))
        {
            return true;
        }
        self.atoms(conj).any(|(_, s)| {
            let dependents = s.dependent_schemas.iter().flatten().filter(|(n, _)| n == name).map(|(_, id)| *id).chain(
                s.dependencies.iter().flatten().filter(|(n, _)| n == name).filter_map(|(_, d)| match d {
                    Dependency::Schema(id) => Some(*id),
                    Dependency::Names(_) => None,
                }),
            );
            dependents.collect::<Vec<_>>().into_iter().any(|id| {
                let d = self.conj(conj.side, vec![self.loc(conj.side, id)]);
                let facts = self.facts(&d);
                d.impossible || !self.kinds(&d, &facts).contains(Kind::Object)
            })
        })
    }

    /// Whether the conjunction's objects may carry names it does not declare (no atom closes
    /// them with `additionalProperties` or `unevaluatedProperties`).
    fn open(&self, conj: &Conj) -> bool {
        self.atoms(conj).all(|(_, s)| {
            let trivial = |id: Option<SchemaId>| {
                id.is_none_or(|id| match &self.model(conj.side).node(id).body {
                    Body::Bool(b) => *b,
                    Body::Object(s) => self.asserts_nothing(s),
                    Body::Invalid => true,
                })
            };
            trivial(s.additional_properties) && trivial(s.unevaluated_properties) && s.pattern_properties.as_ref().is_none_or(Vec::is_empty)
        })
    }

    fn property_conj(&self, conj: &Conj, ids: &[SchemaId]) -> Conj {
        let locs = ids.iter().map(|id| self.loc(conj.side, *id)).collect();
        self.conj(conj.side, locs)
    }

    #[allow(clippy::too_many_arguments)]
    fn objects(&mut self, a: &Conj, b: &Conj, x: SchemaId, xs: &Schema, at: &Loc, facts: &Facts, path: &mut Vec<(Vec<Loc>, Step)>) -> bool {
        let object_keywords = xs.properties.is_some()
            || xs.pattern_properties.is_some()
            || xs.additional_properties.is_some()
            || xs.required.as_ref().is_some_and(|r| !r.is_empty())
            || xs.min_properties.is_some()
            || xs.max_properties.is_some()
            || xs.property_names.is_some()
            || xs.dependent_required.is_some()
            || xs.dependent_schemas.is_some()
            || xs.dependencies.is_some()
            || xs.unevaluated_properties.is_some();
        if !object_keywords {
            return true;
        }
        let mut held = true;
        let lenient = self.policy == Policy::Lenient && self.open(a);
        let x_conj = Conj {
            side: b.side,
            locs: vec![at.clone()],
            atoms: vec![x],
            impossible: false,
            decided: vec![x],
            excluded: Vec::new(),
            only: None,
        };
        // Every name either side declares.
        let mut names: Vec<String> = Vec::new();
        for (_, s) in self.atoms(a).chain(self.atoms(&x_conj)) {
            for (name, _) in s.properties.iter().flatten() {
                if !names.contains(name) {
                    names.push(name.clone());
                }
            }
        }
        // Finitely many names (`propertyNames` with `enum`/`const`): each is checked by name, and
        // no other name occurs.
        let mut finite_names = None;
        for (_, s) in self.atom_list(a) {
            if let Some(p) = s.property_names {
                let conj = self.conj(a.side, vec![self.loc(a.side, p)]);
                if let Some(values) = self.facts(&conj).values {
                    let list: Vec<String> = values.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect();
                    finite_names = Some(list);
                    break;
                }
            }
        }
        for name in finite_names.iter().flatten() {
            if !names.contains(name) {
                names.push(name.clone());
            }
        }
        for name in names.iter().chain(facts.required.iter().filter(|r| !names.contains(r))) {
            let x_ids = self.own_property(b.side, xs, name);
            if x_ids.is_empty() {
                continue;
            }
            if self.never_has(a, name) {
                self.rule(Rule::Properties);
                continue;
            }
            let (a_ids, declared) = self.property(a, name);
            if lenient && !declared && !facts.required.contains(name) {
                // The old objects never carry a name their open schema does not declare.
                self.rule(Rule::LenientUndeclared);
                if self.trial == 0 {
                    self.lenient_at.extend(a.locs.first().cloned());
                }
                continue;
            }
            let left = self.property_conj(a, &a_ids);
            let right = self.property_conj(b, &x_ids);
            // Where the property is declared on each side, for the changes a failure inside it
            // belongs to.
            let declared_at = |this: &Self, conj: &Conj, own: Option<SchemaId>| -> Option<Loc> {
                let atom = own
                    .into_iter()
                    .chain(conj.atoms.iter().copied())
                    .find(|id| this.schema(conj.side, *id).is_some_and(|s| s.properties.iter().flatten().any(|(n, _)| n == name)))?;
                Some(this.loc(conj.side, atom).child("properties").child(name))
            };
            let origin = (declared_at(self, a, None), declared_at(self, &x_conj, Some(x)).or_else(|| Some(at.child("properties"))));
            self.origins.push(origin);
            path.push((a.locs.clone(), Step::Key(name.clone())));
            let ok = self.descend(&left, &right, path);
            path.pop();
            self.origins.pop();
            held &= ok;
        }
        // Names neither declares: A's other properties against X's patterns and rest.
        let x_rest_trivial = xs.additional_properties.is_none_or(|id| self.trivial(b.side, id));
        let x_patterns: Vec<(String, SchemaId)> = xs.pattern_properties.clone().unwrap_or_default();
        if finite_names.is_some() {
            self.rule(Rule::Properties);
        } else if !x_rest_trivial || !x_patterns.is_empty() {
            if lenient {
                self.rule(Rule::LenientUndeclared);
                if self.trial == 0 {
                    self.lenient_at.extend(a.locs.first().cloned());
                }
            } else {
                // A's patterns: the same pattern text on both sides is one rule for the same names.
                let mut a_patterns: Vec<(String, SchemaId)> = Vec::new();
                for (_, s) in self.atoms(a) {
                    a_patterns.extend(s.pattern_properties.iter().flatten().cloned());
                }
                for (pattern, id) in &x_patterns {
                    let left_ids: Vec<SchemaId> = match a_patterns.iter().filter(|(p, _)| p == pattern).map(|(_, i)| *i).collect::<Vec<_>>()
                    {
                        same if !same.is_empty() => same,
                        _ if a_patterns.is_empty() => self.undeclared(a),
                        _ => {
                            let reason = format!("the names `{pattern}` matches may have other schemas in the old version");
                            held &= self.fail(
                                a,
                                b,
                                path,
                                None,
                                Some(at.child("patternProperties").child(pattern)),
                                ChangeKind::PatternPropertyAdded,
                                format!("pattern property `{pattern}`"),
                                Vec::new(),
                                reason,
                            );
                            continue;
                        }
                    };
                    if left_ids.iter().any(|id| self.impossible(a.side, *id)) {
                        continue;
                    }
                    let left = self.property_conj(a, &left_ids);
                    let right = self.conj(b.side, vec![self.loc(b.side, *id)]);
                    let name = example_name(pattern).unwrap_or_else(|| "x".to_owned());
                    path.push((a.locs.clone(), Step::Key(name)));
                    let ok = self.descend(&left, &right, path);
                    path.pop();
                    held &= ok;
                }
                if !x_rest_trivial {
                    let x_rest: Vec<SchemaId> = xs.additional_properties.into_iter().collect();
                    // A's patterns not in X: their names fall to X's rest (or to an X pattern).
                    for (pattern, id) in a_patterns.iter().filter(|(p, _)| !x_patterns.iter().any(|(q, _)| q == p)) {
                        let left = self.conj(a.side, vec![self.loc(a.side, *id)]);
                        let right = self.property_conj(b, &x_rest);
                        let name = example_name(pattern).unwrap_or_else(|| "x".to_owned());
                        path.push((a.locs.clone(), Step::Key(name)));
                        let ok = self.descend(&left, &right, path);
                        path.pop();
                        held &= ok;
                    }
                    let a_rest = self.undeclared(a);
                    let left = self.property_conj(a, &a_rest);
                    let right = self.property_conj(b, &x_rest);
                    path.push((a.locs.clone(), Step::Key("schemac-undeclared".to_owned())));
                    let ok = self.descend(&left, &right, path);
                    path.pop();
                    held &= ok;
                }
            }
        }
        // required
        for name in xs.required.iter().flatten() {
            if facts.required.contains(name) {
                continue;
            }
            let (a_ids, _) = self.property(a, name);
            if a_ids.iter().any(|id| self.impossible(a.side, *id)) {
                // A never has the name: its objects are... only those without it, which B rejects.
                // Fall through to the failure, whose candidates show it.
            }
            let candidates: Vec<Value> = self
                .candidates(a)
                .into_iter()
                .filter_map(|v| match v {
                    Value::Object(mut map) => {
                        map.remove(name);
                        Some(Value::Object(map))
                    }
                    _ => None,
                })
                .chain([json!({})])
                .collect();
            let at_left = self.keyword_loc(a, |s| s.required.is_some());
            let detail = format!("`{name}` is now required");
            held &=
                self.fail(a, b, path, at_left, Some(at.child("required")), ChangeKind::RequiredAdded, detail, candidates, String::new());
        }
        // counts
        let required_count = facts.required.len() as u64;
        if let Some(min) = xs.min_properties.filter(|m| *m > 0)
            && facts.min_props.max(required_count) < min
        {
            let candidates: Vec<Value> = self
                .candidates(a)
                .into_iter()
                .filter(|v| v.as_object().is_some_and(|m| (m.len() as u64) < min))
                .chain([json!({})])
                .collect();
            let detail = format!("objects now need at least {min} properties");
            held &=
                self.fail(a, b, path, None, Some(at.child("minProperties")), ChangeKind::BoundTightened, detail, candidates, String::new());
        }
        if let Some(max) = xs.max_properties {
            let closed_count = (!self.open(a) && self.atoms(a).all(|(_, s)| s.pattern_properties.is_none()))
                .then(|| self.atoms(a).map(|(_, s)| s.properties.as_ref().map_or(0, Vec::len) as u64).min().unwrap_or(0));
            let a_max = min_opt(facts.max_props, closed_count);
            if a_max.is_none_or(|m| m > max) {
                let mut candidates: Vec<Value> =
                    self.candidates(a).into_iter().filter(|v| v.as_object().is_some_and(|m| (m.len() as u64) > max)).collect();
                let mut big = Map::new();
                for i in 0..=max.min(64) {
                    big.insert(format!("p{i}"), Value::Null);
                }
                candidates.push(Value::Object(big));
                let detail = format!("objects now have at most {max} properties");
                held &= self.fail(
                    a,
                    b,
                    path,
                    None,
                    Some(at.child("maxProperties")),
                    ChangeKind::BoundTightened,
                    detail,
                    candidates,
                    String::new(),
                );
            }
        }
        // propertyNames
        if let Some(names_schema) = xs.property_names
            && !self.trivial(b.side, names_schema)
        {
            // A's own `propertyNames` inside the new one: every name A allows is one it accepts.
            let right_names = self.conj(b.side, vec![self.loc(b.side, names_schema)]);
            let mut same = false;
            for (_, s) in self.atom_list(a) {
                if let Some(p) = s.property_names {
                    let left_names = self.conj(a.side, vec![self.loc(a.side, p)]);
                    if self.same(a.side, p, b.side, names_schema) || self.try_sub(&left_names, &right_names, path) {
                        same = true;
                        break;
                    }
                }
            }
            let closed = !self.open(a) && self.atoms(a).all(|(_, s)| s.pattern_properties.is_none());
            let all_named = closed || lenient;
            let names_ok = all_named
                && names.iter().all(|n| {
                    let (ids, _) = self.property(a, n);
                    ids.iter().any(|id| self.impossible(a.side, *id))
                        || self.oracle.valid(b.side, &self.loc(b.side, names_schema), &Value::String(n.clone())) == Some(true)
                });
            if same || names_ok {
                self.rule(Rule::Properties);
            } else {
                let mut candidates: Vec<Value> = self.candidates(a);
                for v in candidates.iter_mut() {
                    if let Value::Object(map) = v {
                        map.insert(" ".to_owned(), Value::Null);
                    }
                }
                let reason =
                    "whether every property name of the old schema is one the new `propertyNames` accepts was not decided".to_owned();
                held &= self.fail(
                    a,
                    b,
                    path,
                    None,
                    Some(at.child("propertyNames")),
                    ChangeKind::BoundAdded,
                    "`propertyNames` changed".to_owned(),
                    candidates,
                    reason,
                );
            }
        }
        // dependencies
        let mut x_names: Vec<(String, Vec<String>, &'static str)> =
            xs.dependent_required.iter().flatten().map(|(n, r)| (n.clone(), r.clone(), "dependentRequired")).collect();
        let mut x_schemas: Vec<(String, SchemaId, &'static str)> =
            xs.dependent_schemas.iter().flatten().map(|(n, s)| (n.clone(), *s, "dependentSchemas")).collect();
        for (name, d) in xs.dependencies.iter().flatten() {
            match d {
                Dependency::Names(list) => x_names.push((name.clone(), list.clone(), "dependencies")),
                Dependency::Schema(id) => x_schemas.push((name.clone(), *id, "dependencies")),
            }
        }
        for (name, needs, keyword) in x_names {
            if self.never_has(a, &name) {
                continue;
            }
            let a_needs: BTreeSet<String> = self
                .atoms(a)
                .flat_map(|(_, s)| {
                    let mut v: Vec<String> =
                        s.dependent_required.iter().flatten().filter(|(n, _)| *n == name).flat_map(|(_, r)| r.clone()).collect();
                    v.extend(s.dependencies.iter().flatten().filter(|(n, _)| *n == name).flat_map(|(_, d)| match d {
                        Dependency::Names(list) => list.clone(),
                        Dependency::Schema(_) => Vec::new(),
                    }));
                    v
                })
                .collect();
            let missing: Vec<&String> = needs.iter().filter(|r| !facts.required.contains(*r) && !a_needs.contains(*r)).collect();
            if missing.is_empty() {
                self.rule(Rule::Properties);
                continue;
            }
            let candidates: Vec<Value> = self
                .candidates(a)
                .into_iter()
                .filter_map(|v| match v {
                    Value::Object(mut map) => {
                        map.entry(name.clone()).or_insert(Value::Null);
                        for m in &missing {
                            map.remove(*m);
                        }
                        Some(Value::Object(map))
                    }
                    _ => None,
                })
                .collect();
            let detail =
                format!("with `{name}`, now also requires {}", missing.iter().map(|m| format!("`{m}`")).collect::<Vec<_>>().join(", "));
            held &= self.fail(a, b, path, None, Some(at.child(keyword)), ChangeKind::RequiredAdded, detail, candidates, String::new());
        }
        for (name, d, keyword) in x_schemas {
            if self.never_has(a, &name) {
                self.rule(Rule::Properties);
                continue;
            }
            let shared = self.atom_list(a).into_iter().any(|(_, s)| {
                let mine = s.dependent_schemas.iter().flatten().filter(|(n, _)| *n == name).map(|(_, i)| *i).chain(
                    s.dependencies.iter().flatten().filter(|(n, _)| *n == name).filter_map(|(_, dep)| match dep {
                        Dependency::Schema(id) => Some(*id),
                        Dependency::Names(_) => None,
                    }),
                );
                mine.collect::<Vec<_>>().into_iter().any(|i| self.same(a.side, i, b.side, d))
            });
            let right = self.conj(b.side, vec![self.loc(b.side, d)]);
            if shared || self.try_sub(a, &right, path) {
                self.rule(Rule::Properties);
                continue;
            }
            // Values of A with the dependent schemas A has for the name, carrying it.
            let mut with_name: Vec<Loc> = a.locs.clone();
            for (_, s) in self.atom_list(a) {
                with_name.extend(s.dependent_schemas.iter().flatten().filter(|(n, _)| *n == name).map(|(_, id)| self.loc(a.side, *id)));
            }
            let mut sources = if self.trial == 0 { self.oracle.samples(a.side, &with_name, SAMPLES_PER_PLACE) } else { Vec::new() };
            sources.extend(self.candidates(a));
            let candidates: Vec<Value> = sources
                .into_iter()
                .filter_map(|v| match v {
                    Value::Object(mut map) => {
                        map.entry(name.clone()).or_insert(Value::Null);
                        Some(Value::Object(map))
                    }
                    _ => None,
                })
                .collect();
            let reason = format!("whether old objects with `{name}` satisfy the new dependent schema was not decided");
            let detail = format!("the schema for objects with `{name}` changed");
            held &= self.fail(
                a,
                b,
                path,
                None,
                Some(at.child(keyword).child(&name)),
                ChangeKind::DependentSchemaChanged,
                detail,
                candidates,
                reason,
            );
        }
        if let Some(u) = xs.unevaluated_properties
            && !self.trivial(b.side, u)
        {
            held &= self.unevaluated_properties(a, b, x, u, at, lenient, path);
        }
        if held {
            self.rule(Rule::Properties);
        }
        held
    }

    /// `unevaluatedProperties: U` in `X`: names `X`'s own properties and the `allOf`/`$ref`
    /// parts around it evaluate are fine; every other name `A` allows needs `A`'s schema for it
    /// inside `U` (names only a branch evaluates count as unevaluated, which asks more).
    #[allow(clippy::too_many_arguments)]
    fn unevaluated_properties(
        &mut self,
        a: &Conj,
        b: &Conj,
        x: SchemaId,
        u: SchemaId,
        at: &Loc,
        lenient: bool,
        path: &mut Vec<(Vec<Loc>, Step)>,
    ) -> bool {
        let mut x_conj = self.conj(b.side, vec![self.loc(b.side, x)]);
        x_conj.decided = x_conj.atoms.clone();
        if self.atoms(&x_conj).any(|(_, s)| s.additional_properties.is_some()) {
            self.rule(Rule::Properties);
            return true;
        }
        let evaluated = |this: &Self, name: &str| this.property(&x_conj, name).1;
        let mut names: Vec<String> = Vec::new();
        for (_, s) in self.atoms(a) {
            for (name, _) in s.properties.iter().flatten() {
                if !names.contains(name) {
                    names.push(name.clone());
                }
            }
        }
        let mut held = true;
        let right = self.conj(b.side, vec![self.loc(b.side, u)]);
        let unevaluated: Vec<String> = names.iter().filter(|n| !evaluated(self, n)).cloned().collect();
        for name in &unevaluated {
            let (a_ids, _) = self.property(a, name);
            let left = self.property_conj(a, &a_ids);
            path.push((a.locs.clone(), Step::Key(name.clone())));
            held &= self.descend(&left, &right, path);
            path.pop();
        }
        let has_patterns = self.atoms(a).any(|(_, s)| s.pattern_properties.as_ref().is_some_and(|p| !p.is_empty()));
        if lenient {
            self.rule(Rule::LenientUndeclared);
        } else if has_patterns {
            let reason = "names the old `patternProperties` allow may be unevaluated in the new schema".to_owned();
            held &= self.fail(
                a,
                b,
                path,
                None,
                Some(at.child("unevaluatedProperties")),
                ChangeKind::UnevaluatedChanged,
                "`unevaluatedProperties` changed".to_owned(),
                Vec::new(),
                reason,
            );
        } else {
            let a_rest = self.undeclared(a);
            let left = self.property_conj(a, &a_rest);
            path.push((a.locs.clone(), Step::Key("schemac-undeclared".to_owned())));
            held &= self.descend(&left, &right, path);
            path.pop();
        }
        held
    }

    /// The schema of names no atom declares: each atom's `additionalProperties`, or where none
    /// has one, their `unevaluatedProperties`.
    fn undeclared(&self, conj: &Conj) -> Vec<SchemaId> {
        let rests: Vec<SchemaId> = self.atoms(conj).filter_map(|(_, s)| s.additional_properties).collect();
        if rests.is_empty() { self.atoms(conj).filter_map(|(_, s)| s.unevaluated_properties).collect() } else { rests }
    }

    fn trivial(&self, side: Side, id: SchemaId) -> bool {
        match &self.model(side).node(id).body {
            Body::Bool(b) => *b,
            Body::Object(s) => self.asserts_nothing(s) && s.all_of.is_none() && s.ref_.is_none(),
            Body::Invalid => true,
        }
    }

    fn impossible(&self, side: Side, id: SchemaId) -> bool {
        let conj = self.conj(side, vec![self.loc(side, id)]);
        self.empty(&conj)
    }

    /// A descent into a property or item: memoized, with the pair assumed while it is proved.
    fn descend(&mut self, a: &Conj, b: &Conj, path: &mut Vec<(Vec<Loc>, Step)>) -> bool {
        let mut left = a.atoms.clone();
        left.sort();
        let mut right = b.atoms.clone();
        right.sort();
        let mut excluded = a.excluded.clone();
        excluded.sort();
        if path.len() > MAX_PATH {
            let reason = format!("the documents nest deeper than {MAX_PATH} levels here");
            return self.fail(a, b, path, None, b.locs.first().cloned(), ChangeKind::SchemaNarrowed, reason.clone(), Vec::new(), reason);
        }
        let key: ConjKey = (a.side, left, excluded, b.side, right);
        // An inclusion being proved further up whose left side holds this one's (fewer atoms)
        // and whose right side asks at least as much, but for conjuncts this left side has.
        if !self.memo.contains_key(&key) && self.implied_by_assumption(&key) {
            self.rule(Rule::Coinduction);
            return true;
        }
        match self.memo.get(&key) {
            Some(Memo::InProgress) => {
                self.rule(Rule::Coinduction);
                return true;
            }
            Some(Memo::Holds) => return true,
            // Shown (or left undecided) where it was first met; met nearer the root, its
            // failures are copied here, for shorter witnesses.
            Some(Memo::Fails) => {
                if self.trial == 0 {
                    self.shorten(&key, path);
                }
                return false;
            }
            Some(Memo::FailsUnrecorded) if self.trial > 0 => return false,
            Some(Memo::FailsUnrecorded) | None => {}
        }
        let mark = self.memo_log.len();
        self.memo.insert(key.clone(), Memo::InProgress);
        self.memo_log.push(key.clone());
        let first = self.failures.len();
        let held = self.sub(a, b, path);
        if !held && self.trial == 0 {
            self.failed_at.insert(key.clone(), (first, self.failures.len(), path.len()));
        }
        if held {
            self.memo.insert(key, Memo::Holds);
        } else {
            // What held while this pair was assumed is suspect; what failed did so anyway.
            for k in self.memo_log.drain(mark..) {
                if matches!(self.memo.get(&k), Some(Memo::Holds | Memo::InProgress)) {
                    self.memo.remove(&k);
                }
            }
            self.memo.insert(key, if self.trial == 0 { Memo::Fails } else { Memo::FailsUnrecorded });
        }
        held
    }

    /// The failures first recorded for `key` deeper in the document, again at `path` (their
    /// paths below the key kept).
    fn shorten(&mut self, key: &ConjKey, path: &[(Vec<Loc>, Step)]) {
        let Some(&(first, end, depth)) = self.failed_at.get(key) else { return };
        if path.len() >= depth {
            return;
        }
        let copies: Vec<Failure> = self.failures[first..end]
            .iter()
            .filter(|f| f.path.len() >= depth)
            .map(|f| {
                let mut copy = f.clone();
                copy.path = path.iter().cloned().chain(f.path[depth..].iter().cloned()).collect();
                copy
            })
            .collect();
        let start = self.failures.len();
        self.failures.extend(copies);
        self.failed_at.insert(key.clone(), (start, self.failures.len(), path.len()));
    }

    /// Whether an inclusion in progress (`L' ⊆ R'`, assumed) gives this one (`L ⊆ R`): `L'`'s
    /// atoms are among `L`'s (so `L ⊆ L'`), and each atom of `R` is in `R'` or is the same schema
    /// as one of `L`'s (`L ⊆ L' ⊆ R'`, and `L` is inside its own conjuncts).
    fn implied_by_assumption(&mut self, key: &ConjKey) -> bool {
        let (side, left, excluded, right_side, right) = key;
        let candidates: Vec<ConjKey> = self
            .memo
            .iter()
            .filter(|(k, m)| {
                **m == Memo::InProgress
                    && k.0 == *side
                    && k.3 == *right_side
                    && k.1.iter().all(|x| left.contains(x))
                    && k.2.iter().all(|x| excluded.contains(x))
            })
            .map(|(k, _)| k.clone())
            .collect();
        for (_, _, _, _, assumed_right) in candidates {
            let mut covered = true;
            for x in right.iter().filter(|x| !assumed_right.contains(x)) {
                if !left.iter().any(|y| self.same(*side, *y, *right_side, *x)) {
                    covered = false;
                    break;
                }
            }
            if covered {
                return true;
            }
        }
        false
    }

    /// The schema for item `i` in each atom (`prefixItems`/array `items`, then the rest).
    fn item(&self, conj: &Conj, i: usize) -> Vec<SchemaId> {
        let mut out = Vec::new();
        for (id, s) in self.atoms(conj) {
            let draft = self.model(conj.side).node(id).draft;
            match s.tuple(draft) {
                Some(t) => match t.prefix.get(i) {
                    Some(p) => out.push(*p),
                    None => out.extend(t.rest),
                },
                None => out.extend(s.items_schema()),
            }
        }
        out
    }

    fn prefix_len(&self, conj: &Conj) -> usize {
        self.atoms(conj).map(|(id, s)| s.tuple(self.model(conj.side).node(id).draft).map_or(0, |t| t.prefix.len())).max().unwrap_or(0)
    }

    #[allow(clippy::too_many_arguments)]
    fn arrays(&mut self, a: &Conj, b: &Conj, x: SchemaId, xs: &Schema, at: &Loc, facts: &Facts, path: &mut Vec<(Vec<Loc>, Step)>) -> bool {
        let array_keywords = xs.items.is_some()
            || xs.prefix_items.is_some()
            || xs.additional_items.is_some()
            || xs.min_items.is_some_and(|m| m > 0)
            || xs.max_items.is_some()
            || xs.unique_items == Some(true)
            || xs.contains.is_some()
            || xs.unevaluated_items.is_some();
        if !array_keywords {
            return true;
        }
        let mut held = true;
        let x_conj = Conj {
            side: b.side,
            locs: vec![at.clone()],
            atoms: vec![x],
            impossible: false,
            decided: vec![x],
            excluded: Vec::new(),
            only: None,
        };
        let positions = self.prefix_len(a).max(self.prefix_len(&x_conj)) + 1;
        for i in 0..positions {
            if facts.max_items.is_some_and(|m| (m as usize) <= i) {
                break;
            }
            let x_ids = self.item(&x_conj, i);
            if x_ids.iter().all(|id| self.trivial(b.side, *id)) {
                continue;
            }
            let a_ids = self.item(a, i);
            let left = self.property_conj(a, &a_ids);
            let right = self.property_conj(b, &x_ids);
            if self.empty(&left) {
                // No array of A reaches this position.
                self.rule(Rule::Items);
                break;
            }
            self.origins.push((a.locs.first().map(|l| l.child("items")), Some(at.child("items"))));
            path.push((a.locs.clone(), Step::Index(i)));
            held &= self.descend(&left, &right, path);
            path.pop();
            self.origins.pop();
        }
        if let Some(min) = xs.min_items.filter(|m| *m > 0)
            && facts.min_items < min
        {
            let mut candidates: Vec<Value> =
                self.candidates(a).into_iter().filter(|v| v.as_array().is_some_and(|l| (l.len() as u64) < min)).collect();
            candidates.push(json!([]));
            let detail = format!("arrays now need at least {min} items");
            let at_left = self.keyword_loc(a, |s| s.min_items.is_some());
            held &=
                self.fail(a, b, path, at_left, Some(at.child("minItems")), ChangeKind::BoundTightened, detail, candidates, String::new());
        }
        if let Some(max) = xs.max_items {
            let closed = self.atoms(a).any(|(id, s)| {
                s.tuple(self.model(a.side).node(id).draft)
                    .is_some_and(|t| (t.prefix.len() as u64) <= max && t.rest.is_some_and(|r| self.impossible(a.side, r)))
            });
            if !closed && facts.max_items.is_none_or(|m| m > max) {
                let mut candidates: Vec<Value> =
                    self.candidates(a).into_iter().filter(|v| v.as_array().is_some_and(|l| (l.len() as u64) > max)).collect();
                // An array of one item repeated, from the left side's own items.
                for sample in self.candidates(a) {
                    if let Value::Array(items) = &sample
                        && let Some(first) = items.first()
                    {
                        candidates.push(Value::Array(vec![first.clone(); (max as usize + 1).min(4096)]));
                    }
                }
                let detail = format!("arrays now have at most {max} items");
                let at_left = self.keyword_loc(a, |s| s.max_items.is_some());
                held &= self.fail(
                    a,
                    b,
                    path,
                    at_left,
                    Some(at.child("maxItems")),
                    ChangeKind::BoundTightened,
                    detail,
                    candidates,
                    String::new(),
                );
            }
        }
        if xs.unique_items == Some(true) && !facts.unique && facts.max_items.is_none_or(|m| m > 1) {
            let mut candidates = Vec::new();
            for sample in self.candidates(a) {
                if let Value::Array(items) = &sample
                    && let Some(first) = items.first()
                {
                    candidates.push(Value::Array(vec![first.clone(), first.clone()]));
                }
            }
            let at_left = self.keyword_loc(a, |s| s.unique_items.is_some());
            let detail = "items must now be unique".to_owned();
            held &=
                self.fail(a, b, path, at_left, Some(at.child("uniqueItems")), ChangeKind::BoundAdded, detail, candidates, String::new());
        }
        if let Some(c) = xs.contains {
            let min = xs.min_contains.unwrap_or(1);
            let shared = self.atom_list(a).into_iter().any(|(_, s)| {
                s.contains.is_some_and(|ac| self.same(a.side, ac, b.side, c))
                    && s.min_contains.unwrap_or(1) >= min
                    && xs.max_contains.is_none_or(|m| s.max_contains.is_some_and(|am| am <= m))
            });
            // Every item satisfies `contains`, and there are enough of them.
            let right = self.conj(b.side, vec![self.loc(b.side, c)]);
            let all_items = xs.max_contains.is_none() && facts.min_items >= min && {
                let rest = self.item(a, usize::MAX / 2);
                let left = self.property_conj(a, &rest);
                self.prefix_len(a) == 0 && self.try_sub(&left, &right, path)
            };
            if shared || all_items || min == 0 && xs.max_contains.is_none() {
                self.rule(Rule::Items);
            } else {
                let mut candidates: Vec<Value> = self.candidates(a).into_iter().filter(|v| v.is_array()).collect();
                candidates.push(json!([]));
                let reason = "whether every old array has the items the new `contains` asks for was not decided".to_owned();
                let at_left = self.keyword_loc(a, |s| s.contains.is_some());
                let detail = "`contains` changed".to_owned();
                held &= self.fail(a, b, path, at_left, Some(at.child("contains")), ChangeKind::BoundAdded, detail, candidates, reason);
            }
        }
        if let Some(u) = xs.unevaluated_items
            && !self.trivial(b.side, u)
        {
            let mut x_full = self.conj(b.side, vec![self.loc(b.side, x)]);
            x_full.decided = x_full.atoms.clone();
            let covered = self
                .atoms(&x_full)
                .any(|(id, s)| s.items_schema().is_some() || s.tuple(self.model(b.side).node(id).draft).is_some_and(|t| t.rest.is_some()));
            if !covered {
                let start = self.prefix_len(&x_full);
                let a_ids = self.item(a, start);
                let left = self.property_conj(a, &a_ids);
                let right = self.conj(b.side, vec![self.loc(b.side, u)]);
                if !self.empty(&left) && facts.max_items.is_none_or(|m| m as usize > start) {
                    path.push((a.locs.clone(), Step::Index(start)));
                    held &= self.descend(&left, &right, path);
                    path.pop();
                }
            }
        }
        if held {
            self.rule(Rule::Items);
        }
        held
    }

    /// `A ⊆ B₁ ∨ … ∨ Bₙ` (`exclusive`: `oneOf`, exactly one).
    #[allow(clippy::too_many_arguments)]
    fn right_union(
        &mut self,
        a: &Conj,
        b: &Conj,
        branches: &[SchemaId],
        exclusive: bool,
        at: &Loc,
        kinds: KindSet,
        path: &mut Vec<(Vec<Loc>, Step)>,
    ) -> bool {
        let conjs: Vec<Conj> = branches.iter().map(|id| self.conj(b.side, vec![self.loc(b.side, *id)])).collect();
        // One branch holding all of A.
        for (j, branch) in conjs.iter().enumerate() {
            if self.try_sub(a, branch, path) {
                if !exclusive {
                    self.rule(Rule::RightBranch);
                    return true;
                }
                if (0..conjs.len()).filter(|l| *l != j).all(|l| self.disjoint(a, &conjs[l], path)) {
                    self.rule(Rule::RightExclusiveBranch);
                    return true;
                }
            }
        }
        // Kind by kind (a left side of several kinds spread over the branches).
        let kind_list = kinds.kinds();
        if kind_list.len() > 1 {
            let mut all = true;
            for kind in &kind_list {
                let narrowed = self.narrowed(a, *kind);
                let mut found = false;
                for (j, branch) in conjs.iter().enumerate() {
                    if self.try_sub(&narrowed, branch, path)
                        && (!exclusive || (0..conjs.len()).filter(|l| *l != j).all(|l| self.disjoint(&narrowed, &conjs[l], path)))
                    {
                        found = true;
                        break;
                    }
                }
                if !found {
                    all = false;
                    break;
                }
            }
            if all {
                self.rule(if exclusive { Rule::RightExclusiveBranch } else { Rule::RightBranch });
                return true;
            }
        }
        // Not proved: look for a document, first through the branch A's own place pairs with.
        let candidates = self.candidates(a);
        let keyword = if exclusive { "oneOf" } else { "anyOf" };
        let reason = format!("no `{keyword}` branch of the new schema was shown to hold every old value");
        let partner = self.partner(a, b.side, branches);
        if let Some(j) = partner {
            let before = self.failures.len();
            let _ = self.sub(a, &conjs[j], path);
            if self.failures.len() > before {
                return false;
            }
        }
        self.fail(a, b, path, None, Some(at.clone()), ChangeKind::BranchRemoved, format!("`{keyword}` changed"), candidates, reason)
    }

    /// The branch of `branches` (right side) that stands where one of A's own atoms does: the
    /// same pointer in the other version.
    fn partner(&self, a: &Conj, b_side: Side, branches: &[SchemaId]) -> Option<usize> {
        let mine: Vec<String> = a.atoms.iter().map(|id| self.loc(a.side, *id).pointer).collect();
        branches.iter().position(|id| mine.contains(&self.loc(b_side, *id).pointer))
    }

    /// `A` narrowed to one JSON kind.
    fn narrowed(&self, a: &Conj, kind: Kind) -> Conj {
        let mut out = a.clone();
        let one = KindSet::of(kind);
        out.only = Some(a.only.map_or(one, |k| k.intersect(one)));
        out
    }

    /// Whether `A` and `C` (any sides) share no value.
    fn disjoint(&mut self, a: &Conj, c: &Conj, path: &mut Vec<(Vec<Loc>, Step)>) -> bool {
        let (fa, fc) = (self.facts(a), self.facts(c));
        let (ka, kc) = (self.kinds(a, &fa), self.kinds(c, &fc));
        if !ka.overlaps(kc) {
            return true;
        }
        if let (Some(x), Some(y)) = (&fa.values, &fc.values)
            && !x.iter().any(|v| y.iter().any(|w| same_value(v, w)))
        {
            return true;
        }
        // A name one side requires that the other never has.
        if fa.required.iter().any(|n| self.never_has(c, n)) || fc.required.iter().any(|n| self.never_has(a, n)) {
            return true;
        }
        // A property both require with disjoint values (a discriminator).
        for name in fa.required.intersection(&fc.required) {
            let (ia, _) = self.property(a, name);
            let (ic, _) = self.property(c, name);
            let pa = self.property_conj(a, &ia);
            let pc = self.property_conj(c, &ic);
            let (va, vc) = (self.facts(&pa).values, self.facts(&pc).values);
            if let (Some(x), Some(y)) = (va, vc)
                && !x.iter().any(|v| y.iter().any(|w| same_value(v, w)))
            {
                return true;
            }
        }
        // A branch the left side already excludes, holding `C`.
        for excluded in a.excluded.clone() {
            let e = self.conj(a.side, vec![self.loc(a.side, excluded)]);
            if c.atoms.iter().any(|x| self.same(c.side, *x, a.side, excluded)) || self.try_sub(c, &e, path) {
                return true;
            }
        }
        false
    }

    fn negation(&mut self, a: &Conj, b: &Conj, n: SchemaId, at: &Loc, path: &mut Vec<(Vec<Loc>, Step)>) -> bool {
        let negated = self.conj(b.side, vec![self.loc(b.side, n)]);
        if self.disjoint(a, &negated, path) {
            self.rule(Rule::Negation);
            return true;
        }
        // A ⊆ ¬M and N ⊆ M.
        for (_, s) in self.atoms(a).collect::<Vec<_>>() {
            if let Some(m) = s.not {
                let m_conj = self.conj(a.side, vec![self.loc(a.side, m)]);
                if self.try_sub(&negated, &m_conj, path) {
                    self.rule(Rule::Negation);
                    return true;
                }
            }
        }
        // Values of the excluded schema first: one the left side allows shows it.
        let mut candidates = self.facts(&negated).values.unwrap_or_default();
        candidates.extend(self.examples(&negated));
        if self.trial == 0 {
            candidates.extend(self.oracle.samples(b.side, &negated.locs, SAMPLES_PER_PLACE));
        }
        candidates.extend(self.candidates(a));
        let reason = "whether the old values avoid what the new `not` excludes was not decided".to_owned();
        let at_left = self.keyword_loc(a, |s| s.not.is_some());
        self.fail(a, b, path, at_left, Some(at.clone()), ChangeKind::NotChanged, "`not` changed".to_owned(), candidates, reason)
    }

    #[allow(clippy::too_many_arguments)]
    fn conditional(
        &mut self,
        a: &Conj,
        b: &Conj,
        condition: SchemaId,
        then: Option<SchemaId>,
        otherwise: Option<SchemaId>,
        at: &Loc,
        path: &mut Vec<(Vec<Loc>, Step)>,
    ) -> bool {
        let part = |this: &Self, id: Option<SchemaId>| id.map(|id| this.conj(b.side, vec![this.loc(b.side, id)]));
        let (t, e) = (part(self, then), part(self, otherwise));
        let holds_in =
            |this: &mut Self, c: &Option<Conj>, path: &mut Vec<(Vec<Loc>, Step)>| c.as_ref().is_none_or(|c| this.try_sub(a, c, path));
        if holds_in(self, &t, path) && holds_in(self, &e, path) {
            self.rule(Rule::Conditional);
            return true;
        }
        let i = self.conj(b.side, vec![self.loc(b.side, condition)]);
        if self.disjoint(a, &i, path) && holds_in(self, &e, path) {
            self.rule(Rule::Conditional);
            return true;
        }
        if self.try_sub(a, &i, path) && holds_in(self, &t, path) {
            self.rule(Rule::Conditional);
            return true;
        }
        // Values the condition accepts (then `then` applies), then the left side's own.
        let mut candidates = Vec::new();
        if self.trial == 0 {
            candidates.extend(self.oracle.samples(b.side, &i.locs, SAMPLES_PER_PLACE));
        }
        candidates.extend(self.candidates(a));
        let reason = "the `if` condition or its branches changed: which documents `then`/`else` apply to was not decided".to_owned();
        self.fail(
            a,
            b,
            path,
            None,
            Some(at.child("if")),
            ChangeKind::ConditionChanged,
            "`if`/`then`/`else` changed".to_owned(),
            candidates,
            reason,
        )
    }

    // ---------------------------------------------------------------- candidates

    /// Values of the left side to try as witnesses: its `examples` and `default`s, then a few
    /// values the synthesizer makes (through the oracle).
    fn candidates(&mut self, a: &Conj) -> Vec<Value> {
        if self.trial > 0 {
            return Vec::new();
        }
        let facts = self.facts(a);
        let mut out: Vec<Value> = self.examples(a);
        out.extend(facts.values.clone().unwrap_or_default());
        let kinds = self.kinds(a, &facts);
        out.extend(self.kind_values(a, &facts, kinds));
        if self.samples_left > 0 {
            self.samples_left -= 1;
            out.extend(self.oracle.samples(a.side, &a.locs, SAMPLES_PER_PLACE));
        }
        out
    }

    /// The `examples` and `default`s of the conjunction's schemas (only asked for where a
    /// witness is wanted: they can be large).
    fn examples(&self, conj: &Conj) -> Vec<Value> {
        let mut out = Vec::new();
        if self.trial > 0 {
            return out;
        }
        for (_, s) in self.atoms(conj) {
            out.extend(s.examples.iter().flatten().cloned());
            out.extend(s.default.clone());
        }
        out
    }

    /// Simple values of `kinds` within the left side's bounds.
    fn kind_values(&self, a: &Conj, facts: &Facts, kinds: KindSet) -> Vec<Value> {
        let mut out = Vec::new();
        if self.trial > 0 {
            return out;
        }
        for kind in kinds.kinds() {
            match kind {
                Kind::Null => out.push(Value::Null),
                Kind::Boolean => out.extend([Value::Bool(true), Value::Bool(false)]),
                Kind::Integer => {
                    let base = facts.lo.map_or(0.0, |(lo, e)| ceil_int(lo, e) as f64).max(facts.hi.map_or(f64::MIN, |_| f64::MIN));
                    out.push(number(base));
                    out.push(json!(1));
                    out.push(json!(0));
                }
                Kind::Number => {
                    let base = facts.lo.map_or(0.5, |(lo, _)| lo + 0.5);
                    out.push(number(base));
                    out.push(json!(1.5));
                    out.push(json!(0.5));
                    out.push(json!(1));
                }
                Kind::String => {
                    out.push(Value::String("a".repeat(facts.min_len.min(64) as usize)));
                    if let Some(max) = facts.max_len {
                        out.push(Value::String("a".repeat(max.min(4096) as usize)));
                    }
                    out.extend(facts.patterns.iter().map(|p| Value::String(p.clone())));
                    out.extend(facts.patterns.iter().filter_map(|p| literal_of(p)).map(Value::String));
                }
                Kind::Array => out.push(json!([])),
                Kind::Object => out.push(json!({})),
            }
        }
        out.extend(self.examples(a).into_iter().filter(|v| kinds.accepts(v)));
        out
    }
}

fn min_opt(a: Option<u64>, b: Option<u64>) -> Option<u64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, y) => x.or(y),
    }
}

fn integers_only(kinds: KindSet) -> bool {
    kinds.contains(Kind::Integer) && !kinds.contains(Kind::Number)
}

/// The least integer above a lower bound (`exclusive`: strictly).
fn ceil_int(lo: f64, exclusive: bool) -> i128 {
    let c = lo.ceil();
    (if exclusive && c == lo { c + 1.0 } else { c }) as i128
}

fn floor_int(hi: f64, exclusive: bool) -> i128 {
    let f = hi.floor();
    (if exclusive && f == hi { f - 1.0 } else { f }) as i128
}

fn divides(big: f64, small: f64) -> bool {
    small > 0.0 && {
        let q = big / small;
        (q - q.round()).abs() < 1e-9 && q.round() >= 1.0
    }
}

fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 9.0e15 { json!(x as i64) } else { Number::from_f64(x).map_or(Value::Null, Value::Number) }
}

/// Numbers at and just beside a bound: the bound itself, and the nearest beyond it.
fn numbers_around(bound: f64, ints: bool, below: bool) -> Vec<Value> {
    let step = if ints { 1.0 } else { 0.5 };
    let base = if ints { if below { bound.ceil() } else { bound.floor() } } else { bound };
    let beyond = if below { base - step } else { base + step };
    vec![number(base), number(beyond), number(if below { bound - 1.0 } else { bound + 1.0 })]
}

fn kinds_minus(a: KindSet, b: KindSet) -> KindSet {
    let mut out = KindSet::EMPTY;
    for kind in a.kinds() {
        let one = KindSet::of(kind);
        if one.intersect(b) != one {
            out = out.union(one);
        }
    }
    // A number that is not an integer when only integers remain.
    if a.contains(Kind::Number) && b.contains(Kind::Integer) && !b.contains(Kind::Number) {
        out = out.union(KindSet::of(Kind::Number));
    }
    out
}

fn kind_words(kinds: KindSet) -> String {
    kinds.kinds().iter().map(|k| format!("{k:?}").to_lowercase()).collect::<Vec<_>>().join(", ")
}

/// A pattern that every string matches.
fn matches_everything(pattern: &str) -> bool {
    matches!(pattern, "" | ".*" | "^.*$" | "^.*" | ".*$" | "[\\s\\S]*" | "^[\\s\\S]*$")
}

/// The text a pattern spells when it is a plain literal (`^abc$`, `abc`).
fn literal_of(pattern: &str) -> Option<String> {
    let inner = pattern.strip_prefix('^').unwrap_or(pattern);
    let inner = inner.strip_suffix('$').unwrap_or(inner);
    let special = |c: char| "\\.^$|?*+()[]{}/".contains(c);
    (!inner.is_empty() && !inner.chars().any(special)).then(|| inner.to_owned())
}

/// A property name a pattern matches, for the path of a witness (its literal, or `x`).
fn example_name(pattern: &str) -> Option<String> {
    let inner = pattern.strip_prefix('^').unwrap_or(pattern);
    let literal: String = inner.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-').collect();
    let name = if literal.is_empty() { "x".to_owned() } else { literal };
    pattern_matches(pattern, &name).then_some(name)
}

thread_local! {
    /// Each pattern compiled once.
    static PATTERNS: std::cell::RefCell<HashMap<String, Option<regress::Regex>>> = std::cell::RefCell::new(HashMap::new());
}

/// Whether the ECMA-262 `pattern` matches somewhere in `text` (invalid patterns match nothing).
pub(super) fn pattern_matches(pattern: &str, text: &str) -> bool {
    PATTERNS.with(|cache| {
        let mut cache = cache.borrow_mut();
        let re = cache.entry(pattern.to_owned()).or_insert_with(|| regress::Regex::with_flags(pattern, "u").ok());
        re.as_ref().is_some_and(|re| re.find(text).is_some())
    })
}

/// JSON equality with numbers by value, as `enum` compares.
pub(super) fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x == y || x.as_f64().is_some_and(|x| y.as_f64() == Some(x)),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_value(x, y)),
        (Value::Object(x), Value::Object(y)) => x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same_value(v, w))),
        (a, b) => a == b,
    }
}

fn values_eq(a: Option<Vec<Value>>, b: Option<Vec<Value>>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => x.len() == y.len() && x.iter().all(|v| y.iter().any(|w| same_value(v, w))),
        _ => false,
    }
}

/// The lower number bound: `(value, exclusive)`, the tighter of `minimum` and `exclusiveMinimum`.
fn lower(s: &Schema) -> Option<(f64, bool)> {
    bound(s.minimum.as_ref(), s.exclusive_minimum.as_ref(), true)
}

fn upper(s: &Schema) -> Option<(f64, bool)> {
    bound(s.maximum.as_ref(), s.exclusive_maximum.as_ref(), false)
}

fn bound(inclusive: Option<&Number>, exclusive: Option<&Exclusive>, lower: bool) -> Option<(f64, bool)> {
    let flag = exclusive == Some(&Exclusive::Flag(true));
    let inclusive = inclusive.and_then(Number::as_f64).map(|x| (x, flag));
    let exclusive = match exclusive {
        Some(Exclusive::Bound(n)) => n.as_f64().map(|x| (x, true)),
        Some(Exclusive::Flag(_)) | None => None,
    };
    match (inclusive, exclusive) {
        (Some(a), Some(b)) => Some(if (lower && b.0 >= a.0) || (!lower && b.0 <= a.0) { b } else { a }),
        (a, b) => a.or(b),
    }
}
