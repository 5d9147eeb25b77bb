//! What the catalogue tests share: the checked model of a catalogue, its
//! endpoints and the shapes of its types, and JSON text written by hand.

// Each test binary uses its own part of this module.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use toolwright::Catalogue;
use toolwright_codegen::Sources;
use toolwright_codegen::model::{Field, Model, ToolKind, Type, TypeId, TypeKind};

pub mod constraints;
pub mod sample;
pub mod vectors;

// ---------------------------------------------------------------------------
// The catalogue as the model has it.
// ---------------------------------------------------------------------------

pub fn manifest_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// Checks `paths` as the build script does: the job tools first, when the
/// catalogue has them.
pub fn load(paths: &[PathBuf], job_tools: bool) -> Model {
    let mut sources = Sources::new();
    if job_tools {
        sources.add_job_tools();
    }
    sources.load_paths(paths).expect("the catalogue loads");
    toolwright_codegen::check(&sources).unwrap_or_else(|d| panic!("the catalogue checks: {d:?}"))
}

/// One tool, or one action of an action tool.
#[derive(Clone, Debug)]
pub struct Endpoint {
    pub tool: String,
    pub action: Option<String>,
    pub request: Option<TypeId>,
    pub response: Option<TypeId>,
}

impl Endpoint {
    pub fn label(&self) -> String {
        match &self.action {
            Some(action) => format!("{}.{action}", self.tool),
            None => self.tool.clone(),
        }
    }

    /// How `to_json` must begin: the tags, first and in order.
    pub fn prefix(&self) -> String {
        let mut out = format!("{{\"tool\":{}", json_string(&self.tool));
        if let Some(action) = &self.action {
            out.push_str(&format!(",\"action\":{}", json_string(action)));
        }
        out
    }
}

pub fn endpoints(model: &Model) -> Vec<Endpoint> {
    let mut out = Vec::new();
    for tool in &model.tools {
        match &tool.kind {
            ToolKind::Single(e) => out.push(Endpoint {
                tool: tool.name.clone(),
                action: None,
                request: e.request,
                response: e.response,
            }),
            ToolKind::Actions(actions) => {
                for action in actions {
                    out.push(Endpoint {
                        tool: tool.name.clone(),
                        action: Some(action.name.clone()),
                        request: action.endpoint.request,
                        response: action.endpoint.response,
                    });
                }
            }
        }
    }
    out
}

/// The model and the generated code describe the same tools and actions.
pub fn assert_same_tools<C: Catalogue>(model: &Model) {
    let generated: Vec<(&str, Vec<&str>)> = C::TOOLS
        .iter()
        .map(|t| (t.name, t.actions.iter().map(|a| a.name).collect()))
        .collect();
    let checked: Vec<(&str, Vec<&str>)> = model
        .tools
        .iter()
        .map(|t| {
            let actions = match &t.kind {
                ToolKind::Single(_) => Vec::new(),
                ToolKind::Actions(actions) => actions.iter().map(|a| a.name.as_str()).collect(),
            };
            (t.name.as_str(), actions)
        })
        .collect();
    assert_eq!(
        generated, checked,
        "the model's tools are the generated ones"
    );
}

/// Named types referenced by a field type.
pub fn named_in(ty: &Type, out: &mut Vec<TypeId>) {
    match ty {
        Type::List(t) | Type::Map(t) | Type::Optional(t) => named_in(t, out),
        Type::Named(r) => out.push(r.id),
        Type::Primitive(_) => {}
    }
}

pub fn fields_of(kind: &TypeKind) -> Vec<&Field> {
    match kind {
        TypeKind::Struct(fields) => fields.iter().collect(),
        TypeKind::Enum(_) => Vec::new(),
        TypeKind::Union(variants) | TypeKind::Error(variants) => {
            variants.iter().flat_map(|v| &v.fields).collect()
        }
    }
}

/// Every type reachable from `roots` (themselves included), as a set.
pub fn reachable(model: &Model, roots: impl IntoIterator<Item = TypeId>) -> Vec<bool> {
    let mut seen = vec![false; model.types.len()];
    let mut stack: Vec<TypeId> = roots.into_iter().collect();
    while let Some(id) = stack.pop() {
        if std::mem::replace(&mut seen[id.index()], true) {
            continue;
        }
        for field in fields_of(&model.type_def(id).kind) {
            named_in(&field.ty, &mut stack);
        }
    }
    seen
}

/// How the named types of a model nest.
pub struct Shapes {
    /// The type is on a cycle: nesting it counts towards a depth bound.
    pub recursive: Vec<bool>,
    /// A cycle is reachable from the type (through any field).
    pub cyclic: Vec<bool>,
    /// Nesting of the smallest value of the type: following required
    /// fields only, and each union's shallowest variant.
    pub height: Vec<usize>,
}

impl Shapes {
    pub fn new(model: &Model) -> Self {
        let n = model.types.len();
        let edges: Vec<Vec<TypeId>> = model
            .types
            .iter()
            .map(|t| {
                let mut out = Vec::new();
                for field in fields_of(&t.kind) {
                    named_in(&field.ty, &mut out);
                }
                out
            })
            .collect();
        let recursive: Vec<bool> = (0..n)
            .map(|i| reachable(model, edges[i].iter().copied())[i])
            .collect();
        let cyclic: Vec<bool> = model
            .types
            .iter()
            .map(|t| {
                reachable(model, [t.id])
                    .iter()
                    .zip(&recursive)
                    .any(|(seen, rec)| *seen && *rec)
            })
            .collect();

        // Least fixed point, from "no finite value" down.
        let mut height = vec![usize::MAX; n];
        loop {
            let mut changed = false;
            for t in &model.types {
                let h = match &t.kind {
                    TypeKind::Struct(fields) => required_height(fields, &height),
                    TypeKind::Enum(_) => 0,
                    TypeKind::Union(variants) | TypeKind::Error(variants) => variants
                        .iter()
                        .map(|v| required_height(&v.fields, &height))
                        .min()
                        .unwrap_or(0),
                };
                let h = h.saturating_add(1);
                if h < height[t.id.index()] {
                    height[t.id.index()] = h;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for t in &model.types {
            assert_ne!(
                height[t.id.index()],
                usize::MAX,
                "{} has no finite value",
                t.name
            );
        }

        Shapes {
            recursive,
            cyclic,
            height,
        }
    }

    /// True when a named type in `ty` leads into a cycle.
    pub fn leads_into_cycle(&self, ty: &Type) -> bool {
        let mut named = Vec::new();
        named_in(ty, &mut named);
        named.iter().any(|id| self.cyclic[id.index()])
    }
}

/// The deepest of the required fields' heights (lists, maps and scalars
/// count 0: they can be empty or flat).
pub fn required_height(fields: &[Field], height: &[usize]) -> usize {
    fields
        .iter()
        .filter(|f| f.required)
        .map(|f| match &f.ty {
            Type::Named(r) => height[r.id.index()],
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

// ---------------------------------------------------------------------------
// JSON text, written by hand so that the tags come first.
// ---------------------------------------------------------------------------

pub fn json_string(s: &str) -> String {
    serde_json::to_string(s).expect("a string encodes")
}

pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let at = |i: usize| u32::from(chunk.get(i).copied().unwrap_or(0));
        let n = (at(0) << 16) | (at(1) << 8) | at(2);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i)) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

pub fn object(pairs: impl IntoIterator<Item = String>) -> String {
    format!("{{{}}}", pairs.into_iter().collect::<Vec<_>>().join(","))
}
