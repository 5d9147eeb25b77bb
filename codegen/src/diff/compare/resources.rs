//! Resources and prompts compared by name: their URIs, arguments (judged
//! as requests: a client sends them), contents and errors.

use toolwright_vocab::uri_template::{Operator, Part, UriTemplate};

use super::super::Direction;
use super::super::rules::{Category, Rule};
use super::{At, Named, Walk, by_name, struct_fields};
use crate::model::{Contents, Prompt, Resource, TypeId};
use crate::source::Location;

use Category::{Semantic, Source, Wire};

/// What a resource and a prompt share here: each is removed, added or
/// compared by name, and names the types it brings along.
trait Entry: Named {
    /// How messages name the kind.
    const WHAT: &'static str;
    const REMOVED: Rule;
    const ADDED: Rule;
    /// What old clients see once it is gone.
    const GONE: &'static str;
    fn types(&self) -> Vec<TypeId>;
    fn location(&self) -> Location;
}

impl Entry for Resource {
    const WHAT: &'static str = "resource";
    const REMOVED: Rule = Rule::ResourceRemoved;
    const ADDED: Rule = Rule::ResourceAdded;
    const GONE: &'static str = "old clients that read it are told it does not exist";
    fn types(&self) -> Vec<TypeId> {
        Resource::types(self)
    }
    fn location(&self) -> Location {
        self.location
    }
}

impl Entry for Prompt {
    const WHAT: &'static str = "prompt";
    const REMOVED: Rule = Rule::PromptRemoved;
    const ADDED: Rule = Rule::PromptAdded;
    const GONE: &'static str = "old clients that get it are told it does not exist";
    fn types(&self) -> Vec<TypeId> {
        Prompt::types(self)
    }
    fn location(&self) -> Location {
        self.location
    }
}

impl Walk<'_> {
    /// Every resource: removed, added, or compared.
    pub(super) fn resources(&mut self) {
        let (old, new) = (self.old, self.new);
        self.entries(&old.resources, &new.resources, Self::resource);
    }

    /// Every prompt: removed, added, or compared.
    pub(super) fn prompts(&mut self) {
        let (old, new) = (self.old, self.new);
        self.entries(&old.prompts, &new.prompts, Self::prompt);
    }

    /// The entries of both versions by name: those in one only are removed
    /// or added, with the types they bring; the others are `compare`d.
    fn entries<T: Entry>(&mut self, old: &[T], new: &[T], compare: fn(&mut Self, &T, &T)) {
        let (old_model, new_model) = (self.old, self.new);
        let old_entries = by_name(old.iter());
        let new_entries = by_name(new.iter());
        for (name, o) in &old_entries {
            match new_entries.get(name) {
                Some(n) => compare(self, o, n),
                None => {
                    old_model.reach(o.types(), &mut self.visited_old);
                    self.push(
                        T::REMOVED,
                        name,
                        format!("{} `{name}` was removed", T::WHAT),
                        T::GONE,
                        &[Wire, Source],
                        Some(o.location()),
                        None,
                    );
                }
            }
        }
        for (name, n) in &new_entries {
            if !old_entries.contains_key(name) {
                new_model.reach(n.types(), &mut self.visited_new);
                self.push(
                    T::ADDED,
                    name,
                    format!("{} `{name}` was added", T::WHAT),
                    "",
                    &[],
                    None,
                    Some(n.location()),
                );
            }
        }
    }

    fn resource(&mut self, o: &Resource, n: &Resource) {
        let name = o.name.as_str();
        let at = At::both(o.location, n.location);
        self.scopes(
            "resource",
            name,
            (&o.scopes, o.location),
            (&n.scopes, n.location),
        );
        self.deprecation(
            name,
            "resource",
            o.deprecated.as_ref(),
            n.deprecated.as_ref(),
            at,
        );
        if shape(&o.uri) != shape(&n.uri) {
            self.push_at(
                Rule::UriChanged,
                name,
                format!("resource `{name}` moved from `{}` to `{}`", o.uri, n.uri),
                "old clients that read it at a URI the new one does not match are told it does not exist",
                &[Wire],
                at,
            );
        }
        self.arguments(name, o.arguments, n.arguments, at);
        let contents_changed = self.contents(name, o.contents, n.contents, at);
        if o.mime != n.mime && !contents_changed {
            self.push_at(
                Rule::MimeChanged,
                name,
                format!(
                    "resource `{name}` changed its MIME type from `{}` to `{}`",
                    o.mime, n.mime
                ),
                "clients that handle what they read by its MIME type handle it differently",
                &[Semantic],
                at,
            );
        }
        match (o.subscribable, n.subscribable) {
            (true, false) => self.push_at(
                Rule::SubscribableRemoved,
                name,
                format!("resource `{name}` is no longer `@subscribable`"),
                "clients that subscribed to its updates are refused, and miss them",
                &[Semantic],
                at,
            ),
            (false, true) => self.push_at(
                Rule::SubscribableAdded,
                name,
                format!("resource `{name}` became `@subscribable`"),
                "",
                &[],
                at,
            ),
            _ => {}
        }
        self.errors("resource", name, o.errors, n.errors, at);
    }

    fn prompt(&mut self, o: &Prompt, n: &Prompt) {
        let name = o.name.as_str();
        let at = At::both(o.location, n.location);
        self.scopes(
            "prompt",
            name,
            (&o.scopes, o.location),
            (&n.scopes, n.location),
        );
        self.deprecation(
            name,
            "prompt",
            o.deprecated.as_ref(),
            n.deprecated.as_ref(),
            at,
        );
        self.arguments(name, o.arguments, n.arguments, at);
        self.errors("prompt", name, o.errors, n.errors, at);
    }

    /// A resource's or prompt's arguments, as a request: a client sends
    /// them. None is the same as no fields.
    fn arguments(&mut self, item: &str, o: Option<TypeId>, n: Option<TypeId>, at: At) {
        let path = format!("{item}.arguments");
        if let (Some(o), Some(n)) = (o, n) {
            self.types(o, n, Direction::Request, &path);
            return;
        }
        self.mark_one_sided(o, n);
        let old_fields = o.map_or(&[][..], |id| struct_fields(self.old, id));
        let new_fields = n.map_or(&[][..], |id| struct_fields(self.new, id));
        self.fields(old_fields, new_fields, Direction::Request, &path, at);
    }

    /// What a read returns; true when its kind or type changed.
    fn contents(&mut self, item: &str, o: Contents, n: Contents, at: At) -> bool {
        let (old, new) = (self.old, self.new);
        let shown = |model: &crate::model::Model, c: Contents| match c {
            Contents::Text => "text".to_owned(),
            Contents::Bytes => "bytes".to_owned(),
            Contents::Typed(id) => format!("`{}`", model.type_def(id).name),
        };
        if let (Contents::Typed(ot), Contents::Typed(nt)) = (o, n) {
            let (od, nd) = (old.type_def(ot), new.type_def(nt));
            // The same type, changed or renamed, is compared where it is
            // used; another kind of type with another name is another type.
            let same_kind = std::mem::discriminant(&od.kind) == std::mem::discriminant(&nd.kind);
            if same_kind || od.name == nd.name {
                self.types(ot, nt, Direction::Response, &format!("{item}.contents"));
                return false;
            }
        }
        if std::mem::discriminant(&o) == std::mem::discriminant(&n) {
            return false;
        }
        let typed = |c: Contents| match c {
            Contents::Typed(id) => Some(id),
            Contents::Text | Contents::Bytes => None,
        };
        let (was, is) = (typed(o), typed(n));
        match (was, is) {
            (Some(w), Some(i)) => {
                old.reach([w], &mut self.visited_old);
                new.reach([i], &mut self.visited_new);
            }
            _ => self.mark_one_sided(was, is),
        }
        self.push_at(
            Rule::ContentsChanged,
            item,
            format!(
                "resource `{item}` returned {} and now returns {}",
                shown(old, o),
                shown(new, n)
            ),
            "old clients read contents of another kind than they expect",
            &[Wire],
            at,
        );
        true
    }
}

/// What a URI matches, as text to compare: its literals and expressions,
/// with the names of variables that do not appear in a URI left out
/// (`{id}` and `{key}` match the same URIs) and the query expressions
/// left out (their variables are optional arguments, compared as fields).
fn shape(uri: &str) -> String {
    let Ok(template) = UriTemplate::parse(uri) else {
        return uri.to_owned();
    };
    let mut out = String::new();
    for part in template.parts() {
        match part {
            Part::Literal(text) => out.push_str(text),
            Part::Expression {
                operator,
                variables,
            } => {
                let (prefix, named) = match operator {
                    Operator::Query | Operator::QueryContinuation => continue,
                    // `;name=value`: the names are in the URI.
                    Operator::PathParam => (";", true),
                    Operator::Simple => ("", false),
                    Operator::Reserved => ("+", false),
                    Operator::Fragment => ("#", false),
                    Operator::Label => (".", false),
                    Operator::Path => ("/", false),
                };
                let names: Vec<&str> = if named {
                    variables.iter().map(String::as_str).collect()
                } else {
                    variables.iter().map(|_| "_").collect()
                };
                out.push_str(&format!("{{{prefix}{}}}", names.join(",")));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::shape;

    #[test]
    fn uris_match_the_same_when_only_names_or_queries_differ() {
        assert_eq!(shape("cas://o/{id}"), shape("cas://o/{key}"));
        assert_eq!(shape("cas://o/{id}"), shape("cas://o/{id}{?page}"));
        assert_ne!(shape("cas://o/{id}"), shape("cas://objects/{id}"));
        assert_ne!(shape("cas://o/{id}"), shape("cas://o/{+id}"));
        assert_ne!(shape("cas://o{;a}"), shape("cas://o{;b}"));
        assert_ne!(shape("cas://o"), shape("cas://o/{id}"));
    }
}
