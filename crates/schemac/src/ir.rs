//! The intermediate representation: the Rust shapes the emitter prints.
//!
//! Lowering turns the schema model into this; naming fills in `Def::name`; the bundling plans
//! and document facts ([`Sources`]) are attached before emission; the emitter reads only this.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::resolve::Loc;

pub use crate::pattern::Pattern;
pub use schemac_model::DocId;
pub use schemac_model::schema::Kind;

/// Index of a [`Def`] in [`Ir::defs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DefId(pub usize);

/// The whole program: every named type, and which one is each emitted document's root.
#[derive(Clone, Debug, Default)]
pub struct Ir {
    pub defs: Vec<Def>,
    /// The root type of every document that is compiled to a module, in document order.
    pub roots: Vec<(DocId, DefId)>,
    /// What emission prints about the source schemas, computed before it.
    pub sources: Sources,
    /// What lowering accepted leniently, with a hint (e.g. an `enum` none of whose values has
    /// the declared `type`: no value is valid).
    pub warnings: Vec<crate::Diagnostic>,
    /// The defs whose type is the user's (`rust-type`, `x-rust-type`): emitted as an alias of
    /// it with a check that it conforms to the def's schema.
    pub rust_types: BTreeMap<DefId, RustType>,
    /// The string enums whose schema opens or closes them (`x-schemac-open-enum`), which
    /// overrides `Config::open_enums`.
    pub open_enum_marks: BTreeMap<DefId, bool>,
    /// Whether a `number` is `schemac_runtime::Number`, which holds every JSON number exactly
    /// (the default), or an `f64` (`Config::primitive_numbers`, and the plain-serde baseline).
    pub exact_numbers: bool,
}

/// A user's type standing for a def's schema node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RustType {
    /// The type as the generated code writes it (`my_crate::Task`, `::my_crate::Task`).
    pub path: String,
    /// What names the node in `schemac_runtime::Conforms<{ node_id(key) }>`, as the derive
    /// computes it: `$id#pointer` (the path without `$id`), `enum:[...]` for a string enum.
    pub key: String,
    /// Where the replacement is asked for, for the rustdoc (`` `x-rust-type` in the schema ``).
    pub asked_by: String,
    /// The crate the type comes from and its version, when the schema says (`x-rust-type`).
    pub krate: Option<(String, String)>,
}

/// The source documents as emission needs them: emission reads only the IR.
#[derive(Clone, Debug, Default)]
pub struct Sources {
    pub documents: BTreeMap<DocId, Source>,
    /// The bundling plan of every subschema a type's `JsonSchema` returns or refers to.
    pub plans: BTreeMap<Loc, crate::schema::bundle::Plan>,
    /// The JSON text of every reference target (embedded where the target is in another
    /// document).
    pub texts: BTreeMap<Loc, String>,
}

/// One source document.
#[derive(Clone, Debug, Default)]
pub struct Source {
    pub id: DocId,
    /// As errors and headers name it.
    pub display: String,
    pub module: Vec<String>,
    pub sha256: String,
    /// The file's text, byte for byte.
    pub text: String,
    /// The root's `$id` (draft 4: `id`), else `display`.
    pub schema_id: String,
    /// The root's `title` and `description`, for the module's docs.
    pub title: Option<String>,
    pub description: Option<String>,
}

impl Ir {
    pub fn def(&self, id: DefId) -> &Def {
        &self.defs[id.0]
    }

    /// The module path of document `doc`'s types (empty before the sources are attached).
    pub fn module(&self, doc: DocId) -> &[String] {
        self.sources.documents.get(&doc).map_or(&[], |source| source.module.as_slice())
    }
}

/// A named Rust item: struct, enum or newtype.
#[derive(Clone, Debug)]
pub struct Def {
    /// Where in which document this type comes from; also the module it is emitted into.
    pub origin: Loc,
    /// What the naming phase chooses a name from.
    pub hint: NameHint,
    /// Filled in by the naming phase: a valid, unique Rust type name within its module.
    pub name: String,
    pub docs: Docs,
    pub kind: DefKind,
    /// Keywords of the source schema this type does not enforce yet. They are listed in the
    /// rustdoc so that the gap is never silent.
    pub unenforced: Vec<String>,
}

/// Name candidates, in order of preference: `explicit`, `key`, `title`, then `parent` + `segment`.
#[derive(Clone, Debug, Default)]
pub struct NameHint {
    /// A name the user configured (only for document roots).
    pub explicit: Option<String>,
    /// The `$defs`/`definitions` key this schema is declared under.
    pub key: Option<String>,
    pub title: Option<String>,
    /// The type this one is nested in (for names from the property path).
    pub parent: Option<DefId>,
    /// The path step from the parent: a property name, `Item`, `Variant0`, ...
    pub segment: String,
}

/// Documentation carried from the schema into rustdoc.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Docs {
    pub title: Option<String>,
    pub description: Option<String>,
    pub examples: Vec<Value>,
    pub default: Option<Value>,
    pub deprecated: bool,
    pub read_only: bool,
    pub write_only: bool,
    /// The `format` as written, also when it has no runtime type (then it is only documented).
    pub format: Option<String>,
}

#[derive(Clone, Debug)]
pub enum DefKind {
    /// A JSON object with known properties.
    Struct(Struct),
    /// An `enum` whose values are all strings: a Rust enum of unit variants.
    StringEnum(Vec<String>),
    /// A scalar with constraints the Rust type cannot express (e.g. `pattern`), checked on
    /// deserialization and in the fallible constructor.
    Newtype(Newtype),
    /// `const`: exactly one value is allowed. Emitted as a unit struct.
    Const(Value),
    /// An `enum` of mixed JSON values: keeps the value, accepts exactly these.
    ValueEnum(Vec<Value>),
    /// `oneOf`/`anyOf`/type arrays: a Rust enum with one variant per branch.
    Union(Union),
    /// A plain alias for an inline type (e.g. a root schema that is `{"type": "string"}`).
    Alias(Ty),
    /// The fallback: a `serde_json::Value` that is checked against the schema on
    /// deserialization, so it accepts exactly the right JSON.
    Checked(Check),
    /// A tuple whose leading items are all present (`prefixItems`, or array-form `items`
    /// before 2020-12, with `minItems` covering them): a tuple struct.
    Tuple(TupleShape),
    /// A typed value whose schema also has keywords no Rust type expresses (`not`,
    /// `if`/`then`/`else`, `dependentSchemas`, `unevaluated*` beside branches, ...): the
    /// value is `base`, and its JSON form must also pass `check`.
    Refined(Refined),
}

#[derive(Clone, Debug)]
pub struct TupleShape {
    /// The leading items' types, in order; every one is present.
    pub items: Vec<Ty>,
    /// The type of the items after them; `None`: there are none (`items: false`).
    pub rest: Option<Ty>,
}

#[derive(Clone, Debug)]
pub struct Refined {
    pub base: Ty,
    pub check: Check,
}

/// An inline type expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    /// Any JSON value (`true`, `{}`): `serde_json::Value`.
    Any,
    Bool,
    Integer(IntTy),
    Number,
    String,
    /// A string with a known `format`: a runtime newtype that keeps the text byte-exact.
    Format(Format),
    /// `type: "null"`: `()`.
    Null,
    Def(DefId),
    Array(Box<Ty>),
    /// An object with no declared properties whose values all have one type.
    Map(Box<Ty>),
    /// The value or `null`.
    Nullable(Box<Ty>),
    /// A value of the inner type that must also satisfy these assertions (checked right after
    /// it is read, and by `validate()`). Its Rust type is the inner one.
    Constrained(Box<Ty>, Vec<Assertion>),
}

impl Ty {
    /// `ty` with `assertions`, unwrapped when there are none.
    pub fn constrained(ty: Ty, assertions: Vec<Assertion>) -> Ty {
        if assertions.is_empty() { ty } else { Ty::Constrained(Box::new(ty), assertions) }
    }
}

/// An assertion keyword over one kind of value, enforced on the typed value (and, in a
/// [`Check::Assert`], on a JSON value of that kind; other kinds pass).
#[derive(Clone, Debug, PartialEq)]
pub enum Assertion {
    Minimum(serde_json::Number),
    Maximum(serde_json::Number),
    /// Also draft-04 `minimum` with `exclusiveMinimum: true`.
    ExclusiveMinimum(serde_json::Number),
    ExclusiveMaximum(serde_json::Number),
    MultipleOf(serde_json::Number),
    /// In Unicode code points.
    MinLength(u64),
    MaxLength(u64),
    /// `format` as an assertion (only with `Config::assert_formats`; otherwise it is an
    /// annotation and the value is merely kept in its byte-exact newtype).
    Format(Format),
    MinItems(u64),
    MaxItems(u64),
    UniqueItems,
    /// `contains` with `minContains` (1 when absent) and `maxContains`.
    Contains {
        schema: Ty,
        min: u64,
        max: Option<u64>,
    },
    MinProperties(u64),
    MaxProperties(u64),
    /// Every property name, as a JSON string, is valid against this type.
    PropertyNames(Ty),
    /// `dependentRequired` (draft-07 `dependencies` with a list): with property `name`, the
    /// object also has `required`.
    DependentRequired {
        name: String,
        required: Vec<String>,
    },
}

/// What kind of value an assertion is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    Number,
    String,
    Array,
    Object,
}

impl Assertion {
    pub fn subject(&self) -> Subject {
        match self {
            Assertion::Minimum(_)
            | Assertion::Maximum(_)
            | Assertion::ExclusiveMinimum(_)
            | Assertion::ExclusiveMaximum(_)
            | Assertion::MultipleOf(_) => Subject::Number,
            Assertion::MinLength(_) | Assertion::MaxLength(_) | Assertion::Format(_) => Subject::String,
            Assertion::MinItems(_) | Assertion::MaxItems(_) | Assertion::UniqueItems | Assertion::Contains { .. } => Subject::Array,
            Assertion::MinProperties(_)
            | Assertion::MaxProperties(_)
            | Assertion::PropertyNames(_)
            | Assertion::DependentRequired { .. } => Subject::Object,
        }
    }
}

/// The Rust integer chosen from `minimum`/`maximum`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum IntTy {
    U8,
    U16,
    U32,
    U64,
    I8,
    I16,
    I32,
    I64,
    /// For bounds beyond 64 bits (`maximum: 18446744073709551616`).
    I128,
    /// `schemac_runtime::Integer`, for an integer whose bounds leave a side open (or pass
    /// `i128`), which no Rust integer holds every value of: exact at any size.
    Exact,
    /// `schemac_runtime::BigInt`, with `Config::big_integers`, for an integer without bounds.
    Big,
}

/// String formats with a runtime newtype. Unknown formats stay plain strings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Format {
    DateTime,
    Date,
    Time,
    Duration,
    Email,
    Hostname,
    Ipv4,
    Ipv6,
    Uri,
    UriReference,
    Uuid,
    JsonPointer,
    Regex,
    IdnEmail,
    IdnHostname,
    Iri,
    IriReference,
    UriTemplate,
    RelativeJsonPointer,
}

#[derive(Clone, Debug)]
pub struct Struct {
    pub fields: Vec<Field>,
    /// What happens to properties that are not declared.
    pub rest: Rest,
    /// Object assertions (`minProperties`, `propertyNames`, `dependentRequired`, ...).
    pub assertions: Vec<Assertion>,
}

#[derive(Clone, Debug)]
pub struct Field {
    /// The property name in JSON.
    pub json_name: String,
    /// Filled in by the naming phase.
    pub rust_name: String,
    /// `Ty::Nullable` when `null` is allowed.
    pub ty: Ty,
    pub required: bool,
    pub docs: Docs,
}

/// Undeclared properties of an object.
#[derive(Clone, Debug)]
pub enum Rest {
    /// `additionalProperties: false`: an undeclared property is an error.
    Closed,
    /// No `additionalProperties`: undeclared properties are kept as JSON and written back.
    Open,
    /// `additionalProperties: {schema}`: kept, typed.
    Typed(Ty),
    /// `patternProperties`, with `additional` for names no pattern matches (`None`: closed).
    /// A property matching several patterns must satisfy all of them.
    Patterns { patterns: Vec<(Pattern, Ty)>, additional: Option<Ty> },
}

#[derive(Clone, Debug)]
pub struct Newtype {
    /// `Ty::String`, `Ty::Integer` or `Ty::Number`.
    pub inner: Ty,
    pub pattern: Option<Pattern>,
    pub format: Option<String>,
    /// `minLength`/`maxLength`, checked with the pattern by the constructor.
    pub assertions: Vec<Assertion>,
}

#[derive(Clone, Debug)]
pub struct Union {
    pub variants: Vec<Variant>,
    pub mode: UnionMode,
}

#[derive(Clone, Debug)]
pub struct Variant {
    /// Filled in by the naming phase.
    pub name: String,
    /// What the naming phase chooses a name from (e.g. the branch's title or kind).
    pub hint: String,
    pub ty: Ty,
    /// For `UnionMode::Tagged`: the tag values that select this variant.
    pub tags: Vec<Value>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum UnionMode {
    /// Every variant takes a different JSON kind: dispatched on the kind, without buffering.
    ByKind,
    /// Object variants told apart by the `const`/`enum` values of property `tag`.
    Tagged { tag: String },
    /// `anyOf`: the first variant that accepts the value.
    FirstMatch,
    /// `oneOf`: exactly one variant must accept the value.
    ExactlyOne,
}

/// Assertions over a `serde_json::Value`, for the fallback type.
#[derive(Clone, Debug)]
pub enum Check {
    /// The value is one of these kinds (`Integer` matches only integral numbers).
    Kinds(Vec<Kind>),
    Const(Value),
    Enum(Vec<Value>),
    /// Strings must match; other kinds pass.
    Pattern(Pattern),
    /// The value deserializes as this type (which enforces everything the type enforces).
    As(Ty),
    AllOf(Vec<Check>),
    AnyOf(Vec<Check>),
    OneOf(Vec<Check>),
    Not(Box<Check>),
    IfThenElse {
        cond: Box<Check>,
        then: Option<Box<Check>>,
        otherwise: Option<Box<Check>>,
    },
    /// Objects: property checks; other kinds pass.
    Object(ObjectCheck),
    /// Arrays: `prefix[i]` checks item `i`, `items` the rest (`None`: anything).
    Array {
        prefix: Vec<Check>,
        items: Option<Box<Check>>,
    },
    /// An assertion over values of its subject's kind; other kinds pass.
    Assert(Assertion),
    /// Always fails (`false` schema).
    Never,
    /// `unevaluatedProperties` (`items: false`) or `unevaluatedItems` (`items: true`) beside
    /// in-place subschemas: every property (item) that `evaluated` does not mark must pass
    /// `rest`. Other kinds pass.
    Unevaluated {
        items: bool,
        evaluated: Evaluates,
        rest: Box<Check>,
    },
}

impl Check {
    /// Whether this is a conjunction with a part no value passes (so no value passes it).
    pub fn contains_never(&self) -> bool {
        match self {
            Check::Never => true,
            Check::AllOf(all) => all.iter().any(Check::contains_never),
            _ => false,
        }
    }
}

/// Which properties and items a schema *evaluates* (the annotations `unevaluated*` sees),
/// worked out through its in-place subschemas. As the spec says, a subschema's annotations
/// count only where the value passes it: `anyOf`/`oneOf` branches, `if`, `then`/`else` and
/// `dependentSchemas` are [`Evaluates::When`] their check passes.
#[derive(Clone, Debug)]
pub enum Evaluates {
    /// `properties` (these names), `patternProperties` (names matching), and `all` for
    /// `additionalProperties` or a nested `unevaluatedProperties`.
    Properties { names: Vec<String>, patterns: Vec<Pattern>, all: bool },
    /// `prefixItems` (the first `prefix`), `all` for `items` or a nested `unevaluatedItems`,
    /// and the items `contains` matches.
    Items { prefix: usize, all: bool, contains: Option<Box<Check>> },
    /// Everything any of these evaluate.
    All(Vec<Evaluates>),
    /// What the inner one evaluates, when the value passes the check.
    When(Box<Check>, Box<Evaluates>),
}

impl Evaluates {
    /// Whether this never marks anything (so it can be left out).
    pub fn is_empty(&self) -> bool {
        match self {
            Evaluates::Properties { names, patterns, all } => names.is_empty() && patterns.is_empty() && !all,
            Evaluates::Items { prefix, all, contains } => *prefix == 0 && !all && contains.is_none(),
            Evaluates::All(list) => list.iter().all(Evaluates::is_empty),
            Evaluates::When(_, inner) => inner.is_empty(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct ObjectCheck {
    pub properties: Vec<(String, Check)>,
    pub required: Vec<String>,
    pub patterns: Vec<(Pattern, Check)>,
    /// For properties matched neither by `properties` nor `patterns`; `None`: anything.
    pub additional: Option<Box<Check>>,
}
