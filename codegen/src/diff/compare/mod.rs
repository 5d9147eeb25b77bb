//! The comparison: two models walked side by side from their tools, types
//! matched by where they are used (so a renamed type is seen as renamed,
//! not as one removed and one added), each change judged by the direction
//! its data travels.

use std::collections::{BTreeMap, HashSet};

use super::rules::{Category, Rule};
use super::{Change, Direction};
use crate::model::{
    Annotations, Deprecation, Endpoint, Field, Model, Origin, Timing, Tool, ToolKind, TypeId,
    TypeKind, Variant,
};
use crate::source::Location;

mod apps;
mod fields;
mod resources;
mod scopes;
mod types;
mod visibility;

use Category::{Semantic, Source, Wire};

/// Every change from `old` to `new`, in rule-independent walk order
/// (tools by name, then declared types by name).
pub(super) fn compare(old: &Model, new: &Model) -> Vec<Change> {
    let mut walk = Walk {
        old,
        new,
        changes: Vec::new(),
        seen: HashSet::new(),
        visited_old: HashSet::new(),
        visited_new: HashSet::new(),
    };
    let old_tools = by_name(old.tools.iter().filter(|t| !old.is_builtin(&t.location)));
    let new_tools = by_name(new.tools.iter().filter(|t| !new.is_builtin(&t.location)));
    for (name, o) in &old_tools {
        match new_tools.get(name) {
            Some(n) => walk.tool(o, n),
            None => {
                mark_tool(old, o, &mut walk.visited_old);
                walk.push(
                    Rule::ToolRemoved,
                    name,
                    format!("tool `{name}` was removed"),
                    "old clients that call it get an unknown-tool error",
                    &[Wire, Source],
                    Some(o.location),
                    None,
                );
            }
        }
    }
    for (name, n) in &new_tools {
        if !old_tools.contains_key(name) {
            mark_tool(new, n, &mut walk.visited_new);
            walk.push(
                Rule::ToolAdded,
                name,
                format!("tool `{name}` was added"),
                "",
                &[],
                None,
                Some(n.location),
            );
        }
    }
    walk.resources();
    walk.prompts();
    walk.unreached_types();
    walk.changes
}

fn by_name<'a, T: Named + 'a>(items: impl Iterator<Item = &'a T>) -> BTreeMap<&'a str, &'a T> {
    items.map(|item| (item.name(), item)).collect()
}

trait Named {
    fn name(&self) -> &str;
}

impl Named for Tool {
    fn name(&self) -> &str {
        &self.name
    }
}

impl Named for Field {
    fn name(&self) -> &str {
        &self.name
    }
}

impl Named for Variant {
    fn name(&self) -> &str {
        &self.name
    }
}

impl Named for crate::model::EnumValue {
    fn name(&self) -> &str {
        &self.name
    }
}

impl Named for crate::model::Action {
    fn name(&self) -> &str {
        &self.name
    }
}

impl Named for crate::model::Resource {
    fn name(&self) -> &str {
        &self.name
    }
}

impl Named for crate::model::Prompt {
    fn name(&self) -> &str {
        &self.name
    }
}

struct Walk<'a> {
    old: &'a Model,
    new: &'a Model,
    changes: Vec<Change>,
    /// Type pairs already compared in a direction.
    seen: HashSet<(TypeId, TypeId, Direction)>,
    visited_old: HashSet<TypeId>,
    visited_new: HashSet<TypeId>,
}

/// The old and new places a change points at.
#[derive(Clone, Copy)]
struct At {
    old: Option<Location>,
    new: Option<Location>,
}

impl At {
    pub(super) fn both(old: Location, new: Location) -> At {
        At {
            old: Some(old),
            new: Some(new),
        }
    }
}

impl Walk<'_> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn push(
        &mut self,
        rule: Rule,
        item: &str,
        message: String,
        consequence: &str,
        breaks: &[Category],
        old: Option<Location>,
        new: Option<Location>,
    ) {
        self.changes.push(Change {
            rule,
            item: item.to_owned(),
            message,
            consequence: (!consequence.is_empty()).then(|| consequence.to_owned()),
            breaks: breaks.to_vec(),
            old,
            new,
            allowed: None,
        });
    }

    pub(super) fn push_at(
        &mut self,
        rule: Rule,
        item: &str,
        message: String,
        consequence: &str,
        breaks: &[Category],
        at: At,
    ) {
        self.push(rule, item, message, consequence, breaks, at.old, at.new);
    }

    fn tool(&mut self, o: &Tool, n: &Tool) {
        let name = o.name.as_str();
        let at = At::both(o.location, n.location);
        self.annotations(name, o.annotations, n.annotations, at);
        self.scopes(
            "tool",
            name,
            (&o.scopes, o.location),
            (&n.scopes, n.location),
        );
        self.deprecation(
            name,
            "tool",
            o.deprecated.as_ref(),
            n.deprecated.as_ref(),
            at,
        );
        match (&o.kind, &n.kind) {
            (ToolKind::Single(oe), ToolKind::Single(ne)) => self.endpoint(name, oe, ne, at),
            (ToolKind::Actions(oa), ToolKind::Actions(na)) => {
                let old_actions = by_name(oa.iter());
                let new_actions = by_name(na.iter());
                for (action, oa) in &old_actions {
                    let item = format!("{name}.{action}");
                    match new_actions.get(action) {
                        Some(na) => {
                            let at = At::both(oa.location, na.location);
                            self.deprecation(
                                &item,
                                "action",
                                oa.deprecated.as_ref(),
                                na.deprecated.as_ref(),
                                at,
                            );
                            self.endpoint(&item, &oa.endpoint, &na.endpoint, at);
                        }
                        None => self.push(
                            Rule::ActionRemoved,
                            &item,
                            format!("action `{action}` of tool `{name}` was removed"),
                            "old clients that call it get an unknown-action error",
                            &[Wire, Source],
                            Some(oa.location),
                            Some(n.location),
                        ),
                    }
                }
                for (action, na) in &new_actions {
                    if !old_actions.contains_key(action) {
                        self.push(
                            Rule::ActionAdded,
                            &format!("{name}.{action}"),
                            format!("action `{action}` was added to tool `{name}`"),
                            "",
                            &[],
                            Some(o.location),
                            Some(na.location),
                        );
                    }
                }
            }
            (old_kind, _) => {
                let (was, is) = if matches!(old_kind, ToolKind::Single(_)) {
                    ("one endpoint", "actions")
                } else {
                    ("actions", "one endpoint")
                };
                self.push_at(
                    Rule::ToolKindChanged,
                    name,
                    format!("tool `{name}` had {was} and now has {is}"),
                    "old clients send requests of the other shape",
                    &[Wire, Source],
                    at,
                );
            }
        }
        self.mark_clauses(o, n);
        self.errors("tool", name, o.errors, n.errors, at);
        match (o.stream, n.stream) {
            (None, Some(_)) => self.push_at(
                Rule::StreamAdded,
                name,
                format!("tool `{name}` streams chunks"),
                "callers see stream events they did not before",
                &[Semantic],
                at,
            ),
            (Some(_), None) => self.push_at(
                Rule::StreamRemoved,
                name,
                format!("tool `{name}` no longer streams chunks"),
                "callers that read its stream wait for chunks that never come",
                &[Semantic],
                at,
            ),
            (Some(os), Some(ns)) => {
                self.types(os, ns, Direction::Response, &format!("{name}.stream"));
            }
            (None, None) => {}
        }
        self.app(name, o.app.as_ref(), n.app.as_ref(), at);
        self.visibility(name, &o.visibility, &n.visibility, at);
    }

    /// A stream present in one version only: its types go with it.
    fn mark_clauses(&mut self, o: &Tool, n: &Tool) {
        self.mark_one_sided(o.stream, n.stream);
    }

    /// A clause's type present in one version only: it and the types it
    /// reaches go with the clause, and are not reported on their own.
    pub(super) fn mark_one_sided(&mut self, was: Option<TypeId>, is: Option<TypeId>) {
        let (old, new) = (self.old, self.new);
        match (was, is) {
            (Some(id), None) => old.reach([id], &mut self.visited_old),
            (None, Some(id)) => new.reach([id], &mut self.visited_new),
            _ => {}
        }
    }

    /// The `errors` of a tool, resource or prompt (`what`).
    pub(super) fn errors(
        &mut self,
        what: &str,
        item: &str,
        o: Option<TypeId>,
        n: Option<TypeId>,
        at: At,
    ) {
        self.mark_one_sided(o, n);
        match (o, n) {
            (None, Some(_)) => self.push_at(
                Rule::ErrorsAdded,
                item,
                format!("{what} `{item}` declares errors"),
                "",
                &[],
                at,
            ),
            (Some(_), None) => self.push_at(
                Rule::ErrorsRemoved,
                item,
                format!("{what} `{item}` no longer declares errors"),
                "code that matches on its error type no longer compiles",
                &[Source],
                at,
            ),
            (Some(oe), Some(ne)) => {
                self.types(oe, ne, Direction::Response, &format!("{item}.errors"));
            }
            (None, None) => {}
        }
    }

    fn annotations(&mut self, item: &str, o: Annotations, n: Annotations, at: At) {
        // (name, old, new, true when having it is the stronger promise)
        let pairs = [
            ("@read_only", o.read_only, n.read_only, true),
            ("@idempotent", o.idempotent, n.idempotent, true),
            ("@destructive", o.destructive, n.destructive, false),
            ("@open_world", o.open_world, n.open_world, false),
        ];
        for (attr, was, is, promise) in pairs {
            if was == is {
                continue;
            }
            let verb = if is { "added" } else { "dropped" };
            let message = format!("`{attr}` {verb} on tool `{item}`");
            if is == promise {
                self.push_at(Rule::AnnotationStrengthened, item, message, "", &[], at);
            } else {
                self.push_at(
                    Rule::AnnotationWeakened,
                    item,
                    message,
                    "MCP clients that skip confirmation for safe tools now treat it differently",
                    &[Semantic],
                    at,
                );
            }
        }
    }

    pub(super) fn deprecation(
        &mut self,
        item: &str,
        what: &str,
        o: Option<&Deprecation>,
        n: Option<&Deprecation>,
        at: At,
    ) {
        if let (None, Some(d)) = (o, n) {
            let reason = d
                .reason
                .as_deref()
                .map_or_else(String::new, |r| format!(": {r}"));
            self.push_at(
                Rule::DeprecatedAdded,
                item,
                format!("{what} `{item}` was deprecated{reason}"),
                "",
                &[],
                at,
            );
        }
    }

    fn endpoint(&mut self, item: &str, o: &Endpoint, n: &Endpoint, at: At) {
        if o.timing != n.timing {
            let asynchronous = |t: Timing| {
                matches!(
                    t,
                    Timing::AsyncShort | Timing::AsyncMedium | Timing::AsyncLong
                )
            };
            // Callers of any async class already handle a job handle; sync
            // and fire-and-forget callers get something else entirely.
            let breaks: &[Category] = if asynchronous(o.timing) && asynchronous(n.timing) {
                &[]
            } else {
                &[Semantic]
            };
            self.push_at(
                Rule::TimingChanged,
                item,
                format!(
                    "`{item}` changed timing from `{}` to `{}`",
                    o.timing.as_str(),
                    n.timing.as_str()
                ),
                if breaks.is_empty() {
                    "callers already handle a job handle; only when they get one changes"
                } else {
                    "callers get back another kind of answer (a result, a job handle, or an acknowledgement)"
                },
                breaks,
                at,
            );
        }
        let request = format!("{item}.request");
        match (o.request, n.request) {
            (Some(or), Some(nr)) => self.types(or, nr, Direction::Request, &request),
            (None, None) => {}
            (or, nr) => {
                // No request is an empty one on the wire: compare fields.
                let old_fields = or.map_or(&[][..], |id| struct_fields(self.old, id));
                let new_fields = nr.map_or(&[][..], |id| struct_fields(self.new, id));
                self.fields(old_fields, new_fields, Direction::Request, &request, at);
            }
        }
        match (o.response, n.response) {
            (Some(or), Some(nr)) => {
                self.types(or, nr, Direction::Response, &format!("{item}.response"));
            }
            (None, None) => {}
            (or, nr) => {
                let (old, new) = (self.old, self.new);
                if let Some(id) = or {
                    old.reach([id], &mut self.visited_old);
                }
                if let Some(id) = nr {
                    new.reach([id], &mut self.visited_new);
                }
                let (was, is) = if or.is_some() {
                    ("a response", "an acknowledgement")
                } else {
                    ("an acknowledgement", "a response")
                };
                self.push_at(
                    Rule::ResponseChanged,
                    item,
                    format!("`{item}` answered with {was} and now answers with {is}"),
                    "old clients cannot read the new answer",
                    &[Wire, Source],
                    at,
                );
            }
        }
    }

    /// Declared types no tool reaches in one of the versions: removed and
    /// added by name.
    fn unreached_types(&mut self) {
        let declared = |model: &'_ Model,
                        visited: &HashSet<TypeId>|
         -> BTreeMap<String, Location> {
            model
                .types
                .iter()
                .filter(|t| matches!(t.origin, Origin::Declared) && !model.is_builtin(&t.location))
                .filter(|t| !visited.contains(&t.id))
                .map(|t| (t.name.clone(), t.location))
                .collect()
        };
        let old_unreached = declared(self.old, &self.visited_old);
        let new_unreached = declared(self.new, &self.visited_new);
        let old_names: HashSet<&str> = self.old.types.iter().map(|t| t.name.as_str()).collect();
        let new_names: HashSet<&str> = self.new.types.iter().map(|t| t.name.as_str()).collect();
        for (name, location) in &old_unreached {
            if !new_names.contains(name.as_str()) {
                self.push(
                    Rule::TypeRemoved,
                    name,
                    format!("type `{name}` was removed"),
                    "code that names it no longer compiles",
                    &[Source],
                    Some(*location),
                    None,
                );
            }
        }
        for (name, location) in &new_unreached {
            if !old_names.contains(name.as_str()) {
                self.push(
                    Rule::TypeAdded,
                    name,
                    format!("type `{name}` was added"),
                    "",
                    &[],
                    None,
                    Some(*location),
                );
            }
        }
    }
}

/// Marks a tool's types and every type they reach as seen: types that came
/// or went with a tool are part of that change, not changes of their own.
fn mark_tool(model: &Model, tool: &Tool, visited: &mut HashSet<TypeId>) {
    model.reach(tool.types(), visited);
}

fn struct_fields(model: &Model, id: TypeId) -> &[Field] {
    match &model.type_def(id).kind {
        TypeKind::Struct(fields) => fields,
        _ => &[],
    }
}
