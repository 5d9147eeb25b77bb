//! The schema backend: snapshots of `schemas/` for one small catalogue per
//! language feature (`fixtures/rust/*.tool`), and requests built from the
//! reference catalogue's model checked against the generated input
//! schemas with a real JSON Schema validator. Each snapshot is product
//! surface: review a changed one as you would review code.
//! Update with `INSTA_UPDATE=always cargo test -p toolwright-codegen --test schema`.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};
use toolwright_codegen::model::{Field, Model, Primitive, ToolKind, Type, TypeKind};
use toolwright_codegen::{Binding, ColorChoice, Sources, check, generate_bindings};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_owned()
}

fn tool_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "tool"))
        .collect();
    files.sort();
    files
}

/// Sources for these files, named relative to the workspace.
fn sources(paths: &[PathBuf], job_tools: bool) -> Sources {
    let mut sources = Sources::new();
    if job_tools {
        sources.add_job_tools();
    }
    for path in paths {
        let name = path
            .strip_prefix(root())
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        sources.add_at(name, path, std::fs::read(path).unwrap());
    }
    sources
}

/// The files of `schemas/`, as (path, parsed JSON), in output order.
fn schema_files(sources: &Sources) -> Vec<(String, Value)> {
    let files = generate_bindings(sources, &[Binding::Schemas])
        .unwrap_or_else(|d| panic!("{}", d.render(sources, ColorChoice::Never)));
    files
        .into_iter()
        .map(|f| {
            let path = f.path.to_string_lossy().replace('\\', "/");
            assert!(f.contents.ends_with("}\n") || f.contents.ends_with("]\n"));
            let value = serde_json::from_str(&f.contents)
                .unwrap_or_else(|e| panic!("{path} is not JSON: {e}"));
            (path, value)
        })
        .collect()
}

#[test]
fn feature_fixtures() {
    let files = tool_files(&root().join("codegen/tests/fixtures/rust"));
    assert!(files.len() >= 9, "one fixture per feature");
    for path in files {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let generated = schema_files(&sources(std::slice::from_ref(&path), false));
        let mut text = String::new();
        for (path, value) in &generated {
            text.push_str(&format!(
                "=== {path}\n{}\n",
                serde_json::to_string_pretty(value).unwrap()
            ));
        }
        insta::assert_snapshot!(stem, text);
    }
}

#[test]
fn files_are_tools_json_one_per_type_and_the_profiles() {
    let sources = sources(&tool_files(&root().join("idl")), true);
    let model = check(&sources).unwrap();
    let generated = schema_files(&sources);
    let paths: Vec<&str> = generated.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(paths[0], "schemas/tools.json");
    for ty in &model.types {
        let path = format!("schemas/types/{}.json", ty.name);
        assert!(paths.contains(&path.as_str()), "{path} missing");
    }
    assert!(paths.contains(&"schemas/types/JobHandle.json"));
    for profile in toolwright_codegen::Profile::ALL {
        let path = format!("schemas/profiles/{}.json", profile.name());
        assert!(paths.contains(&path.as_str()), "{path} missing");
    }
    let profiles = toolwright_codegen::Profile::ALL.len();
    assert_eq!(paths.len(), model.types.len() + 2 + profiles);
    let tools = generated[0].1.as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    let declared: Vec<&str> = model.tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, declared);
}

#[test]
fn generation_is_deterministic() {
    let sources = sources(&tool_files(&root().join("idl")), true);
    let a = generate_bindings(&sources, &[Binding::Schemas]).unwrap();
    let b = generate_bindings(&sources, &[Binding::Schemas]).unwrap();
    assert_eq!(a, b);
}

/// Compiles a schema with a JSON Schema 2020-12 validator.
struct Compiled {
    schemas: boon::Schemas,
    index: boon::SchemaIndex,
}

impl Compiled {
    fn new(schema: &Value) -> Compiled {
        let mut compiler = boon::Compiler::new();
        compiler.set_default_draft(boon::Draft::V2020_12);
        let url = "file:///test/schema.json";
        compiler.add_resource(url, schema.clone()).unwrap();
        let mut schemas = boon::Schemas::new();
        let index = compiler
            .compile(url, &mut schemas)
            .unwrap_or_else(|e| panic!("{e:#}"));
        Compiled { schemas, index }
    }

    fn accepts(&self, instance: &Value) -> bool {
        self.schemas.validate(instance, self.index).is_ok()
    }
}

/// A value every schema of this field type accepts, or `None` when the
/// field has a `@pattern` (no general way to satisfy one).
fn example(model: &Model, field: &Field, depth: usize) -> Option<Value> {
    if field.constraints.pattern.is_some() || depth > 8 {
        return None;
    }
    let min_len = field.constraints.length.map_or(0, |(min, _)| min);
    Some(match field.ty.strip_optional() {
        Type::Primitive(Primitive::Bool) => json!(true),
        Type::Primitive(Primitive::String) => json!("x".repeat(usize::try_from(min_len).ok()?)),
        Type::Primitive(Primitive::Bytes) => json!("AAAA".repeat(min_len.div_ceil(3) as usize)),
        Type::Primitive(Primitive::Json) => json!({"any": [1, "two"]}),
        Type::Primitive(p) if p.is_float() => {
            json!(field.constraints.range.map_or(0.5, |(min, _)| min.as_f64()))
        }
        Type::Primitive(p) => {
            let (lo, _) = p.int_bounds()?;
            let lo = match field.constraints.range {
                Some((min, _)) => lo.max(min.as_f64() as i128),
                None => lo.max(0),
            };
            json!(i64::try_from(lo).ok()?)
        }
        Type::List(_) | Type::Map(_) if min_len > 0 => return None,
        Type::List(_) => json!([]),
        Type::Map(_) => json!({}),
        Type::Named(r) => match &model.type_def(r.id).kind {
            TypeKind::Struct(fields) => object(model, fields, depth + 1)?,
            TypeKind::Enum(values) => json!(values[0].name),
            TypeKind::Union(variants) | TypeKind::Error(variants) => {
                // The first variant that needs no further recursion.
                variants.iter().find_map(|v| {
                    Some(json!({ v.name.clone(): object(model, &v.fields, depth + 1)? }))
                })?
            }
        },
        Type::Optional(_) => return None,
    })
}

/// An object with every required field (and, to exercise them, optional
/// ones too when they have examples).
fn object(model: &Model, fields: &[Field], depth: usize) -> Option<Value> {
    let mut out = Map::new();
    for field in fields {
        match example(model, field, depth) {
            Some(value) => {
                out.insert(field.name.clone(), value);
            }
            None if field.required => return None,
            None => {}
        }
    }
    Some(Value::Object(out))
}

/// Requests built from the model pass each plain tool's input schema, and
/// breaking them (a wrong type, a missing required field, an integer out
/// of range, an unknown field) makes them fail.
#[test]
fn requests_from_the_model_pass_and_broken_ones_fail() {
    let sources = sources(&tool_files(&root().join("idl")), true);
    let model = check(&sources).unwrap();
    let generated = schema_files(&sources);
    let tools = generated[0].1.as_array().unwrap();
    let (mut checked, mut wrong_type, mut missing, mut out_of_range) = (0, 0, 0, 0);
    for (tool, listed) in model.tools.iter().zip(tools) {
        let ToolKind::Single(endpoint) = &tool.kind else {
            continue;
        };
        let fields: &[Field] = match endpoint.request {
            Some(id) => match &model.type_def(id).kind {
                TypeKind::Struct(fields) => fields,
                _ => unreachable!("requests are structs"),
            },
            None => &[],
        };
        let Some(request) = object(&model, fields, 0) else {
            continue;
        };
        let schema = Compiled::new(&listed["inputSchema"]);
        let name = &tool.name;
        assert!(schema.accepts(&request), "{name}: {request} rejected");
        checked += 1;

        let mut unknown = request.clone();
        unknown["surely_not_a_field"] = json!(1);
        assert!(!schema.accepts(&unknown), "{name}: unknown field accepted");

        for field in fields.iter().filter(|f| request.get(&f.name).is_some()) {
            let mut broken = request.clone();
            broken[&field.name] = match field.ty.strip_optional() {
                Type::Primitive(Primitive::String | Primitive::Bytes) => json!(12),
                _ => json!("not the type"),
            };
            // `json` fields take anything.
            if field.ty.strip_optional() != &Type::Primitive(Primitive::Json) {
                assert!(
                    !schema.accepts(&broken),
                    "{name}.{}: wrong type",
                    field.name
                );
                wrong_type += 1;
            }
            if field.required {
                let mut without = request.clone();
                without.as_object_mut().unwrap().remove(&field.name);
                assert!(!schema.accepts(&without), "{name}.{}: missing", field.name);
                missing += 1;
            }
            if let Type::Primitive(p) = field.ty.strip_optional()
                && let Some((_, hi)) = p.int_bounds()
            {
                let hi = match field.constraints.range {
                    Some((_, max)) => hi.min(max.as_f64() as i128),
                    None => hi,
                };
                let mut beyond = request.clone();
                // Validators compare big numbers as doubles, so a 64-bit
                // bound is exceeded by far, not by one.
                beyond[&field.name] = if hi < 1 << 53 {
                    json!(i64::try_from(hi + 1).unwrap())
                } else {
                    json!(hi as f64 * 2.0)
                };
                assert!(!schema.accepts(&beyond), "{name}.{}: above max", field.name);
                out_of_range += 1;
            }
        }
    }
    // The reference catalogue has many tools of each kind; a change that
    // makes these checks vacuous fails here.
    assert!(checked >= 20, "only {checked} tools checked");
    assert!(wrong_type >= 20 && missing >= 20 && out_of_range >= 5);
}

/// Every type file accepts an example built from the model, and rejects a
/// value of the wrong JSON type.
#[test]
fn type_files_accept_examples() {
    let sources = sources(&tool_files(&root().join("idl")), true);
    let model = check(&sources).unwrap();
    let generated = schema_files(&sources);
    let mut checked = 0;
    for ty in &model.types {
        let path = format!("schemas/types/{}.json", ty.name);
        let (_, schema) = generated.iter().find(|(p, _)| *p == path).unwrap();
        let schema = Compiled::new(schema);
        let example = match &ty.kind {
            TypeKind::Struct(fields) => object(&model, fields, 0),
            TypeKind::Enum(values) => Some(json!(values[0].name)),
            TypeKind::Union(variants) | TypeKind::Error(variants) => variants
                .iter()
                .find_map(|v| Some(json!({ v.name.clone(): object(&model, &v.fields, 0)? }))),
        };
        let Some(example) = example else { continue };
        assert!(schema.accepts(&example), "{}: {example} rejected", ty.name);
        assert!(!schema.accepts(&json!(true)), "{}: accepts a bool", ty.name);
        checked += 1;
    }
    assert!(checked >= 50, "only {checked} types checked");
}

/// A `@pattern` JavaScript's regular expressions do not accept (`\a`) is
/// refused by the IDL checker itself, at the pattern, so neither `schemas/`
/// nor the Rust that embeds them is written.
#[test]
fn a_pattern_json_schema_cannot_use_fails_the_build() {
    let mut sources = Sources::new();
    sources.add(
        "t.tool",
        "tool t {\n    timing sync\n    request {\n        @pattern(\"^\\\\a$\")\n        s: string,\n    }\n}\n",
    );
    let diagnostics = check(&sources).unwrap_err();
    let rendered = diagnostics.render(&sources, ColorChoice::Never);
    insta::assert_snapshot!("invalid_pattern", rendered);
    let bindings = generate_bindings(&sources, &[Binding::Schemas]).unwrap_err();
    assert_eq!(bindings, diagnostics);
    let from_rust = toolwright_codegen::generate(&sources, &Default::default()).unwrap_err();
    assert_eq!(from_rust, diagnostics);
}
