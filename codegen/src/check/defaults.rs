//! Default values: does the literal fit the field's type and constraints?

use super::symbols::{Body, Kind, Symbols};
use crate::diag::{Ctxt, messages};
use crate::model::{Constraints, Number, Primitive, Type, Value};
use crate::source::Span;
use crate::suggest;
use crate::syntax::ast::{LitKind, Literal, TypeBody};

/// Where the field's `@range`, `@length` and `@pattern` were written, to
/// point at the bound a default breaks.
#[derive(Clone, Copy, Default)]
pub(crate) struct BoundSpans {
    pub(crate) range: Option<Span>,
    pub(crate) length: Option<Span>,
    pub(crate) pattern: Option<Span>,
}

/// Checks a default against a (non-optional) field type.
/// `count: u32 = "three"` → TW309; `@range(-24, 24) semitones: i8 = 30` → TW310.
pub(crate) fn check(
    symbols: &Symbols<'_>,
    cx: &mut Ctxt,
    ty: &Type,
    lit: &Literal,
    constraints: &Constraints,
    bounds: BoundSpans,
) -> Option<Value> {
    let mismatch = |cx: &mut Ctxt, help: Option<&str>| {
        let help = help.map(str::to_owned).or_else(|| example(ty));
        cx.push(messages::default_type(
            lit.span,
            &ty.idl(),
            &describe(&lit.kind),
            help,
        ));
        None
    };
    match (ty, &lit.kind) {
        (Type::Primitive(Primitive::Bool), LitKind::Bool(b)) => Some(Value::Bool(*b)),
        (Type::Primitive(p), LitKind::Int(i)) if p.int_bounds().is_some() => {
            let (lo, hi) = p.int_bounds().unwrap_or((0, 0));
            if *i < lo || *i > hi {
                let reason = format!("`{}` holds {lo} to {hi}", p.as_str());
                cx.push(messages::default_out_of_range(lit.span, &reason, None));
                return None;
            }
            within_range(cx, lit, Number::Int(*i), constraints, bounds).then_some(Value::Int(*i))
        }
        (Type::Primitive(p), LitKind::Float(_)) if p.int_bounds().is_some() => mismatch(
            cx,
            Some("integer fields take integer defaults, such as `1`"),
        ),
        (Type::Primitive(p), LitKind::Int(_) | LitKind::Float(_)) if p.is_float() => {
            let n = match lit.kind {
                LitKind::Int(i) => Number::Int(i),
                LitKind::Float(f) => Number::Float(f),
                _ => Number::Int(0),
            };
            if *p == Primitive::F32 && !super::fields::fits_f32(n.as_f64()) {
                cx.push(messages::default_out_of_range(
                    lit.span,
                    "beyond the range of `f32`",
                    None,
                ));
                return None;
            }
            within_range(cx, lit, n, constraints, bounds).then_some(Value::Float(n.as_f64()))
        }
        (Type::Primitive(Primitive::String), LitKind::Str(s)) => {
            if let Some((min, max)) = constraints.length {
                let n = s.chars().count() as u64;
                if n < min || n > max {
                    let reason =
                        format!("it is {n} characters long; `@length` allows {min} to {max}");
                    cx.push(messages::default_out_of_range(
                        lit.span,
                        &reason,
                        bounds.length,
                    ));
                    return None;
                }
            }
            if let Some(pattern) = &constraints.pattern
                && !crate::pattern::matches(pattern, s)
            {
                let reason = format!("it does not match `@pattern(\"{pattern}\")`");
                cx.push(messages::default_out_of_range(
                    lit.span,
                    &reason,
                    bounds.pattern,
                ));
                return None;
            }
            Some(Value::String(s.clone()))
        }
        (Type::Primitive(Primitive::Json), kind) => json(kind).map(Value::Json).or_else(|| {
            mismatch(
                cx,
                Some("a `json` default is a number, string, `true`, `false` or `[]`"),
            )
        }),
        (Type::Primitive(Primitive::Bytes), _) => mismatch(
            cx,
            Some("`bytes` fields take no default; make the field optional"),
        ),
        (Type::List(_), LitKind::EmptyList) => {
            if let Some((min, _)) = constraints.length.filter(|(min, _)| *min > 0) {
                let entries = if min == 1 { "entry" } else { "entries" };
                let reason = format!("`@length` requires at least {min} {entries}");
                cx.push(messages::default_out_of_range(
                    lit.span,
                    &reason,
                    bounds.length,
                ));
                return None;
            }
            Some(Value::EmptyList)
        }
        (Type::List(_), _) => mismatch(cx, Some("the only list default is `[]`")),
        (Type::Map(_), _) => mismatch(
            cx,
            Some("`map` fields take no default; make the field optional"),
        ),
        (Type::Named(r), kind) => {
            let slot = &symbols.slots[r.id.index()];
            let values = match (&slot.kind, &slot.body) {
                (Kind::Enum, Body::Decl(decl)) => match &decl.body {
                    TypeBody::Enum(values) => Some(values),
                    _ => None,
                },
                _ => None,
            };
            let Some(values) = values else {
                let help = format!(
                    "`{}` is {}; only enum fields take a named default. Make the field optional instead",
                    r.name,
                    slot.kind.article()
                );
                return mismatch(cx, Some(&help));
            };
            let LitKind::Ident(word) = kind else {
                let help = values.first().map(|v| {
                    format!(
                        "write a value of `{}` without quotes, such as `{}`",
                        r.name, v.name.name
                    )
                });
                return mismatch(cx, help.as_deref());
            };
            if values.iter().any(|v| &v.name.name == word) {
                Some(Value::EnumValue(word.clone()))
            } else {
                let suggestion =
                    suggest::closest(word, values.iter().map(|v| v.name.name.as_str()));
                cx.push(messages::unknown_enum_default(
                    lit.span, word, &r.name, suggestion,
                ));
                None
            }
        }
        (Type::Primitive(p), LitKind::Str(s))
            if p.is_number() && s.trim().parse::<f64>().is_ok() =>
        {
            mismatch(cx, Some("numbers are written without quotes"))
        }
        (Type::Primitive(Primitive::String), LitKind::Ident(_)) => {
            mismatch(cx, Some("string defaults are quoted: \"text\""))
        }
        _ => mismatch(cx, None),
    }
}

fn within_range(
    cx: &mut Ctxt,
    lit: &Literal,
    n: Number,
    constraints: &Constraints,
    bounds: BoundSpans,
) -> bool {
    let Some((min, max)) = constraints.range else {
        return true;
    };
    if n.as_f64() < min.as_f64() || n.as_f64() > max.as_f64() {
        let reason = format!("`@range` allows {min} to {max}");
        cx.push(messages::default_out_of_range(
            lit.span,
            &reason,
            bounds.range,
        ));
        return false;
    }
    true
}

fn json(kind: &LitKind) -> Option<serde_json::Value> {
    Some(match kind {
        LitKind::Bool(b) => serde_json::Value::Bool(*b),
        LitKind::Int(i) => match i64::try_from(*i) {
            Ok(v) => v.into(),
            Err(_) => u64::try_from(*i).ok()?.into(),
        },
        LitKind::Float(f) => serde_json::Number::from_f64(*f)?.into(),
        LitKind::Str(s) => s.clone().into(),
        LitKind::EmptyList => serde_json::Value::Array(Vec::new()),
        LitKind::Ident(_) => return None,
    })
}

/// A hint showing what a default of this type looks like.
fn example(ty: &Type) -> Option<String> {
    let Type::Primitive(p) = ty else { return None };
    Some(match p {
        Primitive::Bool => "write `true` or `false`".to_owned(),
        Primitive::String => "write a quoted string, such as \"text\"".to_owned(),
        p if p.is_float() => "write a number, such as `0.0`".to_owned(),
        p if p.int_bounds().is_some() => "write an integer, such as `0`".to_owned(),
        _ => return None,
    })
}

fn describe(kind: &LitKind) -> String {
    match kind {
        LitKind::Int(i) => format!("`{i}`"),
        LitKind::Float(f) => format!("`{f:?}`"),
        LitKind::Str(s) => format!("{s:?}"),
        LitKind::Bool(b) => format!("`{b}`"),
        LitKind::EmptyList => "`[]`".to_owned(),
        LitKind::Ident(w) => format!("`{w}`"),
    }
}
