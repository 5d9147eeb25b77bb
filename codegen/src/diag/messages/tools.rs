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
