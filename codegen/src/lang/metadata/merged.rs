//! The tool-level `parameters` of an action tool: `action`, then every
//! action's parameters merged into one list, so a client that builds a form
//! from `parameters` alone (seed 004) can call the tool (docs/web.md,
//! "Action tools").

use super::{ActionMetadata, Parameter};

/// `action` first, then the union of the actions' parameters in the order
/// first seen, one entry per name and value type, each saying which
/// actions take it.
///
/// Two declarations are one entry when their names are equal and their IDL
/// types are equal once a trailing `?` is dropped (`string` and `string?`
/// are one entry; `string` and `u32` are two, each with its own
/// `actions`). An entry is the first declaration's (`idlType`,
/// `description`, `default`, `constraints`, `deprecated`), with `actions`
/// listing every action that takes it in declaration order, and `required`
/// true only when every action of the tool takes it and requires it: a
/// client must not send a field to an action that does not take it. Each
/// action's own `parameters` stay the exact contract.
pub(super) fn parameters(action: Parameter, actions: &[ActionMetadata<'_>]) -> Vec<Parameter> {
    // Each entry with how many actions require it.
    let mut merged: Vec<(Parameter, usize)> = Vec::new();
    for a in actions {
        for p in &a.parameters {
            let same = |m: &Parameter| m.name == p.name && value_type(m) == value_type(p);
            match merged.iter_mut().find(|(m, _)| same(m)) {
                Some((entry, requiring)) => {
                    entry
                        .actions
                        .get_or_insert_with(Vec::new)
                        .push(a.name.to_owned());
                    *requiring += usize::from(p.required);
                }
                None => {
                    let mut entry = p.clone();
                    entry.actions = Some(vec![a.name.to_owned()]);
                    merged.push((entry, usize::from(p.required)));
                }
            }
        }
    }
    std::iter::once(action)
        .chain(merged.into_iter().map(|(mut entry, requiring)| {
            entry.required = requiring == actions.len();
            entry
        }))
        .collect()
}

/// A parameter's IDL type with its outer optionality dropped.
fn value_type(p: &Parameter) -> &str {
    p.idl_type.strip_suffix('?').unwrap_or(&p.idl_type)
}

#[cfg(test)]
mod tests {
    use crate::{Sources, check};

    /// The tool-level parameters of the first tool declared in `idl`, as
    /// `(name, idlType, required, actions)`.
    fn merged(idl: &str) -> Vec<(String, String, bool, Option<Vec<String>>)> {
        let mut sources = Sources::new();
        sources.add("store.tool", idl);
        let model = check(&sources).expect("valid");
        let entry = serde_json::to_value(super::super::entry(&model, &model.tools[0])).unwrap();
        entry["parameters"]
            .as_array()
            .expect("parameters")
            .iter()
            .map(|p| {
                (
                    p["name"].as_str().unwrap().to_owned(),
                    p["idlType"].as_str().unwrap().to_owned(),
                    p["required"].as_bool().unwrap(),
                    p.get("actions").map(|a| {
                        a.as_array()
                            .unwrap()
                            .iter()
                            .map(|n| n.as_str().unwrap().to_owned())
                            .collect()
                    }),
                )
            })
            .collect()
    }

    fn row(
        name: &str,
        idl_type: &str,
        required: bool,
        actions: &[&str],
    ) -> (String, String, bool, Option<Vec<String>>) {
        (
            name.to_owned(),
            idl_type.to_owned(),
            required,
            Some(actions.iter().map(|a| (*a).to_owned()).collect()),
        )
    }

    #[test]
    fn a_name_two_actions_require_is_listed_once_and_required() {
        let params = merged(
            "tool store {\n\
               action get { timing sync  request { key: string } }\n\
               action put { timing sync  request { key: string, value: string } }\n\
             }",
        );
        assert_eq!(params[0].0, "action");
        assert!(params[0].2, "action is required");
        assert_eq!(params[0].3, None, "action is taken by every action");
        assert_eq!(
            params[1..],
            [
                row("key", "string", true, &["get", "put"]),
                row("value", "string", false, &["put"]),
            ]
        );
    }

    #[test]
    fn a_name_required_by_one_action_only_is_not_required() {
        let params = merged(
            "tool store {\n\
               action get { timing sync  request { key: string, at: u64? } }\n\
               action put { timing sync  request { at: u64, key: string? } }\n\
               action list { timing sync  request { key: string } }\n\
             }",
        );
        assert_eq!(
            params[1..],
            [
                row("key", "string", false, &["get", "put", "list"]),
                row("at", "u64?", false, &["get", "put"]),
            ]
        );
    }

    #[test]
    fn a_name_declared_with_two_types_is_listed_once_per_type() {
        let params = merged(
            "tool store {\n\
               action get { timing sync  request { key: string } }\n\
               action drop { timing sync  request { key: u32 } }\n\
               action put { timing sync  request { key: string } }\n\
             }",
        );
        assert_eq!(
            params[1..],
            [
                row("key", "string", false, &["get", "put"]),
                row("key", "u32", false, &["drop"]),
            ]
        );
    }

    #[test]
    fn an_action_without_a_request_makes_nothing_required() {
        let params = merged(
            "tool store {\n\
               action get { timing sync  request { key: string } }\n\
               action ping { timing sync }\n\
             }",
        );
        assert_eq!(params[1..], [row("key", "string", false, &["get"])]);
    }
}
