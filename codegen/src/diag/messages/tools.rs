//! Tools and actions (`TW2xx`): clauses, timings and shapes.

use super::super::Diagnostic;
use super::Code;
use super::one_of;
use crate::source::Span;

pub(crate) fn missing_timing(span: Span, what: &str, name: &str) -> Diagnostic {
    let help = if what == "action" {
        "add `timing sync` to the action, or a `timing` to the tool for all its actions"
    } else {
        "add `timing sync` for a tool that answers at once"
    };
    Diagnostic::error(
        Code::MissingTiming,
        span,
        format!("{what} `{name}` has no `timing`"),
    )
    .label("timing missing")
    .note(format!(
        "the timing class decides how the dispatcher answers: {}",
        one_of(crate::model::Timing::NAMES)
    ))
    .help(help)
}

pub(crate) fn unknown_timing(span: Span, found: &str, suggestions: &[&str]) -> Diagnostic {
    let d = Diagnostic::error(
        Code::UnknownTiming,
        span,
        format!("unknown timing class `{found}`"),
    )
    .label("not a timing class")
    .note(format!(
        "timing classes are {}",
        one_of(crate::model::Timing::NAMES)
    ));
    match suggestions {
        [] => d,
        [one] => d.help(format!("did you mean `{one}`?")),
        many => d.help(format!("did you mean {}?", one_of(many))),
    }
}

pub(crate) fn duplicate_clause(span: Span, clause: &str, first: Span) -> Diagnostic {
    Diagnostic::error(
        Code::DuplicateClause,
        span,
        format!("`{clause}` is given twice"),
    )
    .label("given again here")
    .with_secondary(first, "first given here")
}

pub(crate) fn clause_in_action(span: Span, clause: &str) -> Diagnostic {
    let note = if clause == "action" {
        "actions do not nest: an action tool has one level of actions"
    } else {
        "a tool has one error type and one stream type, shared by its actions"
    };
    Diagnostic::error(
        Code::ClauseInAction,
        span,
        format!("`{clause}` belongs on the tool, not on an action"),
    )
    .label("inside an action")
    .note(note)
    .help(format!("move `{clause}` into the tool's body"))
}

pub(crate) fn actions_with_shape(span: Span, clause: &str, tool: &str) -> Diagnostic {
    Diagnostic::error(
        Code::ActionsWithShape,
        span,
        format!("tool `{tool}` has actions, so it cannot have a tool-level `{clause}`"),
    )
    .label(format!("tool-level `{clause}`"))
    .note("each action declares its own request and response")
    .help(format!("move the `{clause}` into the action that needs it"))
}

pub(crate) fn response_never_sent(span: Span, name: &str, timing: Option<Span>) -> Diagnostic {
    let d = Diagnostic::error(
        Code::ResponseNeverSent,
        span,
        format!("`{name}` is `fire_and_forget`, so its response would never be sent"),
    )
    .label("never sent")
    .note("a fire_and_forget call is acknowledged with a job id at once; failures are recorded on the job")
    .help("remove the `response`, or pick a timing such as `async_long` whose result can be polled");
    match timing {
        Some(t) => d.with_secondary(t, "timing set here"),
        None => d,
    }
}

/// `@paged` on a tool with actions: paging is per action.
pub(crate) fn paged_action_tool(span: Span, tool: &str) -> Diagnostic {
    Diagnostic::error(
        Code::PagedShape,
        span,
        format!("`@paged` on tool `{tool}`, which has actions"),
    )
    .label("on the tool")
    .note("each action has its own request and response, so each is paged on its own")
    .help("write `@paged` before each `action` that lists or searches")
}

/// `@paged` where the request or response is a struct declared elsewhere.
pub(crate) fn paged_named_shape(
    span: Span,
    name: &str,
    clause: &str,
    field: &str,
    attr: Span,
) -> Diagnostic {
    Diagnostic::error(
        Code::PagedShape,
        span,
        format!("`{name}` is `@paged` but names its {clause} struct instead of declaring it"),
    )
    .label(format!("`@paged` would add `{field}` to this struct"))
    .with_secondary(attr, "paged here")
    .note(format!(
        "`@paged` adds `{field}` to the {clause}; a struct declared elsewhere may be used \
         by other tools too, so it is not changed"
    ))
    .help(format!(
        "declare the {clause}'s fields in place: `{clause} {{ … }}` or `{clause} Name {{ … }}`"
    ))
}

/// `@paged` on a tool or action that has no response.
pub(crate) fn paged_without_response(span: Span, name: &str, attr: Span) -> Diagnostic {
    Diagnostic::error(
        Code::PagedShape,
        span,
        format!("`{name}` is `@paged` but has no response"),
    )
    .label("no response to page")
    .with_secondary(attr, "paged here")
    .note("each page is a response, and `@paged` adds its `paging` field")
    .help("declare what a page holds: `response { items: list<…> }`")
}

/// `@paged` on a request or response that declares the field itself.
pub(crate) fn paged_field(span: Span, name: &str, field: &str, attr: Span) -> Diagnostic {
    Diagnostic::error(
        Code::PagedShape,
        span,
        format!("`{name}` is `@paged`, which adds the field `{field}` itself"),
    )
    .label("declared again here")
    .with_secondary(attr, "paged here")
    .help(format!("remove this `{field}` field"))
}

/// `@paged` in a catalogue checked without the built-in files.
pub(crate) fn paged_without_builtins(attr: Span) -> Diagnostic {
    Diagnostic::error(
        Code::PagedShape,
        attr,
        "`@paged` needs the built-in type `Paging`, which is left out with the job tools",
    )
    .label("paged here")
    .note("`Paging` is declared in `<builtin>/jobs.tool`, beside the job tools")
    .help("check the catalogue with the job tools (drop `--no-job-tools` or `Builder::job_tools(false)`)")
}

/// `@task_required` on a tool with a `sync` call, which never runs as a
/// job and so can never be a task.
pub(crate) fn task_required_sync(attr: Span, tool: &str, sync: &str) -> Diagnostic {
    Diagnostic::error(
        Code::TaskRequiredSync,
        attr,
        if tool == sync {
            format!("`{tool}` is `@task_required` but `sync`")
        } else {
            format!("`{tool}` is `@task_required`, but its action `{sync}` is `sync`")
        },
    )
    .label("required to run as a task")
    .note("an MCP task is a job; a `sync` call is answered at once and never runs as one")
    .help("give it a job timing (`async_short`, `async_medium`, `async_long`, `fire_and_forget`), or drop `@task_required`")
}
