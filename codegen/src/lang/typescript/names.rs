//! TypeScript spellings of IDL names. Property names are the wire names
//! (TypeScript allows reserved words there); type names are the IDL's
//! PascalCase names unless they would shadow a global or a name the package
//! itself exports, in which case they get a trailing underscore.

/// Reserved words of TypeScript (ECMAScript's plus TypeScript's own strict
/// ones). None may name a binding; all may name a property.
pub(crate) const RESERVED: &[&str] = &[
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "import",
    "in",
    "instanceof",
    "new",
    "null",
    "return",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "implements",
    "interface",
    "let",
    "package",
    "private",
    "protected",
    "public",
    "static",
    "yield",
    "await",
    "async",
    "any",
    "boolean",
    "number",
    "string",
    "symbol",
    "type",
    "from",
    "of",
    "never",
    "unknown",
    "object",
    "undefined",
    "as",
    "is",
    "keyof",
    "readonly",
    "declare",
    "module",
    "namespace",
    "require",
];

/// Type names a generated type must not take: globals the generated code
/// uses, and the names the package exports beside the catalogue's types.
const TAKEN_TYPE_NAMES: &[&str] = &[
    // Globals used by the generated code.
    "Array",
    "Boolean",
    "Date",
    "Error",
    "Map",
    "Number",
    "Object",
    "Partial",
    "Promise",
    "Readonly",
    "Record",
    "Set",
    "String",
    "Symbol",
    "Uint8Array",
    // The package's own exports.
    "ActionCalls",
    "ActionMetadata",
    "CallErrorEvent",
    "Catalogue",
    "CatalogueShape",
    "ClientOptions",
    "DecodeOptions",
    "EncodeOptions",
    "EndpointShape",
    "FieldShape",
    "IntType",
    "JsonSchema",
    "JsonValue",
    "MessageType",
    "MsgpackWriter",
    "Scalar",
    "Shape",
    "ShapeTable",
    "TOONClient",
    "TOONDecoder",
    "TOONEncoder",
    "TOONError",
    "TOONErrorKind",
    "TOONFrame",
    "TOONHeader",
    "TOONMessage",
    "TOONTransport",
    "TOONVersion",
    "ToolAnnotations",
    "ToolArgs",
    "ToolCallError",
    "ToolCalls",
    "ToolClient",
    "ToolCompleteEvent",
    "ToolData",
    "ToolErrorPayload",
    "ToolEvent",
    "ToolMetadata",
    "ToolName",
    "ToolParameter",
    "ToolRegistry",
    "ToolRequest",
    "ToolResponse",
    "ToolResult",
    "ToolShape",
    "ToolSource",
    "ToolStartEvent",
    "ToolTiming",
    "TypeShape",
    "ValidationError",
    "WireFormat",
];

/// True when `word` is reserved in TypeScript.
pub(crate) fn is_reserved(word: &str) -> bool {
    RESERVED.contains(&word)
}

/// The TypeScript name of an IDL type: `AbcParsed`, or `Promise_` for a
/// type that would shadow a name the package needs.
pub(crate) fn type_name(idl: &str) -> String {
    if TAKEN_TYPE_NAMES.contains(&idl) || is_reserved(idl) {
        format!("{idl}_")
    } else {
        idl.to_owned()
    }
}

/// The zod schema of a type: `AbcParsedSchema`.
pub(crate) fn schema_name(idl: &str) -> String {
    format!("{}Schema", type_name(idl))
}

/// The field table of a struct's zod schema: `AbcParsedFields`.
pub(crate) fn fields_name(idl: &str) -> String {
    format!("{}Fields", type_name(idl))
}

/// The code map of an error type: `AbcErrorCodes`.
pub(crate) fn codes_name(idl: &str) -> String {
    format!("{}Codes", type_name(idl))
}

/// A property in an interface or type literal: the wire name, quoted when
/// it is not an identifier.
pub(crate) fn property(wire: &str) -> String {
    if is_identifier(wire) {
        wire.to_owned()
    } else {
        quote(wire)
    }
}

/// A key in an object literal: like [`property`], except that `__proto__`
/// is computed (`["__proto__"]`), since a plain or quoted `__proto__` key
/// sets the object's prototype instead of a property.
pub(crate) fn object_key(wire: &str) -> String {
    if wire == "__proto__" {
        format!("[{}]", quote(wire))
    } else {
        property(wire)
    }
}

/// A string literal (JSON's escaping is valid TypeScript).
pub(crate) fn quote(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| format!("{text:?}"))
}

fn is_identifier(word: &str) -> bool {
    let mut chars = word.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_stay_wire_names_as_properties() {
        for word in [
            "type",
            "from",
            "class",
            "default",
            "async",
            "await",
            "import",
            "self",
            "in",
            "is",
            "function",
            "delete",
            "new",
            "enum",
            "interface",
            "None",
            "lambda",
            "def",
        ] {
            assert_eq!(property(word), word);
            assert_eq!(object_key(word), word);
        }
        assert!(is_reserved("delete") && is_reserved("function") && is_reserved("class"));
        assert!(!is_reserved("None") && !is_reserved("lambda"));
    }

    #[test]
    fn odd_properties_are_quoted() {
        assert_eq!(property("two words"), "\"two words\"");
        assert_eq!(property("9lives"), "\"9lives\"");
        assert_eq!(object_key("__proto__"), "[\"__proto__\"]");
        assert_eq!(property("__proto__"), "__proto__");
    }

    #[test]
    fn type_names_avoid_globals_and_exports() {
        assert_eq!(type_name("AbcParsed"), "AbcParsed");
        assert_eq!(type_name("Promise"), "Promise_");
        assert_eq!(type_name("ToolRequest"), "ToolRequest_");
        assert_eq!(schema_name("Record"), "Record_Schema");
        assert_eq!(codes_name("AbcError"), "AbcErrorCodes");
    }
}
