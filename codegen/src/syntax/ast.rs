//! The syntax tree: what a file says, with spans, before any name is resolved.
//! Only the checker reads it; backends read the model.

use crate::source::{FileId, Span};

/// A name as written, with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    /// The text.
    pub name: String,
    /// Where it is.
    pub span: Span,
}

/// `///` lines above something, joined with newlines.
#[derive(Clone, Debug, PartialEq)]
pub struct Docs {
    /// The text, one line per `///` line.
    pub text: String,
    /// From the first `///` to the end of the last.
    pub span: Span,
}

/// `@name` or `@name(args)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Attr {
    /// The name after `@`.
    pub name: Ident,
    /// Arguments; empty when there were no parentheses.
    pub args: Vec<Literal>,
    /// From `@` to the closing parenthesis.
    pub span: Span,
}

/// Docs and attributes written before an item, field, variant or action.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Meta {
    /// Doc comment, if any.
    pub docs: Option<Docs>,
    /// Attributes in source order.
    pub attrs: Vec<Attr>,
}

impl Meta {
    /// True when neither docs nor attributes were written.
    pub fn is_empty(&self) -> bool {
        self.docs.is_none() && self.attrs.is_empty()
    }
}

/// A literal value: a default or an attribute argument.
#[derive(Clone, Debug, PartialEq)]
pub struct Literal {
    /// The value.
    pub kind: LitKind,
    /// Where it is.
    pub span: Span,
}

/// The kinds of literal.
#[derive(Clone, Debug, PartialEq)]
pub enum LitKind {
    /// `42`, `-3`
    Int(i128),
    /// `1.5`, `1e-3`
    Float(f64),
    /// `"text"`
    Str(String),
    /// `true` / `false`
    Bool(bool),
    /// `[]`
    EmptyList,
    /// A bare name: an enum value such as `wav`.
    Ident(String),
}

/// One parsed `.tool` file.
#[derive(Clone, Debug, PartialEq)]
pub struct File {
    /// Which file.
    pub id: FileId,
    /// Docs above `category`: the file's documentation.
    pub docs: Option<Docs>,
    /// `category name;`, if written.
    pub category: Option<Ident>,
    /// Attributes written before `category` (none are allowed).
    pub category_attrs: Vec<Attr>,
    /// Items in source order.
    pub items: Vec<Item>,
    /// Names of items that failed to parse: the checker does not report
    /// references to them as unknown, which would only repeat the syntax error.
    pub broken: Vec<String>,
}

/// A top-level declaration.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// `tool name { ... }`
    Tool(Tool),
    /// `struct`, `enum`, `union` or `error`.
    Type(TypeDecl),
    /// `resource name { ... }` or `prompt name { ... }`.
    Entry(Entry),
}

/// A resource or a prompt: an item an MCP client reads or gets by name
/// rather than calls. Its body is clauses, as a tool's is.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// Docs and attributes.
    pub meta: Meta,
    /// Which of the two.
    pub kind: EntryKind,
    /// The `resource` or `prompt` keyword.
    pub keyword: Span,
    /// Its name.
    pub name: Ident,
    /// Clauses in source order.
    pub clauses: Vec<Clause>,
    /// The closing `}` of the body.
    pub close: Span,
}

/// The two kinds of [`Entry`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntryKind {
    /// `resource`: read by URI.
    Resource,
    /// `prompt`: messages got with arguments.
    Prompt,
}

impl EntryKind {
    /// The keyword, which is also how messages name the kind.
    pub fn keyword(self) -> &'static str {
        match self {
            EntryKind::Resource => super::keywords::RESOURCE,
            EntryKind::Prompt => super::keywords::PROMPT,
        }
    }

    /// The clauses its body may hold.
    pub fn clauses(self) -> &'static [&'static str] {
        match self {
            EntryKind::Resource => super::keywords::RESOURCE_CLAUSES,
            EntryKind::Prompt => super::keywords::PROMPT_CLAUSES,
        }
    }
}

/// `struct`, `enum`, `union` or `error` declaration.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeDecl {
    /// Docs and attributes.
    pub meta: Meta,
    /// The keyword's span.
    pub keyword: Span,
    /// The declared name.
    pub name: Ident,
    /// The body.
    pub body: TypeBody,
    /// The closing `}` of the body.
    pub close: Span,
}

/// What a type declaration contains.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeBody {
    /// `struct Name { fields }`
    Struct(Vec<Field>),
    /// `enum Name { a, b }`
    Enum(Vec<EnumValue>),
    /// `union Name { a { fields }, b }`
    Union(Vec<Variant>),
    /// `error Name { a { fields }, b }`
    Error(Vec<Variant>),
}

/// One value of an `enum`.
#[derive(Clone, Debug, PartialEq)]
pub struct EnumValue {
    /// Docs and attributes.
    pub meta: Meta,
    /// The value's name (its wire string).
    pub name: Ident,
}

/// A variant of a `union` or `error`.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    /// Docs and attributes.
    pub meta: Meta,
    /// The variant's name.
    pub name: Ident,
    /// Its fields; empty for `name` without braces.
    pub fields: Vec<Field>,
    /// The closing `}` of its fields, when it has braces.
    pub close: Option<Span>,
}

/// `name: type = default`
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// Docs and attributes.
    pub meta: Meta,
    /// The field name (its wire name).
    pub name: Ident,
    /// Its type.
    pub ty: TypeExpr,
    /// The default, if written.
    pub default: Option<Literal>,
}

/// A type as written.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeExpr {
    /// `name` or `name<args>`: a primitive, `list`/`map`, or a declared type.
    Path {
        /// The name.
        name: Ident,
        /// Type arguments inside `<...>`.
        args: Vec<TypeExpr>,
        /// The whole expression.
        span: Span,
    },
    /// `inner?`
    Optional {
        /// The type made optional.
        inner: Box<TypeExpr>,
        /// The `?` token.
        question: Span,
    },
}

/// `tool name { clauses }`
#[derive(Clone, Debug, PartialEq)]
pub struct Tool {
    /// Docs and attributes.
    pub meta: Meta,
    /// The `tool` keyword.
    pub keyword: Span,
    /// The tool's name.
    pub name: Ident,
    /// Clauses in source order.
    pub clauses: Vec<Clause>,
    /// The closing `}` of the body.
    pub close: Span,
}

/// `action name { clauses }` inside a tool.
#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    /// The action's name.
    pub name: Ident,
    /// Clauses in source order.
    pub clauses: Vec<Clause>,
    /// The closing `}` of the body.
    pub close: Span,
}

/// One clause of a tool, action, resource or prompt body.
#[derive(Clone, Debug, PartialEq)]
pub struct Clause {
    /// Docs and attributes written before the clause (only `action` takes them).
    pub meta: Meta,
    /// The clause keyword.
    pub keyword: Ident,
    /// What follows the keyword.
    pub kind: ClauseKind,
}

/// The clause kinds.
#[derive(Clone, Debug, PartialEq)]
pub enum ClauseKind {
    /// `timing sync`
    Timing(Ident),
    /// `title "Text"`
    Title(String),
    /// `request ...`
    Request(Shape),
    /// `response ...`
    Response(Shape),
    /// `errors Name`
    Errors(Ident),
    /// `stream Name`
    Stream(Ident),
    /// `action name { ... }`
    Action(Action),
    /// `uri "..."`
    Uri(Quoted),
    /// `mime "..."`
    Mime(Quoted),
    /// `contents text`, `contents bytes` or `contents TypeName`
    Contents(Ident),
    /// `arguments ...`, shaped as a `request`
    Arguments(Shape),
    /// `example "Title" { ... }`
    Example(Example),
    /// A clause whose keyword was read but whose rest failed to parse (and
    /// was reported): it counts as present, so it is not reported missing.
    Invalid,
}

/// A string literal: its value, escapes decoded, and where it is written.
#[derive(Clone, Debug, PartialEq)]
pub struct Quoted {
    /// The text, escapes decoded.
    pub value: String,
    /// The literal, quotes included.
    pub span: Span,
}

/// The part after `request`/`response`/`arguments`: a name, a body, or both.
#[derive(Clone, Debug, PartialEq)]
pub struct Shape {
    /// `request Name ...`
    pub name: Option<Ident>,
    /// `request ... { fields }`
    pub fields: Option<Vec<Field>>,
    /// The closing `}` of the fields, when there are braces.
    pub close: Option<Span>,
}

/// `example "Title" { request { ... } response { ... } }`: a call of a tool
/// or action and what it answers, checked against the declared types.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    /// The title.
    pub title: Quoted,
    /// The parts in the order written: `request`, `response`, `error`.
    pub parts: Vec<ExamplePart>,
    /// The closing `}`.
    pub close: Span,
}

/// One part of an example body.
#[derive(Clone, Debug, PartialEq)]
pub struct ExamplePart {
    /// `request`, `response` or `error`.
    pub keyword: Ident,
    /// What follows it.
    pub kind: ExamplePartKind,
}

/// What an example part says.
#[derive(Clone, Debug, PartialEq)]
pub enum ExamplePartKind {
    /// `request { a: 1 }`: the call's arguments.
    Request(Data),
    /// `response { result: 1 }`: what it answers.
    Response(Data),
    /// `error overflow` or `error parse_failed { line: 1 }`: the error it
    /// fails with, and the error's fields.
    Error {
        /// The variant of the tool's `error` type.
        variant: Ident,
        /// Its fields, when written.
        details: Option<Data>,
    },
}

/// A JSON value written in an example, with where each part of it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Data {
    /// The value.
    pub kind: DataKind,
    /// Where it is written.
    pub span: Span,
}

/// The kinds of example data: JSON's, with bare names for enum values.
#[derive(Clone, Debug, PartialEq)]
pub enum DataKind {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// `42`, `-3`
    Int(i128),
    /// `1.5`, `1e-3`
    Float(f64),
    /// `"text"`
    Str(String),
    /// A bare name, such as the enum value `wav`: the string `"wav"`.
    Name(String),
    /// `[a, b]`
    List(Vec<Data>),
    /// `{ key: value, "other key": value }`
    Object(Vec<(Key, Data)>),
}

/// A key of an object in example data: a name or a string.
#[derive(Clone, Debug, PartialEq)]
pub struct Key {
    /// The key.
    pub name: String,
    /// Where it is written.
    pub span: Span,
}

impl Data {
    /// The value as JSON; a bare name is a string.
    pub fn to_json(&self) -> serde_json::Value {
        match &self.kind {
            DataKind::Null => serde_json::Value::Null,
            DataKind::Bool(b) => (*b).into(),
            DataKind::Int(i) => i64::try_from(*i)
                .map(Into::into)
                .or_else(|_| u64::try_from(*i).map(Into::into))
                .unwrap_or_else(|_| (*i as f64).into()),
            DataKind::Float(f) => {
                serde_json::Number::from_f64(*f).map_or(serde_json::Value::Null, Into::into)
            }
            DataKind::Str(s) | DataKind::Name(s) => s.clone().into(),
            DataKind::List(items) => items.iter().map(Data::to_json).collect(),
            DataKind::Object(entries) => entries
                .iter()
                .map(|(k, v)| (k.name.clone(), v.to_json()))
                .collect::<serde_json::Map<_, _>>()
                .into(),
        }
    }
}
