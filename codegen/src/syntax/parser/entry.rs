//! Resource and prompt bodies, `resource name { clause* }` and
//! `prompt name { clause* }`, and what each kind of body may hold.

use super::{PResult, Parser};
use crate::diag::{Diagnostic, messages};
use crate::suggest;
use crate::syntax::ast::{Entry, EntryKind, Meta, Quoted};
use crate::syntax::keywords;
use crate::syntax::token::TokenKind;

/// A body of clauses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Body {
    Tool,
    Action,
    Entry(EntryKind),
}

impl Body {
    /// How messages name it.
    pub(super) fn name(self) -> &'static str {
        match self {
            Body::Tool => keywords::TOOL,
            Body::Action => keywords::ACTION,
            Body::Entry(kind) => kind.keyword(),
        }
    }

    /// The clauses it holds, as a note lists them.
    fn clauses(self) -> &'static [&'static str] {
        match self {
            Body::Tool => keywords::TOOL_CLAUSES,
            Body::Action => keywords::ACTION_CLAUSES,
            Body::Entry(kind) => kind.clauses(),
        }
    }

    /// True when the parser reads `word` as a clause here. An action's
    /// `errors` and `stream` are read, then refused by the checker, which
    /// says they belong on the tool (TW204).
    pub(super) fn reads(self, word: &str) -> bool {
        let clauses = match self {
            Body::Action => keywords::TOOL_CLAUSES,
            body => body.clauses(),
        };
        clauses.contains(&word)
    }

    /// Clauses a help line can show.
    pub(super) fn examples(self) -> &'static str {
        match self {
            Body::Tool | Body::Action => "`timing sync` or `request { ... }`",
            Body::Entry(EntryKind::Resource) => "`uri \"...\"` or `contents bytes`",
            Body::Entry(EntryKind::Prompt) => "`title \"...\"` or `arguments { ... }`",
        }
    }

    /// TW012 for a word that is not a clause of this body: a clause of
    /// another kind of body, with where it belongs, or an unknown word,
    /// with the nearest clause.
    /// `resource r { timing sync }` → TW012, "a resource has no timing".
    pub(super) fn refuse(self, span: crate::source::Span, word: &str) -> Diagnostic {
        let allowed = self.clauses();
        if keywords::CLAUSES.contains(&word) {
            return messages::clause_elsewhere(
                span,
                word,
                self.name(),
                allowed,
                self.elsewhere(word),
            );
        }
        let suggestion = suggest::closest(word, allowed.iter().copied());
        messages::unknown_clause(span, &format!("`{word}`"), allowed, suggestion)
    }

    /// Why `clause`, a clause of some other body, is not one of this one,
    /// and what to write instead.
    fn elsewhere(self, clause: &str) -> String {
        let name = self.name();
        match (self, clause) {
            (Body::Entry(kind), keywords::TIMING) => format!(
                "remove it: a {name} is {}, not called, so it has no timing class",
                match kind {
                    EntryKind::Resource => "read (`resources/read`)",
                    EntryKind::Prompt => "got (`prompts/get`)",
                }
            ),
            (Body::Entry(_), keywords::REQUEST) => {
                format!("what a {name} takes is its `arguments {{ ... }}`")
            }
            (Body::Entry(EntryKind::Resource), keywords::RESPONSE) => {
                "what a read returns is its `contents`: `text`, `bytes` or a type".to_owned()
            }
            (Body::Entry(EntryKind::Prompt), keywords::RESPONSE) => {
                "remove it: a prompt's handler answers with messages".to_owned()
            }
            (Body::Entry(_), keywords::STREAM) => {
                format!("remove it: a {name} does not stream; a tool can")
            }
            (Body::Entry(_), keywords::ACTION) => {
                format!("declare a {name} of its own for each operation")
            }
            (Body::Entry(EntryKind::Prompt), _) => format!(
                "`{clause}` belongs to resources, which clients read by URI; a prompt is got by name"
            ),
            (_, keywords::ARGUMENTS) => format!("a {name}'s arguments are its `request {{ ... }}`"),
            _ => format!(
                "`{clause}` belongs to resources: declare `resource name {{ uri \"...\" }}` for what clients read by URI"
            ),
        }
    }
}

impl Parser<'_, '_> {
    /// `resource name { clause* }` or `prompt name { clause* }`.
    pub(super) fn entry(&mut self, meta: Meta, kind: EntryKind) -> PResult<Entry> {
        let keyword = self.span();
        self.bump();
        let name = self.ident(&format!("a {} name", kind.keyword()))?;
        let (clauses, close) = self.clauses(Body::Entry(kind))?;
        Ok(Entry {
            meta,
            kind,
            keyword,
            name,
            clauses,
            close,
        })
    }

    /// The string after `clause` (`uri "..."`), with its span.
    pub(super) fn quoted(&mut self, clause: &str) -> PResult<Quoted> {
        match self.peek().clone() {
            TokenKind::Str(value) => {
                let span = self.span();
                self.bump();
                Ok(Quoted { value, span })
            }
            _ => Err(self.error_expected(&format!("a string after `{clause}`"))),
        }
    }
}
