//! The template context: everything the templates print, worked out from
//! the model here so the templates only lay it out.

use std::collections::BTreeSet;

use serde::Serialize;

use super::names;
use crate::lang::docs_text::with_examples;
use crate::model::{
    Constraints, Deprecation, Field, Model, Number, Origin, Primitive, ToolKind, Type, TypeDef,
    TypeId, TypeKind, Value,
};

/// The whole catalogue, ready to print.
#[derive(Serialize)]
pub(crate) struct Context {
    /// Named types, dependencies first.
    pub(crate) types: Vec<TypeCtx>,
    /// Tools in catalogue order.
    pub(crate) tools: Vec<ToolCtx>,
    /// True when some tool has actions.
    pub(crate) has_actions: bool,
    /// Each resource's registry entry (the shared metadata), a JSON literal.
    pub(crate) resources: Vec<String>,
    /// Each prompt's registry entry, likewise.
    pub(crate) prompts: Vec<String>,
}

/// One named type.
#[derive(Serialize)]
pub(crate) struct TypeCtx {
    /// The IDL name (shape table key).
    pub(crate) idl: String,
    /// The TypeScript name.
    pub(crate) name: String,
    /// The zod schema's name.
    pub(crate) schema: String,
    /// The struct field table's name.
    pub(crate) fields_name: String,
    /// The error code map's name (errors only).
    pub(crate) codes_name: String,
    /// `struct`, `enum`, `union` or `error`.
    pub(crate) kind: &'static str,
    /// The TSDoc block, indented by nothing.
    pub(crate) doc: String,
    /// Struct fields.
    pub(crate) fields: Vec<FieldCtx>,
    /// Enum values as string literals.
    pub(crate) values: Vec<ValueCtx>,
    /// Union or error variants.
    pub(crate) variants: Vec<VariantCtx>,
    /// True when the type can appear in a request: unknown keys are refused.
    pub(crate) strict: bool,
}

/// A field of a struct or variant.
#[derive(Serialize)]
pub(crate) struct FieldCtx {
    /// The property as an interface writes it.
    pub(crate) property: String,
    /// The key as an object literal writes it.
    pub(crate) key: String,
    /// The wire name, quoted.
    pub(crate) wire: String,
    /// `?` when callers may leave it out.
    pub(crate) optional: &'static str,
    /// The TypeScript type.
    pub(crate) ts: String,
    /// The zod schema expression.
    pub(crate) zod: String,
    /// The shape expression.
    pub(crate) shape: String,
    /// The TSDoc block.
    pub(crate) doc: String,
}

/// An enum value.
#[derive(Serialize)]
pub(crate) struct ValueCtx {
    /// The quoted wire string.
    pub(crate) literal: String,
    /// The TSDoc block.
    pub(crate) doc: String,
}

/// A union or error variant.
#[derive(Serialize)]
pub(crate) struct VariantCtx {
    /// The property (tag).
    pub(crate) property: String,
    /// The object key (tag).
    pub(crate) key: String,
    /// The quoted tag.
    pub(crate) wire: String,
    /// The quoted error code (errors only).
    pub(crate) code: String,
    /// The TSDoc block.
    pub(crate) doc: String,
    /// Its fields.
    pub(crate) fields: Vec<FieldCtx>,
}

/// A tool.
#[derive(Serialize)]
pub(crate) struct ToolCtx {
    /// The quoted wire name.
    pub(crate) wire: String,
    /// The property key of maps by tool.
    pub(crate) property: String,
    /// The TSDoc block.
    pub(crate) doc: String,
    /// One endpoint (`None` for action tools).
    pub(crate) endpoint: Option<EndpointCtx>,
    /// The actions of an action tool.
    pub(crate) actions: Vec<EndpointCtx>,
    /// The metadata as JSON (a TypeScript expression).
    pub(crate) metadata: String,
}

/// A tool's or action's request and response.
#[derive(Serialize)]
pub(crate) struct EndpointCtx {
    /// The quoted action name (action tools only).
    pub(crate) action: String,
    /// The property key of the action.
    pub(crate) property: String,
    /// The TSDoc block.
    pub(crate) doc: String,
    /// The request's TypeScript type with its tag: `{ tool: "add" } & AddRequest`.
    pub(crate) request_ts: String,
    /// The request's arguments type (what `callTool` takes).
    pub(crate) args_ts: String,
    /// The response's TypeScript type with its tag.
    pub(crate) response_ts: String,
    /// The response data type (what `callTool` gives).
    pub(crate) data_ts: String,
    /// zod for the tagged request.
    pub(crate) request_zod: String,
    /// zod for the tagged response.
    pub(crate) response_zod: String,
    /// Quoted IDL name of the request struct, or `null`.
    pub(crate) request_shape: String,
    /// Quoted IDL name of the response struct, or `null`.
    pub(crate) response_shape: String,
}

impl Context {
    /// Works out the context of `model`.
    pub(crate) fn new(model: &Model) -> Context {
        let strict = model.request_types();
        let mut defined = BTreeSet::new();
        let mut types = Vec::new();
        for &id in &model.type_order {
            let def = model.type_def(id);
            types.push(type_ctx(model, def, &defined, strict[id.index()]));
            defined.insert(id);
        }
        let tools = model.tools.iter().map(|t| tool_ctx(model, t)).collect();
        Context {
            types,
            tools,
            has_actions: model.action_count() > 0,
            resources: model
                .resources
                .iter()
                .map(|r| literal(&crate::lang::metadata::resource(model, r)))
                .collect(),
            prompts: model
                .prompts
                .iter()
                .map(|p| literal(&crate::lang::metadata::prompt(model, p)))
                .collect(),
        }
    }
}

fn type_ctx(model: &Model, def: &TypeDef, defined: &BTreeSet<TypeId>, strict: bool) -> TypeCtx {
    let cx = FieldCx {
        model,
        defined,
        self_id: def.id,
    };
    let (kind, fields, values, variants) = match &def.kind {
        TypeKind::Struct(fields) => (
            "struct",
            fields.iter().map(|f| cx.field(f, 2)).collect(),
            vec![],
            vec![],
        ),
        TypeKind::Enum(values) => (
            "enum",
            vec![],
            values
                .iter()
                .map(|v| ValueCtx {
                    literal: names::quote(&v.name),
                    doc: tsdoc(v.docs.as_deref(), v.deprecated.as_ref(), 2),
                })
                .collect(),
            vec![],
        ),
        TypeKind::Union(vs) | TypeKind::Error(vs) => (
            if matches!(def.kind, TypeKind::Error(_)) {
                "error"
            } else {
                "union"
            },
            vec![],
            vec![],
            vs.iter()
                .map(|v| VariantCtx {
                    property: names::property(&v.name),
                    key: names::object_key(&v.name),
                    wire: names::quote(&v.name),
                    code: names::quote(v.code.as_deref().unwrap_or_default()),
                    doc: tsdoc(v.docs.as_deref(), v.deprecated.as_ref(), 6),
                    fields: v.fields.iter().map(|f| cx.field(f, 8)).collect(),
                })
                .collect(),
        ),
    };
    TypeCtx {
        idl: names::quote(&def.name),
        name: names::type_name(&def.name),
        schema: names::schema_name(&def.name),
        fields_name: names::fields_name(&def.name),
        codes_name: names::codes_name(&def.name),
        kind,
        doc: tsdoc(
            def.docs
                .clone()
                .or_else(|| origin_docs(&def.origin))
                .as_deref(),
            def.deprecated.as_ref(),
            0,
        ),
        fields,
        values,
        variants,
        strict,
    }
}

/// Docs for a request or response struct the IDL left undocumented.
fn origin_docs(origin: &Origin) -> Option<String> {
    let (what, tool, action) = match origin {
        Origin::Declared => return None,
        Origin::Request { tool, action } => ("The arguments of", tool, action),
        Origin::Response { tool, action } => ("The response of", tool, action),
        Origin::ResourceArguments { resource } => {
            return Some(format!(
                "The arguments of resource `{resource}`: its URI's variables."
            ));
        }
        Origin::PromptArguments { prompt } => {
            return Some(format!("The arguments of prompt `{prompt}`."));
        }
    };
    Some(match action {
        Some(action) => format!("{what} `{tool}`'s `{action}` action."),
        None => format!("{what} `{tool}`."),
    })
}

struct FieldCx<'a> {
    model: &'a Model,
    defined: &'a BTreeSet<TypeId>,
    self_id: TypeId,
}

impl FieldCx<'_> {
    fn field(&self, f: &Field, indent: usize) -> FieldCtx {
        let inner = f.ty.strip_optional();
        let mut zod = self.zod(inner, &f.constraints);
        if let Some(value) = &f.default {
            zod = format!("{zod}.default({})", default_expr(value));
        } else if !f.required {
            zod = format!("{zod}.optional()");
        }
        FieldCtx {
            property: names::property(&f.name),
            key: names::object_key(&f.name),
            wire: names::quote(&f.name),
            optional: if f.required { "" } else { "?" },
            ts: ts_type(inner),
            zod,
            shape: shape(&f.ty),
            doc: tsdoc(field_docs(f).as_deref(), f.deprecated.as_ref(), indent),
        }
    }

    fn zod(&self, ty: &Type, c: &Constraints) -> String {
        let length = c.length.map(|(lo, hi)| format!("{lo}, {hi}"));
        match ty {
            Type::Primitive(p) => match p {
                Primitive::Bool => "z.boolean()".to_owned(),
                Primitive::String => match (&length, &c.pattern) {
                    (None, None) => "v.string()".to_owned(),
                    (Some(l), None) => format!("v.string({l})"),
                    (l, Some(re)) => format!(
                        "v.string({}, {})",
                        l.as_deref().unwrap_or("undefined, undefined"),
                        names::quote(re)
                    ),
                },
                Primitive::Bytes => format!("v.bytes({})", length.unwrap_or_default()),
                Primitive::Json => "v.json".to_owned(),
                Primitive::F32 | Primitive::F64 => {
                    format!("v.float(\"{}\"{})", p.as_str(), range(c))
                }
                _ => format!("v.int(\"{}\"{})", p.as_str(), range(c)),
            },
            Type::List(t) => format!(
                "v.list({}{})",
                self.zod(t, &Constraints::default()),
                length.map(|l| format!(", {l}")).unwrap_or_default()
            ),
            Type::Map(t) => format!(
                "v.map({}{})",
                self.zod(t, &Constraints::default()),
                length.map(|l| format!(", {l}")).unwrap_or_default()
            ),
            Type::Optional(t) => self.zod(t, c),
            Type::Named(r) => {
                let schema = names::schema_name(&self.model.type_def(r.id).name);
                // A type not yet defined (a cycle, or itself) is reached lazily.
                if self.defined.contains(&r.id) && r.id != self.self_id {
                    schema
                } else {
                    format!("z.lazy(() => {schema})")
                }
            }
        }
    }
}

fn range(c: &Constraints) -> String {
    match c.range {
        Some((lo, hi)) => format!(", {}, {}", number(lo), number(hi)),
        None => String::new(),
    }
}

fn number(n: Number) -> String {
    match n {
        Number::Int(i) => i.to_string(),
        Number::Float(f) => serde_json::to_string(&f).unwrap_or_else(|_| f.to_string()),
    }
}

/// A field's docs, with its `@range`/`@length`/`@pattern` noted.
fn field_docs(f: &Field) -> Option<String> {
    let mut notes = Vec::new();
    if let Some((lo, hi)) = f.constraints.range {
        notes.push(format!("Range: {lo} to {hi}."));
    }
    if let Some((lo, hi)) = f.constraints.length {
        notes.push(format!("Length: {lo} to {hi}."));
    }
    if let Some(re) = &f.constraints.pattern {
        notes.push(format!("Pattern: `{re}`."));
    }
    if let Some(value) = &f.default {
        notes.push(format!("@defaultValue `{}`", default_expr(value)));
    }
    match (&f.docs, notes.is_empty()) {
        (docs, true) => docs.clone(),
        (Some(d), false) => Some(format!("{d}\n\n{}", notes.join("\n"))),
        (None, false) => Some(notes.join("\n")),
    }
}

/// A default value as a TypeScript expression (a fresh array each time).
fn default_expr(value: &Value) -> String {
    match value {
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => serde_json::to_string(f).unwrap_or_else(|_| f.to_string()),
        Value::String(s) | Value::EnumValue(s) => names::quote(s),
        Value::EmptyList => "() => []".to_owned(),
        Value::Json(j) => {
            let text = serde_json::to_string(j).unwrap_or_else(|_| "null".to_owned());
            if j.is_object() || j.is_array() {
                format!("() => ({text})")
            } else {
                text
            }
        }
    }
}

/// The TypeScript type of a field's type (without its outer `?`).
fn ts_type(ty: &Type) -> String {
    match ty {
        Type::Primitive(p) => match p {
            Primitive::Bool => "boolean",
            Primitive::String => "string",
            Primitive::Bytes => "Uint8Array",
            Primitive::Json => "JsonValue",
            _ => "number",
        }
        .to_owned(),
        Type::List(t) => format!("{}[]", ts_type(t)),
        Type::Map(t) => format!("Record<string, {}>", ts_type(t)),
        Type::Optional(t) => ts_type(t),
        Type::Named(r) => names::type_name(&r.name),
    }
}

/// The shape expression of a field's type.
fn shape(ty: &Type) -> String {
    match ty {
        Type::Primitive(p) => format!("\"{}\"", p.as_str()),
        Type::List(t) => format!("[\"list\", {}]", shape(t)),
        Type::Map(t) => format!("[\"map\", {}]", shape(t)),
        Type::Optional(t) => format!("[\"opt\", {}]", shape(t)),
        Type::Named(r) => format!("[\"ref\", {}]", names::quote(&r.name)),
    }
}

/// A TSDoc block indented by `indent` spaces, ending in a newline; empty
/// without docs.
pub(crate) fn tsdoc(docs: Option<&str>, deprecated: Option<&Deprecation>, indent: usize) -> String {
    let mut lines: Vec<String> = docs
        .map(|d| d.lines().map(|l| l.replace("*/", "*\\/")).collect())
        .unwrap_or_default();
    if let Some(dep) = deprecated {
        if !lines.is_empty() {
            lines.push(String::new());
        }
        lines.push(match &dep.reason {
            Some(r) => format!("@deprecated {}", r.replace("*/", "*\\/")),
            None => "@deprecated".to_owned(),
        });
    }
    if lines.is_empty() {
        return String::new();
    }
    let pad = " ".repeat(indent);
    if lines.len() == 1 {
        return format!("{pad}/** {} */\n", lines[0]);
    }
    let mut out = format!("{pad}/**\n");
    for line in lines {
        if line.is_empty() {
            out.push_str(&format!("{pad} *\n"));
        } else {
            out.push_str(&format!("{pad} * {line}\n"));
        }
    }
    out.push_str(&format!("{pad} */\n"));
    out
}

fn tool_ctx(model: &Model, tool: &crate::model::Tool) -> ToolCtx {
    let wire = names::quote(&tool.name);
    let endpoint_ctx = |action: Option<&str>,
                        ep: &crate::model::Endpoint,
                        docs: Option<&str>,
                        dep| {
        // The tag keys, then the body under `args` / `data`: a request or
        // response struct may itself have a field named `tool` or `action`.
        let tag_ts = match action {
            Some(a) => format!("tool: {wire}; action: {}", names::quote(a)),
            None => format!("tool: {wire}"),
        };
        let tag_zod = match action {
            Some(a) => format!(
                "tool: z.literal({wire}), action: z.literal({})",
                names::quote(a)
            ),
            None => format!("tool: z.literal({wire})"),
        };
        let action_tag = action.map(|a| format!("{{ action: {} }}", names::quote(a)));
        let side = |id: Option<TypeId>,
                    key: &str,
                    object: &str|
         -> (String, String, String, String) {
            match id {
                Some(id) => {
                    let def = model.type_def(id);
                    let ty = names::type_name(&def.name);
                    (
                        format!("{{ {tag_ts}; {key}: {ty} }}"),
                        ty,
                        format!(
                            "z.{object}({{ {tag_zod}, {key}: {} }})",
                            names::schema_name(&def.name)
                        ),
                        names::quote(&def.name),
                    )
                }
                None => (
                    format!("{{ {tag_ts}; {key}?: Record<string, never> }}"),
                    "Record<string, never>".to_owned(),
                    format!("z.{object}({{ {tag_zod}, {key}: z.strictObject({{}}).optional() }})"),
                    "null".to_owned(),
                ),
            }
        };
        let (request_ts, args, request_zod, request_shape) =
            side(ep.request, "args", "strictObject");
        let args_ts = match &action_tag {
            Some(a) if args == "Record<string, never>" => a.clone(),
            Some(a) => format!("{a} & {args}"),
            None => args,
        };
        let (response_ts, data_ts, response_zod, response_shape) =
            side(ep.response, "data", "object");
        EndpointCtx {
            action: action.map(names::quote).unwrap_or_default(),
            property: action.map(names::property).unwrap_or_default(),
            doc: tsdoc(docs, dep, 4),
            request_ts,
            args_ts,
            response_ts,
            data_ts,
            request_zod,
            response_zod,
            request_shape,
            response_shape,
        }
    };
    let (endpoint, actions) = match &tool.kind {
        ToolKind::Single(ep) => (Some(endpoint_ctx(None, ep, None, None)), Vec::new()),
        ToolKind::Actions(actions) => (
            None,
            actions
                .iter()
                .map(|a| {
                    let docs = with_examples(a.docs.as_deref(), &a.examples);
                    endpoint_ctx(
                        Some(&a.name),
                        &a.endpoint,
                        docs.as_deref(),
                        a.deprecated.as_ref(),
                    )
                })
                .collect(),
        ),
    };
    ToolCtx {
        wire,
        property: names::property(&tool.name),
        doc: tsdoc(
            with_examples(tool.docs.as_deref(), &tool.examples).as_deref(),
            tool.deprecated.as_ref(),
            2,
        ),
        endpoint,
        actions,
        metadata: literal(&crate::lang::metadata::entry(model, tool)),
    }
}

/// A registry entry (the shared metadata of a tool, resource or prompt),
/// as a JSON literal indented for a place inside an array.
fn literal(entry: &impl Serialize) -> String {
    let text = serde_json::to_string_pretty(entry).unwrap_or_default();
    text.lines()
        .map(|l| {
            if l.is_empty() {
                String::new()
            } else {
                format!("  {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}
