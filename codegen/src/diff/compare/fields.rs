//! Fields compared by name: added, removed, retyped, made optional or
//! required, their defaults and constraints.

use super::super::Direction;
use super::super::rules::{Category, Rule};
use super::{At, Walk, by_name};
use crate::model::{Field, Type, Value};

use Category::{Source, Wire};

impl Walk<'_> {
    pub(super) fn fields(
        &mut self,
        of: &[Field],
        nf: &[Field],
        dir: Direction,
        item: &str,
        at: At,
    ) {
        let old_fields = by_name(of.iter());
        let new_fields = by_name(nf.iter());
        for (name, o) in &old_fields {
            let path = format!("{item}.{name}");
            match new_fields.get(name) {
                Some(n) => self.field(o, n, dir, &path),
                None => {
                    let consequence = match dir {
                        Direction::Request => {
                            "old clients that send it are refused: request structs reject unknown keys"
                        }
                        Direction::Response => {
                            "old clients that read it find it missing; code that reads it no longer compiles"
                        }
                    };
                    self.push(
                        Rule::FieldRemoved,
                        &path,
                        format!("field `{name}` was removed from `{item}`"),
                        consequence,
                        &[Wire, Source],
                        Some(o.location),
                        at.new,
                    );
                }
            }
        }
        for (name, n) in &new_fields {
            if old_fields.contains_key(name) {
                continue;
            }
            let path = format!("{item}.{name}");
            if dir == Direction::Request && n.required {
                self.push(
                    Rule::FieldAddedRequired,
                    &path,
                    format!("required field `{name}` was added to `{item}`"),
                    "old clients do not send it and are refused",
                    &[Wire],
                    at.old,
                    Some(n.location),
                );
            } else {
                self.push(
                    Rule::FieldAdded,
                    &path,
                    format!("field `{name}` was added to `{item}`"),
                    "",
                    &[],
                    at.old,
                    Some(n.location),
                );
            }
        }
    }

    fn field(&mut self, o: &Field, n: &Field, dir: Direction, item: &str) {
        let at = At::both(o.location, n.location);
        self.deprecation(
            item,
            "field",
            o.deprecated.as_ref(),
            n.deprecated.as_ref(),
            at,
        );
        let (ot, nt) = (o.ty.strip_optional(), n.ty.strip_optional());
        if !self.same_type(ot, nt, dir, item) {
            self.push_at(
                Rule::FieldTypeChanged,
                item,
                format!(
                    "field `{item}` changed type from `{}` to `{}`",
                    ot.idl(),
                    nt.idl()
                ),
                "old and new peers read each other's values as the wrong type",
                &[Wire, Source],
                at,
            );
            return;
        }
        let (was_optional, is_optional) = (
            matches!(o.ty, Type::Optional(_)),
            matches!(n.ty, Type::Optional(_)),
        );
        match (was_optional, is_optional) {
            (false, true) => {
                let (breaks, consequence): (&[Category], _) = match dir {
                    Direction::Request => (
                        &[Source],
                        "the wire accepts what it did; generated code now has an optional type",
                    ),
                    Direction::Response => {
                        (&[Wire, Source], "old clients that need it find it missing")
                    }
                };
                self.push_at(
                    Rule::FieldMadeOptional,
                    item,
                    format!("field `{item}` became optional"),
                    consequence,
                    breaks,
                    at,
                );
            }
            (true, false) => {
                let (breaks, consequence): (&[Category], _) = if dir == Direction::Request
                    && n.required
                {
                    (&[Wire, Source], "old clients that leave it out are refused")
                } else {
                    (
                        &[Source],
                        "the wire accepts what it did; generated code no longer has an optional type",
                    )
                };
                self.push_at(
                    Rule::FieldMadeRequired,
                    item,
                    format!("field `{item}` is no longer optional"),
                    consequence,
                    breaks,
                    at,
                );
            }
            _ => self.default(o, n, dir, item, at),
        }
        self.constraints(o, n, dir, item, at);
    }

    fn default(&mut self, o: &Field, n: &Field, dir: Direction, item: &str, at: At) {
        // Writers always write non-optional fields, so defaults only matter
        // to a server reading a request.
        let request: &[Category] = if dir == Direction::Request {
            &[Wire]
        } else {
            &[]
        };
        match (&o.default, &n.default) {
            (Some(ov), None) => self.push_at(
                Rule::DefaultRemoved,
                item,
                format!("field `{item}` lost its default `{}`", show(ov)),
                if n.required && dir == Direction::Request {
                    "old clients that leave it out are refused"
                } else {
                    ""
                },
                if n.required { request } else { &[] },
                at,
            ),
            (Some(ov), Some(nv)) if ov != nv => self.push_at(
                Rule::DefaultChanged,
                item,
                format!(
                    "field `{item}` changed its default from `{}` to `{}`",
                    show(ov),
                    show(nv)
                ),
                if request.is_empty() {
                    ""
                } else {
                    "old clients that leave it out get another value than they were promised"
                },
                request,
                at,
            ),
            (None, Some(nv)) => self.push_at(
                Rule::DefaultAdded,
                item,
                format!("field `{item}` gained the default `{}`", show(nv)),
                "",
                &[],
                at,
            ),
            _ => {}
        }
    }

    fn constraints(&mut self, o: &Field, n: &Field, dir: Direction, item: &str, at: At) {
        let (oc, nc) = (&o.constraints, &n.constraints);
        let mut tighter = Vec::new();
        let mut looser = Vec::new();
        match (oc.range, nc.range) {
            (None, Some((lo, hi))) => tighter.push(format!("`@range({lo}, {hi})` added")),
            (Some((lo, hi)), None) => looser.push(format!("`@range({lo}, {hi})` removed")),
            (Some((olo, ohi)), Some((nlo, nhi))) => {
                let text = format!("`@range({olo}, {ohi})` became `@range({nlo}, {nhi})`");
                if nlo.as_f64() > olo.as_f64() || nhi.as_f64() < ohi.as_f64() {
                    tighter.push(text);
                } else if nlo.as_f64() < olo.as_f64() || nhi.as_f64() > ohi.as_f64() {
                    looser.push(text);
                }
            }
            (None, None) => {}
        }
        match (oc.length, nc.length) {
            (None, Some((lo, hi))) => tighter.push(format!("`@length({lo}, {hi})` added")),
            (Some((lo, hi)), None) => looser.push(format!("`@length({lo}, {hi})` removed")),
            (Some((olo, ohi)), Some((nlo, nhi))) => {
                let text = format!("`@length({olo}, {ohi})` became `@length({nlo}, {nhi})`");
                if nlo > olo || nhi < ohi {
                    tighter.push(text);
                } else if nlo < olo || nhi > ohi {
                    looser.push(text);
                }
            }
            (None, None) => {}
        }
        match (&oc.pattern, &nc.pattern) {
            (None, Some(p)) => tighter.push(format!("`@pattern({p:?})` added")),
            (Some(p), None) => looser.push(format!("`@pattern({p:?})` removed")),
            // Whether one regular expression accepts all another does is
            // not decidable cheaply: any change may refuse an old value.
            (Some(op), Some(np)) if op != np => {
                tighter.push(format!("`@pattern({op:?})` became `@pattern({np:?})`"));
            }
            _ => {}
        }
        // Only a server checks constraints on what it reads; a response is
        // written by the side that checks it.
        let request = dir == Direction::Request;
        if !tighter.is_empty() {
            self.push_at(
                Rule::ConstraintTightened,
                item,
                format!("field `{item}`: {}", tighter.join(", ")),
                if request {
                    "old clients that send a value the new bounds refuse are rejected"
                } else {
                    ""
                },
                if request { &[Wire] } else { &[] },
                at,
            );
        }
        if !looser.is_empty() {
            self.push_at(
                Rule::ConstraintLoosened,
                item,
                format!("field `{item}`: {}", looser.join(", ")),
                "",
                &[],
                at,
            );
        }
    }

    /// True when the two types have the same wire shape; named types are
    /// compared (and their changes reported) on the way.
    fn same_type(&mut self, o: &Type, n: &Type, dir: Direction, item: &str) -> bool {
        match (o, n) {
            (Type::Primitive(a), Type::Primitive(b)) => a == b,
            (Type::List(a), Type::List(b)) | (Type::Map(a), Type::Map(b)) => {
                self.same_type(a, b, dir, item)
            }
            (Type::Optional(a), Type::Optional(b)) => self.same_type(a, b, dir, item),
            (Type::Named(a), Type::Named(b)) => {
                let (od, nd) = (self.old.type_def(a.id), self.new.type_def(b.id));
                if std::mem::discriminant(&od.kind) != std::mem::discriminant(&nd.kind)
                    && od.name != nd.name
                {
                    // Another type altogether, not the same one changed.
                    return false;
                }
                self.types(a.id, b.id, dir, item);
                true
            }
            _ => false,
        }
    }
}

/// A default as the IDL writes it.
fn show(value: &Value) -> String {
    match value {
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format!("{f:?}"),
        Value::String(s) => format!("{s:?}"),
        Value::EmptyList => "[]".to_owned(),
        Value::EnumValue(v) => v.clone(),
        Value::Json(j) => j.to_string(),
    }
}
