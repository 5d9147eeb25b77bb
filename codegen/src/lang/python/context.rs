//! The templates' context, built from the model: every name escaped, every
//! annotation, default and literal already written as Python, so the
//! templates only lay the code out.

use std::collections::HashSet;

use serde::Serialize;

use super::classes::{Classes, class_names};
use super::line::LINE;
use super::names;
use crate::lang::docs_text::first_paragraph;
use crate::model::{
    Deprecation, Field, Model, Origin, Primitive, Type, TypeDef, TypeId, TypeKind, Value, Variant,
};

/// Everything the templates see.
#[derive(Serialize)]
pub(crate) struct Package {
    /// Python package (import) name.
    pub(crate) package: String,
    /// Distribution name (pip).
    pub(crate) distribution: String,
    /// Version of the generator.
    pub(crate) version: &'static str,
    /// The `.tool` files' names, in path order.
    pub(crate) sources: Vec<String>,
    /// Types in dependency order.
    pub(crate) types: Vec<PyType>,
    /// Classes whose annotations name types defined after them.
    pub(crate) rebuild: Vec<String>,
    /// One entry per tool, or per action of action tools.
    pub(crate) envelopes: Vec<super::envelopes::Envelope>,
    /// Tools with actions.
    pub(crate) action_tools: Vec<String>,
    /// Registry entries: Python literals of the shared metadata.
    pub(crate) tools: Vec<String>,
    /// Each resource's registry entry, likewise.
    pub(crate) resources: Vec<String>,
    /// Each prompt's registry entry, likewise.
    pub(crate) prompts: Vec<String>,
}

/// A declared or generated type.
#[derive(Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum PyType {
    /// A `StrEnum`.
    Enum {
        name: String,
        doc: String,
        members: Vec<Member>,
    },
    /// A model.
    Struct(ModelClass),
    /// Variant models and the discriminated union of them.
    Union {
        name: String,
        doc: String,
        variants: Vec<ModelClass>,
    },
}

/// One enum member.
#[derive(Serialize)]
pub(crate) struct Member {
    name: String,
    value: String,
    doc: Option<String>,
}

/// A model class: a struct or a variant.
#[derive(Serialize)]
pub(crate) struct ModelClass {
    name: String,
    bases: String,
    doc: String,
    /// Wire tag (variants only).
    tag: Option<String>,
    /// `NOT_FOUND` (error variants only), as a literal.
    code: Option<String>,
    /// The error message, as a literal (error variants only).
    message: Option<String>,
    fields: Vec<PyField>,
}

/// One field of a model.
#[derive(Serialize)]
pub(crate) struct PyField {
    /// `name: annotation` and the value, if any.
    head: String,
    /// Arguments of `pydantic.Field(...)`, one per entry.
    args: Vec<String>,
    /// True when the declaration fits one line.
    inline: bool,
    /// `("attr", "wire", flags)`.
    layout: String,
}

/// Builds the context.
pub(crate) fn package(model: &Model, package: &str, distribution: &str) -> Package {
    let class_names = class_names(model);
    let in_request = model.request_types();
    let mut defined: HashSet<TypeId> = HashSet::new();
    let mut rebuild = Vec::new();
    let mut types = Vec::new();
    for &id in &model.type_order {
        let ty = model.type_def(id);
        let cx = Cx {
            classes: &class_names,
            defined: &defined,
            own: id,
        };
        let (py, forward) = cx.py_type(ty, in_request[id.index()]);
        rebuild.extend(forward);
        types.push(py);
        defined.insert(id);
    }
    let (envelopes, action_tools) = super::envelopes::envelopes(model, &class_names);
    Package {
        package: package.to_owned(),
        distribution: distribution.to_owned(),
        version: env!("CARGO_PKG_VERSION"),
        // File names only: the same catalogue loaded as `idl` or `../../idl`
        // (a build script) must generate the same bytes.
        sources: model
            .files
            .iter()
            .map(|f| {
                std::path::Path::new(&f.path)
                    .file_name()
                    .map_or_else(|| f.path.clone(), |n| n.to_string_lossy().into_owned())
            })
            .collect(),
        types,
        rebuild,
        envelopes,
        action_tools,
        tools: model
            .tools
            .iter()
            .map(|t| super::registry::tool_entry(model, t))
            .collect(),
        resources: model
            .resources
            .iter()
            .map(|r| super::registry::entry(&crate::lang::metadata::resource(model, r)))
            .collect(),
        prompts: model
            .prompts
            .iter()
            .map(|p| super::registry::entry(&crate::lang::metadata::prompt(model, p)))
            .collect(),
    }
}

struct Cx<'a> {
    classes: &'a Classes,
    defined: &'a HashSet<TypeId>,
    own: TypeId,
}

impl Cx<'_> {
    fn class(&self, id: TypeId) -> &str {
        &self.classes.types[id.index()]
    }

    /// The type and the classes that need `model_rebuild()` because they
    /// name types defined later.
    fn py_type(&self, ty: &TypeDef, in_request: bool) -> (PyType, Vec<String>) {
        let name = self.class(ty.id).to_owned();
        let doc = doc_or(ty.docs.as_deref(), ty.deprecated.as_ref(), || {
            match &ty.origin {
                Origin::Request { tool, action: None } => format!("The request of tool `{tool}`."),
                Origin::Response { tool, action: None } => {
                    format!("The response of tool `{tool}`.")
                }
                Origin::Request {
                    tool,
                    action: Some(a),
                } => format!("The request of action `{a}` of tool `{tool}`."),
                Origin::Response {
                    tool,
                    action: Some(a),
                } => format!("The response of action `{a}` of tool `{tool}`."),
                Origin::ResourceArguments { resource } => {
                    format!("The arguments of resource `{resource}`: its URI's variables.")
                }
                Origin::PromptArguments { prompt } => {
                    format!("The arguments of prompt `{prompt}`.")
                }
                Origin::Declared => format!("The `{}` type.", ty.name),
            }
        });
        let base = if in_request {
            "wire.RequestModel"
        } else {
            "wire.ResponseModel"
        };
        match &ty.kind {
            TypeKind::Enum(values) => (
                PyType::Enum {
                    name,
                    doc,
                    members: values
                        .iter()
                        .map(|v| Member {
                            name: names::member(&v.name),
                            value: names::string(&v.name),
                            doc: v.docs.as_deref().map(|d| {
                                names::docstring(&with_deprecation(d, v.deprecated.as_ref()), 4)
                            }),
                        })
                        .collect(),
                },
                Vec::new(),
            ),
            TypeKind::Struct(fields) => {
                let (fields, forward) = self.fields(fields);
                let rebuild = if forward {
                    vec![name.clone()]
                } else {
                    Vec::new()
                };
                (
                    PyType::Struct(ModelClass {
                        name,
                        bases: base.to_owned(),
                        doc,
                        tag: None,
                        code: None,
                        message: None,
                        fields,
                    }),
                    rebuild,
                )
            }
            TypeKind::Union(variants) | TypeKind::Error(variants) => {
                let error = matches!(ty.kind, TypeKind::Error(_));
                let mut rebuild = Vec::new();
                let variants = variants
                    .iter()
                    .enumerate()
                    .map(|(i, v)| {
                        let class = self.classes.variants[ty.id.index()][i].clone();
                        let (fields, forward) = self.fields(&v.fields);
                        if forward {
                            rebuild.push(class.clone());
                        }
                        self.variant(ty, v, class, base, error, fields)
                    })
                    .collect();
                (
                    PyType::Union {
                        name,
                        doc,
                        variants,
                    },
                    rebuild,
                )
            }
        }
    }

    fn variant(
        &self,
        ty: &TypeDef,
        v: &Variant,
        class: String,
        base: &str,
        error: bool,
        fields: Vec<PyField>,
    ) -> ModelClass {
        let doc = doc_or(v.docs.as_deref(), v.deprecated.as_ref(), || {
            format!("Variant `{}` of `{}`.", v.name, ty.name)
        });
        let code = v.code.clone().unwrap_or_default();
        ModelClass {
            name: class,
            bases: if error {
                format!("wire.ErrorVariant, {base}")
            } else {
                format!("wire.Variant, {base}")
            },
            doc,
            tag: Some(names::string(&v.name)),
            code: error.then(|| names::string(&code)),
            message: error
                .then(|| names::string(&first_paragraph(v.docs.as_deref()).unwrap_or(code))),
            fields,
        }
    }

    /// The fields, and whether any names a type not yet defined.
    fn fields(&self, fields: &[Field]) -> (Vec<PyField>, bool) {
        let mut forward = false;
        let out = fields
            .iter()
            .map(|f| {
                let (field, fwd) = self.field(f);
                forward |= fwd;
                field
            })
            .collect();
        (out, forward)
    }

    fn field(&self, f: &Field) -> (PyField, bool) {
        let attr = names::attribute(&f.name);
        let mut forward = false;
        let annotation = self.annotation(&f.ty, &mut forward);
        let annotation = if forward {
            names::string(&annotation)
        } else {
            annotation
        };
        let optional = matches!(f.ty, Type::Optional(_));
        let mut args = Vec::new();
        match (&f.default, optional) {
            (Some(value), _) => args.push(self.default(&f.ty, value)),
            (None, true) => args.push("default=None".to_owned()),
            (None, false) => {}
        }
        if attr != f.name {
            args.push(format!("alias={}", names::string(&f.name)));
        }
        constraints(f, &mut args);
        if let Some(d) = &f.deprecated {
            args.push(format!(
                "deprecated={}",
                names::string(d.reason.as_deref().unwrap_or("deprecated"))
            ));
        }
        if let Some(docs) = f.docs.as_deref().filter(|d| !d.trim().is_empty()) {
            args.push(format!("description={}", names::string(docs.trim())));
        }
        let mut flags = Vec::new();
        if optional {
            flags.push("wire.OPTIONAL");
        }
        if single(&f.ty) {
            flags.push("wire.SINGLE");
        }
        let flags = if flags.is_empty() {
            "0".to_owned()
        } else {
            flags.join(" | ")
        };
        let head = format!("{attr}: {annotation}");
        let inline = match args.as_slice() {
            [] => true,
            [one] => 4 + head.len() + " = pydantic.Field()".len() + one.len() <= LINE,
            _ => false,
        };
        (
            PyField {
                head,
                args,
                inline,
                layout: format!(
                    "({}, {}, {flags})",
                    names::string(&attr),
                    names::string(&f.name)
                ),
            },
            forward,
        )
    }

    fn annotation(&self, ty: &Type, forward: &mut bool) -> String {
        match ty {
            Type::Primitive(p) => primitive(*p).to_owned(),
            Type::List(inner) => format!("list[{}]", self.annotation(inner, forward)),
            Type::Map(inner) => format!("dict[str, {}]", self.annotation(inner, forward)),
            Type::Optional(inner) => format!("{} | None", self.annotation(inner, forward)),
            Type::Named(r) => {
                if r.id == self.own || !self.defined.contains(&r.id) {
                    *forward = true;
                }
                self.class(r.id).to_owned()
            }
        }
    }

    fn default(&self, ty: &Type, value: &Value) -> String {
        match value {
            Value::Bool(b) => format!("default={}", if *b { "True" } else { "False" }),
            Value::Int(i) => match ty.strip_optional() {
                Type::Primitive(p) if p.is_float() => format!("default={}", float(*i as f64)),
                _ => format!("default={i}"),
            },
            Value::Float(x) => format!("default={}", float(*x)),
            Value::String(s) => format!("default={}", names::string(s)),
            Value::EmptyList => "default_factory=list".to_owned(),
            Value::EnumValue(v) => match ty.strip_optional() {
                Type::Named(r) => format!("default={}.{}", self.class(r.id), names::member(v)),
                _ => format!("default={}", names::string(v)),
            },
            Value::Json(json) => match json {
                serde_json::Value::Array(_) | serde_json::Value::Object(_) => {
                    format!("default_factory=lambda: {}", json_literal(json))
                }
                other => format!("default={}", json_literal(other)),
            },
        }
    }
}

/// The docs (with a deprecation note), or `fallback`.
fn doc_or(
    docs: Option<&str>,
    deprecated: Option<&Deprecation>,
    fallback: impl FnOnce() -> String,
) -> String {
    let text = match docs {
        Some(d) if !d.trim().is_empty() => d.trim().to_owned(),
        _ => fallback(),
    };
    names::docstring(&with_deprecation(&text, deprecated), 4)
}

fn with_deprecation(text: &str, deprecated: Option<&Deprecation>) -> String {
    match deprecated {
        None => text.trim().to_owned(),
        Some(Deprecation { reason: Some(r) }) => format!("{}\n\nDeprecated: {r}", text.trim()),
        Some(Deprecation { reason: None }) => format!("{}\n\nDeprecated.", text.trim()),
    }
}

fn constraints(f: &Field, args: &mut Vec<String>) {
    let c = &f.constraints;
    if let Some((low, high)) = c.range {
        let is_float = matches!(f.ty.strip_optional(), Type::Primitive(p) if p.is_float());
        let number = |n: crate::model::Number| match n {
            crate::model::Number::Int(i) if !is_float => i.to_string(),
            other => float(other.as_f64()),
        };
        args.push(format!("ge={}", number(low)));
        args.push(format!("le={}", number(high)));
    }
    if let Some((low, high)) = c.length {
        args.push(format!("min_length={low}"));
        args.push(format!("max_length={high}"));
    }
    if let Some(pattern) = &c.pattern {
        // pydantic's engine is the `regex` crate: the translation spells
        // out what ECMA-262's classes mean.
        args.push(format!(
            "pattern={}",
            names::string(&crate::pattern::python(pattern))
        ));
    }
}

/// A Python float literal that reads back as `x`.
fn float(x: f64) -> String {
    if x.is_nan() {
        "float(\"nan\")".to_owned()
    } else if x.is_infinite() {
        if x > 0.0 {
            "float(\"inf\")"
        } else {
            "float(\"-inf\")"
        }
        .to_owned()
    } else {
        format!("{x:?}")
    }
}

fn json_literal(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Null => "None".to_owned(),
        serde_json::Value::Bool(b) => if *b { "True" } else { "False" }.to_owned(),
        serde_json::Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (_, Some(u), _) => u.to_string(),
            (_, _, Some(f)) => float(f),
            _ => "None".to_owned(),
        },
        serde_json::Value::String(s) => names::string(s),
        serde_json::Value::Array(items) => format!(
            "[{}]",
            items
                .iter()
                .map(json_literal)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        serde_json::Value::Object(map) => format!(
            "{{{}}}",
            map.iter()
                .map(|(k, v)| format!("{}: {}", names::string(k), json_literal(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn primitive(p: Primitive) -> &'static str {
    match p {
        Primitive::Bool => "wire.Bool",
        Primitive::I8 => "wire.I8",
        Primitive::I16 => "wire.I16",
        Primitive::I32 => "wire.I32",
        Primitive::I64 => "wire.I64",
        Primitive::U8 => "wire.U8",
        Primitive::U16 => "wire.U16",
        Primitive::U32 => "wire.U32",
        Primitive::U64 => "wire.U64",
        Primitive::F32 => "wire.F32",
        Primitive::F64 => "wire.F64",
        Primitive::String => "wire.Str",
        Primitive::Bytes => "wire.Bytes",
        Primitive::Json => "wire.Json",
    }
}

/// True when the floats in a field's type are `f32`.
fn single(ty: &Type) -> bool {
    match ty {
        Type::Primitive(p) => *p == Primitive::F32,
        Type::List(inner) | Type::Map(inner) | Type::Optional(inner) => single(inner),
        Type::Named(_) => false,
    }
}
