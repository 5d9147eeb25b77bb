//! Collects every name of the catalogue before anything is resolved: types
//! (declared, and generated for anonymous requests, responses and
//! arguments), tools, resources, prompts, files.

use std::collections::{HashMap, HashSet};

use super::attrs::{self, Target};
use super::names::{self, Namespace};
use crate::diag::{Ctxt, messages};
use crate::model::{FileInfo, Origin, TypeId};
use crate::source::{Sources, Span};
use crate::syntax::ast::{self, ClauseKind, EntryKind, Ident, Item, TypeBody};
use crate::syntax::keywords;

/// The four kinds of named type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Struct,
    Enum,
    Union,
    Error,
}

impl Kind {
    pub(crate) fn article(self) -> &'static str {
        match self {
            Kind::Struct => "a struct",
            Kind::Enum => "an enum",
            Kind::Union => "a union",
            Kind::Error => "an error type",
        }
    }
}

/// Where a type's definition comes from.
pub(crate) enum Body<'a> {
    /// A `struct`/`enum`/`union`/`error` item.
    Decl(&'a ast::TypeDecl),
    /// The fields of a `request { ... }`, `response { ... }` or
    /// `arguments { ... }`.
    Shape(&'a [ast::Field]),
}

/// One named type, before lowering.
pub(crate) struct Slot<'a> {
    pub(crate) name: String,
    pub(crate) span: Span,
    pub(crate) kind: Kind,
    pub(crate) body: Body<'a>,
    pub(crate) origin: Origin,
    /// True when the name was made up from the tool's (resource's,
    /// prompt's) name.
    pub(crate) generated: bool,
    /// Docs written above a `request`/`response`/`arguments` clause with a
    /// body.
    pub(crate) shape_docs: Option<String>,
    /// The name of the tool, resource or prompt whose clause declares it.
    pub(crate) owner_span: Option<Span>,
}

/// One tool, before lowering.
pub(crate) struct ToolEntry<'a> {
    pub(crate) tool: &'a ast::Tool,
    pub(crate) category: String,
    /// The `@scopes` of its file's `category`: the default of its own.
    pub(crate) category_scopes: Option<Vec<(String, Span)>>,
}

/// One resource or prompt, before lowering.
pub(crate) struct EntryItem<'a> {
    pub(crate) entry: &'a ast::Entry,
    pub(crate) category: String,
    /// The `@scopes` of its file's `category`: the default of its own.
    pub(crate) category_scopes: Option<Vec<(String, Span)>>,
}

/// Every name in the catalogue.
pub(crate) struct Symbols<'a> {
    pub(crate) files: Vec<FileInfo>,
    pub(crate) slots: Vec<Slot<'a>>,
    pub(crate) by_name: HashMap<String, TypeId>,
    pub(crate) tools: Vec<ToolEntry<'a>>,
    pub(crate) entries: Vec<EntryItem<'a>>,
    /// Names of items that failed to parse: references to them are not
    /// reported again.
    pub(crate) broken: HashSet<String>,
    /// The type generated for each `request { ... }`, `response { ... }`
    /// and `arguments { ... }`, keyed by the shape's address in the syntax
    /// tree.
    pub(crate) shape_ids: HashMap<usize, TypeId>,
}

impl<'a> Symbols<'a> {
    pub(crate) fn collect(sources: &Sources, files: &'a [ast::File], cx: &mut Ctxt) -> Self {
        let mut symbols = Symbols {
            files: Vec::new(),
            slots: Vec::new(),
            by_name: HashMap::new(),
            tools: Vec::new(),
            entries: Vec::new(),
            broken: files
                .iter()
                .flat_map(|f| f.broken.iter().cloned())
                .collect(),
            shape_ids: HashMap::new(),
        };
        // PascalCase names of tools, resources and prompts seen so far.
        let mut seen_names = HashSet::new();
        for file in files {
            let (category, category_scopes) = category(sources, file, cx);
            symbols.files.push(FileInfo {
                path: sources.get(file.id).name().to_owned(),
                category: category.clone(),
                docs: file.docs.as_ref().map(|d| d.text.clone()),
                builtin: sources.get(file.id).is_builtin(),
            });
            for item in &file.items {
                match item {
                    Item::Type(decl) => symbols.slots.push(Slot {
                        name: decl.name.name.clone(),
                        span: decl.name.span,
                        kind: match decl.body {
                            TypeBody::Struct(_) => Kind::Struct,
                            TypeBody::Enum(_) => Kind::Enum,
                            TypeBody::Union(_) => Kind::Union,
                            TypeBody::Error(_) => Kind::Error,
                        },
                        body: Body::Decl(decl),
                        origin: Origin::Declared,
                        generated: false,
                        owner_span: None,
                        shape_docs: None,
                    }),
                    Item::Tool(tool) => {
                        symbols.shapes(tool, &mut seen_names);
                        symbols.tools.push(ToolEntry {
                            tool,
                            category: category.clone(),
                            category_scopes: category_scopes.clone(),
                        });
                    }
                    Item::Entry(entry) => {
                        symbols.arguments(entry, &mut seen_names);
                        symbols.entries.push(EntryItem {
                            entry,
                            category: category.clone(),
                            category_scopes: category_scopes.clone(),
                        });
                    }
                }
            }
        }
        symbols.register_names(cx);
        symbols
    }

    /// The fields a struct's declaration (or clause) writes, before
    /// lowering: none for another kind of type.
    pub(crate) fn struct_fields(&self, id: TypeId) -> &'a [ast::Field] {
        match &self.slots[id.index()].body {
            Body::Shape(fields) => fields,
            Body::Decl(decl) => match &decl.body {
                TypeBody::Struct(fields) => fields,
                _ => &[],
            },
        }
    }

    /// The struct every `arguments` clause of a resource or prompt names,
    /// from the syntax tree: a resource that failed to check still has its
    /// arguments.
    pub(crate) fn argument_structs(&self) -> Vec<TypeId> {
        self.entries
            .iter()
            .flat_map(|item| &item.entry.clauses)
            .filter_map(|clause| match &clause.kind {
                ClauseKind::Arguments(shape) => match (&shape.fields, &shape.name) {
                    (Some(_), _) => self.shape_ids.get(&shape_key(shape)).copied(),
                    (None, Some(name)) => self.by_name.get(&name.name).copied(),
                    (None, None) => None,
                },
                _ => None,
            })
            .collect()
    }

    /// Adds a slot for every `request`/`response` that has a body. A tool or
    /// action whose name clashes with an earlier one gets none: its clash is
    /// reported once, on its name, not again for every generated type. Nor
    /// does a clause given twice (TW203), past its first.
    fn shapes(&mut self, tool: &'a ast::Tool, seen_names: &mut HashSet<String>) {
        let tool_pascal = names::pascal(&tool.name.name);
        if !seen_names.insert(tool_pascal.clone()) {
            return;
        }
        let mut seen_actions = HashSet::new();
        for clause in first_of_each(&tool.clauses) {
            match &clause.kind {
                ClauseKind::Request(shape) | ClauseKind::Response(shape) => {
                    self.shape(tool, None, &tool_pascal, clause, shape);
                }
                ClauseKind::Action(action) => {
                    let action_pascal = names::pascal(&action.name.name);
                    if !seen_actions.insert(action_pascal.clone()) {
                        continue;
                    }
                    let prefix = format!("{tool_pascal}{action_pascal}");
                    for inner in first_of_each(&action.clauses) {
                        if let ClauseKind::Request(shape) | ClauseKind::Response(shape) =
                            &inner.kind
                        {
                            self.shape(tool, Some(&action.name), &prefix, inner, shape);
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn shape(
        &mut self,
        tool: &ast::Tool,
        action: Option<&Ident>,
        prefix: &str,
        clause: &ast::Clause,
        shape: &'a ast::Shape,
    ) {
        let is_request = matches!(clause.kind, ClauseKind::Request(_));
        let (tool_name, action_name) = (tool.name.name.clone(), action.map(|a| a.name.clone()));
        let (origin, suffix) = if is_request {
            let origin = Origin::Request {
                tool: tool_name,
                action: action_name,
            };
            (origin, "Request")
        } else {
            let origin = Origin::Response {
                tool: tool_name,
                action: action_name,
            };
            (origin, "Response")
        };
        let generated = format!("{prefix}{suffix}");
        self.push_shape(shape, clause, origin, generated, tool.name.span);
    }

    /// Adds a slot for the `arguments { ... }` of a resource or prompt,
    /// unless its name clashed with an earlier one (see `shapes`).
    fn arguments(&mut self, entry: &'a ast::Entry, seen_names: &mut HashSet<String>) {
        let pascal = names::pascal(&entry.name.name);
        if !seen_names.insert(pascal.clone()) {
            return;
        }
        for clause in first_of_each(&entry.clauses) {
            if let ClauseKind::Arguments(shape) = &clause.kind {
                let name = entry.name.name.clone();
                let origin = match entry.kind {
                    EntryKind::Resource => Origin::ResourceArguments { resource: name },
                    EntryKind::Prompt => Origin::PromptArguments { prompt: name },
                };
                let generated = format!("{pascal}Arguments");
                self.push_shape(shape, clause, origin, generated, entry.name.span);
            }
        }
    }

    /// Adds a slot for a clause's shape when it has a body: named as
    /// written, or `generated`.
    fn push_shape(
        &mut self,
        shape: &'a ast::Shape,
        clause: &ast::Clause,
        origin: Origin,
        generated: String,
        owner: Span,
    ) {
        let Some(fields) = &shape.fields else { return };
        let (name, span, is_generated) = match &shape.name {
            Some(name) => (name.name.clone(), name.span, false),
            None => (generated, clause.keyword.span, true),
        };
        let id = TypeId(u32::try_from(self.slots.len()).unwrap_or(u32::MAX));
        self.shape_ids.insert(shape_key(shape), id);
        self.slots.push(Slot {
            name,
            span,
            kind: Kind::Struct,
            body: Body::Shape(fields),
            origin,
            generated: is_generated,
            owner_span: Some(owner),
            shape_docs: clause.meta.docs.as_ref().map(|d| d.text.clone()),
        });
    }

    /// Checks naming rules and uniqueness of tools, resources, prompts and
    /// types, and fills `by_name`. Generated names go first, so a clash is
    /// reported on the user's declaration, where the fix is.
    /// `tool abc_parse { request { … } }` + `struct AbcParseRequest` → TW102.
    fn register_names(&mut self, cx: &mut Ctxt) {
        // Tools, resources and prompts share one namespace, checked in
        // source order so that a clash is reported on the later name.
        let mut declared: Vec<(&Ident, &str)> = self
            .tools
            .iter()
            .map(|t| (&t.tool.name, keywords::TOOL))
            .chain(
                self.entries
                    .iter()
                    .map(|e| (&e.entry.name, e.entry.kind.keyword())),
            )
            .collect();
        declared.sort_by_key(|(ident, _)| (ident.span.file, ident.span.start));
        let mut namespace = Namespace::new(keywords::TOOL);
        for (ident, kind) in declared {
            namespace.set_kind(kind);
            namespace.insert_snake(
                cx,
                ident,
                &format!("{kind} name"),
                "tool, resource and prompt names become enum variants and type names in the generated code",
            );
        }
        // `<Tool>Tool` marker types are generated for every tool, and the
        // `<Tool>Request` / `<Tool>Response` enums for every action tool.
        let mut markers: HashMap<String, (&str, String, Span)> = HashMap::new();
        for entry in &self.tools {
            let name = &entry.tool.name;
            let pascal = names::pascal(&name.name);
            markers.insert(
                format!("{pascal}Tool"),
                ("marker type", name.name.clone(), name.span),
            );
            let clauses = &entry.tool.clauses;
            let has = |f: fn(&ClauseKind) -> bool| clauses.iter().any(|c| f(&c.kind));
            if has(|k| matches!(k, ClauseKind::Action(_))) {
                // A tool-level request or response next to actions is TW205
                // already; its own type does not clash with the enum again.
                let suffixes = [
                    ("Request", has(|k| matches!(k, ClauseKind::Request(_)))),
                    ("Response", has(|k| matches!(k, ClauseKind::Response(_)))),
                ];
                let generated: Vec<String> = suffixes
                    .into_iter()
                    .filter(|(_, declared)| !declared)
                    .map(|(suffix, _)| format!("{pascal}{suffix}"))
                    .collect();
                let reserved: Vec<&str> = generated
                    .iter()
                    .map(String::as_str)
                    .filter(|g| keywords::RESERVED_TYPES.contains(g))
                    .collect();
                if !reserved.is_empty() {
                    cx.push(messages::reserved_action_enum(
                        name.span, &reserved, &name.name,
                    ));
                }
                for name_of_enum in generated {
                    markers.insert(name_of_enum, ("action enum", name.name.clone(), name.span));
                }
            }
        }

        let mut lowercase: HashMap<String, (String, Span)> = HashMap::new();
        // Declared names left out of `by_name` after an error: uses of them
        // are not reported as unknown on top of it.
        let mut suppressed = Vec::new();
        let order: Vec<usize> = (0..self.slots.len())
            .filter(|&i| self.slots[i].generated)
            .chain((0..self.slots.len()).filter(|&i| !self.slots[i].generated))
            .collect();
        for i in order {
            let slot = &self.slots[i];
            let ident = Ident {
                name: slot.name.clone(),
                span: slot.span,
            };
            // A badly spelt name gets one diagnostic, not a second one for
            // colliding with the spelling it should have had.
            let well_named = slot.generated || names::check_pascal(cx, &ident, "type name");
            if keywords::RESERVED_TYPES.contains(&slot.name.as_str()) {
                cx.push(match (&slot.origin, slot.generated) {
                    (Origin::Request { tool, .. } | Origin::Response { tool, .. }, true) => {
                        messages::reserved_generated(slot.span, &slot.name, tool)
                    }
                    _ => messages::reserved_type(slot.span, &slot.name),
                });
                suppressed.push(slot.name.clone());
                continue;
            }
            if let Some((what, tool, tool_span)) = markers.get(&slot.name) {
                cx.push(messages::duplicate_generated(
                    slot.span,
                    &slot.name,
                    what,
                    &format!("tool `{tool}`"),
                    *tool_span,
                ));
                suppressed.push(slot.name.clone());
                continue;
            }
            if let Some(&first) = self.by_name.get(&slot.name) {
                let other = &self.slots[first.index()];
                cx.push(clash(slot, other));
                continue;
            }
            let lower = slot.name.to_ascii_lowercase();
            if let Some((other, other_span)) = lowercase.get(&lower).filter(|_| well_named) {
                cx.push(messages::differ_in_case(
                    slot.span,
                    &slot.name,
                    other,
                    *other_span,
                ));
                suppressed.push(slot.name.clone());
                continue;
            }
            lowercase.insert(lower, (slot.name.clone(), slot.span));
            self.by_name.insert(
                slot.name.clone(),
                TypeId(u32::try_from(i).unwrap_or(u32::MAX)),
            );
        }
        self.broken.extend(suppressed);
    }
}

/// The first clause of each keyword (`action`s all), as `Clauses::gather`
/// keeps them.
fn first_of_each(clauses: &[ast::Clause]) -> impl Iterator<Item = &ast::Clause> {
    let mut seen = HashSet::new();
    clauses.iter().filter(move |c| match c.kind {
        ClauseKind::Action(_) => true,
        ClauseKind::Invalid => false,
        _ => seen.insert(c.keyword.name.as_str()),
    })
}

/// Identifies a shape by its address: the syntax tree outlives the symbols.
pub(crate) fn shape_key(shape: &ast::Shape) -> usize {
    std::ptr::from_ref(shape) as usize
}

/// The diagnostic for two slots with one name.
fn clash(slot: &Slot<'_>, other: &Slot<'_>) -> crate::diag::Diagnostic {
    // ("tool", "abc_parse") or ("action", "fs.read") when the name was generated.
    let generated_by = |s: &Slot<'_>| {
        if !s.generated {
            return None;
        }
        Some(match &s.origin {
            Origin::Request { tool, action } | Origin::Response { tool, action } => match action {
                Some(a) => ("action", format!("{tool}.{a}")),
                None => ("tool", tool.clone()),
            },
            Origin::ResourceArguments { resource } => ("resource", resource.clone()),
            Origin::PromptArguments { prompt } => ("prompt", prompt.clone()),
            Origin::Declared => return None,
        })
    };
    match (generated_by(slot), generated_by(other)) {
        (Some((my_kind, mine)), Some((their_kind, theirs))) => messages::generated_collision(
            slot.span,
            &format!("{my_kind} `{mine}`"),
            &format!("{their_kind} `{theirs}`"),
            other.span,
            &slot.name,
        ),
        (None, Some((their_kind, theirs))) => {
            let (what, owner) = match their_kind {
                "resource" | "prompt" => ("arguments struct", format!("{their_kind} `{theirs}`")),
                _ => ("request or response type", format!("tool `{theirs}`")),
            };
            messages::duplicate_generated(
                slot.span,
                &slot.name,
                what,
                &owner,
                other.owner_span.unwrap_or(other.span),
            )
        }
        _ => messages::duplicate(slot.span, "type", &slot.name, other.span),
    }
}

/// The file's category (declared, or the file stem), and the scopes its
/// `@scopes` gives the file's tools by default.
fn category(
    sources: &Sources,
    file: &ast::File,
    cx: &mut Ctxt,
) -> (String, Option<Vec<(String, Span)>>) {
    let scopes = attrs::lower(cx, &file.category_attrs, Target::Category).scopes;
    let name = match &file.category {
        Some(name) => {
            names::check_snake(cx, name, "category");
            name.name.clone()
        }
        None => {
            let stem = sources.get(file.id).stem().to_owned();
            if !names::is_snake(&stem) {
                let fixed = heck::ToSnakeCase::to_snake_case(stem.as_str());
                cx.push(messages::category_from_file_name(
                    Span::new(file.id, 0, 0),
                    sources.get(file.id).name(),
                    &fixed,
                ));
            }
            stem
        }
    };
    (name, scopes)
}
