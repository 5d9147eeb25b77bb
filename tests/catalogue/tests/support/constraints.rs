//! `tests/vectors/constraints.json`: every `@range`, `@length` and
//! `@pattern` a request of the reference catalogue can hold, tried exactly
//! at its bounds (accepted) and just outside them (refused), for the Rust,
//! TypeScript and Python validators alike.
//!
//! Each case is a valid sample request with one value replaced. Values too
//! large to write out (a string of a million characters) are given as a
//! recipe each reader expands: see `Recipe`.

use std::collections::BTreeSet;

use regex_lite::Regex;
use serde::{Deserialize, Serialize};
use serde_json::{Value as Json, json};
use toolwright_codegen::model::{Field, Model, Origin, Primitive, Type, TypeDef, TypeId, TypeKind};

use super::sample::{Fill, Sampler};
use super::{endpoints, load, manifest_path};

/// Version of the file's layout.
pub const FORMAT: u32 = 1;
/// Seed of the sample requests the cases start from.
const SEED: u64 = 0xc057_17a1;
/// Sampling rounds tried until every constrained field was reached (a
/// union's variant is picked at random).
const ROUNDS: usize = 40;
/// The most characters, bytes or entries a case holds.
const MAX_ITEMS: u64 = (1 << 20) + 1;
/// The largest integer every JSON reader holds exactly.
const MAX_SAFE_INTEGER: i128 = (1 << 53) - 1;

/// `constraints.json`.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct ConstraintVectors {
    pub format: u32,
    pub cases: Vec<ConstraintCase>,
}

/// One request: `request` with the value at `at` replaced by `value`.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
pub struct ConstraintCase {
    pub name: String,
    /// A whole valid request as JSON text, its tags first.
    pub request: String,
    /// Object keys and list indexes from the request to the value.
    pub at: Vec<Json>,
    pub value: Recipe,
    /// True when the value is exactly at a bound, false when just outside.
    pub valid: bool,
    /// The field an error must name: its wire name.
    pub field: String,
    /// `range`, `length` or `pattern`.
    pub constraint: String,
}

/// A value, written out or described.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Recipe {
    /// This JSON value.
    Json(Json),
    /// `text` repeated `times` times.
    Repeat { text: String, times: u64 },
    /// `count` zero bytes (base64 in JSON).
    Bytes { count: u64 },
    /// A list of `times` copies of `item`.
    List { item: Json, times: u64 },
    /// A map of `times` entries `k0`, `k1`, … each holding `item`.
    Map { item: Json, times: u64 },
}

impl Recipe {
    /// The JSON value it describes.
    pub fn expand(&self) -> Json {
        match self {
            Recipe::Json(value) => value.clone(),
            Recipe::Repeat { text, times } => Json::from(text.repeat(*times as usize)),
            Recipe::Bytes { count } => Json::from(super::base64(&vec![0; *count as usize])),
            Recipe::List { item, times } => Json::Array(vec![item.clone(); *times as usize]),
            Recipe::Map { item, times } => Json::Object(
                (0..*times)
                    .map(|i| (format!("k{i}"), item.clone()))
                    .collect(),
            ),
        }
    }
}

impl ConstraintCase {
    /// The request as JSON text, with the value in place and the tags
    /// first.
    pub fn json(&self) -> String {
        let mut request: Json = serde_json::from_str(&self.request).expect("requests are JSON");
        let mut slot = &mut request;
        for step in &self.at {
            slot = match step {
                Json::String(key) => &mut slot[key.as_str()],
                Json::Number(index) => &mut slot[index.as_u64().unwrap_or(0) as usize],
                _ => panic!("{}: a step is a key or an index", self.name),
            };
        }
        *slot = self.value.expand();
        let Json::Object(mut fields) = request else {
            panic!("{}: a request is an object", self.name);
        };
        let mut parts = Vec::new();
        for tag in ["tool", "action"] {
            if let Some(value) = fields.remove(tag) {
                parts.push(format!("{}:{value}", Json::from(tag)));
            }
        }
        parts.extend(
            fields
                .iter()
                .map(|(k, v)| format!("{}:{v}", Json::from(k.as_str()))),
        );
        format!("{{{}}}", parts.join(","))
    }
}

/// Builds the cases from the reference catalogue.
pub fn build_constraints() -> ConstraintVectors {
    let model = load(&[manifest_path("../../idl")], true);
    let mut builder = Builder {
        model: &model,
        sampler: Sampler::new(&model, SEED),
        covered: BTreeSet::new(),
        cases: Vec::new(),
    };
    for _ in 0..ROUNDS {
        for endpoint in endpoints(&model) {
            let Some(id) = endpoint.request else { continue };
            let text = builder.sampler.message(&endpoint, Some(id), Fill::Full);
            let request: Json = serde_json::from_str(&text).expect("samples are JSON");
            let mut walk = Walk {
                label: endpoint.label(),
                text: &text,
                request: &request,
                at: Vec::new(),
            };
            builder.fields(&mut walk, id);
        }
    }
    let missing: Vec<String> = constrained_request_fields(&model)
        .difference(&builder.covered)
        .map(|(ty, field)| format!("{ty}.{field}"))
        .collect();
    assert!(
        missing.is_empty(),
        "no sample reached these constrained fields: {missing:?}"
    );
    ConstraintVectors {
        format: FORMAT,
        cases: builder.cases,
    }
}

/// `(type, field)` of every constrained field a request can hold.
fn constrained_request_fields(model: &Model) -> BTreeSet<(String, String)> {
    let in_request = model.request_types();
    // The vectors are tool requests: a resource's or prompt's arguments
    // are checked by the runtime's own tests (runtime/tests/mcp_entries.rs).
    let entry_arguments = |t: &&TypeDef| {
        matches!(
            t.origin,
            Origin::ResourceArguments { .. } | Origin::PromptArguments { .. }
        )
    };
    model
        .types
        .iter()
        .filter(|t| in_request[t.id.index()] && !entry_arguments(t))
        .flat_map(|t| {
            t.kind
                .fields()
                .into_iter()
                .filter(|f| !f.constraints.is_empty())
                .map(|f| (t.name.clone(), f.name.clone()))
        })
        .collect()
}

struct Builder<'m> {
    model: &'m Model,
    sampler: Sampler<'m>,
    covered: BTreeSet<(String, String)>,
    cases: Vec<ConstraintCase>,
}

/// Where the walk is: which request, and the steps to the current value.
struct Walk<'r> {
    label: String,
    text: &'r str,
    request: &'r Json,
    at: Vec<Json>,
}

impl Walk<'_> {
    fn value(&self) -> Option<&Json> {
        let mut value = self.request;
        for step in &self.at {
            value = match step {
                Json::String(key) => value.get(key.as_str())?,
                Json::Number(i) => value.get(i.as_u64()? as usize)?,
                _ => return None,
            };
        }
        Some(value)
    }
}

impl Builder<'_> {
    /// The fields of the named type whose value is at `walk`.
    fn fields(&mut self, walk: &mut Walk<'_>, id: TypeId) {
        let ty = self.model.type_def(id);
        match &ty.kind {
            TypeKind::Struct(fields) => {
                for field in fields {
                    self.field(walk, &ty.name, field);
                }
            }
            TypeKind::Union(variants) | TypeKind::Error(variants) => {
                let Some(Json::Object(tagged)) = walk.value() else {
                    return;
                };
                let Some(name) = tagged.keys().next().cloned() else {
                    return;
                };
                let Some(variant) = variants.iter().find(|v| v.name == name) else {
                    return;
                };
                walk.at.push(Json::from(name));
                for field in &variant.fields {
                    self.field(walk, &ty.name, field);
                }
                walk.at.pop();
            }
            TypeKind::Enum(_) => {}
        }
    }

    fn field(&mut self, walk: &mut Walk<'_>, owner: &str, field: &Field) {
        walk.at.push(Json::from(field.name.clone()));
        if let Some(value) = walk.value().cloned() {
            let ty = field.ty.strip_optional();
            let key = (owner.to_owned(), field.name.clone());
            if !field.constraints.is_empty() && !self.covered.contains(&key) {
                self.covered.insert(key);
                self.cases_of(walk, owner, field, ty, &value);
            }
            self.inside(walk, ty, &value);
        }
        walk.at.pop();
    }

    /// Into the first entry of a list or map, or the fields of a type.
    fn inside(&mut self, walk: &mut Walk<'_>, ty: &Type, value: &Json) {
        match (ty, value) {
            (Type::Named(r), _) => self.fields(walk, r.id),
            (Type::List(inner), Json::Array(items)) if !items.is_empty() => {
                walk.at.push(Json::from(0));
                self.inside(walk, inner, &items[0]);
                walk.at.pop();
            }
            (Type::Map(inner), Json::Object(entries)) => {
                if let Some((key, first)) = entries.iter().next() {
                    walk.at.push(Json::from(key.clone()));
                    self.inside(walk, inner, first);
                    walk.at.pop();
                }
            }
            _ => {}
        }
    }

    fn cases_of(&mut self, walk: &Walk<'_>, owner: &str, field: &Field, ty: &Type, sample: &Json) {
        let c = &field.constraints;
        let mut push = |what: &str, value: Recipe, valid: bool, constraint: &str| {
            self.cases.push(ConstraintCase {
                name: format!("{}/{owner}.{}/{what}", walk.label, field.name),
                request: walk.text.to_owned(),
                at: walk.at.clone(),
                value,
                valid,
                field: field.name.clone(),
                constraint: constraint.to_owned(),
            });
        };
        if let (Some((lo, hi)), Type::Primitive(p)) = (c.range, ty) {
            if p.is_float() {
                for (what, x, valid) in float_cases(*p, lo.as_f64(), hi.as_f64()) {
                    push(what, Recipe::Json(json!(x)), valid, "range");
                }
            } else {
                let (tlo, thi) = p.int_bounds().expect("an integer type");
                let (lo, hi) = (lo.as_f64() as i128, hi.as_f64() as i128);
                for (what, n, valid) in [
                    ("minimum", lo, true),
                    ("maximum", hi, true),
                    ("below_minimum", lo - 1, false),
                    ("above_maximum", hi + 1, false),
                ] {
                    if n < tlo || n > thi || n.abs() > MAX_SAFE_INTEGER {
                        continue;
                    }
                    push(what, Recipe::Json(json!(n as i64)), valid, "range");
                }
            }
        }
        if let Some((lo, hi)) = c.length {
            let patterned = c.pattern.is_some();
            let item = |this: &mut Self, inner: &Type, first: Option<&Json>| {
                first
                    .cloned()
                    .unwrap_or_else(|| this.sampler.value_of(inner))
            };
            let recipe = |this: &mut Self, n: u64| -> Option<Recipe> {
                // Bounds beyond what a test reads quickly are tried below
                // only (the server's message limit caps them anyway).
                if n > MAX_ITEMS {
                    return None;
                }
                Some(match ty {
                    Type::Primitive(Primitive::String) => Recipe::Repeat {
                        // Beyond the BMP: one character, two UTF-16 units,
                        // four UTF-8 bytes. Long strings are ASCII, to stay
                        // small.
                        text: if n <= 4096 { "🎵" } else { "x" }.to_owned(),
                        times: n,
                    },
                    Type::Primitive(Primitive::Bytes) => Recipe::Bytes { count: n },
                    Type::List(inner) => Recipe::List {
                        item: item(this, inner, sample.as_array().and_then(|a| a.first())),
                        times: n,
                    },
                    Type::Map(inner) => Recipe::Map {
                        item: item(
                            this,
                            inner,
                            sample.as_object().and_then(|m| m.values().next()),
                        ),
                        times: n,
                    },
                    _ => return None,
                })
            };
            let mut bounds = Vec::new();
            if !patterned {
                bounds.push(("minimum_length", lo, true));
                bounds.push(("maximum_length", hi, true));
            }
            if lo > 0 {
                bounds.push(("below_minimum_length", lo - 1, false));
            }
            bounds.push(("above_maximum_length", hi + 1, false));
            for (what, n, valid) in bounds {
                if let Some(value) = recipe(self, n) {
                    self.cases.push(ConstraintCase {
                        name: format!("{}/{owner}.{}/{what}", walk.label, field.name),
                        request: walk.text.to_owned(),
                        at: walk.at.clone(),
                        value,
                        valid,
                        field: field.name.clone(),
                        constraint: "length".to_owned(),
                    });
                }
            }
        }
        if let Some(pattern) = &c.pattern {
            // The catalogue's patterns mean the same in `regex-lite` as in
            // ECMA-262; were one not to, the TypeScript suite, which runs
            // them natively, would disagree with these labels.
            let regex = Regex::new(pattern).expect("the catalogue's patterns compile");
            let sample = sample.as_str().expect("a patterned field is a string");
            let fits = |s: &str| {
                let n = s.chars().count() as u64;
                c.length.is_none_or(|(lo, hi)| (lo..=hi).contains(&n))
            };
            let mut push = |what: &str, text: String, valid: bool| {
                self.cases.push(ConstraintCase {
                    name: format!("{}/{owner}.{}/{what}", walk.label, field.name),
                    request: walk.text.to_owned(),
                    at: walk.at.clone(),
                    value: Recipe::Json(Json::from(text)),
                    valid,
                    field: field.name.clone(),
                    constraint: "pattern".to_owned(),
                });
            };
            push("matching", sample.to_owned(), true);
            // `$` is the end of the string, not "before a final newline"
            // as in Python's `re`.
            let newline = format!("{sample}\n");
            if !regex.is_match(&newline) && fits(&newline) {
                push("matching_then_newline", newline, false);
            }
            let other = ["!", "x", "Z", "0", "\u{FF10}", "é"]
                .iter()
                .map(|s| (*s).to_owned())
                .find(|s| !regex.is_match(s) && fits(s));
            if let Some(other) = other {
                push("not_matching", other, false);
            }
        }
    }
}

/// A bound, and the nearest value of the field's type beyond it.
fn float_cases(p: Primitive, lo: f64, hi: f64) -> Vec<(&'static str, f64, bool)> {
    let single = p == Primitive::F32;
    let exact = |x: f64| !single || f64::from(x as f32) == x;
    let step = |x: f64, up: bool| -> f64 {
        if single {
            let x = x as f32;
            f64::from(if up { x.next_up() } else { x.next_down() })
        } else if up {
            x.next_up()
        } else {
            x.next_down()
        }
    };
    let mut out = Vec::new();
    if exact(lo) {
        out.push(("minimum", lo, true));
        out.push(("below_minimum", step(lo, false), false));
    }
    if exact(hi) {
        out.push(("maximum", hi, true));
        out.push(("above_maximum", step(hi, true), false));
    }
    out
}
