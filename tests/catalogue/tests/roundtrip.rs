//! Every tool of the reference catalogue, and every action of its action
//! tools, round-trips: a random valid request and a random valid response,
//! written as JSON from the checked model (`toolwright_codegen::check`),
//! decode as `ToolRequest` / `ToolResponse`, and the decoded value comes
//! back unchanged through MsgPack and through JSON. The generator's fixture
//! catalogues (`codegen/tests/fixtures/rust/`) are checked the same way, for
//! the shapes the reference catalogue lacks (recursive types, say).
//!
//! Constraints (`@range`, `@length`, `@pattern`) are not respected: the
//! Rust side does not check them, so any value of the right type must
//! round-trip. `PROPTEST_CASES` scales every part (default 256).

use std::collections::HashMap;
use std::fmt::Debug;

use proptest::collection::{btree_map, vec};
use proptest::prelude::*;
use proptest::strategy::Union;
use proptest::test_runner::{Config, RngAlgorithm, TestError, TestRng, TestRunner};
use serde::Serialize;
use serde::de::DeserializeOwned;
use toolwright::Catalogue;
use toolwright::codec::{Limits, from_json, from_msgpack, to_json, to_msgpack};
use toolwright_codegen::model::{Field, Model, Primitive, Type, TypeId, TypeKind, Variant};

mod support;

use support::{
    Endpoint, Shapes, assert_same_tools, base64, endpoints, json_string, load, manifest_path,
    object, reachable, required_height,
};

/// Nesting of recursive types past which a value is kept as small as its
/// type allows: optional and defaulted fields that lead back into a cycle
/// are left out, lists and maps that do are empty, and unions take their
/// shallowest variants.
const MAX_DEPTH: usize = 3;

/// Runs of each tool's (or action's) request and response, at the default
/// 256 `PROPTEST_CASES`; the random cases over all of them are four times
/// `PROPTEST_CASES`.
const PER_ENDPOINT: u32 = 5;

// ---------------------------------------------------------------------------
// Random JSON text, written by hand so that the tags come first.
// ---------------------------------------------------------------------------

fn string() -> BoxedStrategy<String> {
    vec(any::<char>(), 0..=8)
        .prop_map(|chars| chars.into_iter().collect())
        .boxed()
}

/// A float exactly representable in `f32` (a 25-bit integer over a power
/// of two), so that no round trip can change it; integral ones are
/// sometimes written as JSON integers, which a float field also reads.
fn float() -> BoxedStrategy<String> {
    (-(1i32 << 24)..=(1i32 << 24), 0..=16i32, any::<bool>())
        .prop_map(|(n, k, as_int)| {
            if k == 0 && as_int {
                n.to_string()
            } else {
                let x = f64::from(n) / f64::from(1u32 << k);
                serde_json::to_string(&x).expect("a finite float encodes")
            }
        })
        .boxed()
}

/// Any JSON value, nested at most three deep, with floats as [`float`].
fn json_value() -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        Just("null".to_owned()),
        any::<bool>().prop_map(|b| b.to_string()),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        float(),
        string().prop_map(|s| json_string(&s)),
    ];
    leaf.prop_recursive(3, 24, 3, |inner| {
        prop_oneof![
            vec(inner.clone(), 0..=3).prop_map(|items| format!("[{}]", items.join(","))),
            btree_map(string(), inner, 0..=3).prop_map(|entries| object(
                entries
                    .into_iter()
                    .map(|(k, v)| format!("{}:{v}", json_string(&k)))
            )),
        ]
    })
    .boxed()
}

fn primitive(p: Primitive) -> BoxedStrategy<String> {
    match p {
        Primitive::Bool => any::<bool>().prop_map(|b| b.to_string()).boxed(),
        Primitive::F32 | Primitive::F64 => float(),
        Primitive::String => string().prop_map(|s| json_string(&s)).boxed(),
        Primitive::Bytes => vec(any::<u8>(), 0..=12)
            .prop_map(|b| json_string(&base64(&b)))
            .boxed(),
        Primitive::Json => json_value(),
        int => {
            let (lo, hi) = int.int_bounds().expect("an integer type");
            prop_oneof![Just(lo), Just(hi), lo.max(-100)..=hi.min(100), lo..=hi,]
                .prop_map(|n| n.to_string())
                .boxed()
        }
    }
}

// ---------------------------------------------------------------------------
// Strategies from the model.
// ---------------------------------------------------------------------------

/// Builds (and memoizes) a JSON strategy per type and depth.
struct Gen<'m> {
    model: &'m Model,
    shapes: Shapes,
    memo: HashMap<(TypeId, usize), BoxedStrategy<String>>,
}

impl<'m> Gen<'m> {
    fn new(model: &'m Model) -> Self {
        Gen {
            model,
            shapes: Shapes::new(model),
            memo: HashMap::new(),
        }
    }

    /// `"name":value` for each field sent: in declaration order, as writers
    /// send them, or now and then in another order, which readers accept.
    fn fields(&mut self, fields: &[Field], depth: usize) -> BoxedStrategy<Vec<String>> {
        let mut out = Vec::new();
        for field in fields {
            let key = json_string(&field.name);
            let smallest = depth > MAX_DEPTH && self.shapes.leads_into_cycle(&field.ty);
            let strategy = if smallest && !field.required {
                Just(None).boxed()
            } else {
                let value = self
                    .value(&field.ty, depth)
                    .prop_map(move |v| Some(format!("{key}:{v}")));
                if field.required {
                    value.boxed()
                } else {
                    prop_oneof![1 => Just(None), 2 => value].boxed()
                }
            };
            out.push(strategy);
        }
        let sent = out.prop_map(|pairs| pairs.into_iter().flatten().collect::<Vec<String>>());
        prop_oneof![3 => sent.clone(), 1 => sent.prop_shuffle()].boxed()
    }

    fn value(&mut self, ty: &Type, depth: usize) -> BoxedStrategy<String> {
        let smallest = depth > MAX_DEPTH && self.shapes.leads_into_cycle(ty);
        match ty {
            Type::Primitive(p) => primitive(*p),
            // A reader also accepts `nil` for an optional value.
            Type::Optional(inner) => {
                prop_oneof![4 => self.value(inner, depth), 1 => Just("null".to_owned())].boxed()
            }
            Type::List(_) if smallest => Just("[]".to_owned()).boxed(),
            Type::Map(_) if smallest => Just("{}".to_owned()).boxed(),
            Type::List(inner) => vec(self.value(inner, depth), 0..=3)
                .prop_map(|items| format!("[{}]", items.join(",")))
                .boxed(),
            Type::Map(inner) => btree_map(string(), self.value(inner, depth), 0..=3)
                .prop_map(|entries| {
                    object(
                        entries
                            .into_iter()
                            .map(|(k, v)| format!("{}:{v}", json_string(&k))),
                    )
                })
                .boxed(),
            Type::Named(r) => self.named(r.id, depth),
        }
    }

    fn named(&mut self, id: TypeId, depth: usize) -> BoxedStrategy<String> {
        let depth = (depth + usize::from(self.shapes.recursive[id.index()])).min(MAX_DEPTH + 1);
        if let Some(s) = self.memo.get(&(id, depth)) {
            return s.clone();
        }
        let model = self.model;
        let strategy = match &model.type_def(id).kind {
            TypeKind::Struct(fields) => self.fields(fields, depth).prop_map(object).boxed(),
            TypeKind::Enum(values) => {
                let names: Vec<String> = values.iter().map(|v| json_string(&v.name)).collect();
                prop::sample::select(names).boxed()
            }
            TypeKind::Union(variants) | TypeKind::Error(variants) => {
                let smallest = depth > MAX_DEPTH && self.shapes.cyclic[id.index()];
                let height = |v: &Variant| required_height(&v.fields, &self.shapes.height);
                let lowest = variants.iter().map(height).min();
                let chosen: Vec<&Variant> = variants
                    .iter()
                    .filter(|v| !smallest || Some(height(v)) == lowest)
                    .collect();
                let arms: Vec<BoxedStrategy<String>> = chosen
                    .into_iter()
                    .map(|v| {
                        let tag = json_string(&v.name);
                        self.fields(&v.fields, depth)
                            .prop_map(move |pairs| format!("{{{tag}:{}}}", object(pairs)))
                            .boxed()
                    })
                    .collect();
                Union::new(arms).boxed()
            }
        };
        self.memo.insert((id, depth), strategy.clone());
        strategy
    }

    /// A whole request or response: the tags, then the payload's fields.
    fn message(&mut self, endpoint: &Endpoint, payload: Option<TypeId>) -> BoxedStrategy<String> {
        let prefix = endpoint.prefix();
        let Some(id) = payload else {
            return Just(format!("{prefix}}}")).boxed();
        };
        let depth = usize::from(self.shapes.recursive[id.index()]);
        let TypeKind::Struct(fields) = &self.model.type_def(id).kind else {
            panic!("{}: a payload is a struct", endpoint.label());
        };
        self.fields(fields, depth)
            .prop_map(move |pairs| {
                let mut text = prefix.clone();
                for pair in pairs {
                    text.push(',');
                    text.push_str(&pair);
                }
                text.push('}');
                text
            })
            .boxed()
    }
}

// ---------------------------------------------------------------------------
// The property.
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    Request,
    Response,
}

/// One generated message: which endpoint, which side, the JSON.
#[derive(Clone)]
struct Case {
    endpoint: usize,
    side: Side,
    json: String,
}

// The JSON shows as itself in a failure report, not as an escaped string.
impl Debug for Case {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?} #{}: {}", self.side, self.endpoint, self.json)
    }
}

/// A catalogue under test: its model's endpoints and their strategies.
struct Subject {
    name: &'static str,
    endpoints: Vec<Endpoint>,
    /// Request and response strategy of each endpoint.
    strategies: Vec<[BoxedStrategy<Case>; 2]>,
    types_covered: usize,
    types_total: usize,
}

impl Subject {
    fn new<C: Catalogue>(name: &'static str, model: &Model) -> Self {
        assert_same_tools::<C>(model);
        let endpoints = endpoints(model);
        let mut generator = Gen::new(model);
        let strategies = endpoints
            .iter()
            .enumerate()
            .map(|(i, e)| {
                [(Side::Request, e.request), (Side::Response, e.response)].map(|(side, payload)| {
                    generator
                        .message(e, payload)
                        .prop_map(move |json| Case {
                            endpoint: i,
                            side,
                            json,
                        })
                        .boxed()
                })
            })
            .collect();
        let roots = endpoints
            .iter()
            .flat_map(|e| [e.request, e.response])
            .flatten();
        let types_covered = reachable(model, roots).iter().filter(|s| **s).count();
        Subject {
            name,
            endpoints,
            strategies,
            types_covered,
            types_total: model.types.len(),
        }
    }

    /// Any endpoint, either side.
    fn any_case(&self) -> BoxedStrategy<Case> {
        Union::new(self.strategies.iter().flatten().cloned()).boxed()
    }
}

/// Decodes, then round-trips through MsgPack and through JSON.
fn round_trip<T>(json: &str) -> Result<(T, String), TestCaseError>
where
    T: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let decoded: T = from_json(json.as_bytes(), Limits::default())
        .map_err(|e| TestCaseError::fail(format!("a valid message does not decode: {e}")))?;
    let bytes = to_msgpack(&decoded)
        .map_err(|e| TestCaseError::fail(format!("does not encode as MsgPack: {e}")))?;
    let again: T = from_msgpack(&bytes, Limits::default()).map_err(|e| {
        TestCaseError::fail(format!("its MsgPack does not decode: {e}\n{bytes:02x?}"))
    })?;
    prop_assert_eq!(&again, &decoded, "changed by a MsgPack round trip");
    let text = to_json(&decoded)
        .map_err(|e| TestCaseError::fail(format!("does not encode as JSON: {e}")))?;
    let text = String::from_utf8(text).expect("JSON is UTF-8");
    let again: T = from_json(text.as_bytes(), Limits::default()).map_err(|e| {
        TestCaseError::fail(format!("its JSON does not decode: {e}\nre-encoded: {text}"))
    })?;
    prop_assert_eq!(
        &again,
        &decoded,
        "changed by a JSON round trip; re-encoded: {}",
        text
    );
    Ok((decoded, text))
}

fn check<C>(subject: &Subject, case: &Case) -> Result<(), TestCaseError>
where
    C: Catalogue,
    C::Request: Serialize + DeserializeOwned + PartialEq + Debug,
    C::Response: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let endpoint = &subject.endpoints[case.endpoint];
    let text = match case.side {
        Side::Request => {
            let (request, text) = round_trip::<C::Request>(&case.json)?;
            let info = C::call_info(&request);
            prop_assert_eq!(
                (info.tool.name, info.action.map(|a| a.name)),
                (endpoint.tool.as_str(), endpoint.action.as_deref()),
                "decoded as another call"
            );
            text
        }
        Side::Response => round_trip::<C::Response>(&case.json)?.1,
    };
    let prefix = endpoint.prefix();
    prop_assert!(
        text.strip_prefix(&prefix)
            .is_some_and(|rest| rest.starts_with([',', '}'])),
        "re-encoded without the tags `{}` first: {}",
        prefix,
        text
    );
    Ok(())
}

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

fn describe(subject: &Subject, error: &TestError<Case>) -> String {
    match error {
        TestError::Fail(why, case) => format!(
            "{} {} {:?}: {why}\nminimal failing JSON: {}",
            subject.name,
            subject.endpoints[case.endpoint].label(),
            case.side,
            case.json
        ),
        TestError::Abort(why) => format!("{}: aborted: {why}", subject.name),
    }
}

/// Every endpoint, each side `per_endpoint` times from a fixed seed, then
/// `random` cases over all of them. Returns every failure, shrunk.
fn run<C>(subject: &Subject, per_endpoint: u32, random: u32) -> Vec<String>
where
    C: Catalogue,
    C::Request: Serialize + DeserializeOwned + PartialEq + Debug,
    C::Response: Serialize + DeserializeOwned + PartialEq + Debug,
{
    let mut failures = Vec::new();
    for strategy in subject.strategies.iter().flatten() {
        let mut runner = TestRunner::new_with_rng(
            config(per_endpoint),
            TestRng::deterministic_rng(RngAlgorithm::ChaCha),
        );
        if let Err(e) = runner.run(strategy, |case| check::<C>(subject, &case)) {
            failures.push(describe(subject, &e));
        }
    }
    if random > 0 && !subject.endpoints.is_empty() {
        let mut runner = TestRunner::new(config(random));
        if let Err(e) = runner.run(&subject.any_case(), |case| check::<C>(subject, &case)) {
            failures.push(describe(subject, &e));
        }
    }
    let mut tools: Vec<&str> = subject.endpoints.iter().map(|e| e.tool.as_str()).collect();
    tools.dedup();
    eprintln!(
        "{}: {} tools, {} actions, {} endpoints x 2 sides x {per_endpoint} + {random} random cases; \
         {} of {} types reached from requests and responses; {} failures",
        subject.name,
        tools.len(),
        subject
            .endpoints
            .iter()
            .filter(|e| e.action.is_some())
            .count(),
        subject.endpoints.len(),
        subject.types_covered,
        subject.types_total,
        failures.len(),
    );
    failures
}

/// `PROPTEST_CASES` (256 unless set), and how many times the default that is.
fn cases() -> (u32, u32) {
    let cases = Config::default().cases;
    (cases, cases.div_ceil(256).max(1))
}

#[test]
fn every_tool_and_action_of_the_catalogue_round_trips() {
    let model = load(&[manifest_path("../../idl")], true);
    let subject = Subject::new::<toolwright_catalogue_tests::ToolCatalogue>("idl", &model);
    let (cases, scale) = cases();
    let failures =
        run::<toolwright_catalogue_tests::ToolCatalogue>(&subject, PER_ENDPOINT * scale, 4 * cases);
    assert!(failures.is_empty(), "\n\n{}\n", failures.join("\n\n"));
}

macro_rules! fixtures {
    ($($name:ident)*) => {
        #[test]
        fn every_tool_of_the_fixture_catalogues_round_trips() {
            let (cases, scale) = cases();
            let mut failures = Vec::new();
            $(
                let model = load(
                    &[manifest_path(concat!(
                        "../../codegen/tests/fixtures/rust/",
                        stringify!($name),
                        ".tool"
                    ))],
                    false,
                );
                let subject = Subject::new::<toolwright_catalogue_tests::fixtures::$name::ToolCatalogue>(
                    stringify!($name),
                    &model,
                );
                failures.extend(run::<toolwright_catalogue_tests::fixtures::$name::ToolCatalogue>(
                    &subject,
                    4 * PER_ENDPOINT * scale,
                    cases / 4,
                ));
            )*
            assert!(failures.is_empty(), "\n\n{}\n", failures.join("\n\n"));
        }
    };
}

fixtures!(actions deprecated enums errors no_payload no_tools recursive stream structs hygiene unions);
