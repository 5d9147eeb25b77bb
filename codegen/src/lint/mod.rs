//! Warnings: what a valid catalogue probably got wrong. They run on the
//! checked model, after every error is fixed, so each sees the whole
//! catalogue as the backends will.

mod scopes;

use std::collections::{BTreeMap, HashSet};

use crate::diag::{Diagnostic, messages};
use crate::model::{
    Deprecation, Field, Model, Origin, Primitive, Prompt, Resource, Timing, Tool, ToolKind, Type,
    TypeId, TypeKind, Value,
};
use crate::source::{Location, Sources, Span};
use crate::{Clients, Profile};

/// Every warning for `model`, unsorted. Items in built-in files (the job
/// tools) are not linted: users cannot change them. `clients` says what
/// clients put before a tool's name when they pass it on to a provider
/// (`mcp__studio__`), which counts toward the provider's limits, and which
/// providers' profiles the catalogue targets.
pub(crate) fn lint(model: &Model, sources: &Sources, clients: &Clients) -> Vec<Diagnostic> {
    let targets: &[Profile] = if clients.profiles.is_empty() {
        &Profile::ALL
    } else {
        &clients.profiles
    };
    let mut lints = Lints {
        model,
        sources,
        out: Vec::new(),
    };
    lints.unused_types();
    for tool in &model.tools {
        if model.is_builtin(&tool.location) {
            continue;
        }
        lints.tool_docs(tool);
        lints.async_long_without_errors(tool);
        lints.provider_names(tool, &clients.prefix, targets);
        lints.deprecated_uses_of_tool(tool);
    }
    for resource in &model.resources {
        let what = format!("resource `{}`", resource.name);
        lints.entry_docs(&what, resource.docs.as_deref(), resource.location);
        if resource.deprecated.is_none() {
            lints.deprecated_uses(&what, resource.types(), resource.location);
        }
    }
    for prompt in &model.prompts {
        let what = format!("prompt `{}`", prompt.name);
        lints.entry_docs(&what, prompt.docs.as_deref(), prompt.location);
        if prompt.deprecated.is_none() {
            lints.deprecated_uses(&what, prompt.types(), prompt.location);
        }
    }
    for def in &model.types {
        if model.is_builtin(&def.location) {
            continue;
        }
        let deprecated = def.deprecated.is_some() || owner_deprecated(model, &def.origin);
        for field in def.kind.fields() {
            lints.field_docs(field);
            if !deprecated {
                lints.deprecated_uses_of_field(field);
            }
        }
    }
    lints.unfaithful_fields(&clients.profiles);
    lints.scope_typos();
    lints.out
}

struct Lints<'a> {
    model: &'a Model,
    sources: &'a Sources,
    out: Vec<Diagnostic>,
}

impl Lints<'_> {
    fn span(&self, location: Location) -> Span {
        self.sources.name_span(location)
    }

    /// TW401: declared types that no tool, resource or prompt (and no
    /// `@form`) reaches.
    fn unused_types(&mut self) {
        let mut reached: HashSet<TypeId> = HashSet::new();
        let model = self.model;
        let named = model
            .tools
            .iter()
            .flat_map(Tool::types)
            .chain(model.resources.iter().flat_map(Resource::types))
            .chain(model.prompts.iter().flat_map(Prompt::types));
        model.reach(named, &mut reached);
        // Handlers ask users to fill in `@form` structs: they are used.
        let forms = self.model.types.iter().filter(|d| d.form).map(|d| d.id);
        self.model.reach(forms, &mut reached);
        for def in &self.model.types {
            if matches!(def.origin, Origin::Declared)
                && !reached.contains(&def.id)
                && !self.model.is_builtin(&def.location)
            {
                let span = self.span(def.location);
                self.out.push(messages::unused_type(span, &def.name));
            }
        }
    }

    /// TW402 for a tool: its clauses name a deprecated type.
    fn deprecated_uses_of_tool(&mut self, tool: &Tool) {
        if tool.deprecated.is_some() {
            return;
        }
        let mut named: Vec<TypeId> = Vec::new();
        match &tool.kind {
            ToolKind::Single(e) => named.extend([e.request, e.response].into_iter().flatten()),
            ToolKind::Actions(actions) => {
                for action in actions.iter().filter(|a| a.deprecated.is_none()) {
                    let e = action.endpoint;
                    named.extend([e.request, e.response].into_iter().flatten());
                }
            }
        }
        named.extend([tool.errors, tool.stream].into_iter().flatten());
        self.deprecated_uses(&format!("tool `{}`", tool.name), named, tool.location);
    }

    /// TW402 for `what` (a tool, resource or prompt, declared at
    /// `location`): of the types its clauses `named`, the deprecated ones.
    fn deprecated_uses(&mut self, what: &str, named: Vec<TypeId>, location: Location) {
        for id in named {
            let def = self.model.type_def(id);
            if let (Origin::Declared, Some(d)) = (&def.origin, &def.deprecated) {
                let span = self.span(location);
                let first = self.span(def.location);
                self.out.push(messages::deprecated_use(
                    span,
                    what,
                    &format!("type `{}`", def.name),
                    what,
                    reason(d),
                    first,
                ));
            }
        }
    }

    /// TW402 for a field: its type or its default is deprecated.
    fn deprecated_uses_of_field(&mut self, field: &Field) {
        if field.deprecated.is_some() {
            return;
        }
        let mut named = Vec::new();
        field.ty.push_named(&mut named);
        for id in named {
            let def = self.model.type_def(id);
            if let Some(d) = &def.deprecated {
                let span = self.span(field.location);
                let first = self.span(def.location);
                self.out.push(messages::deprecated_use(
                    span,
                    &format!("field `{}`", field.name),
                    &format!("type `{}`", def.name),
                    &format!("field `{}`", field.name),
                    reason(d),
                    first,
                ));
            }
            if let Some(Value::EnumValue(value)) = &field.default
                && let crate::model::TypeKind::Enum(values) = &def.kind
                && let Some(v) = values.iter().find(|v| &v.name == value)
                && let Some(d) = &v.deprecated
            {
                let span = self.span(field.location);
                let first = self.span(v.location);
                self.out.push(messages::deprecated_use(
                    span,
                    &format!("the default of field `{}`", field.name),
                    &format!("value `{}` of `{}`", v.name, def.name),
                    &format!("field `{}`", field.name),
                    reason(d),
                    first,
                ));
            }
        }
    }

    /// TW403 for a tool and its actions.
    fn tool_docs(&mut self, tool: &Tool) {
        if tool.docs.is_none() {
            let span = self.span(tool.location);
            self.out.push(messages::missing_docs(
                span,
                &format!("tool `{}`", tool.name),
            ));
        }
        if let ToolKind::Actions(actions) = &tool.kind {
            for action in actions.iter().filter(|a| a.docs.is_none()) {
                let span = self.span(action.location);
                self.out.push(messages::missing_docs(
                    span,
                    &format!("action `{}` of `{}`", action.name, tool.name),
                ));
            }
        }
    }

    /// TW403 for a resource or prompt (`what`).
    fn entry_docs(&mut self, what: &str, docs: Option<&str>, location: Location) {
        if docs.is_none() {
            let span = self.span(location);
            self.out.push(messages::missing_docs(span, what));
        }
    }

    /// TW403 for a field.
    fn field_docs(&mut self, field: &Field) {
        if field.docs.is_none() {
            let span = self.span(field.location);
            self.out.push(messages::missing_docs(
                span,
                &format!("field `{}`", field.name),
            ));
        }
    }

    /// TW404: an `async_long` tool or action whose tool declares no errors.
    fn async_long_without_errors(&mut self, tool: &Tool) {
        if tool.errors.is_some() {
            return;
        }
        let long = match &tool.kind {
            ToolKind::Single(e) => e.timing == Timing::AsyncLong,
            ToolKind::Actions(actions) => actions
                .iter()
                .any(|a| a.endpoint.timing == Timing::AsyncLong),
        };
        if long {
            let span = self.span(tool.location);
            self.out
                .push(messages::async_long_without_errors(span, &tool.name));
        }
    }

    /// TW406: the request fields a targeted profile cannot state, each once
    /// (at its declaration) with the tools whose requests reach it.
    fn unfaithful_fields(&mut self, targets: &[Profile]) {
        if targets.is_empty() {
            return;
        }
        // Each type a request reaches, with the tools whose requests reach
        // it, so that each field is looked at once however many tools share it.
        let mut reaching: BTreeMap<usize, (TypeId, Vec<&str>)> = BTreeMap::new();
        for tool in &self.model.tools {
            if self.model.is_builtin(&tool.location) {
                continue;
            }
            let requests: Vec<TypeId> = match &tool.kind {
                ToolKind::Single(e) => e.request.into_iter().collect(),
                ToolKind::Actions(actions) => {
                    actions.iter().filter_map(|a| a.endpoint.request).collect()
                }
            };
            let mut reached = HashSet::new();
            self.model.reach(requests, &mut reached);
            for id in reached {
                reaching
                    .entry(id.index())
                    .or_insert((id, Vec::new()))
                    .1
                    .push(&tool.name);
            }
        }
        let model = self.model;
        for (id, tools) in reaching.values() {
            for field in model.type_def(*id).kind.fields() {
                let Some(kind) = unstated(model, *id, &field.ty) else {
                    continue;
                };
                let fates: Vec<(&str, &str)> = targets
                    .iter()
                    .filter_map(|p| kind.fate(*p).map(|fate| (p.provider(), fate)))
                    .collect();
                if fates.is_empty() {
                    continue;
                }
                let span = self.span(field.location);
                self.out.push(messages::profile_unfaithful(
                    span,
                    &field.name,
                    kind,
                    field.required,
                    tools,
                    &fates,
                ));
            }
        }
    }

    /// TW405: a tool name, after the client's prefix, that a provider
    /// profile's provider refuses.
    fn provider_names(&mut self, tool: &Tool, prefix: &str, targets: &[Profile]) {
        let full = format!("{prefix}{}", tool.name);
        let refusals: Vec<(&str, String)> = targets
            .iter()
            .filter_map(|p| p.refuses_name(&full).map(|why| (p.provider(), why)))
            .collect();
        if !refusals.is_empty() {
            let span = self.span(tool.location);
            self.out
                .push(messages::provider_name(span, &full, prefix, &refusals));
        }
    }
}

/// What a provider profile cannot state of a request field's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unstated {
    /// `map<T>` (inside lists too): keys a schema does not name.
    Map,
    /// `json`: a value of any type.
    Any,
    /// A struct without fields: an object without properties.
    EmptyStruct,
    /// The field's owner again, inside itself.
    Recursive,
}

impl Unstated {
    /// What the type is, for the message.
    pub(crate) fn what(self) -> &'static str {
        match self {
            Unstated::Map => "a map",
            Unstated::Any => "a `json` value",
            Unstated::EmptyStruct => "a struct without fields",
            Unstated::Recursive => "its own type again",
        }
    }

    /// What `profile` does with a field of this kind, when it cannot state
    /// it faithfully.
    pub(crate) fn fate(self, profile: Profile) -> Option<&'static str> {
        match (profile, self) {
            (Profile::OpenAi, Unstated::Map | Unstated::Any) => {
                Some("strict mode cannot state it, so the tool is declared with `strict: false`")
            }
            (Profile::Gemini, Unstated::Map | Unstated::Any | Unstated::EmptyStruct) => {
                Some("its schema subset cannot state it, so the field is left out")
            }
            (Profile::Gemini, Unstated::Recursive) => Some(
                "it takes no `$ref`, so the type is written out twice inside itself, and this field left out below that",
            ),
            _ => None,
        }
    }

    /// How to state it in every profile.
    pub(crate) fn fix(self) -> &'static str {
        match self {
            Unstated::Map => {
                "to state it in every profile, make it a list of key/value structs, or a struct of named fields"
            }
            Unstated::Any => "to state it in every profile, give it a declared type",
            Unstated::EmptyStruct => {
                "to state it in every profile, give the struct a field, or leave the field out until it has one"
            }
            Unstated::Recursive => {
                "nothing to change when two levels are enough for a model; a list of a non-recursive type states it in every profile"
            }
        }
    }
}

/// What a profile cannot state of a field of type `ty` in `owner`.
fn unstated(model: &Model, owner: TypeId, ty: &Type) -> Option<Unstated> {
    match ty {
        Type::Optional(inner) | Type::List(inner) => unstated(model, owner, inner),
        Type::Map(_) => Some(Unstated::Map),
        Type::Primitive(Primitive::Json) => Some(Unstated::Any),
        Type::Primitive(_) => None,
        Type::Named(r) => {
            let def = model.type_def(r.id);
            if matches!(&def.kind, TypeKind::Struct(fields) if fields.is_empty()) {
                return Some(Unstated::EmptyStruct);
            }
            let mut reached = HashSet::new();
            model.reach([r.id], &mut reached);
            reached.contains(&owner).then_some(Unstated::Recursive)
        }
    }
}

/// True when a request, response or arguments struct belongs to a
/// deprecated tool, action, resource or prompt.
fn owner_deprecated(model: &Model, origin: &Origin) -> bool {
    let (tool, action) = match origin {
        Origin::Request { tool, action } | Origin::Response { tool, action } => (tool, action),
        Origin::ResourceArguments { resource } => {
            return model
                .resource(resource)
                .is_some_and(|r| r.deprecated.is_some());
        }
        Origin::PromptArguments { prompt } => {
            return model.prompt(prompt).is_some_and(|p| p.deprecated.is_some());
        }
        Origin::Declared => return false,
    };
    let Some(tool) = model.tool(tool) else {
        return false;
    };
    if tool.deprecated.is_some() {
        return true;
    }
    match (&tool.kind, action) {
        (ToolKind::Actions(actions), Some(action)) => actions
            .iter()
            .any(|a| &a.name == action && a.deprecated.is_some()),
        _ => false,
    }
}

fn reason(d: &Deprecation) -> Option<&str> {
    d.reason.as_deref()
}

#[cfg(test)]
mod tests {
    use crate::diag::Code;
    use crate::{Sources, check_with_warnings};

    fn warnings(text: &str) -> Vec<(Code, String)> {
        let mut sources = Sources::new();
        sources.add("t.tool", text);
        let checked = check_with_warnings(&sources).expect("valid");
        checked
            .warnings
            .iter()
            .map(|d| (d.code, d.message.clone()))
            .collect()
    }

    #[test]
    fn resources_and_prompts_use_types_and_need_docs() {
        let found = warnings(
            "resource r { uri \"r:x\" contents Page }\n\
             /// Asks.\nprompt p { errors Oops }\n\
             /// A page.\n@deprecated struct Page { }\n/// Failures.\nerror Oops { failed }",
        );
        assert_eq!(
            found,
            [
                (
                    Code::MissingDocs,
                    "resource `r` has no doc comment".to_owned()
                ),
                (
                    Code::DeprecatedUse,
                    "resource `r` uses the deprecated type `Page`".to_owned()
                ),
            ],
            "`Page` and `Oops` are used"
        );
    }

    #[test]
    fn the_arguments_of_a_deprecated_resource_are_deprecated_too() {
        let found = warnings(
            "/// Old.\n@deprecated resource r { uri \"r:{k}\" arguments { /// K.\nk: Kind } }\n\
             /// Kinds.\n@deprecated enum Kind { a }",
        );
        assert_eq!(found, []);
    }
}
