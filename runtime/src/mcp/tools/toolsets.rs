//! Toolsets: the named groups of tools a server can be limited to
//! ([`McpServer::toolsets`]) and a progressive session enables one by one.
//! A tool belongs to its category's toolset and to each one its
//! `@toolset` attribute names ([`ToolInfo::toolsets`]).
//!
//! [`McpServer::toolsets`]: super::McpServer::toolsets

use std::collections::BTreeSet;

use crate::{Catalogue, ToolInfo};

/// One toolset of a catalogue, with how many of the served tools are in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Toolset {
    pub(crate) name: &'static str,
    pub(crate) tools: usize,
}

/// The tools a server serves: every tool of its catalogue, or those of
/// some toolsets. The built-in job tools are always served, since the
/// jobs of the others need them.
#[derive(Debug, Default)]
pub(crate) struct Served {
    /// The names of the served tools; `None` serves them all.
    only: Option<BTreeSet<&'static str>>,
}

impl Served {
    /// The tools of `toolsets`, or the name of one the catalogue lacks,
    /// with the toolsets it has.
    pub(crate) fn toolsets<C: Catalogue>(toolsets: &[&str]) -> Result<Served, UnknownToolset> {
        let known = all::<C>(&Served::default());
        if let Some(unknown) = toolsets
            .iter()
            .find(|t| !known.iter().any(|k| k.name == **t))
        {
            return Err(UnknownToolset {
                name: (*unknown).to_owned(),
                known: known.iter().map(|k| k.name).collect(),
            });
        }
        let only = C::TOOLS
            .iter()
            .filter(|t| t.builtin || toolsets.iter().any(|s| t.in_toolset(s)))
            .map(|t| t.name)
            .collect();
        Ok(Served { only: Some(only) })
    }

    /// True when `tool` is served.
    pub(crate) fn serves(&self, tool: &ToolInfo) -> bool {
        self.only
            .as_ref()
            .is_none_or(|only| only.contains(tool.name))
    }
}

/// Every toolset the served tools are in, in the order the catalogue
/// first names them. The job tools' own toolset is left out: they are
/// always there.
pub(crate) fn all<C: Catalogue>(served: &Served) -> Vec<Toolset> {
    let mut toolsets: Vec<Toolset> = Vec::new();
    for tool in C::TOOLS.iter().filter(|t| !t.builtin && served.serves(t)) {
        for &name in tool.toolsets {
            match toolsets.iter_mut().find(|t| t.name == name) {
                Some(toolset) => toolset.tools += 1,
                None => toolsets.push(Toolset { name, tools: 1 }),
            }
        }
    }
    toolsets
}

/// A toolset asked for that the catalogue does not have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownToolset {
    /// The name asked for.
    pub name: String,
    /// The toolsets there are.
    pub known: Vec<&'static str>,
}

impl std::fmt::Display for UnknownToolset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "no toolset is named `{}`; the catalogue's toolsets are {}",
            self.name,
            self.known.join(", ")
        )
    }
}

impl std::error::Error for UnknownToolset {}
