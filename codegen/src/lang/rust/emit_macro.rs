//! `__toolwright_catalogue!`: how `#[tools]` learns the catalogue without
//! reading files. `#[tools]` calls it with its input; it calls back the
//! proc-macro `bind!` with a token description of every tool prepended.
//! The grammar is in docs/rust.md ("How `#[tools]` finds the catalogue").
//!
//! Written as text, one key per line: prettyplease lays a macro body out
//! as one flowing paragraph, which nobody could read.

use std::fmt::Write as _;

use proc_macro2::Literal;

use super::context::Cx;
use super::emit_tools::{marker_ident, tool_timing};
use super::names;
use crate::model::{Completion, Contents, Prompt, Resource, Scope, Tool, ToolKind, TypeId};
use crate::source::Location;

/// The macro; with `export`, `#[macro_export]`ed for other crates' `#[tools]`.
pub(crate) fn catalogue_macro(cx: &Cx<'_>, export: bool) -> String {
    let mut out = String::new();
    out.push_str("#[doc(hidden)]\n");
    if export {
        // At the crate's root, where `#[tools(this_crate)]` in another
        // crate looks for it.
        out.push_str("#[macro_export]\n");
    }
    out.push_str("macro_rules! __toolwright_catalogue {\n");
    out.push_str("    ($($input:tt)*) => {\n");
    let _ = writeln!(out, "        {}::bind! {{", cx.rt_path);
    // The runtime's path itself, so the binding reaches the same crate.
    let runtime = cx
        .rt_path
        .strip_suffix("::__private")
        .unwrap_or("::toolwright");
    let _ = writeln!(out, "            runtime ({runtime})");
    out.push_str("            catalogue {\n");
    for tool in &cx.model.tools {
        describe(cx, tool, &mut out);
    }
    for resource in &cx.model.resources {
        describe_resource(cx, resource, &mut out);
    }
    for prompt in &cx.model.prompts {
        describe_prompt(cx, prompt, &mut out);
    }
    out.push_str("            }\n");
    out.push_str("            $($input)*\n");
    out.push_str("        }\n");
    out.push_str("    };\n");
    out.push_str("}\n");
    if export {
        return out;
    }
    // A path to the macro, so `#[tools]` in any module can call it.
    out.push('\n');
    out.push_str(
        "#[allow(unused_imports, reason = \"used by `#[tools]`, if the crate binds handlers\")]\n",
    );
    out.push_str("pub(crate) use __toolwright_catalogue;\n");
    out
}

/// `tool "add" { variant Add, marker AddTool, request MathOperands, .. }`.
fn describe(cx: &Cx<'_>, tool: &Tool, out: &mut String) {
    let pascal = names::pascal(&tool.name);
    let type_name = |id| names::type_ident(&cx.type_def(id).name).to_string();
    let (request, response) = match &tool.kind {
        ToolKind::Single(e) => (e.request.map(type_name), e.response.map(type_name)),
        ToolKind::Actions(_) => (
            Some(format!("{pascal}Request")),
            Some(format!("{pascal}Response")),
        ),
    };
    let mut keys = vec![
        ("variant", names::variant(&tool.name).ident.to_string()),
        ("marker", marker_ident(tool).to_string()),
    ];
    keys.extend(request.map(|t| ("request", t)));
    keys.extend(response.map(|t| ("response", t)));
    keys.extend(tool.errors.map(|id| ("error", type_name(id))));
    keys.extend(tool.stream.map(|id| ("stream", type_name(id))));
    keys.push(("timing", tool_timing(tool).as_str().to_owned()));
    keys.push(("declared", declared(cx, tool.location)));

    let _ = writeln!(
        out,
        "                tool {} {{",
        Literal::string(&tool.name)
    );
    for (key, value) in keys {
        let _ = writeln!(out, "                    {key} {value},");
    }
    if cx.builtin(tool) {
        out.push_str("                    builtin,\n");
    }
    if tool.endpoints().iter().any(|(_, e)| e.paged) {
        out.push_str("                    paged,\n");
    }
    out.push_str("                }\n");
}

/// `resource "cas_object" { arguments CasObjectArguments, contents bytes, .. }`:
/// what binding its `#[resource]` handler needs, and the arguments whose
/// `#[complete]` handlers it needs (an enum's are answered without one).
fn describe_resource(cx: &Cx<'_>, resource: &Resource, out: &mut String) {
    let contents = match resource.contents {
        Contents::Text => "text".to_owned(),
        Contents::Bytes => "bytes".to_owned(),
        Contents::Typed(id) => format!("json {}", type_name(cx, id)),
    };
    let mut keys = Vec::new();
    keys.extend(
        resource
            .arguments
            .map(|id| ("arguments", type_name(cx, id))),
    );
    keys.push(("contents", contents));
    keys.extend(resource.errors.map(|id| ("error", type_name(cx, id))));
    entry_keys(
        cx,
        resource.arguments,
        &resource.scopes,
        resource.location,
        &mut keys,
    );
    write_entry(out, "resource", &resource.name, keys);
}

/// `prompt "compose" { arguments ComposeArguments, .. }`.
fn describe_prompt(cx: &Cx<'_>, prompt: &Prompt, out: &mut String) {
    let mut keys = Vec::new();
    keys.extend(prompt.arguments.map(|id| ("arguments", type_name(cx, id))));
    keys.extend(prompt.errors.map(|id| ("error", type_name(cx, id))));
    entry_keys(
        cx,
        prompt.arguments,
        &prompt.scopes,
        prompt.location,
        &mut keys,
    );
    write_entry(out, "prompt", &prompt.name, keys);
}

/// The keys resources and prompts share: their scopes, where they are
/// declared, and each argument a handler completes.
fn entry_keys(
    cx: &Cx<'_>,
    arguments: Option<TypeId>,
    scopes: &[Scope],
    location: Location,
    keys: &mut Vec<(&'static str, String)>,
) {
    if !scopes.is_empty() {
        let names: Vec<String> = scopes
            .iter()
            .map(|s| Literal::string(&s.name).to_string())
            .collect();
        keys.push(("scopes", format!("[{}]", names.join(", "))));
    }
    keys.push(("declared", declared(cx, location)));
    for (field, completion) in cx.model.completions(arguments) {
        if completion == Completion::Handler {
            keys.push(("complete", Literal::string(&field.name).to_string()));
        }
    }
}

fn write_entry(out: &mut String, kind: &str, name: &str, keys: Vec<(&str, String)>) {
    let _ = writeln!(out, "                {kind} {} {{", Literal::string(name));
    for (key, value) in keys {
        let _ = writeln!(out, "                    {key} {value},");
    }
    out.push_str("                }\n");
}

fn type_name(cx: &Cx<'_>, id: TypeId) -> String {
    names::type_ident(&cx.type_def(id).name).to_string()
}

/// `"idl/math.tool:7:1"`, as a string literal.
fn declared(cx: &Cx<'_>, location: Location) -> String {
    let file = cx
        .model
        .files
        .get(location.file)
        .map_or("", |f| f.path.as_str());
    let at = format!("{file}:{}:{}", location.line, location.column);
    Literal::string(&at).to_string()
}
