//! Declared and generated types: structs, enums, unions and errors.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::context::{Cx, allow_deprecated, deprecated_attr};
use super::{docs, layout, names, values};
use crate::lang::docs_text;
use crate::model::{EnumValue, Field, Origin, Primitive, Type, TypeDef, TypeId, TypeKind, Variant};

/// Every item of one type: its definition and its impls.
pub(crate) fn type_def(cx: &Cx<'_>, ty: &TypeDef) -> TokenStream {
    let validate = super::emit_validate::type_impl(cx, ty);
    let definition = match &ty.kind {
        TypeKind::Struct(fields) => structure(cx, ty, fields),
        TypeKind::Enum(values) => enumeration(cx, ty, values),
        TypeKind::Union(variants) => union(cx, ty, variants),
        TypeKind::Error(variants) => {
            let definition = union(cx, ty, variants);
            let impls = error_impls(cx, ty, variants);
            quote!(#definition #impls)
        }
    };
    let form = form_impl(cx, ty);
    quote!(#definition #validate #form)
}

/// `impl Form` for a `@form` struct: its requested schema as JSON text.
fn form_impl(cx: &Cx<'_>, ty: &TypeDef) -> TokenStream {
    if !ty.form {
        return TokenStream::new();
    }
    let Some(schema) = crate::lang::schema::form_schema(cx.model, ty) else {
        return TokenStream::new();
    };
    let rt = &cx.rt;
    let name = names::type_ident(&ty.name);
    // A raw string, so the JSON reads as JSON.
    let schema: proc_macro2::Literal = super::raw_str(&schema.to_string())
        .parse()
        .expect("a raw string literal is a literal");
    quote! {
        impl #rt::Form for #name {
            const SCHEMA: &'static str = #schema;
        }
    }
}

/// The type's docs, or a line saying what it is.
fn type_docs(cx: &Cx<'_>, ty: &TypeDef) -> TokenStream {
    docs::or(ty.docs.as_deref(), || match &ty.origin {
        Origin::Declared => {
            let category = cx
                .model
                .files
                .get(ty.location.file)
                .map_or("", |f| f.category.as_str());
            format!("The `{}` type of the `{category}` category.", ty.name)
        }
        Origin::Request { tool, action } => of_tool("request", tool, action.as_deref()),
        Origin::Response { tool, action } => of_tool("response", tool, action.as_deref()),
        Origin::ResourceArguments { resource } => {
            format!("The arguments of resource `{resource}`: its URI's variables.")
        }
        Origin::PromptArguments { prompt } => format!("The arguments of prompt `{prompt}`."),
    })
}

fn of_tool(what: &str, tool: &str, action: Option<&str>) -> String {
    match action {
        None => format!("The {what} of tool `{tool}`."),
        Some(action) => format!("The {what} of action `{action}` of tool `{tool}`."),
    }
}

/// The derives of a generated type: `Clone`, `Debug`, `PartialEq`, the
/// serde halves the crate's side needs, and for plain values `Copy`, `Eq`
/// and `Hash`; `Default` when asked.
fn derives(cx: &Cx<'_>, id: TypeId, plain: bool, default: bool) -> TokenStream {
    let rt = &cx.rt;
    let (encodes, decodes) = cx.serde_derives(id);
    let serialize = encodes.then(|| quote!(#rt::serde::Serialize,));
    let deserialize = decodes.then(|| quote!(#rt::serde::Deserialize,));
    let copy = plain.then(|| quote!(::core::marker::Copy,));
    let eq_hash = plain.then(|| quote!(::core::cmp::Eq, ::core::hash::Hash,));
    let default = default.then(|| quote!(::core::default::Default,));
    let schemars = super::schemars::derive(cx);
    quote! {
        #[derive(
            ::core::clone::Clone,
            #copy
            ::core::fmt::Debug,
            #default
            ::core::cmp::PartialEq,
            #eq_hash
            #serialize
            #deserialize
        )]
        #schemars
    }
}

/// A struct: `pub struct S { pub a: u8 }`, its default functions, and
/// `Default` when every field may be left out.
fn structure(cx: &Cx<'_>, ty: &TypeDef, fields: &[Field]) -> TokenStream {
    let name = names::type_ident(&ty.name);
    let docs = type_docs(cx, ty);
    let deprecated = deprecated_attr(ty.deprecated.as_ref());
    let allow_def = allow_deprecated(fields.iter().any(|f| cx.mentions_deprecated(&f.ty)));
    let allow_impl = allow_deprecated(cx.type_touches_deprecated(ty));
    let optional_only = fields.iter().all(|f| !f.required && f.default.is_none());
    let derives = derives(cx, ty.id, false, optional_only);
    let (_, decodes) = cx.serde_derives(ty.id);
    let serde = cx.serde_attr(if cx.in_request(ty.id) {
        quote!(deny_unknown_fields)
    } else {
        TokenStream::new()
    });
    let mut defaults = Defaults::new(&name);
    let field_defs: Vec<TokenStream> = fields
        .iter()
        .map(|f| field(cx, f, &mut defaults, None, decodes))
        .collect();
    let default_impl = if fields.iter().all(|f| !f.required) && !optional_only {
        let inits = fields.iter().map(|f| {
            let ident = names::field(&f.name).ident;
            match defaults.function_of(&f.name, None) {
                Some(function) => quote!(#ident: Self::#function()),
                None => quote!(#ident: ::core::option::Option::None),
            }
        });
        quote! {
            #allow_impl
            impl ::core::default::Default for #name {
                fn default() -> Self {
                    Self { #(#inits,)* }
                }
            }
        }
    } else {
        TokenStream::new()
    };
    // Without `Deserialize` only `Default` calls them, if there is one.
    let default_fns = if decodes || !default_impl.is_empty() {
        defaults.functions(&allow_impl)
    } else {
        TokenStream::new()
    };
    quote! {
        #docs
        #deprecated
        #allow_def
        #derives
        #serde
        pub struct #name {
            #(#field_defs,)*
        }
        #default_fns
        #default_impl
    }
}

/// One field, with its docs and serde attributes; a default is added to
/// `defaults`, and named to serde when the type `decodes`.
fn field(
    cx: &Cx<'_>,
    f: &Field,
    defaults: &mut Defaults,
    variant: Option<&str>,
    decodes: bool,
) -> TokenStream {
    let names::Name { ident, rename } = names::field(&f.name);
    let docs = docs::or(f.docs.as_deref(), || format!("The `{}` field.", f.name));
    let deprecated = deprecated_attr(f.deprecated.as_ref());
    let mut serde = Vec::new();
    if let Some(rename) = rename {
        serde.push(quote!(rename = #rename));
    }
    if let Some(value) = &f.default {
        let path = defaults.add(cx, f, value, variant);
        if decodes {
            serde.push(quote!(default = #path));
        }
    } else if !f.required {
        serde.push(quote!(
            default,
            skip_serializing_if = "::core::option::Option::is_none"
        ));
    }
    if decodes && ends_in_f32(&f.ty) {
        // serde reads an `f32` with `as`: a number too large for it would
        // arrive as infinity instead of being refused.
        let with = format!("{}::single::deserialize", cx.rt_path);
        serde.push(quote!(deserialize_with = #with));
    }
    let serde = if serde.is_empty() {
        TokenStream::new()
    } else {
        quote!(#[serde(#(#serde),*)])
    };
    let schemars = super::schemars::field(cx, f);
    let ty = cx.field_ty(f);
    let vis = if variant.is_some() {
        TokenStream::new()
    } else {
        quote!(pub)
    };
    quote! {
        #docs
        #deprecated
        #serde
        #schemars
        #vis #ident: #ty
    }
}

/// True for `f32` and for options, lists and maps whose items end in it.
fn ends_in_f32(ty: &Type) -> bool {
    match ty {
        Type::Primitive(p) => *p == Primitive::F32,
        Type::List(inner) | Type::Map(inner) | Type::Optional(inner) => ends_in_f32(inner),
        Type::Named(_) => false,
    }
}

/// The private functions serde calls for fields' defaults
/// (`#[serde(default = "S::default_limit")]`).
struct Defaults {
    owner: Ident,
    /// (variant, field, function name, function item)
    functions: Vec<(Option<String>, String, Ident, TokenStream)>,
}

impl Defaults {
    fn new(owner: &Ident) -> Self {
        Defaults {
            owner: owner.clone(),
            functions: Vec::new(),
        }
    }

    /// Adds the function for one field and returns the path serde calls.
    fn add(
        &mut self,
        cx: &Cx<'_>,
        f: &Field,
        value: &crate::model::Value,
        variant: Option<&str>,
    ) -> String {
        let base = match variant {
            None => format!("default_{}", f.name),
            Some(v) => format!("default_{v}_{}", f.name),
        };
        // `a` + `b_c` and `a_b` + `c` would meet; a suffix keeps them apart.
        let mut name = base.clone();
        let mut n = 2;
        while self.functions.iter().any(|(_, _, ident, _)| *ident == name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        let ident = format_ident!("{}", name);
        let ty = cx.ty(&f.ty);
        let expr = values::default_expr(cx, &f.ty, value);
        let doc = format!(" The default of `{}`.", f.name);
        let allow_float = if values::near_constant(value) {
            quote!(#[allow(
                clippy::approx_constant,
                reason = "a default written in the IDL, not an approximation of a constant"
            )])
        } else {
            TokenStream::new()
        };
        let item = quote! {
            #[doc = #doc]
            #allow_float
            fn #ident() -> #ty {
                #expr
            }
        };
        self.functions.push((
            variant.map(str::to_owned),
            f.name.clone(),
            ident.clone(),
            item,
        ));
        format!("{}::{ident}", self.owner)
    }

    fn function_of(&self, field: &str, variant: Option<&str>) -> Option<&Ident> {
        self.functions
            .iter()
            .find(|(v, f, _, _)| f == field && v.as_deref() == variant)
            .map(|(_, _, ident, _)| ident)
    }

    fn functions(&self, allow: &TokenStream) -> TokenStream {
        if self.functions.is_empty() {
            return TokenStream::new();
        }
        let owner = &self.owner;
        let items = self.functions.iter().map(|(_, _, _, item)| item);
        quote! {
            #allow
            impl #owner {
                #(#items)*
            }
        }
    }
}

/// An enum of plain values: `pub enum E { X, Y }`, strings on the wire.
fn enumeration(cx: &Cx<'_>, ty: &TypeDef, values: &[EnumValue]) -> TokenStream {
    let name = names::type_ident(&ty.name);
    let docs = type_docs(cx, ty);
    let deprecated = deprecated_attr(ty.deprecated.as_ref());
    let derives = derives(cx, ty.id, true, false);
    let serde = cx.serde_attr(quote!(rename_all = "snake_case"));
    let variants = values.iter().map(|v| {
        let names::Name { ident, rename } = names::variant(&v.name);
        let docs = docs::or(v.docs.as_deref(), || format!("The value `{}`.", v.name));
        let deprecated = deprecated_attr(v.deprecated.as_ref());
        let rename = rename.map(|r| quote!(#[serde(rename = #r)]));
        quote! {
            #docs
            #deprecated
            #rename
            #ident
        }
    });
    quote! {
        #docs
        #deprecated
        #derives
        #serde
        pub enum #name {
            #(#variants,)*
        }
    }
}

/// A union (or the definition of an error): an enum of struct variants,
/// `{"variant": {fields}}` on the wire.
fn union(cx: &Cx<'_>, ty: &TypeDef, variants: &[Variant]) -> TokenStream {
    let name = names::type_ident(&ty.name);
    let docs = type_docs(cx, ty);
    let deprecated = deprecated_attr(ty.deprecated.as_ref());
    let is_error = matches!(ty.kind, TypeKind::Error(_));
    let mentions = variants
        .iter()
        .flat_map(|v| &v.fields)
        .any(|f| cx.mentions_deprecated(&f.ty));
    let allow_def = allow_deprecated(mentions);
    let allow_impl = allow_deprecated(cx.type_touches_deprecated(ty));
    let allow_large = large_enum_allow(layout::lopsided(
        variants.iter().map(|v| cx.fields_size(&v.fields)).collect(),
    ));
    let derives = derives(cx, ty.id, false, false);
    let (_, decodes) = cx.serde_derives(ty.id);
    let serde = cx.serde_attr(if cx.in_request(ty.id) {
        quote!(rename_all = "snake_case", deny_unknown_fields)
    } else {
        quote!(rename_all = "snake_case")
    });
    let mut defaults = Defaults::new(&name);
    let variant_defs: Vec<TokenStream> = variants
        .iter()
        .map(|v| {
            let names::Name { ident, rename } = names::variant(&v.name);
            let code = v.code.as_deref().unwrap_or_default();
            let docs = match (is_error, v.docs.as_deref()) {
                (true, Some(text)) => docs::attrs(&format!("{text}\n\nCode `{code}`.")),
                (true, None) => docs::attrs(&format!("Code `{code}`.")),
                (false, text) => docs::or(text, || format!("The `{}` variant.", v.name)),
            };
            let deprecated = deprecated_attr(v.deprecated.as_ref());
            let rename = rename.map(|r| quote!(#[serde(rename = #r)]));
            let fields = v
                .fields
                .iter()
                .map(|f| field(cx, f, &mut defaults, Some(&v.name), decodes));
            quote! {
                #docs
                #deprecated
                #rename
                #ident { #(#fields,)* }
            }
        })
        .collect();
    // Only serde calls a variant's defaults.
    let default_fns = if decodes {
        defaults.functions(&allow_impl)
    } else {
        TokenStream::new()
    };
    quote! {
        #docs
        #deprecated
        #allow_def
        #allow_large
        #derives
        #serde
        pub enum #name {
            #(#variant_defs,)*
        }
        #default_fns
    }
}

/// `#[allow(clippy::large_enum_variant)]` when `yes`.
pub(crate) fn large_enum_allow(yes: bool) -> TokenStream {
    if yes {
        quote!(#[allow(
            clippy::large_enum_variant,
            reason = "the variants mirror the IDL; boxing one would change the generated API"
        )])
    } else {
        TokenStream::new()
    }
}

/// `code()`, `Display`, `std::error::Error` and `IntoToolError` for an
/// `error` type.
fn error_impls(cx: &Cx<'_>, ty: &TypeDef, variants: &[Variant]) -> TokenStream {
    let rt = &cx.rt;
    let name = names::type_ident(&ty.name);
    let allow = allow_deprecated(cx.type_touches_deprecated(ty));
    let patterns: Vec<TokenStream> = variants
        .iter()
        .map(|v| {
            let ident = names::variant(&v.name).ident;
            quote!(Self::#ident { .. })
        })
        .collect();
    let codes: Vec<&str> = variants
        .iter()
        .map(|v| v.code.as_deref().unwrap_or_default())
        .collect();
    let messages = variants.iter().zip(&codes).map(|(v, code)| {
        docs_text::first_paragraph(v.docs.as_deref()).unwrap_or_else(|| (*code).to_owned())
    });
    let example = codes.first().copied().unwrap_or_default();
    let code_doc = format!(
        " The stable code of this error on the wire, such as `{example}`: the variant's name in SCREAMING_SNAKE_CASE."
    );
    quote! {
        #allow
        impl #name {
            #[doc = #code_doc]
            pub const fn code(&self) -> &'static str {
                match self {
                    #(#patterns => #codes,)*
                }
            }
        }

        /// The first paragraph of the variant's documentation, or its code
        /// when it has none.
        #allow
        impl ::core::fmt::Display for #name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                let message = match self {
                    #(#patterns => #messages,)*
                };
                f.write_str(message)
            }
        }

        #allow
        impl ::std::error::Error for #name {}

        /// Code from [`Self::code`], message from `Display`, details the
        /// error as serialized (`{"variant": {fields}}`).
        #allow
        impl #rt::IntoToolError for #name {
            fn into_tool_error(self) -> #rt::ToolError {
                #rt::ToolError {
                    code: ::std::borrow::Cow::Borrowed(self.code()),
                    message: ::std::string::ToString::to_string(&self),
                    details: #rt::serde_json::to_value(&self).ok(),
                }
            }
        }
    }
}
