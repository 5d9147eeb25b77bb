//! The checker: turns syntax trees into the model, reporting every error it
//! finds. Used by `crate::check` for every door (CLI, build.rs, proc-macro).
//!
//! Phases: add the fields `@paged` implies (`paged`) → collect names
//! (`symbols`) → lower types (`types`, `fields`, `defaults`, `resolve`) →
//! lower tools (`tools`, `clauses`, `apps`) and check their examples
//! (`examples`), resources (`resources`, `uri`) and
//! prompts (`prompts`) → analyse the type graph (`graph`) → check
//! `@content` and `@header` fields against their tools (`content`,
//! `header`), `@complete` fields against the arguments they complete
//! (`complete`) and `@form` types against what elicitation asks (`form`).
//! Each phase keeps going after an error; the caller gates.

mod apps;
pub(crate) mod attrs;
mod clauses;
mod complete;
mod content;
mod defaults;
pub(crate) mod examples;
mod fields;
mod form;
mod graph;
pub(crate) mod header;
mod names;
mod paged;
mod prompts;
mod resolve;
pub(crate) mod resources;
mod scopes;
mod symbols;
mod tools;
mod types;
mod uri;

use crate::diag::Ctxt;
use crate::model::Model;
use crate::source::Sources;
use crate::syntax::ast;

/// Builds the model. The result is only meaningful if `cx` holds no errors
/// afterwards.
pub(crate) fn check(sources: &Sources, files: &[ast::File], cx: &mut Ctxt) -> Model {
    let paged = paged::desugar(files, cx);
    let files = paged.as_deref().unwrap_or(files);
    let symbols = symbols::Symbols::collect(sources, files, cx);
    let mut types = types::lower(&symbols, sources, cx);
    let mut tools = tools::lower(&symbols, sources, cx);
    examples::check(&symbols, &types, &mut tools, sources, cx);
    let resources = resources::lower(&symbols, &types, sources, cx);
    let prompts = prompts::lower(&symbols, &types, sources, cx);
    apps::collisions(&symbols, &tools, cx);
    let type_order = graph::analyse(&symbols, &mut types, cx);
    content::check(&types, &tools, sources, cx);
    header::check(&types, &tools, sources, cx);
    complete::check(&symbols, &types, sources, cx);
    form::check(&types, sources, cx);
    Model {
        files: symbols.files,
        tools,
        resources,
        prompts,
        types,
        type_order,
    }
}

#[cfg(test)]
mod tests {
    use crate::diag::Code;
    use crate::model::{Model, Origin, Timing, ToolKind, Type, TypeKind, Value};
    use crate::{Sources, check};

    fn model(text: &str) -> Model {
        let mut sources = Sources::new();
        sources.add("t.tool", text);
        check(&sources)
            .unwrap_or_else(|d| panic!("{}", d.render(&sources, crate::ColorChoice::Never)))
    }

    fn codes(text: &str) -> Vec<Code> {
        let mut sources = Sources::new();
        sources.add("t.tool", text);
        check(&sources)
            .err()
            .map_or_else(Vec::new, |d| d.iter().map(|d| d.code).collect())
    }

    fn fields(model: &Model, name: &str) -> Vec<crate::model::Field> {
        match &model.type_named(name).unwrap().kind {
            TypeKind::Struct(f) => f.clone(),
            _ => panic!("{name} is not a struct"),
        }
    }

    #[test]
    fn request_and_response_fields_cannot_repeat_the_wire_tags() {
        assert_eq!(
            codes("tool t { timing sync request { tool: string } }"),
            [Code::ReservedName]
        );
        assert_eq!(
            codes("struct R { tool: string }\ntool t { timing sync response R }"),
            [Code::ReservedName]
        );
        assert_eq!(
            codes("tool fs { timing sync action read { request { action: string } } }"),
            [Code::ReservedName]
        );
        // Only the top level is the call's map; `action` is free outside actions.
        assert!(
            codes(
                "struct In { tool: string }\ntool t { timing sync request { x: In, action: u8 } }"
            )
            .is_empty()
        );
    }

    /// With the built-in files, which declare `Paging`.
    fn with_builtins(text: &str) -> Result<Model, crate::Diagnostics> {
        let mut sources = Sources::new();
        sources.add_job_tools();
        sources.add("t.tool", text);
        check(&sources)
    }

    #[test]
    fn paged_tools_and_actions_get_a_cursor_in_and_paging_out() {
        let m = with_builtins(
            "@paged tool list { timing sync request { dir: string } response { names: list<string> } }\n\
             @paged tool everything { timing sync response { names: list<string> } }\n\
             tool fs { timing sync  @paged action find { response { hits: list<u8> } }  action read { } }",
        )
        .expect("valid");
        let names =
            |ty: &str| -> Vec<String> { fields(&m, ty).into_iter().map(|f| f.name).collect() };
        assert_eq!(names("ListRequest"), ["dir", "cursor"]);
        assert_eq!(names("ListResponse"), ["names", "paging"]);
        assert_eq!(
            names("EverythingRequest"),
            ["cursor"],
            "a request is made for it"
        );
        assert_eq!(names("FsFindRequest"), ["cursor"]);
        assert_eq!(names("FsFindResponse"), ["hits", "paging"]);
        let cursor = &fields(&m, "ListRequest")[1];
        assert!(!cursor.required && cursor.docs.is_some());
        let paged: Vec<(&str, bool)> = m
            .tools
            .iter()
            .filter(|t| !m.is_builtin(&t.location))
            .flat_map(|t| t.endpoints())
            .map(|(a, e)| (a.map_or("", |a| a.name.as_str()), e.paged))
            .collect();
        assert_eq!(
            paged,
            [("", true), ("", true), ("find", true), ("read", false)]
        );
    }

    #[test]
    fn paged_shapes_that_cannot_take_the_fields_are_refused() {
        for text in [
            "struct R { a: u8 }\n@paged tool t { timing sync request R response { b: u8 } }",
            "struct R { a: u8 }\n@paged tool t { timing sync response R }",
            "@paged tool t { timing sync request { a: u8 } }",
            "@paged tool t { timing sync response { paging: u8 } }",
            "@paged tool t { timing sync request { cursor: string? } response { a: u8 } }",
            "@paged tool fs { timing sync action read { response { a: u8 } } }",
        ] {
            let codes: Vec<Code> = with_builtins(text)
                .err()
                .map_or_else(Vec::new, |d| d.iter().map(|d| d.code).collect());
            assert_eq!(codes, [Code::PagedShape], "{text}");
        }
        assert_eq!(
            codes("@paged tool t { timing sync response { a: u8 } }"),
            [Code::PagedShape],
            "without the built-in files there is no `Paging`"
        );
        assert_eq!(
            codes("struct S { @paged a: u8 }"),
            [Code::AttributeTarget],
            "only on tools and actions"
        );
    }

    #[test]
    fn header_fields_are_a_tools_own_arguments_with_token_names() {
        let m = model(
            "tool t { timing sync request { @header(\"Region\") region: string, @header(\"N\") n: u32?, q: string } }",
        );
        let headers: Vec<Option<String>> = fields(&m, "TRequest")
            .into_iter()
            .map(|f| f.header)
            .collect();
        assert_eq!(headers, [Some("Region".into()), Some("N".into()), None]);
        for (text, code) in [
            (
                "tool t { timing sync request { @header(\"My Region\") r: string } }",
                Code::HeaderField,
            ),
            (
                "tool t { timing sync request { @header(\"A\") a: string, @header(\"a\") b: string } }",
                Code::HeaderField,
            ),
            (
                "struct In { @header(\"A\") a: string }\ntool t { timing sync request { x: In } }",
                Code::HeaderField,
            ),
            (
                "tool fs { timing sync action read { request { @header(\"A\") a: string } } }",
                Code::HeaderField,
            ),
            (
                "tool t { timing sync request { @header(\"F\") f: f64 } }",
                Code::AttributeType,
            ),
            (
                "tool t { timing sync request { @header(\"L\") l: list<string> } }",
                Code::AttributeType,
            ),
        ] {
            assert_eq!(codes(text), [code], "{text}");
        }
    }

    #[test]
    fn task_required_tools_run_every_call_as_a_job() {
        let m = model("@task_required tool t { timing async_long }");
        assert!(m.tool("t").unwrap().task_required);
        assert!(
            !model("tool t { timing async_long }")
                .tool("t")
                .unwrap()
                .task_required
        );
        for text in [
            "@task_required tool t { timing sync }",
            "@task_required tool fs { timing async_long action read { timing sync } action write { } }",
        ] {
            assert_eq!(codes(text), [Code::TaskRequiredSync], "{text}");
        }
    }

    #[test]
    fn anonymous_shapes_are_named_after_the_tool_and_action() {
        let m = model(
            "tool abc_parse { timing sync request { a: string } response { b: bool } }\n\
             tool fs { timing sync action read { request { uri: string } } }",
        );
        for name in ["AbcParseRequest", "AbcParseResponse", "FsReadRequest"] {
            assert!(m.type_named(name).is_some(), "{name}");
        }
        assert_eq!(
            m.type_named("FsReadRequest").unwrap().origin,
            Origin::Request {
                tool: "fs".into(),
                action: Some("read".into())
            }
        );
        let ToolKind::Actions(actions) = &m.tool("fs").unwrap().kind else {
            panic!("actions")
        };
        assert_eq!(
            actions[0].endpoint.timing,
            Timing::Sync,
            "tool timing is the default"
        );
    }

    #[test]
    fn category_defaults_to_the_file_stem() {
        let m = model("tool a { timing sync }");
        assert_eq!(m.tools[0].category, "t");
    }

    #[test]
    fn required_means_no_question_mark_and_no_default() {
        let m = model("struct S { a: u8, b: u8?, c: u8 = 3 }");
        let f = fields(&m, "S");
        assert_eq!(
            f.iter().map(|f| f.required).collect::<Vec<_>>(),
            [true, false, false]
        );
        assert_eq!(f[2].default, Some(Value::Int(3)));
    }

    #[test]
    fn self_references_through_optionals_are_indirect_and_lists_are_not() {
        let m = model(
            "struct Tree { child: Tree?, children: list<Tree>, leaf: Leaf }\n\
             struct Leaf { v: u8 }\nstruct A { b: B? }\nstruct B { a: A? }",
        );
        let tree = fields(&m, "Tree");
        assert_eq!(
            tree.iter().map(|f| f.indirect).collect::<Vec<_>>(),
            [true, false, false]
        );
        assert!(fields(&m, "A")[0].indirect && fields(&m, "B")[0].indirect);
    }

    #[test]
    fn types_are_ordered_dependencies_first() {
        let m = model("struct A { b: B, c: list<C> }\nstruct B { c: C }\nstruct C { x: u8 }");
        let names: Vec<_> = m
            .type_order
            .iter()
            .map(|id| m.type_def(*id).name.as_str())
            .collect();
        assert_eq!(names, ["C", "B", "A"]);
    }

    #[test]
    fn error_variants_carry_screaming_codes() {
        let m = model("error E { parse_failed { line: u32 }, timeout_2 }");
        let TypeKind::Error(v) = &m.type_named("E").unwrap().kind else {
            panic!("error")
        };
        assert_eq!(v[0].code.as_deref(), Some("PARSE_FAILED"));
        assert_eq!(v[1].code.as_deref(), Some("TIMEOUT_2"));
    }

    #[test]
    fn unions_with_a_way_out_are_inhabited() {
        // Every Expr contains Exprs, but `lit` ends the recursion.
        let m = model("union Expr { lit { v: i64 }, add { a: Expr, b: Expr } }");
        assert!(m.type_named("Expr").is_some());
        assert_eq!(codes("union Expr { neg { a: Expr } }"), [Code::Uninhabited]);
    }

    #[test]
    fn cycles_are_reported_once() {
        assert_eq!(
            codes("struct A { b: B }\nstruct B { a: A }\nstruct C { a: A }"),
            [Code::Uninhabited]
        );
    }

    #[test]
    fn keywords_of_target_languages_are_legal_names() {
        let m = model(
            "struct S { type: string, from: u8, class: bool, async: u8, default: u8, self: u8 }",
        );
        assert_eq!(fields(&m, "S").len(), 6);
    }

    #[test]
    fn every_error_of_a_newcomers_file_is_reported() {
        let found = codes(
            "tool a { response R }\nstruct R { x: Strng, y: u8 = 300 }\ntool b { timing snyc }\n\
             struct r { }\ntool c { timing sync errors R }",
        );
        assert_eq!(
            found,
            [
                Code::MissingTiming,
                Code::UnknownType,
                Code::DefaultOutOfRange,
                Code::UnknownTiming,
                Code::NamingConvention,
                Code::WrongKind,
            ]
        );
    }

    #[test]
    fn generated_names_clash_with_declared_ones() {
        assert_eq!(
            codes("tool abc_parse { timing sync request { a: u8 } }\nstruct AbcParseRequest { }"),
            [Code::Duplicate]
        );
        assert_eq!(
            codes("tool tool { timing sync request { a: u8 } }"),
            [Code::ReservedName]
        );
        assert_eq!(
            codes("tool a { timing sync }\nstruct ATool { }"),
            [Code::Duplicate]
        );
        assert_eq!(
            codes(
                "tool fs_read { timing sync request { } }\ntool fs { timing sync action read { request { } } }"
            ),
            [Code::CaseCollision]
        );
    }

    #[test]
    fn json_defaults_keep_their_value() {
        let m = model("struct S { j: json = \"x\", k: json = 2, l: json = [] }");
        let f = fields(&m, "S");
        assert_eq!(f[0].default, Some(Value::Json(serde_json::json!("x"))));
        assert_eq!(f[2].default, Some(Value::Json(serde_json::json!([]))));
        assert!(matches!(f[1].ty, Type::Primitive(_)));
    }
}

/// One mistake, one diagnostic: follow-on errors are suppressed.
#[cfg(test)]
mod follow_on {
    use crate::diag::Code;
    use crate::{Sources, check};

    fn codes(bytes: &[u8]) -> Vec<Code> {
        let mut sources = Sources::new();
        sources.add("t.tool", bytes.to_vec());
        check(&sources)
            .err()
            .map_or_else(Vec::new, |d| d.iter().map(|d| d.code).collect())
    }

    #[test]
    fn clashing_tools_do_not_also_clash_through_their_generated_types() {
        let tool = "tool math_add { timing sync request { a: f64 } response { sum: f64 } }\n";
        assert_eq!(codes(format!("{tool}{tool}").as_bytes()), [Code::Duplicate]);
        assert_eq!(
            codes(b"tool cas_store_2 { timing sync request { a: u8 } }\ntool cas_store2 { timing sync request { a: u8 } }"),
            [Code::CaseCollision]
        );
        assert_eq!(
            codes(b"tool fs { timing sync action read { request { a: u8 } } action read { request { a: u8 } } }"),
            [Code::Duplicate]
        );
    }

    #[test]
    fn a_clause_given_twice_does_not_also_clash_through_its_type() {
        assert_eq!(
            codes(b"tool t { timing sync request { a: u8 } request { b: u8 } }"),
            [Code::DuplicateClause]
        );
        assert_eq!(
            codes(b"prompt p { arguments { a: string } arguments { b: string } }"),
            [Code::DuplicateClause]
        );
    }

    #[test]
    fn a_resource_that_does_not_check_leaves_no_follow_on_errors() {
        // The bad contents: not also an overlap missed, nor a field unknown.
        assert_eq!(
            codes(b"resource a { uri \"x:{id}\" contents blob arguments { id: Strng } }"),
            [Code::InvalidContents, Code::UnknownType]
        );
        // A misplaced `@complete` of a resource whose URI is bad is still
        // on the resource's arguments.
        assert_eq!(
            codes(b"resource a { uri \"x:{id:2}\" arguments { @complete id: string } }"),
            [Code::UnsupportedTemplate]
        );
    }

    #[test]
    fn a_bad_timing_is_not_also_missing() {
        assert_eq!(
            codes(b"tool fs { timing snyc action read { request { uri: string } } }"),
            [Code::UnknownTiming]
        );
        assert_eq!(codes(b"tool t { timing 5 }"), [Code::Expected]);
    }

    #[test]
    fn an_enum_value_with_fields_keeps_the_enum_non_empty() {
        assert_eq!(codes(b"enum E { a { x: u8 } }"), [Code::Expected]);
    }

    #[test]
    fn uses_of_a_rejected_declaration_are_not_unknown() {
        assert_eq!(
            codes(b"struct Tool { }\nstruct S { t: Tool }"),
            [Code::ReservedName]
        );
        assert_eq!(
            codes(b"struct Region { }\nstruct region { }\nstruct S { r: region }"),
            [Code::NamingConvention]
        );
        assert_eq!(
            codes(b"struct HttpStatus { }\nstruct HTTPStatus { }\nstruct S { r: HTTPStatus }"),
            [Code::CaseCollision]
        );
    }

    #[test]
    fn invalid_utf8_is_reported_once() {
        assert_eq!(codes(b"struct S { a\xff: u8 }"), [Code::InvalidUtf8]);
    }

    #[test]
    fn lexical_slips_are_reported_once() {
        assert_eq!(codes(b"\xef\xbb\xbfstruct S { a: u8 }"), []);
        assert_eq!(
            codes(b"struct S { a: string = 'x' }"),
            [Code::UnexpectedChar]
        );
        assert_eq!(
            codes(b"tool t { action a { timing sync action b { action c { } } } }"),
            [Code::ClauseInAction]
        );
    }

    #[test]
    fn names_no_target_can_spell_are_reserved() {
        assert_eq!(
            codes(b"enum Toggle { true, false }"),
            [Code::ReservedName, Code::ReservedName]
        );
        assert_eq!(codes(b"struct Self { }"), [Code::ReservedName]);
        assert_eq!(codes(b"struct None { }"), [Code::ReservedName]);
    }

    #[test]
    fn f32_max_as_printed_fits_f32() {
        assert_eq!(
            codes(b"struct S { @range(0, 3.4028235e38) a: f32 = 3.4028235e38 }"),
            []
        );
        assert_eq!(
            codes(b"struct S { a: f32 = 3.5e38 }"),
            [Code::DefaultOutOfRange]
        );
    }

    #[test]
    fn a_timing_prefix_suggests_every_class_it_starts() {
        let mut sources = Sources::new();
        sources.add("t.tool", "tool t { timing async }");
        let d = check(&sources).unwrap_err();
        let help = d.iter().next().unwrap().help.clone().unwrap();
        assert_eq!(
            help,
            "did you mean `async_short`, `async_medium` or `async_long`?"
        );
    }
}
