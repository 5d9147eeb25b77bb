//! `example "Title" { request … response … }`: each part decodes as the
//! types its tool or action declares, within their constraints, and says
//! what the tool can answer (TW601–TW603). A checked example is kept in
//! the model as JSON, for every backend that shows or runs examples.

use std::collections::HashMap;

use super::symbols::Symbols;
use crate::diag::{Ctxt, messages};
use crate::model::{
    Constraints, Endpoint, Example, ExampleOutcome, Field, Number, Primitive, Tool, ToolKind, Type,
    TypeDef, TypeId, TypeKind,
};
use crate::source::{Sources, Span};
use crate::suggest;
use crate::syntax::ast::{self, ClauseKind, Data, DataKind, ExamplePartKind};
use crate::syntax::keywords;

/// Checks every example and stores it on its tool or action.
pub(crate) fn check(
    symbols: &Symbols<'_>,
    types: &[TypeDef],
    tools: &mut [Tool],
    sources: &Sources,
    cx: &mut Ctxt,
) {
    let mut cx = Checker { types, cx };
    for entry in &symbols.tools {
        let syntax = entry.tool;
        // A tool that did not lower was reported already.
        let Some(tool) = tools.iter_mut().find(|t| t.name == syntax.name.name) else {
            continue;
        };
        let errors = tool.errors;
        let own: Vec<&ast::Example> = examples_of(&syntax.clauses).collect();
        match &mut tool.kind {
            ToolKind::Single(endpoint) => {
                let endpoint = *endpoint;
                tool.examples = cx.all(&own, &endpoint, errors, sources);
            }
            ToolKind::Actions(actions) => {
                for example in own {
                    cx.cx.push(messages::example_place(
                        example.title.span,
                        format!(
                            "tool `{}` has actions; its examples go in them",
                            syntax.name.name
                        ),
                        "example of an action tool",
                        "move it into the `action` it calls".to_owned(),
                        None,
                    ));
                }
                for clause in &syntax.clauses {
                    let ClauseKind::Action(written) = &clause.kind else {
                        continue;
                    };
                    let Some(action) = actions.iter_mut().find(|a| a.name == written.name.name)
                    else {
                        continue;
                    };
                    let own: Vec<&ast::Example> = examples_of(&written.clauses).collect();
                    action.examples = cx.all(&own, &action.endpoint, errors, sources);
                }
            }
        }
    }
}

fn examples_of(clauses: &[ast::Clause]) -> impl Iterator<Item = &ast::Example> {
    clauses.iter().filter_map(|c| match &c.kind {
        ClauseKind::Example(e) => Some(e),
        _ => None,
    })
}

struct Checker<'a, 'c> {
    types: &'a [TypeDef],
    cx: &'c mut Ctxt,
}

impl Checker<'_, '_> {
    /// The examples of one tool or action, those that check.
    fn all(
        &mut self,
        examples: &[&ast::Example],
        endpoint: &Endpoint,
        errors: Option<TypeId>,
        sources: &Sources,
    ) -> Vec<Example> {
        let mut titles: HashMap<&str, Span> = HashMap::new();
        let mut out = Vec::new();
        for example in examples {
            let title = example.title.value.trim();
            if title.is_empty() {
                self.cx.push(messages::example_place(
                    example.title.span,
                    "an example's title is empty".to_owned(),
                    "no title",
                    "say in a few words what the example shows, such as `\"Two small numbers\"`"
                        .to_owned(),
                    None,
                ));
                continue;
            }
            if let Some(&first) = titles.get(title) {
                self.cx.push(messages::example_place(
                    example.title.span,
                    format!("two examples are titled \"{title}\""),
                    "title given again",
                    "give each example of a tool or action its own title".to_owned(),
                    Some(first),
                ));
                continue;
            }
            titles.insert(title, example.title.span);
            if let Some((request, outcome)) = self.one(example, endpoint, errors) {
                out.push(Example {
                    title: title.to_owned(),
                    request,
                    outcome,
                    location: sources.location(example.title.span),
                });
            }
        }
        out
    }

    /// One example's request and outcome, if every part of it checks.
    fn one(
        &mut self,
        example: &ast::Example,
        endpoint: &Endpoint,
        errors: Option<TypeId>,
    ) -> Option<(serde_json::Value, ExampleOutcome)> {
        let mut seen: HashMap<&str, Span> = HashMap::new();
        let mut request = None;
        let mut outcome = None;
        let mut ok = true;
        for part in &example.parts {
            let keyword = part.keyword.name.as_str();
            // `response` and `error` are one slot: what the call ends with.
            let slot = if keyword == keywords::REQUEST {
                keywords::REQUEST
            } else {
                keywords::RESPONSE
            };
            if let Some(&first) = seen.get(slot) {
                let (message, help) = if slot == keywords::REQUEST {
                    (
                        "an example holds one `request`".to_owned(),
                        "write another example for another call".to_owned(),
                    )
                } else {
                    (
                        "an example ends one way: one `response` or one `error`".to_owned(),
                        "write another example for another outcome".to_owned(),
                    )
                };
                self.cx.push(messages::example_place(
                    part.keyword.span,
                    message,
                    "given again",
                    help,
                    Some(first),
                ));
                ok = false;
                continue;
            }
            seen.insert(slot, part.keyword.span);
            match &part.kind {
                ExamplePartKind::Request(data) => request = self.request(data, endpoint),
                ExamplePartKind::Response(data) => {
                    outcome = self.response(part.keyword.span, data, endpoint);
                }
                ExamplePartKind::Error { variant, details } => {
                    outcome = self.error(variant, details.as_ref(), errors);
                }
            }
            ok &= match &part.kind {
                ExamplePartKind::Request(_) => request.is_some(),
                _ => outcome.is_some(),
            };
        }
        if !seen.contains_key(keywords::REQUEST) {
            // No `request`: the call sends no arguments, which is right
            // only when none is required.
            let empty = Data {
                kind: DataKind::Object(Vec::new()),
                span: example.title.span,
            };
            request = self.request(&empty, endpoint);
            ok &= request.is_some();
        }
        if !ok {
            return None;
        }
        Some((request?, outcome.unwrap_or(ExampleOutcome::Succeeds)))
    }

    fn request(&mut self, data: &Data, endpoint: &Endpoint) -> Option<serde_json::Value> {
        match endpoint.request {
            Some(id) => self.named(id, data).then(|| data.to_json()),
            None => match &data.kind {
                DataKind::Object(entries) if entries.is_empty() => Some(data.to_json()),
                _ => {
                    self.cx.push(messages::example_value(
                        data.span,
                        "this tool takes no arguments".to_owned(),
                        Some("leave out `request`, or write `request {}`".to_owned()),
                    ));
                    None
                }
            },
        }
    }

    fn response(
        &mut self,
        keyword: Span,
        data: &Data,
        endpoint: &Endpoint,
    ) -> Option<ExampleOutcome> {
        let Some(id) = endpoint.response else {
            self.cx.push(messages::example_outcome(
                keyword,
                "this tool declares no response; it answers with an acknowledgement".to_owned(),
                "no response to show",
                "leave out `response`: an example without one says the call succeeds".to_owned(),
            ));
            return None;
        };
        self.named(id, data).then(|| ExampleOutcome::Response {
            value: data.to_json(),
        })
    }

    fn error(
        &mut self,
        variant: &ast::Ident,
        details: Option<&Data>,
        errors: Option<TypeId>,
    ) -> Option<ExampleOutcome> {
        let Some(id) = errors else {
            self.cx.push(messages::example_outcome(
                variant.span,
                "this tool declares no errors".to_owned(),
                "no error to fail with",
                "declare them with `errors SomeError` in the tool's body".to_owned(),
            ));
            return None;
        };
        let def = &self.types[id.index()];
        let TypeKind::Error(variants) = &def.kind else {
            return None;
        };
        let Some(found) = variants.iter().find(|v| v.name == variant.name) else {
            let suggestion =
                suggest::closest(&variant.name, variants.iter().map(|v| v.name.as_str()));
            self.cx.push(messages::example_unknown_error(
                variant.span,
                &variant.name,
                &def.name,
                suggestion,
            ));
            return None;
        };
        let of = format!("error `{}`", found.name);
        if let Some(details) = details
            && !self.object(&found.fields, details, &of)
        {
            return None;
        }
        Some(ExampleOutcome::Error {
            code: found.code.clone().unwrap_or_default(),
            name: found.name.clone(),
            details: details.map(Data::to_json),
        })
    }

    /// A value of the named type `id`.
    fn named(&mut self, id: TypeId, data: &Data) -> bool {
        let def = &self.types[id.index()];
        match &def.kind {
            TypeKind::Struct(fields) => {
                let of = format!("`{}`", def.name);
                self.object(fields, data, &of)
            }
            TypeKind::Enum(values) => {
                let (DataKind::Str(s) | DataKind::Name(s)) = &data.kind else {
                    return self.mismatch(data, &def.name, None);
                };
                if values.iter().any(|v| v.name == *s) {
                    return true;
                }
                let suggestion = suggest::closest(s, values.iter().map(|v| v.name.as_str()));
                let help = match suggestion {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => format!(
                        "its values are {}",
                        values
                            .iter()
                            .map(|v| format!("`{}`", v.name))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                self.cx.push(messages::example_value(
                    data.span,
                    format!("`{s}` is not a value of enum `{}`", def.name),
                    Some(help),
                ));
                false
            }
            TypeKind::Union(variants) | TypeKind::Error(variants) => {
                let help = || {
                    let first = variants.first().map_or("variant", |v| v.name.as_str());
                    format!(
                        "a `{}` is an object with one key, the variant, such as `{{ {first}: {{ … }} }}`",
                        def.name
                    )
                };
                let DataKind::Object(entries) = &data.kind else {
                    return self.mismatch(data, &def.name, Some(help()));
                };
                let [(key, value)] = entries.as_slice() else {
                    self.cx.push(messages::example_value(
                        data.span,
                        format!(
                            "a `{}` names exactly one variant; this names {}",
                            def.name,
                            entries.len()
                        ),
                        Some(help()),
                    ));
                    return false;
                };
                let Some(variant) = variants.iter().find(|v| v.name == key.name) else {
                    let suggestion =
                        suggest::closest(&key.name, variants.iter().map(|v| v.name.as_str()));
                    self.cx.push(messages::example_unknown_field(
                        key.span,
                        &key.name,
                        &format!("the variants of `{}`", def.name),
                        suggestion,
                    ));
                    return false;
                };
                let of = format!("variant `{}` of `{}`", variant.name, def.name);
                self.object(&variant.fields, value, &of)
            }
        }
    }

    /// An object with these fields: each key a field, each required field
    /// there, each value of its field's type.
    fn object(&mut self, fields: &[Field], data: &Data, of: &str) -> bool {
        let DataKind::Object(entries) = &data.kind else {
            let help = Some(format!("write {of} as `{{ field: value, … }}`"));
            self.cx.push(messages::example_value(
                data.span,
                format!("expected {of}, an object; found {}", describe(data)),
                help,
            ));
            return false;
        };
        let mut ok = true;
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for (key, value) in entries {
            if let Some(&first) = seen.get(key.name.as_str()) {
                self.cx.push(
                    messages::example_value(
                        key.span,
                        format!("`{}` is given twice", key.name),
                        Some("keep one".to_owned()),
                    )
                    .with_secondary(first, "first given here"),
                );
                ok = false;
                continue;
            }
            seen.insert(&key.name, key.span);
            let Some(field) = fields.iter().find(|f| f.name == key.name) else {
                let suggestion =
                    suggest::closest(&key.name, fields.iter().map(|f| f.name.as_str()));
                self.cx.push(messages::example_unknown_field(
                    key.span, &key.name, of, suggestion,
                ));
                ok = false;
                continue;
            };
            ok &= self.field(field, value);
        }
        for field in fields.iter().filter(|f| f.required) {
            if !seen.contains_key(field.name.as_str()) {
                self.cx.push(messages::example_missing_field(
                    data.span,
                    &field.name,
                    &field.ty.idl(),
                    of,
                ));
                ok = false;
            }
        }
        ok
    }

    fn field(&mut self, field: &Field, data: &Data) -> bool {
        if matches!(data.kind, DataKind::Null) {
            let help = if field.required {
                format!("`{}` is required: give it a value", field.name)
            } else {
                format!(
                    "leave `{}` out: an absent field is how the wire says none",
                    field.name
                )
            };
            self.cx.push(messages::example_value(
                data.span,
                format!("`{}` cannot be `null`", field.name),
                Some(help),
            ));
            return false;
        }
        self.value(field.ty.strip_optional(), &field.constraints, data)
    }

    /// A value of `ty` (not optional) within `constraints`.
    fn value(&mut self, ty: &Type, constraints: &Constraints, data: &Data) -> bool {
        match ty {
            Type::Primitive(p) => self.primitive(*p, constraints, data),
            Type::List(item) => {
                let DataKind::List(items) = &data.kind else {
                    return self.mismatch(data, &ty.idl(), None);
                };
                let mut ok = self.length(items.len(), constraints, data, "entries");
                for item_data in items {
                    ok &= self.item(item, item_data);
                }
                ok
            }
            Type::Map(value) => {
                let DataKind::Object(entries) = &data.kind else {
                    return self.mismatch(data, &ty.idl(), None);
                };
                let mut ok = self.length(entries.len(), constraints, data, "entries");
                for (_, entry) in entries {
                    ok &= self.item(value, entry);
                }
                ok
            }
            Type::Optional(inner) => self.value(inner, constraints, data),
            Type::Named(r) => self.named(r.id, data),
        }
    }

    /// An entry of a list or map, whose constraints are its own type's only.
    fn item(&mut self, ty: &Type, data: &Data) -> bool {
        if matches!(data.kind, DataKind::Null) {
            return self.mismatch(data, &ty.idl(), None);
        }
        self.value(ty, &Constraints::default(), data)
    }

    fn primitive(&mut self, p: Primitive, constraints: &Constraints, data: &Data) -> bool {
        let ty = p.as_str();
        match (p, &data.kind) {
            (Primitive::Json, _) => true,
            (Primitive::Bool, DataKind::Bool(_)) => true,
            (_, DataKind::Int(i)) if p.int_bounds().is_some() => {
                let (lo, hi) = p.int_bounds().unwrap_or((0, 0));
                if *i < lo || *i > hi {
                    self.cx.push(messages::example_value(
                        data.span,
                        format!("{i} does not fit `{ty}`, which holds {lo} to {hi}"),
                        None,
                    ));
                    return false;
                }
                self.range(Number::Int(*i), constraints, data)
            }
            (_, DataKind::Int(_) | DataKind::Float(_)) if p.is_float() => {
                let n = match data.kind {
                    DataKind::Int(i) => Number::Int(i),
                    DataKind::Float(f) => Number::Float(f),
                    _ => Number::Int(0),
                };
                if p == Primitive::F32 && !super::fields::fits_f32(n.as_f64()) {
                    self.cx.push(messages::example_value(
                        data.span,
                        "the number is beyond the range of `f32`".to_owned(),
                        None,
                    ));
                    return false;
                }
                self.range(n, constraints, data)
            }
            (Primitive::String, DataKind::Str(s)) => self.string(s, constraints, data),
            (Primitive::Bytes, DataKind::Str(s)) => match base64_len(s) {
                Some(n) => self.length(n, constraints, data, "bytes"),
                None => {
                    self.cx.push(messages::example_value(
                        data.span,
                        "`bytes` are written as padded base64, and this is not".to_owned(),
                        Some("encode the bytes with the standard alphabet, `=` padded".to_owned()),
                    ));
                    false
                }
            },
            (Primitive::String, DataKind::Name(n)) => self.mismatch(
                data,
                ty,
                Some(format!("a string is written in quotes: `\"{n}\"`")),
            ),
            (_, DataKind::Float(_)) if p.int_bounds().is_some() => self.mismatch(
                data,
                ty,
                Some(format!("`{ty}` holds whole numbers, such as `1`")),
            ),
            _ => self.mismatch(data, ty, None),
        }
    }

    fn string(&mut self, s: &str, constraints: &Constraints, data: &Data) -> bool {
        if !self.length(s.chars().count(), constraints, data, "characters") {
            return false;
        }
        if let Some(pattern) = &constraints.pattern
            && !crate::pattern::matches(pattern, s)
        {
            self.cx.push(messages::example_value(
                data.span,
                format!("\"{s}\" does not match `@pattern(\"{pattern}\")`"),
                None,
            ));
            return false;
        }
        true
    }

    fn range(&mut self, n: Number, constraints: &Constraints, data: &Data) -> bool {
        let Some((min, max)) = constraints.range else {
            return true;
        };
        let x = n.as_f64();
        let within = match (n, min, max) {
            (Number::Int(i), Number::Int(lo), Number::Int(hi)) => lo <= i && i <= hi,
            _ => min.as_f64() <= x && x <= max.as_f64(),
        };
        if !within {
            self.cx.push(messages::example_value(
                data.span,
                format!("{n} is outside `@range({min}, {max})`"),
                None,
            ));
        }
        within
    }

    fn length(&mut self, n: usize, constraints: &Constraints, data: &Data, unit: &str) -> bool {
        let Some((min, max)) = constraints.length else {
            return true;
        };
        let len = n as u64;
        let within = min <= len && len <= max;
        if !within {
            self.cx.push(messages::example_value(
                data.span,
                format!("it has {n} {unit}; `@length` allows {min} to {max}"),
                None,
            ));
        }
        within
    }

    fn mismatch(&mut self, data: &Data, ty: &str, help: Option<String>) -> bool {
        self.cx.push(messages::example_value(
            data.span,
            format!("expected a value of type `{ty}`, found {}", describe(data)),
            help,
        ));
        false
    }
}

fn describe(data: &Data) -> String {
    match &data.kind {
        DataKind::Null => "`null`".to_owned(),
        DataKind::Bool(b) => format!("`{b}`"),
        DataKind::Int(i) => format!("the integer {i}"),
        DataKind::Float(f) => format!("the number {f}"),
        DataKind::Str(_) => "a string".to_owned(),
        DataKind::Name(n) => format!("the name `{n}`"),
        DataKind::List(_) => "a list".to_owned(),
        DataKind::Object(_) => "an object".to_owned(),
    }
}

/// How many bytes padded standard base64 `s` decodes to, or `None` when
/// it is not such base64.
fn base64_len(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return None;
    }
    let padding = bytes.iter().rev().take_while(|&&b| b == b'=').count();
    if padding > 2 {
        return None;
    }
    let body = &bytes[..bytes.len() - padding];
    let alphabet = |b: &u8| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/';
    body.iter()
        .all(alphabet)
        .then(|| bytes.len() / 4 * 3 - padding)
}

/// Checks `request`, JSON, as a request of `endpoint` the way a declared
/// example's is checked: what proves the samples the metadata makes from
/// the types (`lang::metadata`). The messages, if any; their spans point
/// nowhere.
#[cfg(test)]
pub(crate) fn check_request_json(
    types: &[TypeDef],
    endpoint: &Endpoint,
    request: &serde_json::Value,
) -> Vec<String> {
    let span = Span::new(crate::source::FileId(0), 0, 0);
    let data = data_from_json(request, span);
    let mut cx = Ctxt::new();
    Checker { types, cx: &mut cx }.request(&data, endpoint);
    match cx.gate() {
        Ok(()) => Vec::new(),
        Err(d) => d.iter().map(|d| d.message.clone()).collect(),
    }
}

#[cfg(test)]
fn data_from_json(value: &serde_json::Value, span: Span) -> Data {
    use serde_json::Value as J;
    let kind = match value {
        J::Null => DataKind::Null,
        J::Bool(b) => DataKind::Bool(*b),
        J::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => DataKind::Int(i.into()),
            (None, Some(u)) => DataKind::Int(u.into()),
            _ => DataKind::Float(n.as_f64().unwrap_or(f64::NAN)),
        },
        J::String(s) => DataKind::Str(s.clone()),
        J::Array(items) => DataKind::List(items.iter().map(|i| data_from_json(i, span)).collect()),
        J::Object(map) => DataKind::Object(
            map.iter()
                .map(|(k, v)| {
                    (
                        ast::Key {
                            name: k.clone(),
                            span,
                        },
                        data_from_json(v, span),
                    )
                })
                .collect(),
        ),
    };
    Data { kind, span }
}
