//! What every emitter needs: the model, the runtime's path, and facts
//! computed once (which types a request reaches, what is deprecated).

use proc_macro2::TokenStream;
use quote::quote;

use super::names;
use crate::model::{
    Deprecation, Field, Model, Primitive, Tool, ToolKind, Type, TypeDef, TypeId, TypeKind, Value,
};
use crate::{Options, Side};

/// The emitters' shared context.
pub(crate) struct Cx<'a> {
    pub(crate) model: &'a Model,
    /// `::toolwright::__private`: every path into the runtime starts here.
    pub(crate) rt: TokenStream,
    /// The same path as text (for the catalogue macro, written as text).
    pub(crate) rt_path: String,
    /// The runtime's serde, for `#[serde(crate = "...")]`.
    pub(crate) serde_crate: String,
    /// Which way the crate moves values.
    pub(crate) side: Side,
    /// The crate feature that turns on `schemars::JsonSchema`, if any.
    pub(crate) schemars: Option<String>,
    /// Indexed by type id: true when a request can contain the type.
    in_request: Vec<bool>,
    /// Indexed by type id: its serde derives, `(Serialize, Deserialize)`.
    serde: Vec<(bool, bool)>,
    /// Indexed by type id: true when a value of it can break a constraint.
    validated: Vec<bool>,
    /// Indexed by type id: true when it is a tool's own request, or a
    /// resource's or prompt's arguments.
    tool_request: Vec<bool>,
    /// Indexed by type id: estimated size in bytes (see `layout`).
    sizes: Vec<usize>,
}

impl<'a> Cx<'a> {
    pub(crate) fn new(model: &'a Model, options: &Options) -> Self {
        let private = format!("{}::__private", options.runtime_crate);
        let rt = syn::parse_str::<syn::Path>(&private)
            .map_or_else(|_| quote!(::toolwright::__private), |p| quote!(#p));
        Cx {
            model,
            rt,
            serde_crate: format!("{private}::serde"),
            rt_path: private,
            side: options.side,
            schemars: options.schemars_feature.clone(),
            serde: serde_derives(model, options.side),
            in_request: model.request_types(),
            validated: super::constrained::validated(model),
            tool_request: tool_requests(model),
            sizes: super::layout::sizes(model),
        }
    }

    /// True when a request can contain this type: its structs reject
    /// unknown fields.
    pub(crate) fn in_request(&self, id: TypeId) -> bool {
        self.in_request.get(id.index()).copied().unwrap_or(false)
    }

    /// The serde derives of a named type, as the crate's side needs them:
    /// `(Serialize, Deserialize)`.
    pub(crate) fn serde_derives(&self, id: TypeId) -> (bool, bool) {
        self.serde.get(id.index()).copied().unwrap_or((true, true))
    }

    /// True when a value of this type can break a constraint, in a field of
    /// its own or in a type it holds: it gets a `Validate` impl.
    pub(crate) fn validated(&self, id: TypeId) -> bool {
        self.validated.get(id.index()).copied().unwrap_or(false)
    }

    /// True when the type is the request of a (non-action) tool: it
    /// implements `Validate` whether or not it has anything to check.
    pub(crate) fn tool_request(&self, id: TypeId) -> bool {
        self.tool_request.get(id.index()).copied().unwrap_or(false)
    }

    /// Estimated size of a named type, in bytes.
    pub(crate) fn size(&self, id: TypeId) -> usize {
        self.sizes.get(id.index()).copied().unwrap_or(8)
    }

    /// Estimated size of a field list, in bytes.
    pub(crate) fn fields_size(&self, fields: &[Field]) -> usize {
        super::layout::fields_size(&self.sizes, fields)
    }

    pub(crate) fn type_def(&self, id: TypeId) -> &'a TypeDef {
        self.model.type_def(id)
    }

    /// The type's identifier (`Region`).
    pub(crate) fn type_name(&self, id: TypeId) -> TokenStream {
        let ident = names::type_ident(&self.type_def(id).name);
        quote!(#ident)
    }

    /// `#[serde(crate = "::toolwright::__private::serde")]` plus more
    /// container attributes.
    pub(crate) fn serde_attr(&self, extra: TokenStream) -> TokenStream {
        let krate = &self.serde_crate;
        if extra.is_empty() {
            quote!(#[serde(crate = #krate)])
        } else {
            quote!(#[serde(crate = #krate, #extra)])
        }
    }

    /// The Rust type of a field type.
    pub(crate) fn ty(&self, ty: &Type) -> TokenStream {
        let rt = &self.rt;
        match ty {
            Type::Primitive(p) => primitive(*p, rt),
            Type::List(inner) => {
                let inner = self.ty(inner);
                quote!(::std::vec::Vec<#inner>)
            }
            Type::Map(inner) => {
                let inner = self.ty(inner);
                quote!(#rt::BTreeMap<::std::string::String, #inner>)
            }
            Type::Optional(inner) => {
                let inner = self.ty(inner);
                quote!(::core::option::Option<#inner>)
            }
            Type::Named(r) => self.type_name(r.id),
        }
    }

    /// The Rust type of a field: its type, boxed when it contains its owner
    /// again without a list or map in between.
    pub(crate) fn field_ty(&self, field: &Field) -> TokenStream {
        if !field.indirect {
            return self.ty(&field.ty);
        }
        match &field.ty {
            Type::Optional(inner) => {
                let inner = self.ty(inner);
                quote!(::core::option::Option<::std::boxed::Box<#inner>>)
            }
            other => {
                let inner = self.ty(other);
                quote!(::std::boxed::Box<#inner>)
            }
        }
    }

    /// True when the type is `@deprecated`.
    pub(crate) fn type_deprecated(&self, id: TypeId) -> bool {
        self.type_def(id).deprecated.is_some()
    }

    /// True when a field type names a deprecated type.
    pub(crate) fn mentions_deprecated(&self, ty: &Type) -> bool {
        match ty {
            Type::Primitive(_) => false,
            Type::List(inner) | Type::Map(inner) | Type::Optional(inner) => {
                self.mentions_deprecated(inner)
            }
            Type::Named(r) => self.type_deprecated(r.id),
        }
    }

    /// True when code about this type (its impls, its derives) names
    /// something deprecated: the type itself, one of its fields, variants or
    /// values, a type it contains, or an enum value a default picks.
    pub(crate) fn type_touches_deprecated(&self, ty: &TypeDef) -> bool {
        let field = |f: &Field| {
            f.deprecated.is_some()
                || self.mentions_deprecated(&f.ty)
                || matches!(
                    (&f.default, f.ty.strip_optional()),
                    (Some(Value::EnumValue(v)), Type::Named(r)) if self.enum_value_deprecated(r.id, v)
                )
        };
        ty.deprecated.is_some()
            || match &ty.kind {
                TypeKind::Struct(fields) => fields.iter().any(field),
                TypeKind::Enum(values) => values.iter().any(|v| v.deprecated.is_some()),
                TypeKind::Union(variants) | TypeKind::Error(variants) => variants
                    .iter()
                    .any(|v| v.deprecated.is_some() || v.fields.iter().any(field)),
            }
    }

    fn enum_value_deprecated(&self, id: TypeId, value: &str) -> bool {
        match &self.type_def(id).kind {
            TypeKind::Enum(values) => values
                .iter()
                .any(|v| v.name == value && v.deprecated.is_some()),
            _ => false,
        }
    }

    /// True when code about this tool names something deprecated: the tool,
    /// one of its actions, or a type it uses.
    pub(crate) fn tool_touches_deprecated(&self, tool: &Tool) -> bool {
        let types = tool.types();
        tool.deprecated.is_some()
            || types.iter().any(|&id| self.type_deprecated(id))
            || matches!(&tool.kind, ToolKind::Actions(actions) if actions.iter().any(|a| a.deprecated.is_some()))
    }

    /// True when anything in the catalogue is deprecated: the catalogue-wide
    /// items name every tool and type.
    pub(crate) fn any_deprecated(&self) -> bool {
        self.model
            .tools
            .iter()
            .any(|t| self.tool_touches_deprecated(t))
            || self
                .model
                .types
                .iter()
                .any(|t| self.type_touches_deprecated(t))
    }

    /// True when the tool comes from a built-in file (the job tools).
    pub(crate) fn builtin(&self, tool: &Tool) -> bool {
        self.model.is_builtin(&tool.location)
    }
}

/// `#[allow(deprecated)]` when `yes`: generated code that names a
/// deprecated item must not warn in the user's crate.
pub(crate) fn allow_deprecated(yes: bool) -> TokenStream {
    if yes {
        quote!(#[allow(deprecated)])
    } else {
        TokenStream::new()
    }
}

/// `#[deprecated(note = "...")]` for `@deprecated("...")`.
pub(crate) fn deprecated_attr(deprecation: Option<&Deprecation>) -> TokenStream {
    match deprecation {
        None => TokenStream::new(),
        Some(Deprecation { reason: Some(note) }) => quote!(#[deprecated(note = #note)]),
        Some(Deprecation { reason: None }) => quote!(#[deprecated]),
    }
}

fn primitive(p: Primitive, rt: &TokenStream) -> TokenStream {
    match p {
        Primitive::Bool => quote!(bool),
        Primitive::I8 => quote!(i8),
        Primitive::I16 => quote!(i16),
        Primitive::I32 => quote!(i32),
        Primitive::I64 => quote!(i64),
        Primitive::U8 => quote!(u8),
        Primitive::U16 => quote!(u16),
        Primitive::U32 => quote!(u32),
        Primitive::U64 => quote!(u64),
        Primitive::F32 => quote!(f32),
        Primitive::F64 => quote!(f64),
        Primitive::String => quote!(::std::string::String),
        Primitive::Bytes => quote!(#rt::Bytes),
        Primitive::Json => quote!(#rt::Json),
    }
}

/// Each type's serde derives, `(Serialize, Deserialize)`, as `side` calls
/// them, indexed by type id.
fn serde_derives(model: &Model, side: Side) -> Vec<(bool, bool)> {
    let requests = model.request_types();
    let responses = model.response_types();
    let errors = model.error_types();
    // A `@form` struct, and the enums it holds, decode what a user gave.
    let mut reached = std::collections::HashSet::new();
    model.reach(
        model.types.iter().filter(|d| d.form).map(|d| d.id),
        &mut reached,
    );
    let forms = model.types.iter().map(|d| reached.contains(&d.id));
    requests
        .iter()
        .zip(&responses)
        .zip(&errors)
        .zip(forms)
        .map(|(((&request, &response), &error), form)| {
            (
                // Typed errors become `ToolError` details by serializing,
                // on either side (`IntoToolError`).
                side.serializes(request, response) || error,
                side.deserializes(request, response) || form,
            )
        })
        .collect()
}

/// Indexed by type id: true for the request of a tool without actions.
fn tool_requests(model: &Model) -> Vec<bool> {
    let mut marked = vec![false; model.types.len()];
    let singles = model.tools.iter().filter_map(|tool| match &tool.kind {
        ToolKind::Single(endpoint) => endpoint.request,
        ToolKind::Actions(_) => None,
    });
    // A resource's or prompt's arguments are decoded and checked as a
    // tool's request is.
    let entries = model.resources.iter().filter_map(|r| r.arguments);
    let entries = entries.chain(model.prompts.iter().filter_map(|p| p.arguments));
    for id in singles.chain(entries) {
        if let Some(slot) = marked.get_mut(id.index()) {
            *slot = true;
        }
    }
    marked
}
