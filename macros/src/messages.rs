//! Every message the macros show, in one place: a user's first contact with
//! the binding is usually one of these, so each says what is wrong and how
//! to fix it, with the signature built from the catalogue's own names.

use quote::ToTokens;
use syn::Type;

use crate::catalogue::ToolEntry;
use crate::options;

/// `#[tools]` on something that is not an inherent impl block.
pub(crate) const NOT_AN_IMPL: &str = "`#[tools]` goes on an inherent impl block (`impl MyServer { ... }`), not a trait impl or another item";

/// `#[tool]` expanded on its own.
pub(crate) const TOOL_OUTSIDE_TOOLS: &str = "`#[tool]` marks a handler inside a `#[toolwright::tools]` impl block; \
     put `#[toolwright::tools]` on the `impl` that holds this method";

/// `#[tool]` on an impl item that is not a method.
pub(crate) const TOOL_NOT_ON_METHOD: &str =
    "`#[tool]` marks a handler method; this item is not a method";

/// `#[tool]` twice on one method.
pub(crate) const TOOL_TWICE: &str = "`#[tool]` given twice on one method";

/// A `#[tool(...)]` argument other than `name = "..."`.
pub(crate) const TOOL_ARGUMENTS: &str = "expected `#[tool]` or `#[tool(name = \"tool_name\")]`";

/// More than one module path in `#[tools(...)]`.
pub(crate) const TWO_MODULES: &str =
    "`#[tools]` takes one module path: where `toolwright::include_tools!()` is";

/// A word in `#[tools(...)]` that is no option, with the one it resembles.
pub(crate) fn unknown_option(word: &str, close: Option<&str>) -> String {
    match close {
        Some(option) => format!("unknown option `{word}`; did you mean `{option}`?"),
        None => format!(
            "unknown option `{word}`; expected `{option}` or `{option}(tool_a, tool_b)`",
            option = options::NOT_IMPLEMENTED
        ),
    }
}

/// Something other than a tool's name in `not_implemented(...)`.
pub(crate) const NOT_IMPLEMENTED_LIST: &str = "expected a tool's name: `not_implemented(tool_a, tool_b)` lists the tools that answer NOT_IMPLEMENTED";

/// `not_implemented()`.
pub(crate) const EMPTY_NOT_IMPLEMENTED: &str = "`not_implemented()` lists no tool; \
     name the tools that answer NOT_IMPLEMENTED (`not_implemented(tool_a, tool_b)`), \
     or write `not_implemented` for every tool without a handler";

/// An option given twice.
pub(crate) fn option_twice(option: &str) -> String {
    format!("`{option}` given twice")
}

/// How to answer NOT_IMPLEMENTED instead, said after a missing handler.
const EVERY_UNBOUND: &str = "or for every tool without a handler with `#[tools(not_implemented)]`";

/// A tool of the catalogue that no method binds; `listed` are the tools
/// the block's `not_implemented(...)` already names, if it has the list.
pub(crate) fn missing_handler(tool: &ToolEntry, listed: &[&str]) -> String {
    // A long list would drown the message: past a few names, say where the
    // new one goes instead of spelling the whole list out again.
    const SPELLED_OUT: usize = 3;
    let instead = if listed.len() > SPELLED_OUT {
        format!(
            "or answer NOT_IMPLEMENTED for it by adding `{}` to `{}(...)`",
            tool.name,
            options::NOT_IMPLEMENTED
        )
    } else {
        let list: Vec<&str> = listed.iter().copied().chain([tool.name.as_str()]).collect();
        format!(
            "or answer NOT_IMPLEMENTED for it with `#[tools({}({}))]`",
            options::NOT_IMPLEMENTED,
            list.join(", ")
        )
    };
    format!(
        "tool `{name}` has no handler (declared at {declared})\n\
         add `#[tool] {signature}` to this impl block,\n\
         {instead},\n\
         {EVERY_UNBOUND}",
        name = tool.name,
        declared = tool.declared,
        signature = signature(tool, &tool.name, true),
    )
}

/// The tools left over when too many have no handler to list each.
pub(crate) fn more_missing(names: &[&str]) -> String {
    let shown: Vec<String> = names.iter().take(10).map(|n| format!("`{n}`")).collect();
    let more = if names.len() > shown.len() {
        ", …"
    } else {
        ""
    };
    format!(
        "{count} more tools have no handler: {list}{more}\n\
         bind them with `#[tool]` methods,\n\
         or answer NOT_IMPLEMENTED for them by listing them in `#[tools({option}(...))]`,\n\
         {EVERY_UNBOUND}",
        count = names.len(),
        list = shown.join(", "),
        option = options::NOT_IMPLEMENTED,
    )
}

/// A name in `not_implemented(...)` that is no tool of the catalogue.
pub(crate) fn unknown_not_implemented(name: &str, suggestion: Option<&str>) -> String {
    match suggestion {
        Some(close) => format!(
            "the catalogue has no tool named `{name}`; did you mean `{close}`?\n\
             fix the name in `{option}(...)`, or remove it from the list",
            option = options::NOT_IMPLEMENTED,
        ),
        None => format!(
            "the catalogue has no tool named `{name}`\n\
             `{option}(...)` lists tools of the catalogue that have no handler; \
             remove it from the list",
            option = options::NOT_IMPLEMENTED,
        ),
    }
}

/// A tool in `not_implemented(...)` that has a handler too.
pub(crate) fn listed_with_handler(name: &str) -> String {
    format!(
        "`{name}` has a handler and is listed in `{option}`; remove it from the list",
        option = options::NOT_IMPLEMENTED,
    )
}

/// A job tool in `not_implemented(...)`.
pub(crate) fn listed_builtin(tool: &ToolEntry) -> String {
    format!(
        "`{name}` is a job tool, answered by the runtime (declared at {declared}); \
         remove it from `{option}`",
        name = tool.name,
        declared = tool.declared,
        option = options::NOT_IMPLEMENTED,
    )
}

/// A tool named twice in `not_implemented(...)`.
pub(crate) fn listed_twice(name: &str) -> String {
    format!(
        "`{name}` is listed twice in `{option}`; remove one",
        option = options::NOT_IMPLEMENTED,
    )
}

/// A `#[tool]` whose name is no tool of the catalogue.
pub(crate) fn unknown_tool(name: &str, suggestion: Option<&str>) -> String {
    match suggestion {
        Some(close) => format!(
            "the catalogue has no tool named `{name}`; did you mean `{close}`?\n\
             rename the method, or bind it with `#[tool(name = \"{close}\")]`"
        ),
        None => format!(
            "the catalogue has no tool named `{name}`\n\
             a `#[tool]` method binds the tool of its own name, or the one named by \
             `#[tool(name = \"...\")]`"
        ),
    }
}

/// A second handler for one tool.
pub(crate) fn duplicate_handler(tool: &str, first: &str, second: &str) -> String {
    format!(
        "tool `{tool}` has two handlers, `{first}` and `{second}`; \
         remove `#[tool]` from one of them"
    )
}

/// A handler for a job tool.
pub(crate) fn builtin_handler(tool: &ToolEntry) -> String {
    format!(
        "`{name}` is a job tool, answered by the runtime: it cannot have a handler \
         (declared at {declared}); remove this `#[tool]`",
        name = tool.name,
        declared = tool.declared,
    )
}

/// A handler without `&self`.
pub(crate) fn needs_ref_self(tool: &ToolEntry, method: &str, is_async: bool) -> String {
    format!(
        "a handler takes `&self` first\nexpected `{}`",
        signature(tool, method, is_async)
    )
}

/// A handler taking `&mut self`.
pub(crate) fn mut_self(tool: &ToolEntry, method: &str, is_async: bool) -> String {
    format!(
        "a handler takes `&self`, not `&mut self`: calls may run at once, so keep mutable \
         state behind a lock or an atomic\nexpected `{}`",
        signature(tool, method, is_async)
    )
}

/// A parameter beyond the request and the context.
pub(crate) fn too_many_parameters(tool: &ToolEntry, method: &str, is_async: bool) -> String {
    let takes = match &tool.request {
        Some(_) => "`&self`, its request, and optionally a `Context`",
        None => "`&self` and optionally a `Context` (the tool takes no request)",
    };
    format!(
        "too many parameters: the handler of `{name}` takes {takes}\nexpected `{signature}`",
        name = tool.name,
        signature = signature(tool, method, is_async),
    )
}

/// A handler without the request its tool takes.
pub(crate) fn missing_request(tool: &ToolEntry, method: &str, is_async: bool) -> String {
    format!(
        "tool `{name}` takes a request, which its handler does not\nexpected `{signature}`",
        name = tool.name,
        signature = signature(tool, method, is_async),
    )
}

/// A handler that returns nothing, or something that cannot be a `Result`.
pub(crate) fn not_a_result(tool: &ToolEntry, method: &str, is_async: bool) -> String {
    format!(
        "the handler of `{name}` must return `{result}`\nexpected `{signature}`",
        name = tool.name,
        result = result(tool),
        signature = signature(tool, method, is_async),
    )
}

/// The handler `tool` expects, as the user would write it.
pub(crate) fn signature(tool: &ToolEntry, method: &str, is_async: bool) -> String {
    let mut params = String::from("&self");
    if let Some(request) = &tool.request {
        params.push_str(&format!(", request: {}", type_name(request)));
    }
    if let Some(stream) = &tool.stream {
        params.push_str(&format!(", cx: Context<{}>", type_name(stream)));
    }
    let asyncness = if is_async { "async " } else { "" };
    format!("{asyncness}fn {method}({params}) -> {}", result(tool))
}

fn result(tool: &ToolEntry) -> String {
    let response = tool.response.as_ref().map_or("()".into(), type_name);
    let error = tool.error.as_ref().map_or("ToolError".into(), type_name);
    format!("Result<{response}, {error}>")
}

/// A type as people write it: `api::Ops<u8>`, not `api :: Ops < u8 >`.
pub(crate) fn type_name(ty: &Type) -> String {
    let spaced = ty.to_token_stream().to_string();
    let mut out = String::with_capacity(spaced.len());
    let mut chars = spaced.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ' ' {
            let prev = out.chars().last();
            let next = chars.peek().copied();
            let glued = matches!(prev, Some(':' | '<' | '&' | '(' | '[') | None)
                || matches!(next, Some(':' | '<' | '>' | ',' | ';' | ')' | ']') | None);
            if !glued {
                out.push(c);
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::type_name;

    #[test]
    fn type_names_read_like_rust() {
        let cases = [
            ("MathOperands", "MathOperands"),
            ("::toolwright::jobs::JobRef", "::toolwright::jobs::JobRef"),
            ("api::Ops<u8, Vec<String>>", "api::Ops<u8, Vec<String>>"),
            ("&'static str", "&'static str"),
            ("(u8, [u8; 4])", "(u8, [u8; 4])"),
        ];
        for (written, shown) in cases {
            let ty: syn::Type = syn::parse_str(written).unwrap();
            assert_eq!(type_name(&ty), shown);
        }
    }
}
