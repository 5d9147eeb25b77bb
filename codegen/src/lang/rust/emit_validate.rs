//! `Validate` impls: the IDL's `@range`, `@length` and `@pattern` checked
//! on every request before a handler sees it. Emitted for each type a
//! request can hold that carries a constraint itself or through its
//! fields, for each tool's own request (empty when it has nothing to
//! check), for the action enums and for `ToolRequest`; other types need
//! none.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::context::{Cx, allow_deprecated};
use super::{names, values};
use crate::model::{Field, Number, Primitive, Tool, ToolKind, Type, TypeDef, TypeKind};

/// The `Validate` impl of a struct or union a request can hold, when it
/// has something to check, and of each tool's own request even when it
/// has not: the dispatcher checks a request decoded straight from MsgPack
/// (without its `ToolRequest`) through it.
pub(crate) fn type_impl(cx: &Cx<'_>, ty: &TypeDef) -> TokenStream {
    if !cx.in_request(ty.id) {
        return TokenStream::new();
    }
    if !cx.validated(ty.id) {
        if !cx.tool_request(ty.id) {
            return TokenStream::new();
        }
        let name = names::type_ident(&ty.name);
        let allow = allow_deprecated(cx.type_touches_deprecated(ty));
        return validate_impl(cx, &quote!(#name), &allow, &TokenStream::new());
    }
    let mut statics = Statics::default();
    let body = match &ty.kind {
        TypeKind::Struct(fields) => {
            let checks: Vec<TokenStream> = fields
                .iter()
                .map(|f| {
                    let ident = names::field(&f.name).ident;
                    field_checks(
                        cx,
                        f,
                        &Place::Owned(quote!(self.#ident)),
                        None,
                        &mut statics,
                    )
                })
                .collect();
            quote! {
                #(#checks)*
                ::core::result::Result::Ok(())
            }
        }
        TypeKind::Union(variants) | TypeKind::Error(variants) => {
            let mut arms = Vec::new();
            let mut rest = Vec::new();
            for v in variants {
                let variant = names::variant(&v.name).ident;
                let checked: Vec<&Field> = v.fields.iter().filter(|f| checks_any(cx, f)).collect();
                if checked.is_empty() {
                    rest.push(quote!(Self::#variant { .. }));
                    continue;
                }
                let bindings = checked.iter().map(|f| names::field(&f.name).ident);
                let checks: Vec<TokenStream> = checked
                    .iter()
                    .map(|f| {
                        let ident = names::field(&f.name).ident;
                        let place = Place::Borrowed(quote!(#ident));
                        field_checks(cx, f, &place, Some(&v.name), &mut statics)
                    })
                    .collect();
                arms.push(quote! {
                    Self::#variant { #(#bindings,)* .. } => {
                        #(#checks)*
                        ::core::result::Result::Ok(())
                    }
                });
            }
            if !rest.is_empty() {
                arms.push(quote!(#(#rest)|* => ::core::result::Result::Ok(())));
            }
            quote!(match self { #(#arms)* })
        }
        TypeKind::Enum(_) => return TokenStream::new(),
    };
    let name = names::type_ident(&ty.name);
    let allow = allow_deprecated(cx.type_touches_deprecated(ty));
    let prelude = statics.prelude(cx);
    validate_impl(cx, &quote!(#name), &allow, &quote!(#prelude #body))
}

/// What a `validate` body declares before its checks: `use check` when it
/// calls one, and a `static` per pattern, compiled on first use.
#[derive(Default)]
struct Statics {
    uses_check: bool,
    patterns: Vec<TokenStream>,
    names: Vec<String>,
}

impl Statics {
    fn pattern(
        &mut self,
        cx: &Cx<'_>,
        variant: Option<&str>,
        field: &str,
        source: &str,
    ) -> TokenStream {
        let base = match variant {
            Some(variant) => format!("{variant}_{field}"),
            None => field.to_owned(),
        }
        .to_uppercase();
        let mut name = base.clone();
        let mut n = 1;
        while self.names.contains(&name) {
            n += 1;
            name = format!("{base}_{n}");
        }
        self.names.push(name.clone());
        let ident = format_ident!("{}", name);
        let rt = &cx.rt;
        let translated = crate::pattern::rust(source);
        self.patterns.push(quote! {
            static #ident: #rt::Pattern = #rt::Pattern::new(#source, #translated);
        });
        quote!(#ident)
    }

    fn prelude(&self, cx: &Cx<'_>) -> TokenStream {
        let rt = &cx.rt;
        let check = self.uses_check.then(|| quote!(use #rt::check;));
        let patterns = &self.patterns;
        quote!(#check #(#patterns)*)
    }
}

/// The `Validate` impl of an action tool's request enum.
pub(crate) fn action_enum_impl(cx: &Cx<'_>, tool: &Tool) -> TokenStream {
    let ToolKind::Actions(actions) = &tool.kind else {
        return TokenStream::new();
    };
    let name = format_ident!("{}Request", names::pascal(&tool.name));
    let arms = actions.iter().map(|a| {
        let variant = names::variant(&a.name).ident;
        (
            quote!(Self::#variant),
            a.endpoint.request.is_some_and(|id| cx.validated(id)),
        )
    });
    let Some(body) = dispatch(cx, arms) else {
        return validate_impl(cx, &quote!(#name), &TokenStream::new(), &TokenStream::new());
    };
    let allow = allow_deprecated(cx.tool_touches_deprecated(tool));
    validate_impl(cx, &quote!(#name), &allow, &body)
}

/// The `Validate` impl of `ToolRequest`: each tool's request checked by
/// its own impl.
pub(crate) fn tool_request_impl(cx: &Cx<'_>) -> TokenStream {
    let arms = cx.model.tools.iter().map(|tool| {
        let variant = names::variant(&tool.name).ident;
        let checked = match &tool.kind {
            ToolKind::Single(e) => e.request.is_some_and(|id| cx.validated(id)),
            ToolKind::Actions(actions) => actions
                .iter()
                .any(|a| a.endpoint.request.is_some_and(|id| cx.validated(id))),
        };
        (quote!(ToolRequest::#variant), checked)
    });
    let allow = allow_deprecated(cx.any_deprecated());
    let body = dispatch(cx, arms).unwrap_or_default();
    validate_impl(cx, &quote!(ToolRequest), &allow, &body)
}

/// A `match self` that validates the payload of each variant marked true
/// and accepts the others; `None` when no variant is marked.
fn dispatch(cx: &Cx<'_>, arms: impl Iterator<Item = (TokenStream, bool)>) -> Option<TokenStream> {
    let rt = &cx.rt;
    let mut checked = Vec::new();
    let mut rest = 0usize;
    for (path, check) in arms {
        if check {
            checked.push(quote!(#path(request) => #rt::Validate::validate(request),));
        } else {
            rest += 1;
        }
    }
    if checked.is_empty() {
        return None;
    }
    let rest = (rest > 0).then(|| quote!(_ => ::core::result::Result::Ok(()),));
    Some(quote!(match self { #(#checked)* #rest }))
}

fn validate_impl(
    cx: &Cx<'_>,
    name: &TokenStream,
    allow: &TokenStream,
    body: &TokenStream,
) -> TokenStream {
    let rt = &cx.rt;
    if body.is_empty() {
        return quote! {
            #allow
            impl #rt::Validate for #name {}
        };
    }
    quote! {
        #allow
        impl #rt::Validate for #name {
            fn validate(&self) -> ::core::result::Result<(), #rt::Violation> {
                #body
            }
        }
    }
}

/// Where a field's value is: a place (`self.a`) or a reference bound by a
/// pattern (`a`).
#[derive(Clone)]
enum Place {
    Owned(TokenStream),
    Borrowed(TokenStream),
}

impl Place {
    /// A reference to the value: `&self.a`, `a`.
    fn by_ref(&self) -> TokenStream {
        match self {
            Place::Owned(place) => quote!(&#place),
            Place::Borrowed(reference) => reference.clone(),
        }
    }

    /// The value, for `Copy` scalars: `self.a`, `*a`.
    fn by_value(&self) -> TokenStream {
        match self {
            Place::Owned(place) => quote!(#place),
            Place::Borrowed(reference) => quote!(*#reference),
        }
    }

    /// The receiver of a method call, which auto-references: `self.a`, `a`.
    fn receiver(&self) -> TokenStream {
        match self {
            Place::Owned(place) => place.clone(),
            Place::Borrowed(reference) => reference.clone(),
        }
    }
}

/// True when the field has something to check.
fn checks_any(cx: &Cx<'_>, f: &Field) -> bool {
    !f.constraints.is_empty() || holds(cx, &f.ty)
}

/// True when the type holds a named type with something to check.
fn holds(cx: &Cx<'_>, ty: &Type) -> bool {
    let mut named = Vec::new();
    ty.push_named(&mut named);
    named.into_iter().any(|id| cx.validated(id))
}

/// The checks of one field: its own constraints, then what its value
/// holds; each failure gets the field's wire name.
fn field_checks(
    cx: &Cx<'_>,
    f: &Field,
    place: &Place,
    variant: Option<&str>,
    statics: &mut Statics,
) -> TokenStream {
    if !checks_any(cx, f) {
        return TokenStream::new();
    }
    let wire = &f.name;
    let (inner, value) = match &f.ty {
        Type::Optional(inner) => (&**inner, Place::Borrowed(quote!(value))),
        other => (other, place.clone()),
    };
    let mut checks = own_checks(cx, f, inner, &value, variant, statics);
    if holds(cx, inner) {
        let rt = &cx.rt;
        let reference = value.by_ref();
        checks.push(quote!(#rt::Validate::validate(#reference)));
    }
    let checks = checks
        .into_iter()
        .map(|check| quote!(#check.map_err(|v| v.at(#wire))?;));
    if matches!(f.ty, Type::Optional(_)) {
        let optional = place.by_ref();
        quote! {
            if let ::core::option::Option::Some(value) = #optional {
                #(#checks)*
            }
        }
    } else {
        quote!(#(#checks)*)
    }
}

/// The calls that check the field's `@range`, `@length` and `@pattern`.
fn own_checks(
    cx: &Cx<'_>,
    f: &Field,
    ty: &Type,
    value: &Place,
    variant: Option<&str>,
    statics: &mut Statics,
) -> Vec<TokenStream> {
    let c = &f.constraints;
    let mut out = Vec::new();
    let length = c.length.map(|(min, max)| {
        let (min, max) = (values::int(min.into()), values::int(max.into()));
        (min, max)
    });
    match ty {
        Type::Primitive(Primitive::String) => {
            let text = value.by_ref();
            if let Some((min, max)) = &length {
                out.push(quote!(check::chars(#text, #min, #max)));
            }
            if let Some(source) = &c.pattern {
                let pattern = statics.pattern(cx, variant, &f.name, source);
                out.push(quote!(check::pattern(#text, &#pattern)));
            }
        }
        Type::Primitive(Primitive::Bytes) => {
            if let Some((min, max)) = &length {
                let bytes = value.by_ref();
                out.push(quote!(check::bytes(#bytes, #min, #max)));
            }
        }
        Type::Primitive(p) if p.is_number() => {
            if let Some((min, max)) = c.range {
                let number = value.by_value();
                if p.is_float() {
                    // An `f32` field holds the bound's nearest `f32`:
                    // compare with that, so the bound itself is accepted.
                    let bound = |n: Number| {
                        let x = n.as_f64();
                        #[allow(clippy::cast_possible_truncation)]
                        let single = x as f32;
                        if *p == Primitive::F32 && f64::from(single) != x {
                            let literal = values::float_literal(x, true, true);
                            quote!(f64::from(#literal))
                        } else {
                            values::float_literal(x, false, false)
                        }
                    };
                    let (min, max) = (bound(min), bound(max));
                    out.push(quote!(check::float(#number, #min, #max)));
                } else {
                    let (min, max) = (values::int(whole(min)), values::int(whole(max)));
                    out.push(quote!(check::int(#number, #min, #max)));
                }
            }
        }
        Type::List(_) | Type::Map(_) => {
            if let Some((min, max)) = &length {
                let container = value.receiver();
                out.push(quote!(check::entries(#container.len(), #min, #max)));
            }
        }
        _ => {}
    }
    statics.uses_check |= !out.is_empty();
    out
}

/// An integer field's bound: the checker admits only whole numbers there.
fn whole(n: Number) -> i128 {
    match n {
        Number::Int(i) => i,
        #[allow(clippy::cast_possible_truncation)]
        Number::Float(x) => x as i128,
    }
}
