//! Fields: names, types, constraint attributes and defaults.

use super::attrs::{self, Target};
use super::defaults;
use super::names::{self, Namespace};
use super::resolve;
use super::symbols::Symbols;
use crate::diag::{Ctxt, messages};
use crate::model::{Constraints, Field, Number, Primitive, Type};
use crate::source::Sources;
use crate::syntax::ast::{self, TypeExpr};

/// Lowers a field list (of a struct, variant, request or response).
/// `{ a: u8, a: u8 }` → TW102; `tempoBpm: f64` → TW103.
pub(crate) fn lower(
    symbols: &Symbols<'_>,
    sources: &Sources,
    cx: &mut Ctxt,
    fields: &[ast::Field],
) -> Vec<Field> {
    let mut namespace = Namespace::new("field");
    let mut out = Vec::with_capacity(fields.len());
    for field in fields {
        names::check_snake(cx, &field.name, "field name");
        let unique = namespace.insert(cx, &field.name);
        let attrs = attrs::lower(cx, &field.meta.attrs, Target::Field);
        let Some(ty) = resolve::field_type(symbols, cx, &field.ty) else {
            continue;
        };
        let constraints = constraints(cx, &attrs, &ty);
        let header = header(cx, &attrs, &ty);
        let default = match (&field.default, &field.ty) {
            (None, _) => None,
            (Some(lit), TypeExpr::Optional { question, .. }) => {
                cx.push(messages::optional_default(lit.span, *question));
                None
            }
            (Some(lit), _) => {
                let bounds = defaults::BoundSpans {
                    range: attrs.range.map(|(span, ..)| span),
                    length: attrs.length.map(|(span, ..)| span),
                    pattern: attrs.pattern.as_ref().map(|(span, _)| *span),
                };
                defaults::check(symbols, cx, &ty, lit, &constraints, bounds)
            }
        };
        if !unique {
            continue;
        }
        out.push(Field {
            name: field.name.name.clone(),
            docs: field.meta.docs.as_ref().map(|d| d.text.clone()),
            deprecated: attrs.deprecated,
            required: !matches!(ty, Type::Optional(_)) && field.default.is_none(),
            ty,
            default,
            constraints,
            indirect: false,
            content: attrs.content,
            header,
            complete: attrs.complete.is_some(),
            location: sources.location(field.name.span),
        });
    }
    out
}

/// Checks `@range`, `@length` and `@pattern` against the field's type.
/// `@range(0, 10) name: string` → TW304; `@range(-1, 5) n: u8` → TW307.
fn constraints(cx: &mut Ctxt, attrs: &attrs::Attrs, ty: &Type) -> Constraints {
    let base = ty.strip_optional();
    let primitive = match base {
        Type::Primitive(p) => Some(*p),
        _ => None,
    };
    let mut out = Constraints::default();
    if let Some((span, min, max)) = attrs.range {
        match primitive.filter(|p| p.is_number()) {
            None => cx.push(messages::attribute_type(
                span,
                "range",
                &ty.idl(),
                "integer and float fields",
            )),
            Some(p) => match range_problem(p, min, max) {
                Some(problem) => cx.push(messages::invalid_bounds(span, &problem)),
                None => out.range = Some((min, max)),
            },
        }
    }
    if let Some((span, min, max)) = attrs.length {
        let fits = matches!(
            base,
            Type::Primitive(Primitive::String | Primitive::Bytes) | Type::List(_) | Type::Map(_)
        );
        if fits {
            out.length = Some((min, max));
        } else {
            cx.push(messages::attribute_type(
                span,
                "length",
                &ty.idl(),
                "`string`, `bytes`, `list` and `map` fields",
            ));
        }
    }
    if let Some((span, pattern)) = &attrs.pattern {
        if primitive == Some(Primitive::String) {
            out.pattern = Some(pattern.clone());
        } else {
            cx.push(messages::attribute_type(
                *span,
                "pattern",
                &ty.idl(),
                "`string` fields",
            ));
        }
    }
    out
}

/// The name `@header` gives, when the field's type is one a header can
/// carry: a string, an integer or a bool (optional or not), the primitive
/// types SEP-2243 mirrors. Floats are left out: their text is not one.
/// `@header("N") n: f64` → TW304; `@header("My Region")` → TW315.
fn header(cx: &mut Ctxt, attrs: &attrs::Attrs, ty: &Type) -> Option<String> {
    let (span, name) = attrs.header.as_ref()?;
    let fits = matches!(
        ty.strip_optional(),
        Type::Primitive(p) if *p == Primitive::String || *p == Primitive::Bool || p.int_bounds().is_some()
    );
    if !fits {
        cx.push(messages::attribute_type(
            *span,
            "header",
            &ty.idl(),
            "`string`, integer and `bool` fields",
        ));
        return None;
    }
    if let Some(problem) = super::header::name_problem(name) {
        cx.push(messages::header_name(*span, name, problem));
        return None;
    }
    Some(name.clone())
}

/// True when `x` rounds to a finite `f32` (so `3.4028235e38`, the way
/// `f32::MAX` prints, fits).
#[allow(clippy::cast_possible_truncation)]
pub(crate) fn fits_f32(x: f64) -> bool {
    (x as f32).is_finite()
}

/// Why `@range(min, max)` cannot apply to `p`, if it cannot.
fn range_problem(p: Primitive, min: Number, max: Number) -> Option<String> {
    if let Some((lo, hi)) = p.int_bounds() {
        let (Number::Int(a), Number::Int(b)) = (min, max) else {
            return Some(format!(
                "`{}` is an integer type; use integer bounds",
                p.as_str()
            ));
        };
        if let Some(outside) = [a, b].into_iter().find(|v| *v < lo || *v > hi) {
            return Some(format!(
                "{outside} is outside `{}`, which holds {lo} to {hi}",
                p.as_str()
            ));
        }
    } else if p == Primitive::F32 && !(fits_f32(min.as_f64()) && fits_f32(max.as_f64())) {
        return Some("the bounds exceed the range of `f32`".to_owned());
    }
    None
}
