//! Named types compared where they are used: renames, kinds, enum values,
//! union and error variants.

use super::super::Direction;
use super::super::rules::{Category, Rule};
use super::{At, Walk, by_name};
use crate::model::{Origin, TypeDef, TypeId, TypeKind, Variant};

use Category::{Source, Wire};

impl Walk<'_> {
    /// The item path of a type: a tool's request or response by the tool,
    /// a declared type by its name.
    fn type_item(def: &TypeDef, used_as: &str) -> String {
        match def.origin {
            Origin::Declared => def.name.clone(),
            Origin::Request { .. }
            | Origin::Response { .. }
            | Origin::ResourceArguments { .. }
            | Origin::PromptArguments { .. } => used_as.to_owned(),
        }
    }

    pub(super) fn types(&mut self, o: TypeId, n: TypeId, dir: Direction, used_as: &str) {
        self.visited_old.insert(o);
        self.visited_new.insert(n);
        if !self.seen.insert((o, n, dir)) {
            return;
        }
        let (old, new) = (self.old, self.new);
        let (od, nd) = (old.type_def(o), new.type_def(n));
        let item = Self::type_item(nd, used_as);
        let here = At::both(od.location, nd.location);
        let declared =
            matches!(od.origin, Origin::Declared) && matches!(nd.origin, Origin::Declared);
        if declared && od.name != nd.name {
            self.push_at(
                Rule::TypeRenamed,
                &item,
                format!("type `{}` was renamed to `{}`", od.name, nd.name),
                "the wire is unchanged; code that names the type no longer compiles",
                &[Source],
                here,
            );
        }
        if declared {
            self.deprecation(
                &item,
                "type",
                od.deprecated.as_ref(),
                nd.deprecated.as_ref(),
                here,
            );
        }
        match (&od.kind, &nd.kind) {
            (TypeKind::Struct(of), TypeKind::Struct(nf)) => self.fields(of, nf, dir, &item, here),
            (TypeKind::Enum(ov), TypeKind::Enum(nv)) => {
                let old_values = by_name(ov.iter());
                let new_values = by_name(nv.iter());
                for (value, ov) in &old_values {
                    let path = format!("{item}.{value}");
                    match new_values.get(value) {
                        Some(nv) => self.deprecation(
                            &path,
                            "value",
                            ov.deprecated.as_ref(),
                            nv.deprecated.as_ref(),
                            At::both(ov.location, nv.location),
                        ),
                        None => {
                            let (breaks, consequence): (&[Category], _) = match dir {
                                Direction::Request => {
                                    (&[Wire, Source], "old clients that send it are refused")
                                }
                                Direction::Response => (
                                    &[Source],
                                    "servers no longer send it; code that names it no longer compiles",
                                ),
                            };
                            self.push(
                                Rule::EnumValueRemoved,
                                &path,
                                format!("value `{value}` was removed from enum `{}`", nd.name),
                                consequence,
                                breaks,
                                Some(ov.location),
                                Some(nd.location),
                            );
                        }
                    }
                }
                for (value, nv) in &new_values {
                    if !old_values.contains_key(value) {
                        let (breaks, consequence): (&[Category], _) = match dir {
                            Direction::Request => (&[], ""),
                            Direction::Response => (
                                &[Wire],
                                "old clients cannot read a response that carries it",
                            ),
                        };
                        self.push(
                            Rule::EnumValueAdded,
                            &format!("{item}.{value}"),
                            format!("value `{value}` was added to enum `{}`", nd.name),
                            consequence,
                            breaks,
                            Some(od.location),
                            Some(nv.location),
                        );
                    }
                }
            }
            (TypeKind::Union(ov), TypeKind::Union(nv)) => {
                self.variants(ov, nv, false, dir, &item, here, &nd.name);
            }
            (TypeKind::Error(ov), TypeKind::Error(nv)) => {
                self.variants(ov, nv, true, dir, &item, here, &nd.name);
            }
            (ok, nk) => self.push_at(
                Rule::TypeKindChanged,
                &item,
                format!(
                    "`{}` was {} and is now {}",
                    nd.name,
                    kind_name(ok),
                    kind_name(nk)
                ),
                "its values are written differently on the wire",
                &[Wire, Source],
                here,
            ),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn variants(
        &mut self,
        ov: &[Variant],
        nv: &[Variant],
        error: bool,
        dir: Direction,
        item: &str,
        at: At,
        type_name: &str,
    ) {
        let old_variants = by_name(ov.iter());
        let new_variants = by_name(nv.iter());
        let what = if error { "error" } else { "union" };
        for (name, o) in &old_variants {
            let path = format!("{item}.{name}");
            let Some(n) = new_variants.get(name) else {
                let (rule, breaks, consequence): (_, &[Category], _) = match (error, dir) {
                    (true, _) => (
                        Rule::ErrorVariantRemoved,
                        &[Wire, Source],
                        "clients that handle its code never see it again; a failure it named now arrives under another code",
                    ),
                    (false, Direction::Request) => (
                        Rule::VariantRemoved,
                        &[Wire, Source],
                        "old clients that send it are refused",
                    ),
                    (false, Direction::Response) => (
                        Rule::VariantRemoved,
                        &[Source],
                        "servers no longer send it; code that names it no longer compiles",
                    ),
                };
                self.push(
                    rule,
                    &path,
                    format!("variant `{name}` was removed from {what} `{type_name}`"),
                    consequence,
                    breaks,
                    Some(o.location),
                    at.new,
                );
                continue;
            };
            let here = At::both(o.location, n.location);
            self.deprecation(
                &path,
                "variant",
                o.deprecated.as_ref(),
                n.deprecated.as_ref(),
                here,
            );
            self.fields(&o.fields, &n.fields, dir, &path, here);
        }
        for (name, n) in &new_variants {
            if old_variants.contains_key(name) {
                continue;
            }
            let (rule, breaks, consequence): (_, &[Category], _) = match (error, dir) {
                (true, _) => (Rule::ErrorVariantAdded, &[], ""),
                (false, Direction::Request) => (Rule::VariantAdded, &[], ""),
                (false, Direction::Response) => (
                    Rule::VariantAdded,
                    &[Wire],
                    "old clients cannot read a response that carries it",
                ),
            };
            self.push(
                rule,
                &format!("{item}.{name}"),
                format!("variant `{name}` was added to {what} `{type_name}`"),
                consequence,
                breaks,
                at.old,
                Some(n.location),
            );
        }
    }
}

fn kind_name(kind: &TypeKind) -> &'static str {
    match kind {
        TypeKind::Struct(_) => "a struct",
        TypeKind::Enum(_) => "an enum",
        TypeKind::Union(_) => "a union",
        TypeKind::Error(_) => "an error",
    }
}
