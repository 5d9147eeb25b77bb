//! Default values as Rust expressions.

use std::str::FromStr;

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::context::Cx;
use super::names;
use crate::model::{Primitive, Type, Value};

/// The expression for a field's default. The checker matched the value to
/// the type; a pair it cannot produce falls back to `Default::default()`,
/// which still compiles for every type that may have a default.
pub(crate) fn default_expr(cx: &Cx<'_>, ty: &Type, value: &Value) -> TokenStream {
    let float = |p: Primitive| matches!(ty, Type::Primitive(q) if *q == p);
    match value {
        Value::Bool(b) => quote!(#b),
        Value::Int(i) => int(*i),
        // `as f32` keeps the IDL's digits: the checker ensured it fits.
        #[allow(clippy::cast_possible_truncation)]
        Value::Float(x) if float(Primitive::F32) => {
            float_literal(f64::from(*x as f32), true, false)
        }
        Value::Float(x) => float_literal(*x, false, false),
        Value::String(s) => quote!(::std::string::String::from(#s)),
        Value::EmptyList => quote!(::std::vec::Vec::new()),
        Value::EnumValue(v) => match ty {
            Type::Named(r) => {
                let ty = cx.type_name(r.id);
                let variant = names::variant(v).ident;
                quote!(#ty::#variant)
            }
            _ => quote!(::core::default::Default::default()),
        },
        Value::Json(json) => json_expr(cx, json),
    }
}

/// True when the default holds a float near a constant of `std::f64::consts`
/// (`3.14159`), which clippy's deny-by-default `approx_constant` would take
/// for a mistake.
pub(crate) fn near_constant(value: &Value) -> bool {
    match value {
        Value::Float(x) => float_near_constant(*x),
        Value::Json(json) => json_near_constant(json),
        _ => false,
    }
}

fn json_near_constant(json: &serde_json::Value) -> bool {
    match json {
        serde_json::Value::Number(n) => n.is_f64() && n.as_f64().is_some_and(float_near_constant),
        serde_json::Value::Array(items) => items.iter().any(json_near_constant),
        serde_json::Value::Object(map) => map.values().any(json_near_constant),
        _ => false,
    }
}

fn float_near_constant(x: f64) -> bool {
    use std::f64::consts as c;
    // The constants clippy knows; within 1% is wider than its own test, so
    // the allow is never missing where the lint would fire.
    [
        c::E,
        c::FRAC_1_PI,
        c::FRAC_1_SQRT_2,
        c::FRAC_2_PI,
        c::FRAC_2_SQRT_PI,
        c::FRAC_PI_2,
        c::FRAC_PI_3,
        c::FRAC_PI_4,
        c::FRAC_PI_6,
        c::FRAC_PI_8,
        c::LN_10,
        c::LN_2,
        c::LOG10_E,
        c::LOG2_E,
        c::LOG2_10,
        c::LOG10_2,
        c::PI,
        c::SQRT_2,
        c::TAU,
    ]
    .iter()
    .any(|k| (x.abs() - k).abs() <= k * 0.01)
}

pub(super) fn int(i: i128) -> TokenStream {
    let lit = Literal::u128_unsuffixed(i.unsigned_abs());
    if i < 0 { quote!(-#lit) } else { quote!(#lit) }
}

/// The shortest literal that reads back as the same value (`0.1`, not
/// `0.100000001490116`), negative via a `-` token, with an `f64` suffix
/// when `suffixed`.
pub(super) fn float_literal(x: f64, single: bool, suffixed: bool) -> TokenStream {
    let ty = if single { quote!(f32) } else { quote!(f64) };
    if x.is_nan() {
        return quote!(#ty::NAN);
    }
    if x.is_infinite() {
        return if x > 0.0 {
            quote!(#ty::INFINITY)
        } else {
            quote!(#ty::NEG_INFINITY)
        };
    }
    #[allow(clippy::cast_possible_truncation)]
    let mut text = if single {
        format!("{:?}", (x as f32).abs())
    } else {
        format!("{:?}", x.abs())
    };
    if suffixed {
        text.push_str(if single { "f32" } else { "f64" });
    }
    let lit = Literal::from_str(&text).unwrap_or_else(|_| Literal::f64_unsuffixed(x.abs()));
    if x.is_sign_negative() {
        quote!(-#lit)
    } else {
        quote!(#lit)
    }
}

/// A `json` default built value by value: no parsing at run time, so
/// nothing that could fail.
fn json_expr(cx: &Cx<'_>, json: &serde_json::Value) -> TokenStream {
    let rt = &cx.rt;
    let value = quote!(#rt::serde_json::Value);
    match json {
        serde_json::Value::Null => quote!(#value::Null),
        serde_json::Value::Bool(b) => quote!(#value::Bool(#b)),
        serde_json::Value::Number(n) => {
            let lit = if let Some(u) = n.as_u64() {
                let lit = Literal::u64_suffixed(u);
                quote!(#lit)
            } else if let Some(i) = n.as_i64() {
                match i.checked_abs() {
                    Some(abs) => {
                        let lit = Literal::i64_suffixed(abs);
                        if i < 0 { quote!(-#lit) } else { quote!(#lit) }
                    }
                    None => quote!(i64::MIN),
                }
            } else {
                float_literal(n.as_f64().unwrap_or(0.0), false, true)
            };
            quote!(#value::from(#lit))
        }
        serde_json::Value::String(s) => quote!(#value::String(::std::string::String::from(#s))),
        serde_json::Value::Array(items) if items.is_empty() => {
            quote!(#value::Array(::std::vec::Vec::new()))
        }
        serde_json::Value::Array(items) => {
            let items = items.iter().map(|v| json_expr(cx, v));
            quote!(#value::Array(::std::vec![#(#items),*]))
        }
        serde_json::Value::Object(map) => {
            let entries = map.iter().map(|(k, v)| {
                let v = json_expr(cx, v);
                quote!((::std::string::String::from(#k), #v))
            });
            quote!(#value::Object(::core::iter::FromIterator::from_iter([#(#entries),*])))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(tokens: TokenStream) -> String {
        tokens.to_string()
    }

    #[test]
    fn floats_are_the_shortest_literal_that_reads_back() {
        assert_eq!(text(float_literal(0.1, false, false)), "0.1");
        assert_eq!(text(float_literal(f64::from(0.1f32), true, false)), "0.1");
        assert_eq!(text(float_literal(-1.5e-3, false, false)), "- 0.0015");
        assert_eq!(text(float_literal(1e300, false, true)), "1e300f64");
        assert_eq!(text(float_literal(f64::NAN, false, false)), "f64 :: NAN");
        assert_eq!(
            text(float_literal(f64::NEG_INFINITY, true, false)),
            "f32 :: NEG_INFINITY"
        );
    }

    #[test]
    fn integers_keep_their_extremes() {
        assert_eq!(text(int(i128::from(i64::MIN))), "- 9223372036854775808");
        assert_eq!(text(int(i128::from(u64::MAX))), "18446744073709551615");
    }

    #[test]
    #[allow(clippy::approx_constant, reason = "the approximations are the point")]
    fn only_floats_near_a_constant_need_clippy_told() {
        assert!(near_constant(&Value::Float(3.14159)));
        assert!(near_constant(&Value::Float(-2.718)));
        assert!(near_constant(&Value::Json(serde_json::json!([1.414]))));
        assert!(!near_constant(&Value::Float(1.0)));
        assert!(!near_constant(&Value::Float(2.5)));
        assert!(!near_constant(&Value::Int(3)));
    }
}
