//! Tools and actions: clauses, timing, request/response/errors/stream
//! references, annotations.

use super::attrs::{self, Target};
use super::clauses::Clauses;
use super::names::Namespace;
use super::symbols::{Kind, Symbols, ToolEntry, shape_key};
use crate::diag::{Ctxt, messages};
use crate::model::{Action, Endpoint, Timing, Tool, ToolKind, TypeId};
use crate::source::{Sources, Span};
use crate::suggest;
use crate::syntax::ast::{self, Ident, Shape};
use crate::syntax::keywords;

pub(crate) fn lower(symbols: &Symbols<'_>, sources: &Sources, cx: &mut Ctxt) -> Vec<Tool> {
    symbols
        .tools
        .iter()
        .filter_map(|entry| lower_tool(symbols, sources, cx, entry))
        .collect()
}

/// Checks one tool and builds its model.
/// `tool t { request { a: u8 } }` → TW201 (no timing).
fn lower_tool(
    symbols: &Symbols<'_>,
    sources: &Sources,
    cx: &mut Ctxt,
    entry: &ToolEntry<'_>,
) -> Option<Tool> {
    let tool = entry.tool;
    let name = &tool.name.name;
    let mut attrs = attrs::lower(cx, &tool.meta.attrs, Target::Tool);
    let app = super::apps::lower(cx, sources, name, &mut attrs);
    let clauses = Clauses::gather(cx, &tool.clauses, false);
    let tool_timing = clauses.timing.and_then(|t| timing(cx, t));
    let errors = clauses.errors.and_then(|e| {
        reference(
            symbols,
            cx,
            e,
            &[Kind::Error],
            "an error type",
            "`errors` names the `error` type whose variants the tool fails with",
        )
    });
    let stream = clauses.stream.and_then(|s| {
        reference(
            symbols,
            cx,
            s,
            &[Kind::Union, Kind::Struct],
            "a union or struct",
            "`stream` names the type of the chunks a running tool sends",
        )
    });

    let kind = if clauses.actions.is_empty() {
        let Some(timing) = tool_timing else {
            if !clauses.timing_written() {
                cx.push(messages::missing_timing(tool.name.span, "tool", name));
            }
            return None;
        };
        ToolKind::Single(endpoint(
            symbols,
            cx,
            name,
            (timing, clauses.timing.map(|t| t.span)),
            &clauses,
            attrs.paged,
        )?)
    } else {
        for (span, clause) in [(clauses.request, "request"), (clauses.response, "response")]
            .into_iter()
            .filter_map(|(shape, clause)| shape.map(|(span, _)| (span, clause)))
        {
            cx.push(messages::actions_with_shape(span, clause, name));
        }
        ToolKind::Actions(actions(symbols, sources, cx, tool, &clauses)?)
    };

    let task_required = attrs.task_required.is_some_and(|span| {
        let sync: Vec<String> = match &kind {
            ToolKind::Single(e) if e.timing == Timing::Sync => vec![name.clone()],
            ToolKind::Single(_) => Vec::new(),
            ToolKind::Actions(actions) => actions
                .iter()
                .filter(|a| a.endpoint.timing == Timing::Sync)
                .map(|a| format!("{name}.{}", a.name))
                .collect(),
        };
        if let Some(first) = sync.first() {
            cx.push(messages::task_required_sync(span, name, first));
            return false;
        }
        true
    });

    Some(Tool {
        name: name.clone(),
        category: entry.category.clone(),
        extra_toolsets: attrs
            .toolsets
            .into_iter()
            .filter(|t| *t != entry.category)
            .collect(),
        docs: tool.meta.docs.as_ref().map(|d| d.text.clone()),
        title: clauses.title.map(str::to_owned),
        annotations: attrs.annotations,
        scopes: super::scopes::effective(
            attrs.scopes.as_deref(),
            entry.category_scopes.as_deref(),
            sources,
        ),
        deprecated: attrs.deprecated,
        kind,
        errors,
        stream,
        task_required,
        app,
        visibility: attrs.app_visibility,
        examples: Vec::new(),
        location: sources.location(tool.name.span),
    })
}

/// Checks the actions of an action tool.
/// `tool fs { action help { timing sync } }` → TW105 (built-in action name).
fn actions(
    symbols: &Symbols<'_>,
    sources: &Sources,
    cx: &mut Ctxt,
    tool: &ast::Tool,
    clauses: &Clauses<'_>,
) -> Option<Vec<Action>> {
    // The tool-level timing is the default. The caller checked it already,
    // so an unknown one is `None` here without a second report.
    let tool_timing = clauses
        .timing
        .and_then(|t| Timing::from_name(&t.name).map(|timing| (timing, t.span)));
    let mut namespace = Namespace::new("action");
    let mut out = Vec::new();
    let mut ok = true;
    for (meta, action) in &clauses.actions {
        let name = &action.name;
        if keywords::BUILTIN_ACTIONS.contains(&name.name.as_str()) {
            cx.push(messages::reserved_action(name.span, &name.name));
        }
        namespace.insert_snake(
            cx,
            name,
            "action name",
            "action names become enum variants and type names in the generated code",
        );
        let attrs = attrs::lower(cx, &meta.attrs, Target::Action);
        let inner = Clauses::gather(cx, &action.clauses, true);
        let own = inner
            .timing
            .and_then(|t| timing(cx, t).map(|timing| (timing, t.span)));
        let (timing, timing_span) = match (inner.timing_written(), own, tool_timing) {
            (true, Some(t), _) | (false, _, Some(t)) => t,
            (true, None, _) => {
                ok = false;
                continue;
            }
            (false, _, None) if clauses.timing_written() => {
                ok = false;
                continue;
            }
            (false, _, None) => {
                cx.push(
                    messages::missing_timing(name.span, "action", &name.name)
                        .note(format!("a `timing` in the body of tool `{}` applies to every action without its own", tool.name.name)),
                );
                ok = false;
                continue;
            }
        };
        let qualified = format!("{}.{}", tool.name.name, name.name);
        let Some(endpoint) = endpoint(
            symbols,
            cx,
            &qualified,
            (timing, Some(timing_span)),
            &inner,
            attrs.paged,
        ) else {
            ok = false;
            continue;
        };
        out.push(Action {
            name: name.name.clone(),
            docs: meta.docs.as_ref().map(|d| d.text.clone()),
            title: inner.title.map(str::to_owned),
            deprecated: attrs.deprecated,
            endpoint,
            examples: Vec::new(),
            location: sources.location(name.span),
        });
    }
    ok.then_some(out)
}

/// Timing, request and response of a tool or action.
/// `timing fire_and_forget  response { a: u8 }` → TW206.
fn endpoint(
    symbols: &Symbols<'_>,
    cx: &mut Ctxt,
    name: &str,
    (timing, timing_span): (Timing, Option<Span>),
    clauses: &Clauses<'_>,
    paged: bool,
) -> Option<Endpoint> {
    if timing == Timing::FireAndForget
        && let Some((span, _)) = clauses.response
    {
        cx.push(messages::response_never_sent(span, name, timing_span));
    }
    let request = match clauses.request {
        Some((_, shape)) => Some(shape_type(symbols, cx, shape, SHAPES_ARE_STRUCTS)?),
        None => None,
    };
    let response = match clauses.response {
        Some((_, shape)) => Some(shape_type(symbols, cx, shape, SHAPES_ARE_STRUCTS)?),
        None => None,
    };
    for (id, clause) in [(request, "request"), (response, "response")] {
        if let Some(id) = id {
            tag_fields(symbols, cx, name, id, clause);
        }
    }
    Some(Endpoint {
        timing,
        request,
        response,
        paged,
    })
}

/// A request or response field named like the wire's tags: `tool` always,
/// `action` in an action. Requests and responses are written as one map
/// whose first key is `tool` (then `action`), so such a field would repeat
/// the key, and a JSON reader would keep only one of the two.
/// `tool t { timing sync request { tool: string } }` → TW105.
fn tag_fields(symbols: &Symbols<'_>, cx: &mut Ctxt, name: &str, id: TypeId, clause: &str) {
    let fields = symbols.struct_fields(id);
    let in_action = name.contains('.');
    for field in fields {
        if field.name.name == "tool" || (in_action && field.name.name == "action") {
            cx.push(messages::reserved_tag_field(
                field.name.span,
                &field.name.name,
                name,
                clause,
            ));
        }
    }
}

/// Why requests and responses are structs, for TW106.
const SHAPES_ARE_STRUCTS: &str = "MCP describes a tool's arguments and result as JSON objects, so requests and responses are structs";

/// The struct a `request`/`response`/`arguments` clause stands for; `why`
/// says why it must be a struct.
/// `response GardenStatus` where `GardenStatus` is an enum → TW106.
pub(super) fn shape_type(
    symbols: &Symbols<'_>,
    cx: &mut Ctxt,
    shape: &Shape,
    why: &str,
) -> Option<TypeId> {
    if shape.fields.is_some() {
        return symbols.shape_ids.get(&shape_key(shape)).copied();
    }
    let name = shape.name.as_ref()?;
    reference(symbols, cx, name, &[Kind::Struct], "a struct", why)
}

/// `timing async_lng` → TW202 with "did you mean `async_long`?".
fn timing(cx: &mut Ctxt, ident: &Ident) -> Option<Timing> {
    let t = Timing::from_name(&ident.name);
    if t.is_none() {
        // `async` is a prefix of three classes: name them all rather than
        // guess the nearest spelling.
        let prefixed: Vec<&str> = Timing::NAMES
            .iter()
            .copied()
            .filter(|n| n.starts_with(&ident.name))
            .collect();
        let suggestions = if prefixed.is_empty() {
            suggest::closest(&ident.name, Timing::NAMES.iter().copied())
                .into_iter()
                .collect()
        } else {
            prefixed
        };
        cx.push(messages::unknown_timing(
            ident.span,
            &ident.name,
            &suggestions,
        ));
    }
    t
}

/// Resolves a clause's type name and checks its kind.
/// `errors GardenEror` → TW101 with "did you mean `GardenError`?".
pub(super) fn reference(
    symbols: &Symbols<'_>,
    cx: &mut Ctxt,
    ident: &Ident,
    kinds: &[Kind],
    wanted: &str,
    why: &str,
) -> Option<TypeId> {
    match symbols.by_name.get(&ident.name) {
        Some(&id) => {
            let slot = &symbols.slots[id.index()];
            if kinds.contains(&slot.kind) {
                Some(id)
            } else {
                cx.push(messages::wrong_kind(
                    ident.span,
                    &ident.name,
                    slot.kind.article(),
                    wanted,
                    why,
                ));
                None
            }
        }
        None => {
            if !symbols.broken.contains(&ident.name) {
                let candidates = symbols
                    .by_name
                    .iter()
                    .filter(|(_, id)| kinds.contains(&symbols.slots[id.index()].kind))
                    .map(|(name, _)| name.as_str());
                let suggestion = suggest::closest(&ident.name, candidates);
                let what = wanted.trim_start_matches("an ").trim_start_matches("a ");
                cx.push(messages::unknown_type_of_kind(
                    ident.span,
                    what,
                    &ident.name,
                    suggestion,
                ));
            }
            None
        }
    }
}
