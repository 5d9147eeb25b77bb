//! The rule catalogue: every kind of change `toolwright diff` reports, with
//! its stable id and what it can break. docs/diff.md explains each with an
//! example; a test keeps the two in step.

use std::fmt;

/// What a change can break.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    /// An old client and a new server (or the reverse) can no longer talk
    /// over MsgPack, JSON or TOON.
    Wire,
    /// Generated Rust, TypeScript or Python that users compiled against no
    /// longer compiles.
    Source,
    /// What an MCP client or a caller sees changes meaning.
    Semantic,
}

impl Category {
    /// Every category, in report order.
    pub const ALL: [Category; 3] = [Category::Wire, Category::Source, Category::Semantic];

    /// The lower-case name (`wire`), as `--categories` takes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Category::Wire => "wire",
            Category::Source => "source",
            Category::Semantic => "semantic",
        }
    }

    /// Parses [`Category::as_str`].
    pub fn parse(name: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.as_str() == name)
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

macro_rules! rules {
    ($($(#[$doc:meta])* $variant:ident = $id:literal, $summary:literal;)*) => {
        /// One kind of change, with a stable id such as `FIELD_REMOVED`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Rule {
            $($(#[$doc])* $variant,)*
        }

        impl Rule {
            /// Every rule, in docs/diff.md order.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant,)*];

            /// The stable id (`FIELD_REMOVED`), as reports and allow
            /// entries name it.
            pub fn id(self) -> &'static str {
                match self {
                    $(Rule::$variant => $id,)*
                }
            }

            /// One line saying what the rule detects.
            pub fn summary(self) -> &'static str {
                match self {
                    $(Rule::$variant => $summary,)*
                }
            }
        }
    };
}

rules! {
    /// A tool is gone.
    ToolRemoved = "TOOL_REMOVED", "a tool was removed (or renamed)";
    /// A new tool.
    ToolAdded = "TOOL_ADDED", "a tool was added";
    /// A plain tool became an action tool, or the reverse.
    ToolKindChanged = "TOOL_KIND_CHANGED", "a tool changed between one endpoint and actions";
    /// An action is gone.
    ActionRemoved = "ACTION_REMOVED", "an action was removed (or renamed)";
    /// A new action.
    ActionAdded = "ACTION_ADDED", "an action was added";
    /// A tool's timing class changed.
    TimingChanged = "TIMING_CHANGED", "a tool's or action's timing class changed";
    /// A response appeared where an acknowledgement was, or the reverse.
    ResponseChanged = "RESPONSE_CHANGED", "a response was added to or removed from a tool";
    /// An `errors` clause was added.
    ErrorsAdded = "ERRORS_ADDED", "a tool, resource or prompt declared errors where it had none";
    /// An `errors` clause was removed.
    ErrorsRemoved = "ERRORS_REMOVED", "a tool's, resource's or prompt's errors clause was removed";
    /// A `stream` clause was added.
    StreamAdded = "STREAM_ADDED", "a tool started streaming chunks";
    /// A `stream` clause was removed.
    StreamRemoved = "STREAM_REMOVED", "a tool stopped streaming chunks";
    /// A promise an annotation made was withdrawn.
    AnnotationWeakened = "ANNOTATION_WEAKENED", "`@read_only` or `@idempotent` dropped, or `@destructive` or `@open_world` added";
    /// An annotation promises more than before.
    AnnotationStrengthened = "ANNOTATION_STRENGTHENED", "`@read_only` or `@idempotent` added, or `@destructive` or `@open_world` dropped";
    /// A call of a tool needs a scope it did not.
    ScopeAdded = "SCOPE_ADDED", "a tool, resource or prompt requires an OAuth scope it did not (its own `@scopes` or its category's)";
    /// A call of a tool no longer needs a scope.
    ScopeRemoved = "SCOPE_REMOVED", "a tool, resource or prompt no longer requires an OAuth scope";
    /// Something was newly deprecated.
    DeprecatedAdded = "DEPRECATED_ADDED", "a tool, resource, prompt, action, type, field, variant or value was deprecated";
    /// A field is gone.
    FieldRemoved = "FIELD_REMOVED", "a field was removed (or renamed)";
    /// A new field a request must carry.
    FieldAddedRequired = "FIELD_ADDED_REQUIRED", "a required field was added to a request";
    /// A new field old readers can do without.
    FieldAdded = "FIELD_ADDED", "an optional or defaulted request field, or any response field, was added";
    /// A field's type changed.
    FieldTypeChanged = "FIELD_TYPE_CHANGED", "a field's type changed";
    /// `?` was added to a field's type.
    FieldMadeOptional = "FIELD_MADE_OPTIONAL", "a field became optional (`T` to `T?`)";
    /// `?` was removed from a field's type.
    FieldMadeRequired = "FIELD_MADE_REQUIRED", "a field stopped being optional (`T?` to `T`)";
    /// A field's default was removed.
    DefaultRemoved = "DEFAULT_REMOVED", "a field's default was removed";
    /// A field's default changed.
    DefaultChanged = "DEFAULT_CHANGED", "a field's default changed";
    /// A field gained a default.
    DefaultAdded = "DEFAULT_ADDED", "a field gained a default";
    /// A constraint accepts less than before.
    ConstraintTightened = "CONSTRAINT_TIGHTENED", "`@range`, `@length` or `@pattern` accepts less (or a pattern changed)";
    /// A constraint accepts more than before.
    ConstraintLoosened = "CONSTRAINT_LOOSENED", "`@range`, `@length` or `@pattern` accepts more";
    /// An enum value is gone.
    EnumValueRemoved = "ENUM_VALUE_REMOVED", "an enum value was removed (or renamed)";
    /// A new enum value.
    EnumValueAdded = "ENUM_VALUE_ADDED", "an enum value was added";
    /// A union variant is gone.
    VariantRemoved = "VARIANT_REMOVED", "a union variant was removed (or renamed)";
    /// A new union variant.
    VariantAdded = "VARIANT_ADDED", "a union variant was added";
    /// An error variant is gone (its code is its name: a rename is a
    /// removal and an addition).
    ErrorVariantRemoved = "ERROR_VARIANT_REMOVED", "an error variant (and so its code) was removed or renamed";
    /// A new error variant.
    ErrorVariantAdded = "ERROR_VARIANT_ADDED", "an error variant was added";
    /// A type became another kind of type.
    TypeKindChanged = "TYPE_KIND_CHANGED", "a type changed kind (struct, enum, union, error)";
    /// A type is known by another name.
    TypeRenamed = "TYPE_RENAMED", "a declared type was renamed";
    /// A declared type no tool reached is gone.
    TypeRemoved = "TYPE_REMOVED", "a declared type was removed";
    /// A new declared type.
    TypeAdded = "TYPE_ADDED", "a declared type was added";
    /// A resource is gone.
    ResourceRemoved = "RESOURCE_REMOVED", "a resource was removed (or renamed)";
    /// A new resource.
    ResourceAdded = "RESOURCE_ADDED", "a resource was added";
    /// A resource is read at other URIs.
    UriChanged = "URI_CHANGED", "a resource's URI or URI template changed";
    /// A resource's reads return another kind of contents.
    ContentsChanged = "CONTENTS_CHANGED", "a resource's `contents` changed kind or type";
    /// A resource's MIME type changed.
    MimeChanged = "MIME_CHANGED", "a resource's MIME type changed";
    /// Clients can no longer subscribe to a resource.
    SubscribableRemoved = "SUBSCRIBABLE_REMOVED", "`@subscribable` was dropped from a resource";
    /// Clients can subscribe to a resource.
    SubscribableAdded = "SUBSCRIBABLE_ADDED", "`@subscribable` was added to a resource";
    /// A prompt is gone.
    PromptRemoved = "PROMPT_REMOVED", "a prompt was removed (or renamed)";
    /// A new prompt.
    PromptAdded = "PROMPT_ADDED", "a prompt was added";
    /// A tool's app is gone.
    AppRemoved = "APP_REMOVED", "a tool lost its MCP App (`@app`)";
    /// A tool has an app it did not.
    AppAdded = "APP_ADDED", "a tool gained an MCP App (`@app`)";
    /// An app may reach fewer origins.
    AppCspNarrowed = "APP_CSP_NARROWED", "an app may no longer reach an origin (`@app_connect`, `@app_resources`, `@app_frames`, `@app_base_uri`)";
    /// An app may reach more origins.
    AppCspWidened = "APP_CSP_WIDENED", "an app may reach an origin it could not (`@app_connect`, `@app_resources`, `@app_frames`, `@app_base_uri`)";
    /// An app no longer asks for a browser feature.
    AppPermissionRemoved = "APP_PERMISSION_REMOVED", "an app no longer asks for a permission (`@app_permissions`)";
    /// An app asks for a browser feature it did not.
    AppPermissionAdded = "APP_PERMISSION_ADDED", "an app asks for a permission it did not (`@app_permissions`)";
    /// An app's border preference changed.
    AppBorderChanged = "APP_BORDER_CHANGED", "an app's `@app_border` was added, dropped or changed";
    /// An app's page is another.
    AppPageChanged = "APP_PAGE_CHANGED", "an app's hand-written page changed, or it switched between generated and hand-written";
    /// Hosts let fewer see or call a tool.
    AppVisibilityNarrowed = "APP_VISIBILITY_NARROWED", "a tool is no longer visible to the model, or callable by apps (`@app_visibility`)";
    /// Hosts let more see or call a tool.
    AppVisibilityWidened = "APP_VISIBILITY_WIDENED", "a tool became visible to the model, or callable by apps (`@app_visibility`)";
}

impl Rule {
    /// The categories this rule can break, whatever the direction; a
    /// [`Change`](super::Change) says which it does break.
    pub fn categories(self) -> &'static [Category] {
        use Category::{Semantic, Source, Wire};
        match self {
            Rule::ToolRemoved
            | Rule::ToolKindChanged
            | Rule::ActionRemoved
            | Rule::ResponseChanged
            | Rule::FieldRemoved
            | Rule::FieldTypeChanged
            | Rule::FieldMadeOptional
            | Rule::FieldMadeRequired
            | Rule::EnumValueRemoved
            | Rule::VariantRemoved
            | Rule::ErrorVariantRemoved
            | Rule::TypeKindChanged
            | Rule::ResourceRemoved
            | Rule::PromptRemoved => &[Wire, Source],
            Rule::AppRemoved => &[Wire, Semantic],
            Rule::FieldAddedRequired
            | Rule::DefaultRemoved
            | Rule::DefaultChanged
            | Rule::ConstraintTightened
            | Rule::EnumValueAdded
            | Rule::VariantAdded
            | Rule::UriChanged
            | Rule::ContentsChanged => &[Wire],
            Rule::ErrorsRemoved | Rule::TypeRenamed | Rule::TypeRemoved => &[Source],
            Rule::TimingChanged
            | Rule::StreamAdded
            | Rule::StreamRemoved
            | Rule::AnnotationWeakened
            | Rule::ScopeAdded
            | Rule::MimeChanged
            | Rule::SubscribableRemoved
            | Rule::AppCspNarrowed
            | Rule::AppPermissionRemoved
            | Rule::AppVisibilityNarrowed => &[Semantic],
            Rule::ToolAdded
            | Rule::ActionAdded
            | Rule::ErrorsAdded
            | Rule::AnnotationStrengthened
            | Rule::ScopeRemoved
            | Rule::DeprecatedAdded
            | Rule::FieldAdded
            | Rule::DefaultAdded
            | Rule::ConstraintLoosened
            | Rule::ErrorVariantAdded
            | Rule::TypeAdded
            | Rule::ResourceAdded
            | Rule::SubscribableAdded
            | Rule::PromptAdded
            | Rule::AppAdded
            | Rule::AppCspWidened
            | Rule::AppPermissionAdded
            | Rule::AppBorderChanged
            | Rule::AppPageChanged
            | Rule::AppVisibilityWidened => &[],
        }
    }

    /// Parses [`Rule::id`].
    pub fn parse(id: &str) -> Option<Rule> {
        Rule::ALL.iter().copied().find(|r| r.id() == id)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}
