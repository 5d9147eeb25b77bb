//! The resources and prompts of the metadata document: beside `tools`, what
//! a frontend needs to read a resource or get a prompt through the web
//! routes (docs/web.md), in the shape tools use for what they share
//! (`Parameter`, errors, scopes, `deprecated`).

use serde::Serialize;

use super::{ErrorMetadata, Parameter, deprecation, parameters};
use crate::model::{Completion, Contents, Model, Prompt, Resource, TypeId, TypeKind};

/// One resource's entry.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ResourceMetadata<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    category: &'a str,
    source: &'static str,
    /// The fixed URI, or the template as written.
    uri: &'a str,
    template: bool,
    mime_type: &'a str,
    contents: ContentsMetadata,
    #[serde(skip_serializing_if = "Option::is_none")]
    size: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    annotations: Option<ResourceAnnotations>,
    subscribable: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    cache: Option<CacheMetadata>,
    scopes: Vec<&'a str>,
    /// The template's variables.
    arguments: Vec<Parameter>,
    completions: Vec<CompletionMetadata<'a>>,
    errors: Vec<ErrorMetadata<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    deprecated: Option<String>,
}

/// One prompt's entry.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PromptMetadata<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    category: &'a str,
    source: &'static str,
    scopes: Vec<&'a str>,
    arguments: Vec<Parameter>,
    completions: Vec<CompletionMetadata<'a>>,
    errors: Vec<ErrorMetadata<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    deprecated: Option<String>,
}

/// What a read returns: `text`, `bytes`, or `typed` (a declared type's
/// JSON), with the IDL type (`string`, `bytes`, or the type's name).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ContentsMetadata {
    kind: &'static str,
    idl_type: String,
}

/// MCP's resource annotations, when the IDL says any.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ResourceAnnotations {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    audience: Vec<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    priority: Option<f64>,
}

/// `@cache`: how long a read may be kept, and by whom.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CacheMetadata {
    ttl_ms: u64,
    scope: &'static str,
}

/// An argument that completes, and how: `enum` (its values, listed) or
/// `handler` (the entry's `@complete` handler).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CompletionMetadata<'a> {
    argument: &'a str,
    by: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    values: Option<Vec<&'a str>>,
}

/// The entry of `resource`.
pub(crate) fn resource<'a>(model: &'a Model, resource: &'a Resource) -> ResourceMetadata<'a> {
    let contents = match resource.contents {
        Contents::Text => ContentsMetadata {
            kind: "text",
            idl_type: "string".to_owned(),
        },
        Contents::Bytes => ContentsMetadata {
            kind: "bytes",
            idl_type: "bytes".to_owned(),
        },
        Contents::Typed(id) => ContentsMetadata {
            kind: "typed",
            idl_type: model.type_def(id).name.clone(),
        },
    };
    let annotations = (!resource.audience.is_empty() || resource.priority.is_some()).then(|| {
        ResourceAnnotations {
            audience: resource.audience.iter().map(|r| r.as_str()).collect(),
            priority: resource.priority,
        }
    });
    ResourceMetadata {
        name: &resource.name,
        title: resource.title.as_deref(),
        description: resource.docs.as_deref(),
        category: &resource.category,
        source: "local",
        uri: &resource.uri,
        template: resource.template,
        mime_type: &resource.mime,
        contents,
        size: resource.size,
        annotations,
        subscribable: resource.subscribable,
        cache: resource.cache.as_ref().map(|c| CacheMetadata {
            ttl_ms: c.ttl_ms,
            scope: c.scope.as_str(),
        }),
        scopes: resource.scopes.iter().map(|s| s.name.as_str()).collect(),
        arguments: parameters(model, resource.arguments),
        completions: completions(model, resource.arguments),
        errors: errors(model, resource.errors),
        deprecated: deprecation(resource.deprecated.as_ref()),
    }
}

/// The entry of `prompt`.
pub(crate) fn prompt<'a>(model: &'a Model, prompt: &'a Prompt) -> PromptMetadata<'a> {
    PromptMetadata {
        name: &prompt.name,
        title: prompt.title.as_deref(),
        description: prompt.docs.as_deref(),
        category: &prompt.category,
        source: "local",
        scopes: prompt.scopes.iter().map(|s| s.name.as_str()).collect(),
        arguments: parameters(model, prompt.arguments),
        completions: completions(model, prompt.arguments),
        errors: errors(model, prompt.errors),
        deprecated: deprecation(prompt.deprecated.as_ref()),
    }
}

fn completions(model: &Model, arguments: Option<TypeId>) -> Vec<CompletionMetadata<'_>> {
    model
        .completions(arguments)
        .into_iter()
        .filter_map(|(field, completion)| {
            let (by, values) = match completion {
                Completion::Enum(values) => ("enum", Some(values)),
                Completion::Handler => ("handler", None),
                Completion::None => return None,
            };
            Some(CompletionMetadata {
                argument: &field.name,
                by,
                values,
            })
        })
        .collect()
}

/// The variants of an `error` type, as a tool's errors are listed.
fn errors(model: &Model, errors: Option<TypeId>) -> Vec<ErrorMetadata<'_>> {
    let Some(TypeKind::Error(variants)) = errors.map(|id| &model.type_def(id).kind) else {
        return Vec::new();
    };
    variants
        .iter()
        .filter_map(|v| {
            Some(ErrorMetadata {
                code: v.code.as_deref()?,
                name: &v.name,
                description: v.docs.as_deref(),
            })
        })
        .collect()
}
