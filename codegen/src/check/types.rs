//! Lowers each collected type to a model `TypeDef`: structs, enums, unions,
//! errors, and the structs of anonymous requests and responses.

use super::attrs::{self, Target};
use super::fields;
use super::names::{self, Namespace};
use super::symbols::{Body, Slot, Symbols};
use crate::diag::{Ctxt, messages};
use crate::model::{EnumValue, TypeDef, TypeId, TypeKind, Variant};
use crate::source::Sources;
use crate::syntax::ast::{self, TypeBody};
use crate::syntax::keywords;

pub(crate) fn lower(symbols: &Symbols<'_>, sources: &Sources, cx: &mut Ctxt) -> Vec<TypeDef> {
    symbols
        .slots
        .iter()
        .enumerate()
        .map(|(i, slot)| {
            let id = TypeId(u32::try_from(i).unwrap_or(u32::MAX));
            lower_slot(symbols, sources, cx, id, slot)
        })
        .collect()
}

fn lower_slot(
    symbols: &Symbols<'_>,
    sources: &Sources,
    cx: &mut Ctxt,
    id: TypeId,
    slot: &Slot<'_>,
) -> TypeDef {
    let (docs, deprecated, form, kind) = match &slot.body {
        Body::Shape(list) => (
            slot.shape_docs.clone(),
            None,
            false,
            TypeKind::Struct(fields::lower(symbols, sources, cx, list)),
        ),
        Body::Decl(decl) => {
            let attrs = attrs::lower(cx, &decl.meta.attrs, Target::Type);
            let docs = decl.meta.docs.as_ref().map(|d| d.text.clone());
            (
                docs,
                attrs.deprecated,
                attrs.form,
                lower_body(symbols, sources, cx, decl),
            )
        }
    };
    TypeDef {
        id,
        name: slot.name.clone(),
        docs,
        deprecated,
        origin: slot.origin.clone(),
        kind,
        form,
        location: sources.location(slot.span),
    }
}

fn lower_body(
    symbols: &Symbols<'_>,
    sources: &Sources,
    cx: &mut Ctxt,
    decl: &ast::TypeDecl,
) -> TypeKind {
    let name = &decl.name.name;
    match &decl.body {
        TypeBody::Struct(list) => TypeKind::Struct(fields::lower(symbols, sources, cx, list)),
        TypeBody::Enum(values) => {
            if values.is_empty() {
                cx.push(messages::empty_declaration(decl.name.span, "enum", name));
            }
            let mut namespace = Namespace::new("enum value");
            let mut out = Vec::new();
            for value in values {
                let attrs = attrs::lower(cx, &value.meta.attrs, Target::EnumValue);
                if keywords::RESERVED_ENUM_VALUES.contains(&value.name.name.as_str()) {
                    cx.push(messages::reserved_enum_value(
                        value.name.span,
                        &value.name.name,
                    ));
                    continue;
                }
                if namespace.insert_snake(
                    cx,
                    &value.name,
                    "enum value",
                    "enum values become variant names in the generated code",
                ) {
                    out.push(EnumValue {
                        name: value.name.name.clone(),
                        docs: value.meta.docs.as_ref().map(|d| d.text.clone()),
                        deprecated: attrs.deprecated,
                        location: sources.location(value.name.span),
                    });
                }
            }
            TypeKind::Enum(out)
        }
        TypeBody::Union(variants) => {
            if variants.is_empty() {
                cx.push(messages::empty_declaration(decl.name.span, "union", name));
            }
            TypeKind::Union(lower_variants(symbols, sources, cx, variants, false))
        }
        TypeBody::Error(variants) => {
            if variants.is_empty() {
                cx.push(messages::empty_declaration(
                    decl.name.span,
                    "error type",
                    name,
                ));
            }
            TypeKind::Error(lower_variants(symbols, sources, cx, variants, true))
        }
    }
}

fn lower_variants(
    symbols: &Symbols<'_>,
    sources: &Sources,
    cx: &mut Ctxt,
    variants: &[ast::Variant],
    is_error: bool,
) -> Vec<Variant> {
    let mut namespace = Namespace::new("variant");
    let mut out = Vec::new();
    for variant in variants {
        let attrs = attrs::lower(cx, &variant.meta.attrs, Target::Variant);
        let fields = fields::lower(symbols, sources, cx, &variant.fields);
        let unique = namespace.insert_snake(
            cx,
            &variant.name,
            "variant name",
            "variants become enum variant names in the generated code",
        );
        if unique {
            out.push(Variant {
                name: variant.name.name.clone(),
                code: is_error.then(|| names::screaming(&variant.name.name)),
                docs: variant.meta.docs.as_ref().map(|d| d.text.clone()),
                deprecated: attrs.deprecated,
                fields,
                location: sources.location(variant.name.span),
            });
        }
    }
    out
}
