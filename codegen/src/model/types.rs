//! Field types, values and constraints.

use serde::{Serialize, Serializer};

use super::TypeId;

/// The built-in scalar types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Primitive {
    /// `bool`
    Bool,
    /// `i8`
    I8,
    /// `i16`
    I16,
    /// `i32`
    I32,
    /// `i64`
    I64,
    /// `u8`
    U8,
    /// `u16`
    U16,
    /// `u32`
    U32,
    /// `u64`
    U64,
    /// `f32`
    F32,
    /// `f64`
    F64,
    /// `string` (UTF-8)
    String,
    /// `bytes` (MsgPack bin; base64 in JSON)
    Bytes,
    /// `json`: any JSON value
    Json,
}

impl Primitive {
    const ALL: [Primitive; 14] = [
        Primitive::Bool,
        Primitive::I8,
        Primitive::I16,
        Primitive::I32,
        Primitive::I64,
        Primitive::U8,
        Primitive::U16,
        Primitive::U32,
        Primitive::U64,
        Primitive::F32,
        Primitive::F64,
        Primitive::String,
        Primitive::Bytes,
        Primitive::Json,
    ];

    /// Every primitive's IDL spelling.
    pub const NAMES: &'static [&'static str] = &[
        "bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64", "string",
        "bytes", "json",
    ];

    /// The IDL spelling.
    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// Parses the IDL spelling.
    pub fn from_name(name: &str) -> Option<Primitive> {
        Self::ALL.into_iter().find(|p| p.as_str() == name)
    }

    /// Inclusive bounds of an integer type.
    pub fn int_bounds(self) -> Option<(i128, i128)> {
        Some(match self {
            Primitive::I8 => (i8::MIN.into(), i8::MAX.into()),
            Primitive::I16 => (i16::MIN.into(), i16::MAX.into()),
            Primitive::I32 => (i32::MIN.into(), i32::MAX.into()),
            Primitive::I64 => (i64::MIN.into(), i64::MAX.into()),
            Primitive::U8 => (0, u8::MAX.into()),
            Primitive::U16 => (0, u16::MAX.into()),
            Primitive::U32 => (0, u32::MAX.into()),
            Primitive::U64 => (0, u64::MAX.into()),
            _ => return None,
        })
    }

    /// True for `f32` and `f64`.
    pub fn is_float(self) -> bool {
        matches!(self, Primitive::F32 | Primitive::F64)
    }

    /// True for integer and float types.
    pub fn is_number(self) -> bool {
        self.is_float() || self.int_bounds().is_some()
    }
}

/// A reference to a named type: its id, serialized as its name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TypeRef {
    /// The referenced type.
    pub id: TypeId,
    /// Its name, for readable output.
    pub name: String,
}

impl Serialize for TypeRef {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name)
    }
}

/// The type of a field.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Type {
    /// `list<T>`
    List(Box<Type>),
    /// `map<T>` with string keys
    Map(Box<Type>),
    /// `T?` (only at the outermost level of a field's type)
    Optional(Box<Type>),
    /// A declared or generated type.
    #[serde(rename = "ref")]
    Named(TypeRef),
    /// A built-in scalar.
    #[serde(untagged)]
    Primitive(Primitive),
}

impl Type {
    /// The type without its outer `?`.
    pub fn strip_optional(&self) -> &Type {
        match self {
            Type::Optional(inner) => inner,
            other => other,
        }
    }

    /// The named type this type mentions, if any (through lists, maps
    /// and `?`), pushed onto `out`.
    pub fn push_named(&self, out: &mut Vec<TypeId>) {
        match self {
            Type::Primitive(_) => {}
            Type::List(inner) | Type::Map(inner) | Type::Optional(inner) => inner.push_named(out),
            Type::Named(r) => out.push(r.id),
        }
    }

    /// How the type is written in the IDL.
    pub fn idl(&self) -> String {
        match self {
            Type::List(t) => format!("list<{}>", t.idl()),
            Type::Map(t) => format!("map<{}>", t.idl()),
            Type::Optional(t) => format!("{}?", t.idl()),
            Type::Named(r) => r.name.clone(),
            Type::Primitive(p) => p.as_str().to_owned(),
        }
    }
}

/// A number as written: integer or float.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Number {
    /// An integer literal.
    Int(i128),
    /// A float literal.
    Float(f64),
}

impl Number {
    /// As a float, for comparisons across kinds.
    #[allow(clippy::cast_precision_loss)]
    pub fn as_f64(self) -> f64 {
        match self {
            Number::Int(i) => i as f64,
            Number::Float(f) => f,
        }
    }
}

impl std::fmt::Display for Number {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Number::Int(i) => write!(f, "{i}"),
            Number::Float(x) => write!(f, "{x:?}"),
        }
    }
}

/// A default value, checked against its field's type and constraints.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Value {
    /// `true` / `false`
    Bool(bool),
    /// An integer that fits the field's integer type.
    Int(i128),
    /// A float (also an integer literal given to a float field).
    Float(f64),
    /// A string.
    String(String),
    /// `[]`
    EmptyList,
    /// A value of the field's enum.
    EnumValue(String),
    /// Any literal given to a `json` field.
    Json(serde_json::Value),
}

/// Validation attached to a field.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Constraints {
    /// `@range(min, max)`: inclusive numeric bounds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<(Number, Number)>,
    /// `@length(min, max)`: inclusive length bounds (characters for strings,
    /// bytes for `bytes`, entries for lists and maps).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<(u64, u64)>,
    /// `@pattern("re")`: a regular expression strings must match.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pattern: Option<String>,
}

impl Constraints {
    /// True when no constraint is set.
    pub fn is_empty(&self) -> bool {
        self.range.is_none() && self.length.is_none() && self.pattern.is_none()
    }
}
