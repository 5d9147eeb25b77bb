//! Resolves type expressions to model types: primitives, `list`/`map`,
//! optional, and names of declared or generated types.

use super::symbols::Symbols;
use crate::diag::{Ctxt, messages};
use crate::model::{Primitive, Type, TypeRef};
use crate::suggest;
use crate::syntax::ast::TypeExpr;
use crate::syntax::keywords;

/// Where a type expression sits, for the rule that `?` is outermost only.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Position {
    Field,
    InOptional,
    InCollection,
}

/// Resolves a field's type; `None` after reporting an error.
/// `list<Regoin>` → TW101; `map<string, u8>` → TW107; `list<u8?>` → TW108.
pub(crate) fn field_type(symbols: &Symbols<'_>, cx: &mut Ctxt, ty: &TypeExpr) -> Option<Type> {
    resolve(symbols, cx, ty, Position::Field)
}

fn resolve(
    symbols: &Symbols<'_>,
    cx: &mut Ctxt,
    ty: &TypeExpr,
    position: Position,
) -> Option<Type> {
    match ty {
        TypeExpr::Optional { inner, question } => {
            let inner = resolve(symbols, cx, inner, Position::InOptional);
            match position {
                Position::Field => Some(Type::Optional(Box::new(inner?))),
                Position::InOptional => {
                    cx.push(messages::nested_optional(*question, "twice"));
                    None
                }
                Position::InCollection => {
                    cx.push(messages::nested_optional(
                        *question,
                        "inside a `list` or `map`",
                    ));
                    None
                }
            }
        }
        TypeExpr::Path { name, args, span } => {
            let word = name.name.as_str();
            if word == keywords::LIST || word == keywords::MAP {
                if args.len() != 1 {
                    let help = (word == keywords::MAP && args.len() == 2).then_some(
                        "map keys are always strings: write `map<V>` for the values' type",
                    );
                    cx.push(messages::generic_arity(*span, word, 1, args.len(), help));
                    return None;
                }
                let inner = Box::new(resolve(symbols, cx, &args[0], Position::InCollection)?);
                return Some(if word == keywords::LIST {
                    Type::List(inner)
                } else {
                    Type::Map(inner)
                });
            }
            let resolved = if let Some(p) = Primitive::from_name(word) {
                Type::Primitive(p)
            } else if let Some(&id) = symbols.by_name.get(word) {
                Type::Named(TypeRef {
                    id,
                    name: word.to_owned(),
                })
            } else {
                if !symbols.broken.contains(word) {
                    let candidates = symbols
                        .by_name
                        .keys()
                        .map(String::as_str)
                        .chain(Primitive::NAMES.iter().copied())
                        .chain([keywords::LIST, keywords::MAP]);
                    let suggestion = suggest::closest(word, candidates);
                    cx.push(messages::unknown_type(name.span, word, suggestion));
                }
                return None;
            };
            if !args.is_empty() {
                cx.push(messages::generic_arity(*span, word, 0, args.len(), None));
                return None;
            }
            Some(resolved)
        }
    }
}
