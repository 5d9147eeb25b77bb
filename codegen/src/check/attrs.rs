//! The attribute catalogue: which attributes exist, what they apply to, and
//! what arguments they take. Type-dependent rules (`@range` on a number) are
//! checked with the field, in `fields.rs`.

use std::collections::HashMap;

use crate::diag::{Ctxt, Diagnostic, messages};
use crate::model::{
    Annotations, AppPermission, CacheScope, ContentKind, Deprecation, Number, Role, Visibility,
};
use crate::source::Span;
use crate::suggest;
use crate::syntax::ast::{Attr, Ident, LitKind};
use crate::syntax::keywords;

/// What an attribute is written on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    Tool,
    Action,
    Type,
    Field,
    Variant,
    EnumValue,
    Category,
    Clause,
    Resource,
    Prompt,
}

impl Target {
    fn describe(self) -> &'static str {
        match self {
            Target::Tool => "a tool",
            Target::Action => "an action",
            Target::Type => "a type",
            Target::Field => "a field",
            Target::Variant => "a variant",
            Target::EnumValue => "an enum value",
            Target::Category => "`category`",
            Target::Clause => "a clause",
            Target::Resource => "a resource",
            Target::Prompt => "a prompt",
        }
    }
}

/// The arguments an attribute takes.
#[derive(Clone, Copy)]
enum Args {
    None,
    OptionalString,
    String,
    Strings,
    StringsOrNone,
    TwoNumbers,
    TwoCounts,
    /// `(user)`, `(assistant)` or both.
    Roles,
    /// A number from 0 to 1.
    Fraction,
    /// One non-negative integer.
    Count,
    /// `(ttl_ms)` or `(ttl_ms, scope)`.
    Cache,
    /// One or more of an app's permissions: `(camera, clipboard_write)`.
    Permissions,
    /// `(model)`, `(app)` or both.
    Visibility,
    /// Nothing, or `(true)` or `(false)`.
    OptionalBool,
}

impl Args {
    fn describe(self) -> &'static str {
        match self {
            Args::None => "no arguments",
            Args::OptionalString => "an optional reason: `(\"why\")`",
            Args::String => "one string",
            Args::Strings => "one or more strings: `(\"coding\", \"review\")`",
            Args::StringsOrNone => {
                "strings, or none for no scopes: `(\"cas:read\", \"cas:write\")` or `()`"
            }
            Args::TwoNumbers => "two numbers: `(min, max)`",
            Args::TwoCounts => "two non-negative integers: `(min, max)`",
            Args::Roles => "`user`, `assistant` or both: `(user, assistant)`",
            Args::Fraction => "one number from 0 to 1: `(0.8)`",
            Args::Count => "one non-negative integer: `(4096)`",
            Args::Cache => {
                "a time to live in milliseconds, then optionally `public` or `private`: `(5000)` or `(5000, private)`"
            }
            Args::Permissions => {
                "one or more of `camera`, `microphone`, `geolocation` and `clipboard_write`: `(camera, microphone)`"
            }
            Args::Visibility => "`model`, `app` or both: `(model, app)`",
            Args::OptionalBool => "nothing, or `(true)` or `(false)`",
        }
    }
}

struct Spec {
    name: &'static str,
    targets: &'static [Target],
    targets_text: &'static str,
    args: Args,
    /// What to do instead, when written on an action.
    on_action: Option<&'static str>,
}

const TOOL: &[Target] = &[Target::Tool];
const RESOURCE: &[Target] = &[Target::Resource];
const SCOPED: &[Target] = &[
    Target::Tool,
    Target::Resource,
    Target::Prompt,
    Target::Category,
];
const TOOL_OR_ACTION: &[Target] = &[Target::Tool, Target::Action];
const FIELD: &[Target] = &[Target::Field];
const TYPE: &[Target] = &[Target::Type];
const ANYTHING: &[Target] = &[
    Target::Tool,
    Target::Resource,
    Target::Prompt,
    Target::Action,
    Target::Type,
    Target::Field,
    Target::Variant,
    Target::EnumValue,
];

/// Where `@app` and its CSP attributes go instead of an action.
const APP_ON_TOOL: &str =
    "a tool names one app (`_meta.ui.resourceUri`) for all its actions: write it on the tool";

/// Where `@app_visibility` goes instead of an action.
const VISIBILITY_ON_TOOL: &str =
    "hosts list and call an action tool as one tool (`_meta.ui.visibility`): write it on the tool";

const SPECS: &[Spec] = &[
    Spec {
        name: "read_only",
        targets: TOOL,
        targets_text: "tools",
        args: Args::None,
        on_action: None,
    },
    Spec {
        name: "destructive",
        targets: TOOL,
        targets_text: "tools",
        args: Args::None,
        on_action: None,
    },
    Spec {
        name: "idempotent",
        targets: TOOL,
        targets_text: "tools",
        args: Args::None,
        on_action: None,
    },
    Spec {
        name: "open_world",
        targets: TOOL,
        targets_text: "tools",
        args: Args::None,
        on_action: None,
    },
    Spec {
        name: "toolset",
        targets: TOOL,
        targets_text: "tools",
        args: Args::Strings,
        on_action: None,
    },
    Spec {
        name: keywords::SCOPES,
        targets: SCOPED,
        targets_text: "tools, resources and prompts, and `category` as the file's default",
        args: Args::StringsOrNone,
        on_action: Some(
            "a call of any action needs the tool's scopes: write `@scopes` on the tool",
        ),
    },
    Spec {
        name: "task_required",
        targets: TOOL,
        targets_text: "tools",
        args: Args::None,
        on_action: None,
    },
    Spec {
        name: "paged",
        targets: TOOL_OR_ACTION,
        targets_text: "tools and actions",
        args: Args::None,
        on_action: None,
    },
    Spec {
        name: "deprecated",
        targets: ANYTHING,
        targets_text: "tools, resources, prompts, actions, types, fields, variants and enum values",
        args: Args::OptionalString,
        on_action: None,
    },
    Spec {
        name: "range",
        targets: FIELD,
        targets_text: "fields",
        args: Args::TwoNumbers,
        on_action: None,
    },
    Spec {
        name: "length",
        targets: FIELD,
        targets_text: "fields",
        args: Args::TwoCounts,
        on_action: None,
    },
    Spec {
        name: "pattern",
        targets: FIELD,
        targets_text: "fields",
        args: Args::String,
        on_action: None,
    },
    Spec {
        name: "header",
        targets: FIELD,
        targets_text: "fields",
        args: Args::String,
        on_action: None,
    },
    Spec {
        name: "form",
        targets: TYPE,
        targets_text: "structs",
        args: Args::None,
        on_action: None,
    },
    Spec {
        name: "content",
        targets: FIELD,
        targets_text: "fields",
        args: Args::String,
        on_action: None,
    },
    Spec {
        name: "subscribable",
        targets: RESOURCE,
        targets_text: "resources",
        args: Args::None,
        on_action: None,
    },
    Spec {
        name: "audience",
        targets: RESOURCE,
        targets_text: "resources",
        args: Args::Roles,
        on_action: None,
    },
    Spec {
        name: "priority",
        targets: RESOURCE,
        targets_text: "resources",
        args: Args::Fraction,
        on_action: None,
    },
    Spec {
        name: "size",
        targets: RESOURCE,
        targets_text: "resources with a fixed URI",
        args: Args::Count,
        on_action: None,
    },
    Spec {
        name: "cache",
        targets: RESOURCE,
        targets_text: "resources",
        args: Args::Cache,
        on_action: None,
    },
    Spec {
        name: keywords::APP,
        targets: TOOL,
        targets_text: "tools",
        args: Args::OptionalString,
        on_action: Some(APP_ON_TOOL),
    },
    Spec {
        name: keywords::APP_CONNECT,
        targets: TOOL,
        targets_text: "tools with `@app`",
        args: Args::Strings,
        on_action: Some(APP_ON_TOOL),
    },
    Spec {
        name: keywords::APP_RESOURCES,
        targets: TOOL,
        targets_text: "tools with `@app`",
        args: Args::Strings,
        on_action: Some(APP_ON_TOOL),
    },
    Spec {
        name: keywords::APP_FRAMES,
        targets: TOOL,
        targets_text: "tools with `@app`",
        args: Args::Strings,
        on_action: Some(APP_ON_TOOL),
    },
    Spec {
        name: keywords::APP_BASE_URI,
        targets: TOOL,
        targets_text: "tools with `@app`",
        args: Args::Strings,
        on_action: Some(APP_ON_TOOL),
    },
    Spec {
        name: keywords::APP_PERMISSIONS,
        targets: TOOL,
        targets_text: "tools with `@app`",
        args: Args::Permissions,
        on_action: Some(APP_ON_TOOL),
    },
    Spec {
        name: keywords::APP_BORDER,
        targets: TOOL,
        targets_text: "tools with `@app`",
        args: Args::OptionalBool,
        on_action: Some(APP_ON_TOOL),
    },
    Spec {
        name: keywords::APP_VISIBILITY,
        targets: TOOL,
        targets_text: "tools",
        args: Args::Visibility,
        on_action: Some(VISIBILITY_ON_TOOL),
    },
    Spec {
        name: "complete",
        targets: FIELD,
        targets_text: "`string` and integer fields of a resource's or prompt's `arguments`",
        args: Args::None,
        on_action: None,
    },
];

/// Every attribute: its name, what it applies to and the arguments it
/// takes, for editors' completion.
#[cfg(feature = "lsp")]
pub(crate) fn catalogue() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    SPECS
        .iter()
        .map(|s| (s.name, s.targets_text, s.args.describe()))
}

/// The attributes found on one thing, checked against the catalogue.
#[derive(Default)]
pub(crate) struct Attrs {
    pub(crate) annotations: Annotations,
    pub(crate) deprecated: Option<Deprecation>,
    pub(crate) range: Option<(Span, Number, Number)>,
    pub(crate) length: Option<(Span, u64, u64)>,
    pub(crate) pattern: Option<(Span, String)>,
    /// The toolsets `@toolset` names, each once, in the order written.
    pub(crate) toolsets: Vec<String>,
    /// The content block kind `@content` names.
    pub(crate) content: Option<ContentKind>,
    /// `@form`: the struct is asked of users (MCP elicitation).
    pub(crate) form: bool,
    /// `@paged`: the tool or action answers a page at a time.
    pub(crate) paged: bool,
    /// `@task_required`: MCP clients that can call the tool as a task must.
    pub(crate) task_required: Option<Span>,
    /// `@header("Name")`: the HTTP header (`Mcp-Param-Name`) MCP clients
    /// mirror the field into.
    pub(crate) header: Option<(Span, String)>,
    /// `@scopes(…)`: the OAuth scopes written, each once, in order, with
    /// the span of its string; `Some` of none for `@scopes()`, `None`
    /// when not written.
    pub(crate) scopes: Option<Vec<(String, Span)>>,
    /// `@subscribable`: clients may subscribe to the resource.
    pub(crate) subscribable: bool,
    /// `@audience(…)`: each role once, in the order written.
    pub(crate) audience: Vec<Role>,
    /// `@priority(p)`, from 0 to 1.
    pub(crate) priority: Option<f64>,
    /// `@size(n)`, with where it is written.
    pub(crate) size: Option<(Span, u64)>,
    /// `@cache(ttl_ms, scope)`, with the scope when written.
    pub(crate) cache: Option<(Span, u64, Option<CacheScope>)>,
    /// `@complete`: the handler completes the field.
    pub(crate) complete: Option<Span>,
    /// `@app` or `@app("path")`: the span of the attribute, and the path
    /// with the span of its string.
    pub(crate) app: Option<(Span, Option<(String, Span)>)>,
    /// `@app_connect(…)`: the attribute's span and each origin with its
    /// string's span.
    pub(crate) app_connect: Option<(Span, Vec<(String, Span)>)>,
    /// `@app_resources(…)`, as `app_connect`.
    pub(crate) app_resources: Option<(Span, Vec<(String, Span)>)>,
    /// `@app_frames(…)`, as `app_connect`.
    pub(crate) app_frames: Option<(Span, Vec<(String, Span)>)>,
    /// `@app_base_uri(…)`, as `app_connect`.
    pub(crate) app_base_uri: Option<(Span, Vec<(String, Span)>)>,
    /// `@app_permissions(…)`: the attribute's span and each permission
    /// once, in the order written.
    pub(crate) app_permissions: Option<(Span, Vec<AppPermission>)>,
    /// `@app_border` or `@app_border(false)`: the attribute's span and its
    /// value (`true` when written bare).
    pub(crate) app_border: Option<(Span, bool)>,
    /// `@app_visibility(…)`: each value once, in the order written.
    pub(crate) app_visibility: Vec<Visibility>,
}

/// Checks `attrs` written on `target` and collects their values.
/// `@readonly` → TW301; `@read_only` on a field → TW302; `@range(1)` → TW303.
pub(crate) fn lower(cx: &mut Ctxt, attrs: &[Attr], target: Target) -> Attrs {
    let mut out = Attrs::default();
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for attr in attrs {
        let name = attr.name.name.as_str();
        let Some(spec) = SPECS.iter().find(|s| s.name == name) else {
            let suggestion = suggest::closest(name, SPECS.iter().map(|s| s.name));
            cx.push(messages::unknown_attribute(attr.span, name, suggestion));
            continue;
        };
        if !spec.targets.contains(&target) {
            let hint = spec.on_action.filter(|_| target == Target::Action);
            cx.push(messages::attribute_target(
                attr.span,
                name,
                target.describe(),
                spec.targets_text,
                hint,
            ));
            continue;
        }
        if let Some(&first) = seen.get(spec.name) {
            cx.push(messages::duplicate_attribute(attr.span, name, first));
            continue;
        }
        seen.insert(spec.name, attr.span);
        if !args_fit(attr, spec.args) {
            cx.push(messages::attribute_arguments(
                attr.span,
                name,
                spec.args.describe(),
            ));
            continue;
        }
        apply(&mut out, cx, attr);
    }
    if let (Some(&ro), Some(&de)) = (seen.get("read_only"), seen.get("destructive")) {
        cx.push(messages::conflicting_attributes(
            de,
            "destructive",
            "read_only",
            ro,
            "a read-only tool does not modify its environment, so it cannot destroy anything",
        ));
    }
    out
}

fn args_fit(attr: &Attr, args: Args) -> bool {
    let kinds: Vec<&LitKind> = attr.args.iter().map(|a| &a.kind).collect();
    match args {
        Args::None => kinds.is_empty(),
        Args::OptionalString => matches!(kinds[..], [] | [LitKind::Str(_)]),
        Args::String => matches!(kinds[..], [LitKind::Str(_)]),
        Args::Strings => !kinds.is_empty() && kinds.iter().all(|k| matches!(k, LitKind::Str(_))),
        Args::StringsOrNone => kinds.iter().all(|k| matches!(k, LitKind::Str(_))),
        Args::TwoNumbers => matches!(
            kinds[..],
            [
                LitKind::Int(_) | LitKind::Float(_),
                LitKind::Int(_) | LitKind::Float(_)
            ]
        ),
        Args::TwoCounts => {
            matches!(kinds[..], [LitKind::Int(a), LitKind::Int(b)] if *a >= 0 && *b >= 0)
        }
        Args::Roles | Args::Permissions | Args::Visibility => {
            !kinds.is_empty() && kinds.iter().all(|k| matches!(k, LitKind::Ident(_)))
        }
        Args::OptionalBool => matches!(kinds[..], [] | [LitKind::Bool(_)]),
        Args::Fraction => match kinds[..] {
            [LitKind::Int(i)] => (0..=1).contains(i),
            [LitKind::Float(f)] => (0.0..=1.0).contains(f),
            _ => false,
        },
        Args::Count => matches!(kinds[..], [LitKind::Int(n)] if *n >= 0),
        Args::Cache => matches!(
            kinds[..],
            [LitKind::Int(n)] | [LitKind::Int(n), LitKind::Ident(_)] if *n >= 0
        ),
    }
}

fn number(kind: &LitKind) -> Number {
    match kind {
        LitKind::Float(f) => Number::Float(*f),
        LitKind::Int(i) => Number::Int(*i),
        _ => Number::Int(0),
    }
}

fn count(kind: &LitKind) -> u64 {
    match kind {
        LitKind::Int(i) => u64::try_from(*i).unwrap_or(u64::MAX),
        _ => 0,
    }
}

fn string(kind: &LitKind) -> Option<String> {
    match kind {
        LitKind::Str(s) => Some(s.clone()),
        _ => None,
    }
}

/// Each string argument with its span.
fn strings(attr: &Attr) -> Vec<(String, Span)> {
    attr.args
        .iter()
        .filter_map(|a| string(&a.kind).map(|s| (s, a.span)))
        .collect()
}

/// Stores an attribute whose arguments `args_fit` has accepted.
fn apply(out: &mut Attrs, cx: &mut Ctxt, attr: &Attr) {
    let args = &attr.args;
    match attr.name.name.as_str() {
        "read_only" => out.annotations.read_only = true,
        "destructive" => out.annotations.destructive = true,
        "idempotent" => out.annotations.idempotent = true,
        "open_world" => out.annotations.open_world = true,
        "form" => out.form = true,
        "paged" => out.paged = true,
        "subscribable" => out.subscribable = true,
        "complete" => out.complete = Some(attr.span),
        "audience" => audience(out, cx, attr),
        "priority" => out.priority = args.first().map(|a| number(&a.kind).as_f64()),
        "size" => out.size = args.first().map(|a| (attr.span, count(&a.kind))),
        "cache" => cache(out, cx, attr),
        "task_required" => out.task_required = Some(attr.span),
        "header" => {
            let name = args
                .first()
                .and_then(|a| string(&a.kind))
                .unwrap_or_default();
            out.header = Some((attr.span, name));
        }
        "toolset" => toolsets(out, cx, attr),
        keywords::APP => {
            let path = args
                .first()
                .and_then(|a| string(&a.kind).map(|path| (path, a.span)));
            out.app = Some((attr.span, path));
        }
        keywords::APP_CONNECT => out.app_connect = Some((attr.span, strings(attr))),
        keywords::APP_RESOURCES => out.app_resources = Some((attr.span, strings(attr))),
        keywords::APP_FRAMES => out.app_frames = Some((attr.span, strings(attr))),
        keywords::APP_BASE_URI => out.app_base_uri = Some((attr.span, strings(attr))),
        keywords::APP_PERMISSIONS => {
            let permissions = words(
                cx,
                attr,
                &AppPermission::ALL,
                AppPermission::as_str,
                messages::duplicate_attribute_value,
            );
            out.app_permissions = Some((attr.span, permissions));
        }
        keywords::APP_BORDER => {
            let border = !matches!(args.first().map(|a| &a.kind), Some(LitKind::Bool(false)));
            out.app_border = Some((attr.span, border));
        }
        keywords::APP_VISIBILITY => {
            out.app_visibility = words(
                cx,
                attr,
                &Visibility::ALL,
                Visibility::as_str,
                messages::duplicate_attribute_value,
            );
        }
        keywords::SCOPES => out.scopes = Some(super::scopes::written(cx, attr)),
        "content" => {
            let name = args
                .first()
                .and_then(|a| string(&a.kind))
                .unwrap_or_default();
            match ContentKind::from_name(&name) {
                Some(kind) => out.content = Some(kind),
                None => {
                    let kinds = ContentKind::ALL.map(ContentKind::as_str);
                    let suggestion = suggest::closest(&name, kinds.iter().copied());
                    cx.push(messages::unknown_content_kind(
                        args[0].span,
                        &name,
                        &kinds,
                        suggestion,
                    ));
                }
            }
        }
        "deprecated" => {
            out.deprecated = Some(Deprecation {
                reason: args.first().and_then(|a| string(&a.kind)),
            });
        }
        "range" => {
            let (min, max) = (number(&args[0].kind), number(&args[1].kind));
            if min.as_f64() > max.as_f64() {
                cx.push(messages::invalid_bounds(
                    attr.span,
                    &format!("the minimum {min} is greater than the maximum {max}"),
                ));
            } else {
                out.range = Some((attr.span, min, max));
            }
        }
        "length" => {
            let (min, max) = (count(&args[0].kind), count(&args[1].kind));
            if min > max {
                cx.push(messages::invalid_bounds(
                    attr.span,
                    &format!("the minimum length {min} is greater than the maximum {max}"),
                ));
            } else {
                out.length = Some((attr.span, min, max));
            }
        }
        "pattern" => {
            let pattern = args
                .first()
                .and_then(|a| string(&a.kind))
                .unwrap_or_default();
            match check_pattern(&pattern) {
                Ok(()) => out.pattern = Some((attr.span, pattern)),
                Err(e) => {
                    let span = args[0].span.in_literal(&pattern, e.start..e.end);
                    cx.push(messages::invalid_pattern(span, &e.message, e.hint));
                }
            }
        }
        _ => {}
    }
}

/// Collects the roles of an `@audience`, each once.
/// `@audience(admin)` → TW303; `@audience(user, user)` → TW102.
fn audience(out: &mut Attrs, cx: &mut Ctxt, attr: &Attr) {
    // A repeated role has its own help, which shows how to name both.
    let repeated = |span, _: &str, role: &str, first| messages::duplicate_role(span, role, first);
    let roles = words(cx, attr, &Role::ALL, Role::as_str, repeated);
    out.audience.extend(roles);
}

/// The values of an attribute that takes names from `all`, each once, in
/// the order written; a repeated one is reported by `repeated` (the
/// span, the attribute, the value, where it was first listed).
/// `@app_permissions(webcam)` → TW303; `@app_visibility(app, app)` →
/// TW102.
fn words<T: Copy + PartialEq>(
    cx: &mut Ctxt,
    attr: &Attr,
    all: &[T],
    name_of: fn(T) -> &'static str,
    repeated: impl Fn(Span, &str, &str, Span) -> Diagnostic,
) -> Vec<T> {
    let attribute = attr.name.name.as_str();
    let mut out: Vec<(T, Span)> = Vec::new();
    for arg in &attr.args {
        let LitKind::Ident(name) = &arg.kind else {
            continue;
        };
        let Some(value) = all.iter().copied().find(|v| name_of(*v) == name) else {
            let names: Vec<&str> = all.iter().map(|v| name_of(*v)).collect();
            let suggestion = suggest::closest(name, names.iter().copied());
            cx.push(messages::unknown_attribute_value(
                arg.span, attribute, name, &names, suggestion,
            ));
            continue;
        };
        if let Some(&(_, first)) = out.iter().find(|(v, _)| *v == value) {
            cx.push(repeated(arg.span, attribute, name, first));
            continue;
        }
        out.push((value, arg.span));
    }
    out.into_iter().map(|(v, _)| v).collect()
}

/// `@cache(ttl_ms)` or `@cache(ttl_ms, scope)`.
/// `@cache(5000, shared)` → TW303.
fn cache(out: &mut Attrs, cx: &mut Ctxt, attr: &Attr) {
    let ttl = attr.args.first().map_or(0, |a| count(&a.kind));
    let scope = match attr.args.get(1) {
        None => None,
        Some(arg) => {
            let scopes = [CacheScope::Public, CacheScope::Private];
            let name = match &arg.kind {
                LitKind::Ident(name) => name.as_str(),
                _ => "",
            };
            match scopes.into_iter().find(|s| s.as_str() == name) {
                Some(scope) => Some(scope),
                None => {
                    let names = scopes.map(CacheScope::as_str);
                    let suggestion = suggest::closest(name, names.iter().copied());
                    cx.push(messages::unknown_attribute_value(
                        arg.span, "cache", name, &names, suggestion,
                    ));
                    return;
                }
            }
        }
    };
    out.cache = Some((attr.span, ttl, scope));
}

/// Collects the names of a `@toolset`: each snake_case, since servers
/// and clients select toolsets by name (`--toolset coding`), and each once.
/// `@toolset("Coding")` → TW103; `@toolset("a", "a")` → TW102.
fn toolsets(out: &mut Attrs, cx: &mut Ctxt, attr: &Attr) {
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for arg in &attr.args {
        let LitKind::Str(name) = &arg.kind else {
            continue;
        };
        let ident = Ident {
            name: name.clone(),
            span: arg.span,
        };
        if !super::names::check_snake(cx, &ident, "toolset") {
            continue;
        }
        if let Some(&first) = seen.get(name.as_str()) {
            cx.push(messages::duplicate(arg.span, "toolset", name, first));
            continue;
        }
        seen.insert(name, arg.span);
        out.toolsets.push(name.clone());
    }
}

/// Parses a `@pattern` in the portable dialect and compiles its
/// translation, as the runtime will.
fn check_pattern(pattern: &str) -> Result<(), crate::pattern::Error> {
    crate::pattern::parse(pattern)?;
    let translated = crate::pattern::rust(pattern);
    regex_lite::Regex::new(&translated).map_err(|e| {
        let reason = e.to_string();
        crate::pattern::Error {
            start: 0,
            end: pattern.len(),
            message: reason
                .lines()
                .last()
                .unwrap_or("the pattern does not compile")
                .trim()
                .to_owned(),
            hint: None,
        }
    })?;
    Ok(())
}
