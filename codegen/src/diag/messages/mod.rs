//! The message catalogue: every diagnostic the frontend can emit, each with
//! a stable code, one file per family of codes. Phases call these
//! constructors; none formats a message of its own.

mod apps;
mod attributes;
mod examples;
mod lexical;
mod names;
mod resources;
mod schema;
mod syntax;
mod tools;
mod warnings;

pub(crate) use apps::*;
pub(crate) use attributes::*;
pub(crate) use examples::*;
pub(crate) use lexical::*;
pub(crate) use names::*;
pub(crate) use resources::*;
pub(crate) use schema::*;
pub(crate) use syntax::*;
pub(crate) use tools::*;
pub(crate) use warnings::*;

macro_rules! codes {
    ($($variant:ident = $code:literal: $summary:literal,)*) => {
        /// A stable diagnostic code. Codes never change meaning; retired codes
        /// are not reused.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Code {
            $(
                #[doc = $summary]
                $variant,
            )*
        }

        impl Code {
            /// Every code, in numeric order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The code as printed, e.g. `TW101`.
            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $code,)* }
            }

            /// One line saying what the code means.
            pub fn summary(self) -> &'static str {
                match self { $(Code::$variant => $summary,)* }
            }

            /// The long explanation (Markdown): the rule, why it exists, an
            /// example that breaks it and its fix. One file per code in
            /// `diag/explain/`, so a code without one does not compile.
            pub fn explanation(self) -> &'static str {
                match self {
                    $(Code::$variant => include_str!(concat!("../explain/", $code, ".md")),)*
                }
            }

            /// True for the codes of warnings (`TW4xx`).
            pub fn is_warning(self) -> bool {
                self.as_str().starts_with("TW4")
            }

            /// Parses `TW101` (any case).
            pub fn parse(code: &str) -> Option<Code> {
                Self::ALL.iter().copied().find(|c| c.as_str().eq_ignore_ascii_case(code))
            }
        }
    };
}

codes! {
    InvalidUtf8 = "TW001": "the file is not valid UTF-8",
    UnexpectedChar = "TW002": "a character that cannot start a token",
    UnterminatedString = "TW003": "a string literal without its closing quote",
    InvalidEscape = "TW004": "an unknown escape sequence in a string literal",
    BlockComment = "TW005": "block comments are not part of the IDL",
    InvalidNumber = "TW006": "a malformed or out-of-range number literal",
    Expected = "TW010": "the parser expected something else here",
    ExpectedItem = "TW011": "a top-level item was expected",
    UnknownClause = "TW012": "a word that is not a clause of the body it is in",
    MisplacedCategory = "TW013": "`category` must come first in a file, once",
    DanglingDoc = "TW014": "a doc comment not followed by anything it can document",
    TooDeep = "TW015": "a type or example value nested deeper than the IDL allows",
    NonEmptyList = "TW016": "only the empty list `[]` is a valid list literal",
    UnknownType = "TW101": "a type name that is not declared",
    Duplicate = "TW102": "a name declared twice in the same namespace",
    NamingConvention = "TW103": "a name that breaks the snake_case / PascalCase convention",
    CaseCollision = "TW104": "two names that become the same after case conversion",
    ReservedName = "TW105": "a name the generated code or runtime already uses",
    WrongKind = "TW106": "a name that refers to the wrong kind of declaration",
    GenericArity = "TW107": "a type used with the wrong number of type arguments",
    NestedOptional = "TW108": "`?` anywhere but the outermost level of a field type",
    EmptyDeclaration = "TW109": "an enum, union or error with no variants",
    MissingTiming = "TW201": "a tool or action without a `timing`",
    UnknownTiming = "TW202": "a timing class that does not exist",
    DuplicateClause = "TW203": "a clause given twice in one tool or action",
    ClauseInAction = "TW204": "a clause that belongs on the tool, not on an action",
    ActionsWithShape = "TW205": "a tool with actions that also declares a request or response",
    ResponseNeverSent = "TW206": "a `fire_and_forget` tool that declares a response",
    PagedShape = "TW207": "a `@paged` tool or action whose request or response cannot take the paging fields",
    TaskRequiredSync = "TW208": "`@task_required` on a tool that answers some calls at once (`sync`)",
    UnknownAttribute = "TW301": "an attribute that does not exist",
    AttributeTarget = "TW302": "an attribute on something it cannot apply to",
    AttributeArguments = "TW303": "an attribute given the wrong number or kind of arguments",
    AttributeType = "TW304": "a field attribute that does not fit the field's type",
    DuplicateAttribute = "TW305": "the same attribute given twice",
    ConflictingAttributes = "TW306": "two attributes that contradict each other",
    InvalidBounds = "TW307": "bounds that are reversed or outside the type",
    InvalidPattern = "TW308": "a `@pattern` that is not a valid regular expression",
    DefaultType = "TW309": "a default value of the wrong type",
    DefaultOutOfRange = "TW310": "a default value outside the field's bounds",
    OptionalDefault = "TW311": "an optional field that also has a default",
    Uninhabited = "TW312": "a type that contains itself through required fields only",
    ContentPlacement = "TW313": "`@content` on a field that is not a tool response's own",
    FormField = "TW314": "a `@form` type that elicitation cannot ask for",
    HeaderField = "TW315": "an `@header` that MCP cannot mirror into an HTTP header",
    InvalidScope = "TW316": "a `@scopes` entry that is not an OAuth scope token",
    UnusedType = "TW401": "a declared type that no tool, resource or prompt uses (warning)",
    DeprecatedUse = "TW402": "a deprecated item used by one that is not deprecated (warning)",
    MissingDocs = "TW403": "a tool, action, resource, prompt or field without a doc comment (warning)",
    AsyncWithoutErrors = "TW404": "an `async_long` tool that declares no errors (warning)",
    ProviderName = "TW405": "a tool name an LLM provider refuses (warning)",
    ProfileUnfaithful = "TW406": "a request field a targeted LLM provider's profile cannot state (warning)",
    ScopeTypo = "TW407": "a scope only one tool needs that is a likely typo of another (warning)",
    MissingUri = "TW501": "a resource without a `uri`",
    InvalidUri = "TW502": "a `uri` that is not a URI or a URI template",
    UnboundVariable = "TW503": "a template variable that is not one of the resource's arguments",
    UnusedArgument = "TW504": "an argument of a resource that its URI does not use",
    UnsupportedTemplate = "TW505": "a URI template expression Toolwright does not support",
    ArgumentType = "TW506": "a template variable or prompt argument of a type it cannot have",
    OverlappingResources = "TW507": "two resources whose URIs can match the same URI",
    InvalidContents = "TW508": "resource `contents` or `mime` that names no kind of contents or MIME type",
    CompleteTarget = "TW509": "`@complete` where no completion applies",
    AppFile = "TW510": "an `@app` file that is missing, unreadable, not UTF-8 or too large",
    AppOrigin = "TW511": "an `@app_connect`, `@app_resources`, `@app_frames` or `@app_base_uri` domain that is not an origin",
    AppUriTaken = "TW512": "a tool's app whose `ui://` URI a declared resource also matches",
    ExampleValue = "TW601": "an example value that does not fit its declared type or constraints",
    ExampleOutcome = "TW602": "an example response or error the tool cannot answer",
    ExamplePlace = "TW603": "an example where none can be, or a title or part given twice",
}

/// "1 file", "2 files".
pub(crate) fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// Formats `["a", "b", "c"]` as "`a`, `b` or `c`".
pub(crate) fn one_of(words: &[&str]) -> String {
    let quoted: Vec<String> = words.iter().map(|w| format!("`{w}`")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

pub(super) fn did_you_mean(suggestion: Option<&str>) -> Option<String> {
    suggestion.map(|s| format!("did you mean `{s}`?"))
}
