//! The reference catalogue in `idl/` is the project's showcase: it must check
//! clean, document everything, and exercise every language feature.

use std::collections::HashSet;
use std::path::Path;

use toolwright_codegen::model::{Model, Origin, Timing, ToolKind, Type, TypeKind};
use toolwright_codegen::{ColorChoice, Sources, check};

/// `idl/` as every door reads it: after the built-in job tools, which its
/// files use (`JobState`).
fn catalogue() -> Model {
    let idl = Path::new(env!("CARGO_MANIFEST_DIR")).join("../idl");
    let mut sources = Sources::new();
    sources.add_job_tools();
    sources.load_paths(&[idl]).expect("idl/ is readable");
    check(&sources).unwrap_or_else(|d| panic!("{}", d.render(&sources, ColorChoice::Never)))
}

#[test]
fn everything_is_documented() {
    let model = catalogue();
    let mut missing = Vec::new();
    for file in &model.files {
        if file.docs.is_none() {
            missing.push(format!("file {}", file.path));
        }
    }
    for tool in &model.tools {
        if tool.docs.is_none() {
            missing.push(format!("tool {}", tool.name));
        }
        if tool.title.is_none() {
            missing.push(format!("title of tool {}", tool.name));
        }
        if let ToolKind::Actions(actions) = &tool.kind {
            for action in actions.iter().filter(|a| a.docs.is_none()) {
                missing.push(format!("action {}.{}", tool.name, action.name));
            }
        }
    }
    for ty in &model.types {
        // Declared types, and requests/responses the author named, are
        // documented; anonymous ones are described by their tool.
        let named_by_author = match &ty.origin {
            Origin::Declared => true,
            Origin::Request { tool, action } | Origin::Response { tool, action } => {
                let pascal = |s: &str| {
                    s.split('_')
                        .map(|p| p[..1].to_uppercase() + &p[1..])
                        .collect::<String>()
                };
                let suffix = if matches!(ty.origin, Origin::Request { .. }) {
                    "Request"
                } else {
                    "Response"
                };
                let generated = format!(
                    "{}{}{suffix}",
                    pascal(tool),
                    action.as_deref().map(pascal).unwrap_or_default()
                );
                ty.name != generated
            }
            // Anonymous arguments are described by their resource or prompt.
            Origin::ResourceArguments { resource: entry }
            | Origin::PromptArguments { prompt: entry } => {
                let pascal: String = entry
                    .split('_')
                    .map(|p| p[..1].to_uppercase() + &p[1..])
                    .collect();
                ty.name != format!("{pascal}Arguments")
            }
        };
        if named_by_author && ty.docs.is_none() {
            missing.push(format!("type {}", ty.name));
        }
        let fields: Vec<_> = match &ty.kind {
            TypeKind::Struct(fields) => fields.iter().map(|f| (String::new(), f)).collect(),
            TypeKind::Enum(values) => {
                for v in values.iter().filter(|v| v.docs.is_none()) {
                    missing.push(format!("enum value {}.{}", ty.name, v.name));
                }
                Vec::new()
            }
            TypeKind::Union(variants) | TypeKind::Error(variants) => {
                for v in variants.iter().filter(|v| v.docs.is_none()) {
                    missing.push(format!("variant {}.{}", ty.name, v.name));
                }
                variants
                    .iter()
                    .flat_map(|v| v.fields.iter().map(move |f| (format!("{}.", v.name), f)))
                    .collect()
            }
        };
        for (prefix, field) in fields {
            if field.docs.is_none() {
                missing.push(format!("field {}.{prefix}{}", ty.name, field.name));
            }
        }
    }
    assert!(missing.is_empty(), "undocumented:\n{}", missing.join("\n"));
}

#[test]
fn every_feature_is_shown() {
    let model = catalogue();
    let timings: HashSet<Timing> = model
        .tools
        .iter()
        .flat_map(|t| match &t.kind {
            ToolKind::Single(e) => vec![e.timing],
            ToolKind::Actions(a) => a.iter().map(|a| a.endpoint.timing).collect(),
        })
        .collect();
    assert_eq!(
        timings.len(),
        Timing::NAMES.len(),
        "every timing class: {timings:?}"
    );

    assert!(
        model
            .tools
            .iter()
            .any(|t| matches!(t.kind, ToolKind::Actions(_)))
    );
    assert!(model.tools.iter().any(|t| t.stream.is_some()));
    assert!(model.tools.iter().any(|t| t.errors.is_some()));
    assert!(model.tools.iter().any(|t| t.deprecated.is_some()));
    let a = |f: fn(&toolwright_codegen::model::Annotations) -> bool| {
        model.tools.iter().any(|t| f(&t.annotations))
    };
    assert!(
        a(|x| x.read_only) && a(|x| x.destructive) && a(|x| x.idempotent) && a(|x| x.open_world)
    );

    let kinds = |f: fn(&TypeKind) -> bool| model.types.iter().any(|t| f(&t.kind));
    assert!(kinds(|k| matches!(k, TypeKind::Enum(_))));
    assert!(kinds(|k| matches!(k, TypeKind::Union(_))));
    assert!(kinds(|k| matches!(k, TypeKind::Error(_))));

    let fields: Vec<_> = model
        .types
        .iter()
        .flat_map(|t| match &t.kind {
            TypeKind::Struct(f) => f.iter().collect::<Vec<_>>(),
            TypeKind::Union(v) | TypeKind::Error(v) => v.iter().flat_map(|v| &v.fields).collect(),
            TypeKind::Enum(_) => Vec::new(),
        })
        .collect();
    let any = |f: &dyn Fn(&toolwright_codegen::model::Field) -> bool| fields.iter().any(|x| f(x));
    assert!(any(&|f| matches!(f.ty, Type::List(_))));
    assert!(any(&|f| matches!(f.ty.strip_optional(), Type::Map(_))));
    assert!(any(&|f| matches!(f.ty, Type::Optional(_))));
    assert!(any(&|f| f.default.is_some()));
    assert!(any(&|f| f.constraints.range.is_some()));
    assert!(any(&|f| f.constraints.length.is_some()));
    assert!(any(&|f| f.constraints.pattern.is_some()));
    assert!(any(&|f| f.deprecated.is_some()));
    let primitive = |name: &str| {
        any(&|f| {
            let mut ty = f.ty.strip_optional();
            while let Type::List(inner) | Type::Map(inner) = ty {
                ty = inner;
            }
            matches!(ty, Type::Primitive(p) if p.as_str() == name)
        })
    };
    for name in ["bytes", "json", "f32", "i8", "u64", "bool"] {
        assert!(primitive(name), "no field of type {name}");
    }
}

#[test]
fn seed_tools_are_declared() {
    let model = catalogue();
    let seed = [
        "cas_store",
        "cas_inspect",
        "cas_get",
        "artifact_upload",
        "artifact_get",
        "artifact_list",
        "orpheus_generate",
        "orpheus_continue",
        "orpheus_bridge",
        "orpheus_loops",
        "orpheus_classify",
        "midi_to_wav",
        "musicgen_generate",
        "yue_generate",
        "clap_analyze",
        "beatthis_analyze",
        "abc_parse",
        "abc_validate",
        "abc_transpose",
        "abc_to_midi",
        "garden_status",
        "garden_play",
        "garden_pause",
        "garden_stop",
        "garden_seek",
        "garden_set_tempo",
        "garden_get_regions",
        "garden_create_region",
        "garden_delete_region",
        "job_status",
        "job_list",
        "job_poll",
        "job_cancel",
        "graph_bind",
        "graph_tag",
        "graph_connect",
        "graph_find",
        "graph_query",
        "graph_context",
        "config_get",
        "add_annotation",
        "ping",
        "list_tools",
        "ws",
        "fs",
        "code",
        "proc",
        "test",
        "vcs",
        "net",
        "ui",
        "add",
        "multiply",
        "web_search",
        "rag_search",
    ];
    let missing: Vec<_> = seed.iter().filter(|n| model.tool(n).is_none()).collect();
    assert!(missing.is_empty(), "missing seed tools: {missing:?}");
}
