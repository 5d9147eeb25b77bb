//! The type graph: dependency order, fields that need indirection, and types
//! that can never be built because they contain themselves.

use std::collections::VecDeque;

use super::symbols::Symbols;
use crate::diag::{Ctxt, messages};
use crate::model::{Field, Type, TypeDef, TypeId, TypeKind};

/// Fills `Field::indirect`, reports uninhabitable cycles, and returns every
/// type id with dependencies first.
pub(crate) fn analyse(symbols: &Symbols<'_>, types: &mut [TypeDef], cx: &mut Ctxt) -> Vec<TypeId> {
    let n = types.len();
    let mut all_edges = vec![Vec::new(); n];
    let mut direct_edges = vec![Vec::new(); n];
    for def in types.iter() {
        for field in fields(&def.kind) {
            named_in(&field.ty, &mut all_edges[def.id.index()]);
            if let Some(target) = direct(&field.ty) {
                direct_edges[def.id.index()].push(target.index());
            }
        }
    }

    let direct_scc = component_ids(n, &direct_edges);
    for def in types.iter_mut() {
        let owner = def.id.index();
        for field in fields_mut(&mut def.kind) {
            if let Some(target) = direct(&field.ty) {
                field.indirect = direct_scc[target.index()] == direct_scc[owner];
            }
        }
    }

    report_uninhabited(symbols, types, cx);

    sccs(n, &all_edges)
        .into_iter()
        .flat_map(|mut scc| {
            scc.sort_unstable();
            scc.into_iter()
        })
        .map(|i| TypeId(u32::try_from(i).unwrap_or(u32::MAX)))
        .collect()
}

fn fields(kind: &TypeKind) -> Box<dyn Iterator<Item = &Field> + '_> {
    match kind {
        TypeKind::Struct(fields) => Box::new(fields.iter()),
        TypeKind::Enum(_) => Box::new(std::iter::empty()),
        TypeKind::Union(variants) | TypeKind::Error(variants) => {
            Box::new(variants.iter().flat_map(|v| v.fields.iter()))
        }
    }
}

fn fields_mut(kind: &mut TypeKind) -> Box<dyn Iterator<Item = &mut Field> + '_> {
    match kind {
        TypeKind::Struct(fields) => Box::new(fields.iter_mut()),
        TypeKind::Enum(_) => Box::new(std::iter::empty()),
        TypeKind::Union(variants) | TypeKind::Error(variants) => {
            Box::new(variants.iter_mut().flat_map(|v| v.fields.iter_mut()))
        }
    }
}

/// Every named type mentioned anywhere in `ty`.
fn named_in(ty: &Type, out: &mut Vec<usize>) {
    match ty {
        Type::List(t) | Type::Map(t) | Type::Optional(t) => named_in(t, out),
        Type::Named(r) => out.push(r.id.index()),
        Type::Primitive(_) => {}
    }
}

/// The named type stored inline (no list or map in between), if any.
fn direct(ty: &Type) -> Option<TypeId> {
    match ty {
        Type::Named(r) => Some(r.id),
        Type::Optional(inner) => direct(inner),
        _ => None,
    }
}

/// The named type a value must contain: inline and not optional.
fn required(ty: &Type) -> Option<TypeId> {
    match ty {
        Type::Named(r) => Some(r.id),
        _ => None,
    }
}

/// Strongly connected components (Tarjan, iterative so that long chains of
/// types cannot overflow the stack). Each component is emitted after every
/// component it points to: dependencies first.
fn sccs(n: usize, edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    const UNVISITED: usize = usize::MAX;
    let mut index = vec![UNVISITED; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut out = Vec::new();
    let mut next = 0;
    for root in 0..n {
        if index[root] != UNVISITED {
            continue;
        }
        // (node, next edge to look at)
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (v, ref mut edge)) = work.last_mut() {
            if *edge == 0 && index[v] == UNVISITED {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = edges[v].get(*edge) {
                *edge += 1;
                if index[w] == UNVISITED {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                out.push(component);
            }
        }
    }
    out
}

/// For each node, the index of its component.
fn component_ids(n: usize, edges: &[Vec<usize>]) -> Vec<usize> {
    let mut ids = vec![0; n];
    for (c, component) in sccs(n, edges).into_iter().enumerate() {
        for v in component {
            ids[v] = c;
        }
    }
    ids
}

/// `struct Node { next: Node }` → TW312.
///
/// Types no finite value can have: a struct whose required fields lead back
/// to itself, or a union all of whose variants do. One report per cycle,
/// on the first type of the cycle; types that merely contain such a type are
/// not reported again.
fn report_uninhabited(symbols: &Symbols<'_>, types: &[TypeDef], cx: &mut Ctxt) {
    let n = types.len();
    let mut inhabited = vec![false; n];
    let fits = |ty: &Type, inhabited: &[bool]| required(ty).is_none_or(|id| inhabited[id.index()]);
    let mut changed = true;
    while changed {
        changed = false;
        for def in types {
            let i = def.id.index();
            if inhabited[i] {
                continue;
            }
            let ok = match &def.kind {
                TypeKind::Struct(fields) => fields.iter().all(|f| fits(&f.ty, &inhabited)),
                TypeKind::Enum(values) => !values.is_empty(),
                TypeKind::Union(variants) | TypeKind::Error(variants) => variants
                    .iter()
                    .any(|v| v.fields.iter().all(|f| fits(&f.ty, &inhabited))),
            };
            if ok {
                inhabited[i] = true;
                changed = true;
            }
        }
    }

    // Edges through required fields between uninhabited types, labelled.
    let mut edges: Vec<Vec<(usize, String)>> = vec![Vec::new(); n];
    for def in types.iter().filter(|d| !inhabited[d.id.index()]) {
        let labelled: Vec<(&str, &Field)> = match &def.kind {
            TypeKind::Struct(fields) => fields.iter().map(|f| ("", f)).collect(),
            TypeKind::Union(vs) | TypeKind::Error(vs) => vs
                .iter()
                .flat_map(|v| v.fields.iter().map(move |f| (v.name.as_str(), f)))
                .collect(),
            TypeKind::Enum(_) => Vec::new(),
        };
        for (variant, field) in labelled {
            if let Some(target) = required(&field.ty).filter(|t| !inhabited[t.index()]) {
                let label = if variant.is_empty() {
                    format!("{}.{}", def.name, field.name)
                } else {
                    format!("{}.{}.{}", def.name, variant, field.name)
                };
                edges[def.id.index()].push((target.index(), label));
            }
        }
    }

    let mut covered = vec![false; n];
    for def in types {
        let start = def.id.index();
        if inhabited[start] || covered[start] {
            continue;
        }
        let Some(cycle) = find_cycle(start, &edges) else {
            continue;
        };
        let mut path: Vec<String> = Vec::new();
        for &(node, ref label) in &cycle {
            covered[node] = true;
            path.push(label.clone());
        }
        path.push(def.name.clone());
        let is_union = matches!(def.kind, TypeKind::Union(_) | TypeKind::Error(_));
        cx.push(messages::uninhabited(
            symbols.slots[start].span,
            &def.name,
            &path.join(" → "),
            is_union,
        ));
    }
}

/// A shortest path of labelled edges from `start` back to `start`.
fn find_cycle(start: usize, edges: &[Vec<(usize, String)>]) -> Option<Vec<(usize, String)>> {
    let mut parent: Vec<Option<(usize, usize)>> = vec![None; edges.len()];
    let mut seen = vec![false; edges.len()];
    let mut queue = VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for (k, (w, _)) in edges[v].iter().enumerate() {
            if *w == start {
                let mut path = vec![(v, edges[v][k].1.clone())];
                let mut cur = v;
                while let Some((p, pk)) = parent[cur] {
                    path.push((p, edges[p][pk].1.clone()));
                    cur = p;
                }
                path.reverse();
                return Some(path);
            }
            if !seen[*w] {
                seen[*w] = true;
                parent[*w] = Some((v, k));
                queue.push_back(*w);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::sccs;

    #[test]
    fn components_come_dependencies_first() {
        // 0 -> 1 -> 2 -> 1, 3 alone
        let edges = vec![vec![1], vec![2], vec![1], vec![]];
        let out = sccs(4, &edges);
        let pos = |v| {
            out.iter()
                .position(|c: &Vec<usize>| c.contains(&v))
                .unwrap()
        };
        assert!(pos(1) < pos(0));
        assert_eq!(pos(1), pos(2));
        assert_eq!(out.len(), 3);
    }

    #[test]
    fn long_chains_do_not_recurse() {
        let n = 200_000;
        let edges: Vec<Vec<usize>> = (0..n)
            .map(|i| if i + 1 < n { vec![i + 1] } else { vec![] })
            .collect();
        let out = sccs(n, &edges);
        assert_eq!(out.len(), n);
        assert_eq!(out[0], vec![n - 1]);
    }
}
