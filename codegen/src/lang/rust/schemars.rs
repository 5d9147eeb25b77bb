//! `schemars::JsonSchema` on the generated types, behind the user's crate
//! feature ([`crate::Builder::schemars_feature`]): the derive on every
//! type, and on each constrained field the `#[schemars(...)]` that states
//! its `@range`, `@length` and `@pattern` as the IDL's own schema does
//! (`lang/schema/types.rs`). Nothing is emitted without the option.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::context::Cx;
use crate::model::{Field, Number, Primitive, Type};

/// `#[cfg_attr(feature = "<name>", derive(::schemars::JsonSchema))]`.
pub(crate) fn derive(cx: &Cx<'_>) -> TokenStream {
    match &cx.schemars {
        Some(feature) => quote!(#[cfg_attr(feature = #feature, derive(::schemars::JsonSchema))]),
        None => TokenStream::new(),
    }
}

/// `#[cfg_attr(feature = "<name>", schemars(<items>))]`, or nothing when
/// the option is off or there are no items.
pub(crate) fn attr(cx: &Cx<'_>, items: &[TokenStream]) -> TokenStream {
    match &cx.schemars {
        Some(feature) if !items.is_empty() => {
            quote!(#[cfg_attr(feature = #feature, schemars(#(#items),*))])
        }
        _ => TokenStream::new(),
    }
}

/// A field's constraints as schemars attributes. 32- and 64-bit integers
/// get their type's bounds too: schemars states none (or only the lower
/// one) for them, the IDL's schema states both.
pub(crate) fn field(cx: &Cx<'_>, f: &Field) -> TokenStream {
    if cx.schemars.is_none() {
        return TokenStream::new();
    }
    attr(cx, &items(f))
}

fn items(f: &Field) -> Vec<TokenStream> {
    let c = &f.constraints;
    let mut items = Vec::new();
    match f.ty.strip_optional() {
        Type::Primitive(Primitive::String) => {
            if let Some((min, max)) = c.length {
                items.push(quote!(length(min = #min, max = #max)));
            }
            if let Some(pattern) = &c.pattern {
                items.push(quote!(regex(pattern = #pattern)));
            }
        }
        Type::Primitive(Primitive::Bytes) => {
            // The bound is on decoded bytes; the JSON value is padded
            // base64, 4 characters per started group of 3 bytes.
            if let Some((min, max)) = c.length {
                let (min, max) = (base64_len(min), base64_len(max));
                items.push(quote!(length(min = #min, max = #max)));
            }
        }
        Type::Primitive(p) if p.is_number() => {
            if let Some((min, max)) = bounds(*p, c.range) {
                let (min, max) = (number(min), number(max));
                items.push(quote!(range(min = #min, max = #max)));
            }
        }
        Type::List(inner) => {
            if let Some((min, max)) = c.length {
                items.push(quote!(length(min = #min, max = #max)));
            }
            if let Type::Primitive(p) = inner.as_ref()
                && let Some((min, max)) = bounds(*p, None)
            {
                let (min, max) = (number(min), number(max));
                items.push(quote!(inner(range(min = #min, max = #max))));
            }
        }
        Type::Map(_) => {
            // schemars' `length` is for strings and arrays only.
            if let Some((min, max)) = c.length {
                items.push(quote!(extend("minProperties" = #min, "maxProperties" = #max)));
            }
        }
        _ => {}
    }
    items
}

/// The bounds a number field's schema states: its `@range` within its
/// type's, as the IDL's schema has them, or for 32- and 64-bit integers
/// without `@range` the type's own (schemars leaves them out).
fn bounds(p: Primitive, range: Option<(Number, Number)>) -> Option<(Number, Number)> {
    let wide = matches!(
        p,
        Primitive::I32 | Primitive::U32 | Primitive::I64 | Primitive::U64
    );
    match (range, p.int_bounds()) {
        (Some((min, max)), Some((lo, hi))) => Some((
            tighter(Number::Int(lo), min, true),
            tighter(Number::Int(hi), max, false),
        )),
        (Some(range), None) => Some(range),
        (None, Some((lo, hi))) if wide => Some((Number::Int(lo), Number::Int(hi))),
        (None, _) => None,
    }
}

/// The tighter of a type's bound and a `@range` bound.
fn tighter(type_bound: Number, range_bound: Number, lower: bool) -> Number {
    match (type_bound, range_bound) {
        (Number::Int(t), Number::Int(r)) => Number::Int(if lower { t.max(r) } else { t.min(r) }),
        _ if (range_bound.as_f64() > type_bound.as_f64()) == lower => range_bound,
        _ => type_bound,
    }
}

/// A bound as a suffixed literal, so that schemars turns it into a JSON
/// number of the right kind (`5i64`, `18446744073709551615u64`, `0.5f64`).
fn number(n: Number) -> Literal {
    match n {
        Number::Int(i) => match (i64::try_from(i), u64::try_from(i)) {
            (Ok(i), _) => Literal::i64_suffixed(i),
            (_, Ok(u)) => Literal::u64_suffixed(u),
            // The checker keeps bounds within the field's type.
            _ => Literal::i64_suffixed(if i < 0 { i64::MIN } else { i64::MAX }),
        },
        Number::Float(f) => Literal::f64_suffixed(f),
    }
}

/// Characters of padded base64 for `bytes` bytes.
fn base64_len(bytes: u64) -> u64 {
    bytes.div_ceil(3).saturating_mul(4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_integers_get_their_type_bounds() {
        let (lo, hi) = bounds(Primitive::U64, None).unwrap();
        assert_eq!(number(lo).to_string(), "0i64");
        assert_eq!(number(hi).to_string(), "18446744073709551615u64");
        assert!(bounds(Primitive::U16, None).is_none());
        assert!(bounds(Primitive::U32, None).is_some());
        let (lo, hi) =
            bounds(Primitive::I64, Some((Number::Int(-5), Number::Float(1e30)))).unwrap();
        assert_eq!(number(lo).to_string(), "-5i64");
        assert_eq!(number(hi).to_string(), "9223372036854775807i64");
        let (lo, hi) = bounds(Primitive::F64, Some((Number::Float(0.5), Number::Int(2)))).unwrap();
        assert_eq!(number(lo).to_string(), "0.5f64");
        assert_eq!(number(hi).to_string(), "2i64");
        assert_eq!(base64_len(4), 8);
    }
}
