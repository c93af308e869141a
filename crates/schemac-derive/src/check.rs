//! The check: a hand-written struct or enum against the IR of its schema node. Every mismatch
//! becomes an error spanned on the field, variant or attribute at fault, with a hint; a
//! field whose type is a separate schema node becomes a [`Bound`] the expansion turns into a
//! trait-bound assertion, because the derive cannot see another type's fields.

use quote::ToTokens;
use schemac::ir::{DefKind, Field as SchemaField, Format, Rest, Struct, Ty};
use schemac_model::resolve::Loc;
use serde_json::Value;
use syn::ext::IdentExt;
use syn::{Data, DataEnum, DataStruct, DeriveInput, Fields, Ident, Type};

use crate::attrs::{self, Container};
use crate::case::RenameRule;
use crate::errors::Errors;
use crate::raw;
use crate::rust_ty::{FORMAT_TYPES, IntTy, Shape, shape};
use crate::schema::Schema;

/// A field type that must conform to another schema node: `ty: Conforms<{ node_id(key) }>`.
#[derive(Debug)]
pub struct Bound<'a> {
    pub ty: &'a Type,
    /// What identifies the node (see [`Schema::def_key`]).
    pub key: String,
    /// The node as the user names it, `schemas/x.json#/pointer`.
    pub node: String,
    /// Where the type is, e.g. "property `attempts`".
    pub place: String,
    /// The attribute that derives `Conforms` for the node.
    pub derive_hint: String,
    /// The node's location, so `JsonSchema` can point a `$ref` to it at the type.
    pub loc: Loc,
}

/// A checked field, for `Validate`: its value is walked along its property's schema type.
#[derive(Debug)]
pub struct Checked<'a> {
    pub ident: &'a Ident,
    /// The serialized name: the segment of the field's JSON pointer.
    pub json_name: String,
    pub ty: &'a Type,
    pub schema_ty: Ty,
    /// The property's schemas in the source, for the exact integer bounds.
    pub raw: Vec<Loc>,
}

/// What the check found besides errors.
#[derive(Debug, Default)]
pub struct Outcome<'a> {
    pub bounds: Vec<Bound<'a>>,
    pub fields: Vec<Checked<'a>>,
    /// The flattened map of the other properties, when `additionalProperties` types them.
    pub rest: Option<Checked<'a>>,
    /// Which properties a value writes, for the object's own assertions.
    pub written: Written<'a>,
    /// An enum's catch-all `#[schemac(open)] #[serde(untagged)] Other(String)`, with the
    /// values the schema lists: a value it holds is an `enum` violation of `validate()`.
    pub open: Option<(&'a Ident, Vec<String>)>,
}

/// The properties a value of the struct writes: each property's field and when it is written,
/// and the flattened map whose keys are the others.
#[derive(Debug, Default)]
pub struct Written<'a> {
    pub fields: Vec<(&'a Ident, String, Presence)>,
    pub map: Option<&'a Ident>,
    /// The object's own assertions (`minProperties`, `dependentRequired`, ...).
    pub assertions: Vec<schemac::ir::Assertion>,
}

/// When a field's property is in the JSON the struct writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    Always,
    /// An `Option` skipped when `None` (an optional property that is never null).
    IfSome,
    /// A `Tristate` skipped when absent.
    IfNotAbsent,
}

struct Checker<'a, 's> {
    schema: &'s Schema,
    container: &'s Container,
    errors: &'s mut Errors,
    bounds: Vec<Bound<'a>>,
    fields: Vec<Checked<'a>>,
    rest: Option<Checked<'a>>,
    written: Written<'a>,
    open: Option<(&'a Ident, Vec<String>)>,
}

/// Checks `input` against the schema node; returns the nested-type assertions to emit.
pub fn check<'a>(input: &'a DeriveInput, container: &Container, schema: &Schema, errors: &mut Errors) -> Outcome<'a> {
    let mut checker =
        Checker { schema, container, errors, bounds: Vec::new(), fields: Vec::new(), rest: None, written: Written::default(), open: None };
    if let Some((span, name)) = &container.representation {
        checker.errors.at(
            *span,
            format!("`#[serde({name})]` changes how `{}` is written in JSON, which the check does not model", input.ident),
            "remove it, or check the type it converts to instead",
        );
    }
    let target = schema.unalias(&schema.target);
    let kind = match target {
        Ty::Def(id) => Some(&schema.ir.def(*id).kind),
        _ => None,
    };
    match (&input.data, kind) {
        (Data::Struct(data), Some(DefKind::Struct(object))) => checker.object(input, data, object),
        (Data::Enum(data), Some(DefKind::StringEnum(values))) => checker.string_enum(input, data, values),
        (Data::Union(_), _) => {
            checker.errors.at(input.ident.span(), "`#[derive(Conforms)]` does not support unions", "use a struct or an enum")
        }
        _ => {
            let what = match &input.data {
                Data::Struct(_) => "a struct",
                _ => "an enum",
            };
            let hint = match kind {
                Some(DefKind::Struct(_)) => "check it with a struct that has a field per property",
                Some(DefKind::StringEnum(_)) => "check it with an enum that has a unit variant per value",
                _ => "the derive checks structs against object schemas and enums against string `enum`s; point it at one",
            };
            let message = format!("`{}` is {what}, but {} is {}", input.ident, checker.node(), checker.describe(target));
            checker.errors.at(input.ident.span(), message, hint);
        }
    }
    Outcome { bounds: checker.bounds, fields: checker.fields, rest: checker.rest, written: checker.written, open: checker.open }
}

/// One field of the struct, with what serde makes of it.
struct RustField<'a> {
    field: &'a syn::Field,
    ident: &'a Ident,
    attrs: attrs::Field,
    /// The serialized name.
    json_name: String,
}

impl<'a> Checker<'a, '_> {
    /// `schemas/x.json#/$defs/y`, for messages.
    fn node(&self) -> String {
        if self.schema.pointer.is_empty() {
            format!("`{}`", self.schema.display)
        } else {
            format!("`{}#{}`", self.schema.display, self.schema.pointer)
        }
    }

    fn object(&mut self, input: &'a DeriveInput, data: &'a DataStruct, object: &Struct) {
        let Fields::Named(named) = &data.fields else {
            self.errors.at(
                input.ident.span(),
                format!("{} is an object: check it with a struct with named fields", self.node()),
                "name the fields after the properties",
            );
            return;
        };
        let mut fields = Vec::new();
        let mut flattened = Vec::new();
        for field in &named.named {
            let Some(ident) = &field.ident else { continue };
            let attrs = attrs::field(&field.attrs, self.errors);
            if attrs.skip {
                continue;
            }
            if attrs.flatten {
                flattened.push(field);
                continue;
            }
            let bare = ident.unraw().to_string();
            let json_name =
                attrs.rename.clone().unwrap_or_else(|| self.container.rename_all.map_or(bare.clone(), |rule| rule.apply_to_field(&bare)));
            if let Some(first) = fields.iter().find(|f: &&RustField<'_>| f.json_name == json_name) {
                let message = format!("fields `{}` and `{ident}` are both written as `{json_name}`", first.ident);
                self.errors.at(ident.span(), message, "rename one of them");
                continue;
            }
            fields.push(RustField { field, ident, attrs, json_name });
        }

        let object_locs = [self.schema.target_loc().clone()];
        let mut matched = vec![false; fields.len()];
        for property in &object.fields {
            if let Some(i) = fields.iter().position(|f| f.json_name == property.json_name) {
                matched[i] = true;
                let presence = match (shape(&fields[i].field.ty), property.required) {
                    (Shape::Option(_), false) => Presence::IfSome,
                    (Shape::Tristate(_), _) => Presence::IfNotAbsent,
                    _ => Presence::Always,
                };
                self.written.fields.push((fields[i].ident, property.json_name.clone(), presence));
                let raw = raw::property(&self.schema.model, &object_locs, &property.json_name);
                self.field(&fields[i], property, &raw);
                continue;
            }
            // A field that means this property but is written under another name.
            let near = fields.iter().enumerate().find(|(i, f)| !matched[*i] && loose_eq(&f.json_name, &property.json_name));
            if let Some((i, near)) = near {
                matched[i] = true;
                let message = format!(
                    "field `{}` is written as `{}`, but the schema's property is `{}`",
                    near.ident, near.json_name, property.json_name
                );
                self.errors.at(near.ident.span(), message, self.rename_hint(&near.ident.unraw().to_string(), &property.json_name));
                continue;
            }
            let raw = raw::property(&self.schema.model, &object_locs, &property.json_name);
            let required = if property.required { "required" } else { "optional" };
            let message = format!("`{}` has no field for the {required} property `{}`", input.ident, property.json_name);
            self.errors.at(input.ident.span(), message, format!("add field `{}`", self.declaration(property, &raw)));
        }
        let names: Vec<&str> = object.fields.iter().map(|p| p.json_name.as_str()).collect();
        for (field, _) in fields.iter().zip(&matched).filter(|(_, matched)| !**matched) {
            let written =
                if field.ident.unraw() == field.json_name { String::new() } else { format!(" (written as `{}`)", field.json_name) };
            let message = format!("field `{}`{written} is not a property of {}", field.ident, self.node());
            let hint = format!("remove it, or mark it `#[serde(skip)]`; the properties are: {}", list(&names));
            self.errors.at(field.ident.span(), message, hint);
        }
        self.written.map = flattened.first().and_then(|field| field.ident.as_ref());
        self.written.assertions = object.assertions.clone();
        self.rest(input, object, &flattened);
    }

    /// `rename = "..."`, or the `rename_all` rule that produces the name from the field's.
    fn rename_hint(&self, field: &str, json_name: &str) -> String {
        let rule = ["camelCase", "PascalCase", "kebab-case", "SCREAMING_SNAKE_CASE", "UPPERCASE"]
            .iter()
            .filter_map(|spelling| RenameRule::parse(spelling))
            .find(|rule| rule.apply_to_field(field) == json_name);
        match rule {
            Some(rule) if self.container.rename_all.is_none() => format!(
                "add `#[serde(rename = \"{json_name}\")]` to the field, or `#[serde(rename_all = \"{}\")]` to the struct",
                rule.spelling()
            ),
            _ => format!("add `#[serde(rename = \"{json_name}\")]` to the field"),
        }
    }

    /// `name: Type` for a missing property, with the attributes it needs.
    fn declaration(&self, property: &SchemaField, raw: &[Loc]) -> String {
        let rust_name = if property.rust_name.is_empty() { property.json_name.clone() } else { property.rust_name.clone() };
        let written = self.container.rename_all.map_or(rust_name.clone(), |rule| rule.apply_to_field(&rust_name));
        let mut attrs = Vec::new();
        if written != property.json_name {
            attrs.push(format!("rename = \"{}\"", property.json_name));
        }
        let (nullable, inner) = split_null(self.schema.unalias(&property.ty));
        let inner = self.spell(inner, raw);
        let ty = match (property.required, nullable) {
            (true, false) => inner,
            (true, true) => format!("Option<{inner}>"),
            (false, false) => {
                attrs.push("skip_serializing_if = \"Option::is_none\"".to_owned());
                format!("Option<{inner}>")
            }
            (false, true) => {
                attrs.push("skip_serializing_if = \"Tristate::is_absent\"".to_owned());
                format!("schemac_runtime::Tristate<{inner}>")
            }
        };
        let attrs = if attrs.is_empty() { String::new() } else { format!("#[serde({})] ", attrs.join(", ")) };
        format!("{attrs}{rust_name}: {ty}")
    }

    /// Presence, nullability and type of one field against its property.
    fn field(&mut self, field: &RustField<'a>, property: &SchemaField, raw: &[Loc]) {
        if field.attrs.custom || field.attrs.unchecked {
            return;
        }
        self.fields.push(Checked {
            ident: field.ident,
            json_name: property.json_name.clone(),
            ty: &field.field.ty,
            schema_ty: property.ty.clone(),
            raw: raw.to_vec(),
        });
        let name = &property.json_name;
        let place = format!("property `{name}`");
        let (nullable, inner) = split_null(self.schema.unalias(&property.ty));
        let spelled = self.spell(inner, raw);
        let ty = &field.field.ty;
        let defaulted = field.attrs.default || self.container.default;
        match (shape(ty), property.required, nullable) {
            (Shape::Option(_), true, false) => {
                self.errors.on(ty, format!("property `{name}` is required and never null, but the field is an `Option`"), format!("use `{spelled}`"));
            }
            (Shape::Option(_), false, true) => self.errors.on(
                ty,
                format!("property `{name}` may be absent or null, and an `Option` cannot tell the two apart: a round trip changes one into the other"),
                format!("use `schemac_runtime::Tristate<{spelled}>` with `#[serde(skip_serializing_if = \"Tristate::is_absent\")]`"),
            ),
            (Shape::Option(_), false, false) if !field.attrs.skip_serializing_if => self.errors.at(
                field.ident.span(),
                format!("property `{name}` is never null, but `None` is written as `null`"),
                "add `#[serde(skip_serializing_if = \"Option::is_none\")]`",
            ),
            (Shape::Tristate(_), true, true) => {
                self.errors.on(ty, format!("property `{name}` is required, so it is never absent: `Tristate` is for optional properties"), format!("use `Option<{spelled}>`"));
            }
            (Shape::Tristate(_), true, false) => {
                self.errors.on(ty, format!("property `{name}` is required and never null, but the field is a `Tristate`"), format!("use `{spelled}`"));
            }
            (Shape::Tristate(_), false, false) => self.errors.on(
                ty,
                format!("property `{name}` is never null, but the field is a `Tristate`"),
                format!("use `Option<{spelled}>` with `#[serde(skip_serializing_if = \"Option::is_none\")]`"),
            ),
            (Shape::Tristate(_), false, true) if !field.attrs.skip_serializing_if => self.errors.at(
                field.ident.span(),
                format!("property `{name}` may be absent, but `Tristate::Absent` is written as `null`"),
                "add `#[serde(skip_serializing_if = \"Tristate::is_absent\")]`",
            ),
            (Shape::Option(_) | Shape::Tristate(_), ..) => {}
            (_, true, true) => {
                self.errors.on(ty, format!("property `{name}` may be null, which `{}` cannot hold", tokens(ty)), format!("use `Option<{spelled}>`"));
            }
            (_, false, true) => self.errors.on(
                ty,
                format!("property `{name}` may be absent or null, which `{}` cannot hold", tokens(ty)),
                format!("use `schemac_runtime::Tristate<{spelled}>` with `#[serde(skip_serializing_if = \"Tristate::is_absent\")]`"),
            ),
            (_, false, false) if !defaulted => self.errors.on(
                ty,
                format!("property `{name}` is optional, but the field cannot be absent"),
                format!("use `Option<{spelled}>` with `#[serde(skip_serializing_if = \"Option::is_none\")]`"),
            ),
            (_, false, false) if property.docs.default.is_none() => self.errors.at(
                field.ident.span(),
                format!(
                    "property `{name}` has no `default` in the schema, so `#[serde(default)]` writes a value where the document had none"
                ),
                format!("use `Option<{spelled}>` with `#[serde(skip_serializing_if = \"Option::is_none\")]`, or declare the `default` in the schema"),
            ),
            _ => {}
        }
        let value_ty = match shape(ty) {
            Shape::Option(inner) | Shape::Tristate(inner) => inner,
            _ => ty,
        };
        self.ty(value_ty, inner, raw, &place);
    }

    /// A Rust type against the schema type of a value (`null` already handled by the caller).
    fn ty(&mut self, rust: &'a Type, schema_ty: &Ty, raw: &[Loc], place: &str) {
        let schema_ty = self.schema.unalias(schema_ty);
        let def_kind = match schema_ty {
            Ty::Def(id) => Some(&self.schema.ir.def(*id).kind),
            _ => None,
        };
        match (shape(rust), schema_ty, def_kind) {
            (Shape::Value, Ty::Any, _) => {}
            (_, Ty::Any, _) => self.mismatch(rust, place, schema_ty, raw),
            (Shape::Option(inner), Ty::Nullable(value), _) => self.ty(inner, value, raw, place),
            (_, Ty::Nullable(value), _) => {
                let spelled = self.spell(value, raw);
                self.errors.on(
                    rust,
                    format!("{place} may be null, which `{}` cannot hold", tokens(rust)),
                    format!("use `Option<{spelled}>`"),
                );
            }
            (Shape::Option(_), _, _) => {
                let spelled = self.spell(schema_ty, raw);
                self.errors.on(
                    rust,
                    format!("{place} is never null, but `{}` accepts and writes `null`", tokens(rust)),
                    format!("use `{spelled}`"),
                );
            }
            (
                Shape::Named(named),
                Ty::Def(id),
                Some(
                    DefKind::Struct(_)
                    | DefKind::StringEnum(_)
                    | DefKind::Union(_)
                    | DefKind::Checked(_)
                    | DefKind::Refined(_)
                    | DefKind::Tuple(_)
                    | DefKind::ValueEnum(_)
                    | DefKind::Const(_)
                    | DefKind::Newtype(_),
                ),
            ) => {
                let def = self.schema.ir.def(*id);
                let (file, pointer) = self.schema.def_node(def);
                let derive_hint = format!("#[schemac(schema = \"{file}\", pointer = \"{pointer}\")]");
                let node = format!("{file}#{pointer}");
                let loc = self.schema.def_node_loc(def);
                self.bounds.push(Bound { ty: named, key: self.schema.def_key(def), node, place: place.to_owned(), derive_hint, loc });
            }
            (
                Shape::Value,
                Ty::Def(_),
                Some(DefKind::Union(_) | DefKind::Checked(_) | DefKind::Refined(_) | DefKind::Tuple(_) | DefKind::ValueEnum(_)),
            ) => {}
            (_, Ty::Def(_), Some(DefKind::Newtype(newtype))) => self.ty(rust, &newtype.inner, raw, place),
            (_, Ty::Def(_), Some(DefKind::Const(value))) => {
                let fits = match (shape(rust), value) {
                    (Shape::String, Value::String(_)) | (Shape::Bool, Value::Bool(_)) | (Shape::Value, _) => true,
                    (Shape::Float(true), Value::Number(_)) => true,
                    (Shape::Int(int), Value::Number(n)) => {
                        n.as_i64().map(i128::from).or(n.as_u64().map(i128::from)).is_some_and(|v| int.min <= v && v <= int.max)
                    }
                    _ => false,
                };
                if !fits {
                    self.mismatch(rust, place, schema_ty, raw);
                }
            }
            (Shape::Bool, Ty::Bool, _) | (Shape::Float(true), Ty::Number, _) | (Shape::Unit, Ty::Null, _) => {}
            (Shape::String, Ty::String | Ty::Format(_), _) => {}
            (Shape::Format(name), Ty::Format(format), _) if format_type(*format) == name => {}
            (Shape::Int(int), Ty::Integer(_), _) => self.integer(rust, int, schema_ty, raw, place),
            (Shape::Float(false), Ty::Number, _) => self.errors.on(
                rust,
                format!("{place} is a JSON number, which `f32` holds only approximately: a round trip changes it"),
                "use `f64`",
            ),
            (Shape::Float(_), Ty::Integer(_), _) => {
                let spelled = self.spell(schema_ty, raw);
                self.errors.on(
                    rust,
                    format!("{place} is an integer, but `{}` also accepts fractions the schema rejects", tokens(rust)),
                    format!("use `{spelled}`"),
                );
            }
            (Shape::Int(_), Ty::Number, _) => self.errors.on(
                rust,
                format!("{place} is any number, but `{}` rejects the fractions the schema allows", tokens(rust)),
                "use `f64`",
            ),
            (Shape::Seq(item), Ty::Array(item_ty), _) => {
                let items = raw::items(&self.schema.model, raw);
                self.ty(item, item_ty, &items, &format!("an item of {place}"));
            }
            (Shape::Map(key, value), Ty::Map(value_ty), _) => {
                self.map_key(key, place);
                let values = raw::values(&self.schema.model, raw);
                self.ty(value, value_ty, &values, &format!("a value of {place}"));
            }
            (Shape::Unsupported, ..) => {
                let spelled = self.spell(schema_ty, raw);
                self.errors.on(
                    rust,
                    format!("the check does not know how `{}` is written in JSON", tokens(rust)),
                    format!("use `{spelled}`, or mark the field `#[schemac(unchecked)]`"),
                );
            }
            _ => self.mismatch(rust, place, schema_ty, raw),
        }
    }

    /// An integer type against the integer range the schema allows.
    fn integer(&mut self, rust: &Type, int: IntTy, schema_ty: &Ty, raw: &[Loc], place: &str) {
        let (low, high) = raw::integer_range(&self.schema.model, raw);
        let (min, max) = self.effective_range(schema_ty, raw);
        if int.min <= min && int.max >= max {
            return;
        }
        let described = match (low, high) {
            (Some(low), Some(high)) => format!("an integer from {low} to {high}"),
            (Some(low), None) => format!("an integer of at least {low}"),
            (None, Some(high)) => format!("an integer of at most {high}"),
            (None, None) => "any integer".to_owned(),
        };
        let message = if min < 0 && int.min == 0 {
            let why = if low.is_none() { "it has no `minimum`" } else { "its `minimum` is negative" };
            format!("{place} may be negative ({why}), which the unsigned `{}` cannot hold", tokens(rust))
        } else {
            format!("{place} is {described}, which `{}` ({}..={}) cannot hold", tokens(rust), int.min, int.max)
        };
        self.errors.on(rust, message, format!("use `{}`", IntTy::narrowest(min, max).name));
    }

    /// The range an integer field must hold: the bounds the schema states, within the
    /// integer the IR chose (which is `i64`/`u64` where a bound is missing, as in the
    /// generated code).
    fn effective_range(&self, schema_ty: &Ty, raw: &[Loc]) -> (i128, i128) {
        let (ir_min, ir_max) = match schema_ty {
            Ty::Integer(int) => {
                let int = IntTy::named(&format!("{int:?}").to_ascii_lowercase()).unwrap_or(IntTy {
                    name: "i64",
                    min: i64::MIN.into(),
                    max: i64::MAX.into(),
                });
                (int.min, int.max)
            }
            _ => (i64::MIN.into(), i64::MAX.into()),
        };
        let (low, high) = raw::integer_range(&self.schema.model, raw);
        (low.map_or(ir_min, |low| low.max(ir_min)), high.map_or(ir_max, |high| high.min(ir_max)))
    }

    fn map_key(&mut self, key: &Type, place: &str) {
        if !matches!(shape(key), Shape::String) {
            self.errors.on(key, format!("the keys of {place} are property names, which `{}` cannot hold", tokens(key)), "use `String`");
        }
    }

    fn mismatch(&mut self, rust: &Type, place: &str, schema_ty: &Ty, raw: &[Loc]) {
        let message = format!("{place} is {}, but `{}` is {}", self.describe(schema_ty), tokens(rust), describe_rust(rust));
        let spelled = self.spell(schema_ty, raw);
        let hint = match schema_ty {
            Ty::Def(id) if matches!(self.schema.ir.def(*id).kind, DefKind::Struct(_) | DefKind::StringEnum(_)) => {
                let (file, pointer) = self.schema.def_node(self.schema.ir.def(*id));
                format!(
                    "use a type that derives `Conforms` with `#[schemac(schema = \"{file}\", pointer = \"{pointer}\")]`, e.g. `{spelled}`"
                )
            }
            _ => format!("use `{spelled}`"),
        };
        self.errors.on(rust, message, hint);
    }

    /// What happens to properties the schema does not declare.
    fn rest(&mut self, input: &DeriveInput, object: &Struct, flattened: &[&'a syn::Field]) {
        for extra in flattened.iter().skip(1) {
            self.errors.on(&extra.ty, "only one `#[serde(flatten)]` map can keep the other properties", "remove this one");
        }
        let flat = flattened.first().copied();
        let map = flat.and_then(|field| match shape(&field.ty) {
            Shape::Map(key, value) => Some((key, value)),
            _ => None,
        });
        if let (Some(field), None) = (flat, map) {
            let message = format!("the check cannot see the fields of flattened `{}`", tokens(&field.ty));
            self.errors.on(&field.ty, message, "list its fields in this struct; `#[serde(flatten)]` is for a map of the other properties");
        }
        let ident = &input.ident;
        match &object.rest {
            Rest::Closed => {
                if let Some(field) = flat {
                    self.errors.on(
                        &field.ty,
                        format!(
                            "{} allows no other properties (`additionalProperties: false`), so there is nothing to flatten",
                            self.node()
                        ),
                        "remove the field and add `#[serde(deny_unknown_fields)]` to the struct",
                    );
                } else if self.container.deny_unknown_fields.is_none() {
                    self.errors.at(
                        ident.span(),
                        format!("{} allows no other properties (`additionalProperties: false`), but `{ident}` ignores them", self.node()),
                        "add `#[serde(deny_unknown_fields)]` to the struct",
                    );
                }
            }
            rest => {
                if let Some(span) = self.container.deny_unknown_fields {
                    self.errors.at(
                        span,
                        format!(
                            "{} allows properties it does not declare, but `deny_unknown_fields` rejects documents that have them",
                            self.node()
                        ),
                        "remove it, and keep the other properties in `#[serde(flatten)] extra: serde_json::Map<String, serde_json::Value>`",
                    );
                }
                match (map, rest) {
                    (Some((key, value)), Rest::Typed(value_ty)) => {
                        self.map_key(key, "the other properties");
                        let raw = raw::values(&self.schema.model, &[self.schema.target_loc().clone()]);
                        if let Some(field) = flat.and_then(|field| field.ident.as_ref().map(|ident| (field, ident))) {
                            self.rest = Some(Checked {
                                ident: field.1,
                                json_name: String::new(),
                                ty: value,
                                schema_ty: value_ty.clone(),
                                raw: raw.clone(),
                            });
                        }
                        self.ty(value, value_ty, &raw, "another property");
                    }
                    (Some((key, value)), _) => {
                        self.map_key(key, "the other properties");
                        self.ty(value, &Ty::Any, &[], "another property");
                    }
                    // With `deny_unknown_fields` the error above already says what keeps them.
                    (None, _) if flat.is_none() && !self.container.ignore_unknown && self.container.deny_unknown_fields.is_none() => self.errors.at(
                        ident.span(),
                        format!("{} allows properties it does not declare, and `{ident}` drops them: a round trip loses them", self.node()),
                        "add `#[serde(flatten)] extra: serde_json::Map<String, serde_json::Value>`, or `#[schemac(ignore_unknown)]` to accept the loss",
                    ),
                    _ => {}
                }
            }
        }
    }

    fn string_enum(&mut self, input: &'a DeriveInput, data: &'a DataEnum, values: &[String]) {
        let mut seen: Vec<(String, &Ident)> = Vec::new();
        for variant in &data.variants {
            let attrs = attrs::variant(&variant.attrs, self.errors);
            if attrs.skip {
                continue;
            }
            let ident = &variant.ident;
            if let Fields::Unnamed(fields) = &variant.fields
                && fields.unnamed.len() == 1
                && (attrs.untagged || attrs.open)
            {
                self.open_variant(ident, &fields.unnamed[0].ty, &attrs, values);
                continue;
            }
            let bare = ident.unraw().to_string();
            let name = attrs.rename.unwrap_or_else(|| self.container.rename_all.map_or(bare.clone(), |rule| rule.apply_to_variant(&bare)));
            if !matches!(variant.fields, Fields::Unit) {
                self.errors.at(
                    ident.span(),
                    format!("variant `{ident}` has fields, but {} is a string enum", self.node()),
                    "make it a unit variant",
                );
                // It stands for its value all the same: the value is not reported missing.
                seen.push((name, ident));
                continue;
            }
            if let Some((_, first)) = seen.iter().find(|(seen, _)| *seen == name) {
                self.errors.at(
                    ident.span(),
                    format!("variants `{first}` and `{ident}` are both written as \"{name}\""),
                    "rename one of them",
                );
                continue;
            }
            if !values.contains(&name) {
                let near = values.iter().find(|value| loose_eq(value, &name));
                let hint = match near {
                    Some(value) => format!("add `#[serde(rename = \"{value}\")]` to the variant"),
                    None => format!("remove it; the values are: {}", quoted_list(values)),
                };
                self.errors.at(
                    ident.span(),
                    format!("variant `{ident}` is written as \"{name}\", which is not a value of {}", self.node()),
                    hint,
                );
                if let Some(value) = near {
                    seen.push((value.clone(), ident));
                }
                continue;
            }
            seen.push((name, ident));
        }
        for value in values.iter().filter(|value| !seen.iter().any(|(seen, _)| seen == *value)) {
            let variant = schemac::ident::variant_name(value);
            let written = self.container.rename_all.map_or(variant.clone(), |rule| rule.apply_to_variant(&variant));
            let declaration = if written == *value { variant } else { format!("#[serde(rename = \"{value}\")] {variant}") };
            self.errors.at(
                input.ident.span(),
                format!("`{}` has no variant for \"{value}\", a value of {}", input.ident, self.node()),
                format!("add variant `{declaration}`"),
            );
        }
    }

    /// A catch-all variant (`#[serde(untagged)] Other(String)`): an open enum, which reads
    /// values the schema rejects. Said as such unless `#[schemac(open)]` accepts it.
    fn open_variant(&mut self, ident: &'a Ident, ty: &syn::Type, attrs: &attrs::Variant, values: &[String]) {
        let node = self.node();
        if !matches!(shape(ty), Shape::String) {
            let message =
                format!("the catch-all variant `{ident}` holds a `{}`, but the values of {node} are strings", ty.to_token_stream());
            self.errors.at(ident.span(), message, "make it `String`");
        } else if !attrs.untagged {
            let message = format!("`{ident}` would be written as `{{\"{ident}\": ...}}`, not as the string it holds");
            self.errors.at(ident.span(), message, "add `#[serde(untagged)]` to the variant, so it reads and writes the plain string");
        } else if !attrs.open {
            let message = format!(
                "`{ident}` keeps a value {node} does not list: this is an open enum, a reader-side tolerance that accepts \
                 documents the schema rejects (its `enum` is closed)"
            );
            self.errors.at(
                ident.span(),
                message,
                "mark the variant `#[schemac(open)]` to accept that (`validate()` then reports such a value as an `enum` violation), or remove it",
            );
        }
        self.open = Some((ident, values.to_vec()));
    }

    /// The Rust type a hint suggests for a schema type.
    fn spell(&self, ty: &Ty, raw: &[Loc]) -> String {
        match self.schema.unalias(ty) {
            Ty::Any => "serde_json::Value".to_owned(),
            Ty::Bool => "bool".to_owned(),
            ty @ Ty::Integer(_) => {
                let (min, max) = self.effective_range(ty, raw);
                IntTy::narrowest(min, max).name.to_owned()
            }
            Ty::Number => "f64".to_owned(),
            Ty::String | Ty::Format(_) => "String".to_owned(),
            Ty::Null => "()".to_owned(),
            Ty::Array(item) => format!("Vec<{}>", self.spell(item, &raw::items(&self.schema.model, raw))),
            Ty::Map(value) => format!("BTreeMap<String, {}>", self.spell(value, &raw::values(&self.schema.model, raw))),
            Ty::Nullable(inner) => format!("Option<{}>", self.spell(inner, raw)),
            Ty::Constrained(inner, _) => self.spell(inner, raw),
            Ty::Def(id) => {
                let def = self.schema.ir.def(*id);
                match &def.kind {
                    DefKind::Struct(_) | DefKind::StringEnum(_) => def.name.clone(),
                    DefKind::Newtype(newtype) => self.spell(&newtype.inner, raw),
                    DefKind::Alias(inner) => self.spell(inner, raw),
                    DefKind::Const(Value::String(_)) => "String".to_owned(),
                    DefKind::Const(Value::Bool(_)) => "bool".to_owned(),
                    DefKind::Const(Value::Number(n)) if n.is_f64() => "f64".to_owned(),
                    DefKind::Const(Value::Number(n)) => {
                        let v = n.as_i64().map(i128::from).or(n.as_u64().map(i128::from)).unwrap_or_default();
                        IntTy::narrowest(v, v).name.to_owned()
                    }
                    DefKind::Const(_)
                    | DefKind::ValueEnum(_)
                    | DefKind::Union(_)
                    | DefKind::Checked(_)
                    | DefKind::Refined(_)
                    | DefKind::Tuple(_) => "serde_json::Value".to_owned(),
                }
            }
        }
    }

    /// A schema type in words, for messages.
    fn describe(&self, ty: &Ty) -> String {
        match self.schema.unalias(ty) {
            Ty::Any => "any JSON value".to_owned(),
            Ty::Bool => "a boolean".to_owned(),
            Ty::Integer(_) => "an integer".to_owned(),
            Ty::Number => "a number".to_owned(),
            Ty::String => "a string".to_owned(),
            Ty::Format(format) => format!("a string (`format: \"{}\"`)", format_keyword(*format)),
            Ty::Null => "null".to_owned(),
            Ty::Array(_) => "an array".to_owned(),
            Ty::Map(_) => "an object whose properties are all alike (a map)".to_owned(),
            Ty::Nullable(inner) => format!("{} or null", self.describe(inner)),
            Ty::Constrained(inner, _) => self.describe(inner),
            Ty::Def(id) => match &self.schema.ir.def(*id).kind {
                DefKind::Struct(_) => "an object".to_owned(),
                DefKind::StringEnum(values) => format!("a string enum ({})", quoted_list(values)),
                DefKind::Newtype(newtype) => self.describe(&newtype.inner),
                DefKind::Alias(inner) => self.describe(inner),
                DefKind::Const(value) => format!("the constant `{value}`"),
                DefKind::ValueEnum(_) => "an enum of JSON values".to_owned(),
                DefKind::Union(_) => "one of several schemas (`oneOf`, `anyOf` or several `type`s)".to_owned(),
                DefKind::Checked(_) => "a schema no Rust type expresses exactly".to_owned(),
                DefKind::Tuple(t) => format!("an array of {} items and more (a tuple)", t.items.len()),
                DefKind::Refined(_) => "a value checked beyond its type (`not`, `if`/`then`/`else`, `unevaluated*`, ...)".to_owned(),
            },
        }
    }
}

/// `(true, T)` for `T` or null.
fn split_null(ty: &Ty) -> (bool, &Ty) {
    match ty {
        Ty::Nullable(inner) => (true, inner),
        other => (false, other),
    }
}

/// Names equal but for case, `_` and `-`: a field or variant that means this property or value.
fn loose_eq(a: &str, b: &str) -> bool {
    let fold = |s: &str| s.chars().filter(|c| *c != '_' && *c != '-').flat_map(char::to_lowercase).collect::<String>();
    fold(a) == fold(b)
}

/// What JSON a Rust type is written as, in words.
fn describe_rust(ty: &Type) -> &'static str {
    match shape(ty) {
        Shape::Option(_) | Shape::Tristate(_) => "optional",
        Shape::Seq(_) => "an array",
        Shape::Map(..) => "an object",
        Shape::String | Shape::Format(_) => "a string",
        Shape::Bool => "a boolean",
        Shape::Int(_) => "an integer",
        Shape::Float(_) => "a number",
        Shape::Value => "any JSON value",
        Shape::Unit => "null",
        Shape::Named(_) => "a type of its own",
        Shape::Unsupported => "not something the check knows",
    }
}

/// The `schemac_runtime::format` type of a format.
fn format_type(format: Format) -> &'static str {
    let i = FORMATS.iter().position(|f| *f == format).unwrap_or_default();
    FORMAT_TYPES.get(i).copied().unwrap_or_default()
}

fn format_keyword(format: Format) -> &'static str {
    let i = FORMATS.iter().position(|f| *f == format).unwrap_or_default();
    FORMAT_KEYWORDS.get(i).copied().unwrap_or_default()
}

/// In the order of [`FORMAT_TYPES`].
const FORMATS: &[Format] = &[
    Format::DateTime,
    Format::Date,
    Format::Time,
    Format::Duration,
    Format::Email,
    Format::Hostname,
    Format::Ipv4,
    Format::Ipv6,
    Format::Uri,
    Format::UriReference,
    Format::Uuid,
    Format::JsonPointer,
    Format::Regex,
    Format::IdnEmail,
    Format::IdnHostname,
    Format::Iri,
    Format::IriReference,
    Format::UriTemplate,
    Format::RelativeJsonPointer,
];

const FORMAT_KEYWORDS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "uuid",
    "json-pointer",
    "regex",
    "idn-email",
    "idn-hostname",
    "iri",
    "iri-reference",
    "uri-template",
    "relative-json-pointer",
];

fn tokens(ty: &Type) -> String {
    // `to_token_stream` spaces every token (`Vec < u8 >`); tighten the common cases.
    ty.to_token_stream()
        .to_string()
        .replace(" < ", "<")
        .replace(" <", "<")
        .replace("< ", "<")
        .replace(" >", ">")
        .replace(" ,", ",")
        .replace(" :: ", "::")
        .replace(":: ", "::")
        .replace("& ", "&")
}

fn list(names: &[&str]) -> String {
    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}

fn quoted_list(values: &[String]) -> String {
    values.iter().map(|v| format!("\"{v}\"")).collect::<Vec<_>>().join(", ")
}
