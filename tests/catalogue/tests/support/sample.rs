//! Deterministic sample messages of a catalogue, for the shared test
//! vectors: JSON text written from the checked model, each value within its
//! field's constraints (so that validating readers in other languages
//! accept it too), and 64-bit integers within ±(2^53 − 1) so that
//! JavaScript numbers hold them exactly.

use regex_lite::Regex;
use toolwright_codegen::model::{
    Constraints, Field, Model, Primitive, Type, TypeId, TypeKind, Value,
};

use super::{Endpoint, Shapes, base64, json_string, object, required_height};

/// Nesting of recursive types past which values are kept minimal.
const MAX_DEPTH: usize = 3;

/// The largest integer every JSON reader holds exactly.
const MAX_SAFE_INTEGER: i128 = (1 << 53) - 1;

/// How much of each value to fill in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    /// Required fields only, lists and maps empty, unions' smallest variant.
    Minimal,
    /// Every field, with values other than the defaults; a few list items.
    Full,
    /// As `Full`, with long, repetitive strings and bytes.
    Long,
    /// As `Long`, with 40 items in the outermost lists and maps: large
    /// enough that frames carrying it are compressed.
    Large,
}

/// Strings that satisfy the catalogue's `@pattern`s, tried in order.
const PATTERNED: &[&str] = &[
    "0123456789abcdef0123456789abcdef01234567",
    "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
    "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
    "file:///tmp/sample.wav",
    "https://example.com/sample",
    "Ada Lovelace <ada@example.com>",
    "audio/wav",
    "proc_01",
    "job_01",
    "en-us",
    "Dmix",
    "snake_name",
    "main-loop",
    "app.config",
    "src/lib.rs",
];

/// Free text: ASCII, escapes, and characters beyond the BMP.
const TEXT: &[&str] = &[
    "hello",
    "héllo wörld",
    "日本語のテキスト",
    "a \"quoted\" line\n\ttabbed",
    "🎵 music 🎹",
    "slash / and \\ backslash",
];

/// Floats with short, exact decimal forms, in `f32` as in `f64`.
const FLOATS: &[f64] = &[0.5, 2.0, -1.25, 0.75, 12.0, 1000.0, -24.0, 0.25, 0.0];

/// Writes sample messages; a small PRNG varies them, from a fixed seed.
pub struct Sampler<'m> {
    model: &'m Model,
    shapes: Shapes,
    state: u64,
    patterns: Vec<(String, Regex)>,
}

impl<'m> Sampler<'m> {
    /// A sampler of `model`'s messages, varied by `seed`.
    pub fn new(model: &'m Model, seed: u64) -> Self {
        Sampler {
            model,
            shapes: Shapes::new(model),
            state: seed,
            patterns: Vec::new(),
        }
    }

    /// SplitMix64.
    fn next(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A request or response: the tags, then the fields of `payload`.
    pub fn message(&mut self, endpoint: &Endpoint, payload: Option<TypeId>, fill: Fill) -> String {
        let mut text = endpoint.prefix();
        if let Some(id) = payload {
            let TypeKind::Struct(fields) = &self.model.type_def(id).kind else {
                panic!("{}: a payload is a struct", endpoint.label());
            };
            for pair in self.fields(fields, 0, fill) {
                text.push(',');
                text.push_str(&pair);
            }
        }
        text.push('}');
        text
    }

    /// A full sample of a type, as JSON.
    pub fn value_of(&mut self, ty: &Type) -> serde_json::Value {
        let text = self.value(ty, &Constraints::default(), 0, Fill::Full);
        serde_json::from_str(&text).expect("samples are JSON")
    }

    fn fields(&mut self, fields: &[Field], depth: usize, fill: Fill) -> Vec<String> {
        let mut out = Vec::new();
        for field in fields {
            let deep = depth > MAX_DEPTH && self.shapes.leads_into_cycle(&field.ty);
            let fill = if deep { Fill::Minimal } else { fill };
            if !field.required && (fill == Fill::Minimal) {
                continue;
            }
            let value = self.field_value(field, depth, fill);
            out.push(format!("{}:{value}", json_string(&field.name)));
        }
        out
    }

    /// A value of the field, other than its default when it has one.
    fn field_value(&mut self, field: &Field, depth: usize, fill: Fill) -> String {
        let default = field.default.as_ref().map(default_json);
        for _ in 0..16 {
            let value = self.value(&field.ty, &field.constraints, depth, fill);
            let parsed: serde_json::Value = serde_json::from_str(&value).expect("samples are JSON");
            if default.as_ref() != Some(&parsed) {
                return value;
            }
        }
        panic!("no sample of `{}` differs from its default", field.name);
    }

    fn value(&mut self, ty: &Type, constraints: &Constraints, depth: usize, fill: Fill) -> String {
        let count = |this: &mut Self| {
            let (lo, hi) = constraints.length.unwrap_or((0, u64::MAX));
            let wanted = match fill {
                Fill::Minimal => 0,
                Fill::Large => 40,
                Fill::Full | Fill::Long => 1 + this.below(3) as u64,
            };
            wanted.clamp(lo, hi) as usize
        };
        match ty {
            Type::Primitive(p) => self.primitive(*p, constraints, fill),
            Type::Optional(inner) => self.value(inner, constraints, depth, fill),
            Type::List(inner) => {
                let n = count(self);
                let fill = inner_fill(fill);
                let items: Vec<String> = (0..n)
                    .map(|_| self.value(inner, &Constraints::default(), depth, fill))
                    .collect();
                format!("[{}]", items.join(","))
            }
            Type::Map(inner) => {
                let n = count(self);
                let fill = inner_fill(fill);
                // Written out of order: canonical output sorts them.
                let entries = (0..n).rev().map(|i| {
                    let key = json_string(&format!("{}key_{i:02}", ["z", "a", "é"][i % 3]));
                    let value = self.value(inner, &Constraints::default(), depth, fill);
                    format!("{key}:{value}")
                });
                object(entries.collect::<Vec<_>>())
            }
            Type::Named(r) => self.named(r.id, depth, fill),
        }
    }

    fn named(&mut self, id: TypeId, depth: usize, fill: Fill) -> String {
        let depth = depth + usize::from(self.shapes.recursive[id.index()]);
        let model = self.model;
        match &model.type_def(id).kind {
            TypeKind::Struct(fields) => object(self.fields(fields, depth, fill)),
            TypeKind::Enum(values) => {
                let i = if fill == Fill::Minimal {
                    0
                } else {
                    self.below(values.len())
                };
                json_string(&values[i].name)
            }
            TypeKind::Union(variants) | TypeKind::Error(variants) => {
                let height = |v: &toolwright_codegen::model::Variant| {
                    required_height(&v.fields, &self.shapes.height)
                };
                let smallest = (0..variants.len())
                    .min_by_key(|&i| height(&variants[i]))
                    .expect("a union has variants");
                let deep = depth > MAX_DEPTH && self.shapes.cyclic[id.index()];
                let i = if fill == Fill::Minimal || deep {
                    smallest
                } else {
                    self.below(variants.len())
                };
                let fill = if deep { Fill::Minimal } else { fill };
                let fields = self.fields(&variants[i].fields, depth, fill);
                format!("{{{}:{}}}", json_string(&variants[i].name), object(fields))
            }
        }
    }

    fn primitive(&mut self, p: Primitive, constraints: &Constraints, fill: Fill) -> String {
        let (min_len, max_len) = constraints.length.unwrap_or((0, u64::MAX));
        let (min_len, max_len) = (min_len as usize, max_len.min(1 << 20) as usize);
        match p {
            Primitive::Bool => (fill == Fill::Minimal || self.below(2) == 0).to_string(),
            Primitive::String => {
                let text = match &constraints.pattern {
                    Some(pattern) => self.patterned(pattern),
                    None => match fill {
                        Fill::Minimal => "x".to_owned(),
                        Fill::Full => TEXT[self.below(TEXT.len())].to_owned(),
                        Fill::Long | Fill::Large => {
                            format!("{}{}", "=".repeat(48), TEXT[self.below(TEXT.len())])
                        }
                    },
                };
                let chars = text.chars().count();
                let text = if chars < min_len {
                    format!("{text}{}", "x".repeat(min_len - chars))
                } else if chars > max_len {
                    text.chars().take(max_len).collect()
                } else {
                    text
                };
                json_string(&text)
            }
            Primitive::Bytes => {
                let len = match fill {
                    Fill::Minimal => 0,
                    Fill::Full => 5,
                    Fill::Long | Fill::Large => 300,
                }
                .clamp(min_len, max_len);
                let bytes: Vec<u8> = (0..len)
                    .map(|i| {
                        if matches!(fill, Fill::Long | Fill::Large) {
                            0
                        } else {
                            [0x00, 0x7F, 0x80, 0xFF, 0x5A][i % 5]
                        }
                    })
                    .collect();
                json_string(&base64(&bytes))
            }
            Primitive::Json => match fill {
                Fill::Minimal => "null".to_owned(),
                _ => r#"{"b":[1,2.5,"three",null,true],"a":{"nested":{"deep":-7}},"é":"ü"}"#
                    .to_owned(),
            },
            Primitive::F32 | Primitive::F64 => {
                let (lo, hi) = constraints
                    .range
                    .map(|(lo, hi)| (lo.as_f64(), hi.as_f64()))
                    .unwrap_or((f64::MIN, f64::MAX));
                let mut pool: Vec<f64> = FLOATS.to_vec();
                if p == Primitive::F64 {
                    pool.extend([0.1, 1234.5678]);
                }
                pool.retain(|x| (lo..=hi).contains(x));
                let x = if pool.is_empty() {
                    lo
                } else if fill == Fill::Minimal {
                    pool[0]
                } else {
                    pool[self.below(pool.len())]
                };
                serde_json::to_string(&x).expect("a finite float")
            }
            int => {
                let (lo, hi) = int.int_bounds().expect("an integer type");
                let (lo, hi) = match constraints.range {
                    Some((a, b)) => (
                        lo.max(a.as_f64().ceil() as i128),
                        hi.min(b.as_f64().floor() as i128),
                    ),
                    None => (lo, hi),
                };
                let (lo, hi) = (lo.max(-MAX_SAFE_INTEGER), hi.min(MAX_SAFE_INTEGER));
                let n = match fill {
                    Fill::Minimal => 0.clamp(lo, hi),
                    _ => match self.below(4) {
                        0 => lo,
                        1 => hi,
                        _ => (7 + self.below(90) as i128).clamp(lo, hi),
                    },
                };
                n.to_string()
            }
        }
    }

    /// A string that matches `pattern`.
    fn patterned(&mut self, pattern: &str) -> String {
        if !self.patterns.iter().any(|(p, _)| p == pattern) {
            let regex = Regex::new(pattern).expect("the catalogue's patterns compile");
            self.patterns.push((pattern.to_owned(), regex));
        }
        let (_, regex) = self
            .patterns
            .iter()
            .find(|(p, _)| p == pattern)
            .expect("just added");
        PATTERNED
            .iter()
            .find(|s| regex.is_match(s))
            .unwrap_or_else(|| panic!("add a sample string matching @pattern({pattern:?})"))
            .to_string()
    }
}

/// Items of a large list are long, not large themselves.
fn inner_fill(fill: Fill) -> Fill {
    match fill {
        Fill::Large => Fill::Long,
        other => other,
    }
}

/// A field's default as JSON, to tell a sample from it.
fn default_json(value: &Value) -> serde_json::Value {
    match value {
        Value::Bool(b) => (*b).into(),
        Value::Int(n) => serde_json::Value::from(*n as i64),
        Value::Float(x) => (*x).into(),
        Value::String(s) | Value::EnumValue(s) => s.clone().into(),
        Value::EmptyList => serde_json::Value::Array(Vec::new()),
        Value::Json(v) => v.clone(),
    }
}
