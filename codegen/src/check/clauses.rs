//! The clauses of a body (tool, action, resource, prompt), each kept once:
//! what every body's checks start from.

use std::collections::HashMap;

use super::attrs::{self, Target};
use crate::diag::{Ctxt, messages};
use crate::source::Span;
use crate::syntax::ast::{self, ClauseKind, Ident, Quoted, Shape};
use crate::syntax::keywords;

/// The clauses of one body, each kept once. The parser reads only the
/// clauses a body may hold (and an action's `errors` and `stream`, refused
/// here), so each body's checks read the fields that concern it.
#[derive(Default)]
pub(crate) struct Clauses<'a> {
    pub(crate) timing: Option<&'a Ident>,
    pub(crate) title: Option<&'a str>,
    pub(crate) request: Option<(Span, &'a Shape)>,
    pub(crate) response: Option<(Span, &'a Shape)>,
    pub(crate) errors: Option<&'a Ident>,
    pub(crate) stream: Option<&'a Ident>,
    pub(crate) actions: Vec<(&'a ast::Meta, &'a ast::Action)>,
    pub(crate) uri: Option<&'a Quoted>,
    pub(crate) mime: Option<&'a Quoted>,
    pub(crate) contents: Option<&'a Ident>,
    pub(crate) arguments: Option<(Span, &'a Shape)>,
    pub(crate) examples: Vec<&'a ast::Example>,
    /// Keywords of clauses that failed to parse.
    pub(crate) invalid: Vec<&'a str>,
}

impl<'a> Clauses<'a> {
    /// True when the timing was written, even if it did not parse or is
    /// unknown (either was reported already).
    pub(crate) fn timing_written(&self) -> bool {
        self.timing.is_some() || self.invalid.contains(&keywords::TIMING)
    }

    /// Gathers `clauses`, reporting a clause given twice (TW203), docs
    /// above a clause that declares nothing (TW014) and attributes on
    /// clauses (TW302).
    /// `tool t { timing sync timing async_long }` → TW203.
    pub(crate) fn gather(cx: &mut Ctxt, clauses: &'a [ast::Clause], in_action: bool) -> Self {
        let mut out = Clauses::default();
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for clause in clauses {
            let keyword = clause.keyword.name.as_str();
            if matches!(clause.kind, ClauseKind::Invalid) {
                out.invalid.push(keyword);
                continue;
            }
            let is_action = matches!(clause.kind, ClauseKind::Action(_));
            // Docs above `request { ... }`, `response { ... }` and
            // `arguments { ... }` document the struct the clause declares
            // (see `symbols`).
            let declares_type = matches!(
                &clause.kind,
                ClauseKind::Request(shape) | ClauseKind::Response(shape) | ClauseKind::Arguments(shape)
                    if shape.fields.is_some()
            );
            if !is_action {
                if let Some(docs) = clause.meta.docs.as_ref().filter(|_| !declares_type) {
                    cx.push(messages::dangling_doc(docs.span));
                }
                attrs::lower(cx, &clause.meta.attrs, Target::Clause);
            }
            // (An `action` inside an action is rejected by the parser.)
            if in_action && matches!(clause.kind, ClauseKind::Errors(_) | ClauseKind::Stream(_)) {
                cx.push(messages::clause_in_action(clause.keyword.span, keyword));
                continue;
            }
            // A body holds any number of actions and examples.
            if !is_action && !matches!(clause.kind, ClauseKind::Example(_)) {
                if let Some(&first) = seen.get(keyword) {
                    cx.push(messages::duplicate_clause(
                        clause.keyword.span,
                        keyword,
                        first,
                    ));
                    continue;
                }
                seen.insert(keyword, clause.keyword.span);
            }
            let span = clause.keyword.span;
            match &clause.kind {
                ClauseKind::Timing(t) => out.timing = Some(t),
                ClauseKind::Title(t) => out.title = Some(t),
                ClauseKind::Request(s) => out.request = Some((span, s)),
                ClauseKind::Response(s) => out.response = Some((span, s)),
                ClauseKind::Errors(e) => out.errors = Some(e),
                ClauseKind::Stream(s) => out.stream = Some(s),
                ClauseKind::Action(a) => out.actions.push((&clause.meta, a)),
                ClauseKind::Uri(u) => out.uri = Some(u),
                ClauseKind::Mime(m) => out.mime = Some(m),
                ClauseKind::Contents(c) => out.contents = Some(c),
                ClauseKind::Arguments(s) => out.arguments = Some((span, s)),
                ClauseKind::Example(e) => out.examples.push(e),
                ClauseKind::Invalid => {}
            }
        }
        out
    }
}
