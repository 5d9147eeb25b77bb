//! The catalogue description that the generated `__toolwright_catalogue!`
//! hands to `bind!`: one entry per tool, in declaration order.
//!
//! ```text
//! catalogue {
//!     tool "add" { variant Add, marker AddTool, request MathOperands,
//!                  response MathResult, error MathError, timing sync,
//!                  declared "idl/math.tool:7:1", }
//!     tool "job_status" { variant JobStatus, marker JobStatusTool, ..., builtin, }
//! }
//! ```
//!
//! The code generator writes it, so a malformed description is a version
//! mismatch between the generator and this crate, reported as such.

use proc_macro2::Span;
use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitStr, Token, Type, braced};

/// The keys of a tool entry, as the generator spells them.
mod key {
    pub(super) const TOOL: &str = "tool";
    pub(super) const VARIANT: &str = "variant";
    pub(super) const MARKER: &str = "marker";
    pub(super) const REQUEST: &str = "request";
    pub(super) const RESPONSE: &str = "response";
    pub(super) const ERROR: &str = "error";
    pub(super) const STREAM: &str = "stream";
    pub(super) const TIMING: &str = "timing";
    pub(super) const DECLARED: &str = "declared";
    pub(super) const BUILTIN: &str = "builtin";
    pub(super) const PAGED: &str = "paged";
}

/// Every tool of the catalogue, in declaration order, then its resources
/// and prompts.
pub(crate) struct Catalogue {
    pub(crate) tools: Vec<ToolEntry>,
    pub(crate) entries: Vec<crate::entries::EntryDesc>,
}

/// One tool, as far as binding a handler needs to know it.
pub(crate) struct ToolEntry {
    /// Wire name, snake_case: what `#[tool]` methods are matched against.
    pub(crate) name: String,
    /// Its variant in `ToolRequest` and `ToolResponse`.
    pub(crate) variant: Ident,
    /// The marker struct implementing `Tool`.
    pub(crate) marker: Ident,
    /// The request type; `None` when the tool takes no arguments.
    pub(crate) request: Option<Type>,
    /// The response type; `None` when it answers with `()`.
    pub(crate) response: Option<Type>,
    /// The error type; `None` when it declares none (`ToolError`).
    pub(crate) error: Option<Type>,
    /// The stream chunk type; `None` when it does not stream.
    pub(crate) stream: Option<Type>,
    /// Where the IDL declares it (`idl/math.tool:7:1`).
    pub(crate) declared: String,
    /// A job tool, answered by the runtime itself.
    pub(crate) builtin: bool,
    /// It (or one of its actions) is `@paged`: the dispatcher opens and
    /// seals its cursors, so its handler is never called inline.
    pub(crate) paged: bool,
}

impl Parse for Catalogue {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut tools = Vec::new();
        let mut entries = Vec::new();
        while !input.is_empty() {
            let keyword = input.fork().parse::<Ident>()?;
            if crate::entries::EntryDesc::starts(&keyword) {
                entries.push(input.parse()?);
            } else {
                tools.push(input.parse()?);
            }
            if !input.is_empty() && input.peek(Token![,]) {
                input.parse::<Token![,]>()?;
            }
        }
        Ok(Catalogue { tools, entries })
    }
}

impl Parse for ToolEntry {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let keyword: Ident = input.parse()?;
        if keyword != key::TOOL {
            return Err(malformed(
                keyword.span(),
                "expected `tool \"name\" { ... }`",
            ));
        }
        let name: LitStr = input.parse()?;
        let content;
        braced!(content in input);
        let mut fields = Fields::default();
        while !content.is_empty() {
            fields.parse_one(&content)?;
            if !content.is_empty() {
                content.parse::<Token![,]>()?;
            }
        }
        fields.finish(name)
    }
}

/// The keys of one entry, as they are read.
#[derive(Default)]
struct Fields {
    variant: Option<Ident>,
    marker: Option<Ident>,
    request: Option<Type>,
    response: Option<Type>,
    error: Option<Type>,
    stream: Option<Type>,
    // Validated, not kept: binding a handler does not depend on it.
    timing: bool,
    declared: Option<LitStr>,
    builtin: bool,
    paged: bool,
}

impl Fields {
    fn parse_one(&mut self, input: ParseStream) -> syn::Result<()> {
        let key: Ident = input.parse()?;
        let span = key.span();
        let duplicate = || malformed(span, format!("`{key}` given twice"));
        match key.to_string().as_str() {
            key::VARIANT => set(&mut self.variant, input.parse()?).ok_or_else(duplicate),
            key::MARKER => set(&mut self.marker, input.parse()?).ok_or_else(duplicate),
            key::REQUEST => set(&mut self.request, input.parse()?).ok_or_else(duplicate),
            key::RESPONSE => set(&mut self.response, input.parse()?).ok_or_else(duplicate),
            key::ERROR => set(&mut self.error, input.parse()?).ok_or_else(duplicate),
            key::STREAM => set(&mut self.stream, input.parse()?).ok_or_else(duplicate),
            key::DECLARED => set(&mut self.declared, input.parse()?).ok_or_else(duplicate),
            key::TIMING => {
                let timing: Ident = input.parse()?;
                if toolwright_vocab::ToolTiming::from_name(&timing.to_string()).is_none() {
                    return Err(malformed(
                        timing.span(),
                        format!("unknown timing `{timing}`"),
                    ));
                }
                if std::mem::replace(&mut self.timing, true) {
                    return Err(duplicate());
                }
                Ok(())
            }
            key::BUILTIN if !self.builtin => {
                self.builtin = true;
                Ok(())
            }
            key::BUILTIN => Err(duplicate()),
            key::PAGED if !self.paged => {
                self.paged = true;
                Ok(())
            }
            key::PAGED => Err(duplicate()),
            _ => Err(malformed(span, format!("unknown key `{key}`"))),
        }
    }

    fn finish(self, name: LitStr) -> syn::Result<ToolEntry> {
        let missing = |key: &str| {
            let message = format!("tool \"{}\" has no `{key}`", name.value());
            malformed(name.span(), message)
        };
        Ok(ToolEntry {
            variant: self.variant.ok_or_else(|| missing(key::VARIANT))?,
            marker: self.marker.ok_or_else(|| missing(key::MARKER))?,
            declared: self.declared.ok_or_else(|| missing(key::DECLARED))?.value(),
            name: name.value(),
            request: self.request,
            response: self.response,
            error: self.error,
            stream: self.stream,
            builtin: self.builtin,
            paged: self.paged,
        })
    }
}

/// Stores `value` unless the slot is taken; `None` when it was.
pub(crate) fn set<T>(slot: &mut Option<T>, value: T) -> Option<()> {
    match slot {
        Some(_) => None,
        None => {
            *slot = Some(value);
            Some(())
        }
    }
}

/// An error in the generated description: the generator and this crate
/// disagree, which only a version mismatch explains.
pub(crate) fn malformed(span: Span, what: impl std::fmt::Display) -> syn::Error {
    syn::Error::new(
        span,
        format!(
            "malformed catalogue description from toolwright-codegen: {what} \
             (are `toolwright` and `toolwright-codegen` the same version?)"
        ),
    )
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::Catalogue;

    fn parse(tokens: proc_macro2::TokenStream) -> syn::Result<Catalogue> {
        syn::parse2(tokens)
    }

    #[test]
    fn reads_every_key() {
        let catalogue = parse(quote! {
            tool "add" {
                variant Add, marker AddTool, request MathOperands, response MathResult,
                error MathError, stream TransferProgress, timing sync,
                declared "idl/math.tool:7:1",
            }
            tool "job_status" {
                variant JobStatus, marker JobStatusTool,
                request ::toolwright::jobs::JobRef, timing sync,
                declared "<builtin>/jobs.tool:9:1", builtin
            }
        })
        .unwrap();
        let [add, job] = &catalogue.tools[..] else {
            panic!("two tools expected");
        };
        assert_eq!(add.name, "add");
        assert_eq!(add.variant, "Add");
        assert_eq!(add.marker, "AddTool");
        assert!(add.request.is_some() && add.response.is_some());
        assert!(add.error.is_some() && add.stream.is_some());
        assert_eq!(add.declared, "idl/math.tool:7:1");
        assert!(!add.builtin);
        assert!(job.builtin && job.response.is_none() && job.error.is_none());
    }

    #[test]
    fn rejects_what_the_generator_never_writes() {
        let cases = [
            (
                quote! { tool "a" { marker A, declared "x" } },
                "tool \"a\" has no `variant`",
            ),
            (
                quote! { tool "a" { variant A, variant A } },
                "`variant` given twice",
            ),
            (quote! { tool "a" { colour red } }, "unknown key `colour`"),
            (quote! { tool "a" { timing soon } }, "unknown timing `soon`"),
            (
                quote! { tool "a" { builtin, builtin } },
                "`builtin` given twice",
            ),
            (quote! { tol "a" {} }, "expected `tool \"name\" { ... }`"),
        ];
        for (tokens, what) in cases {
            let error = parse(tokens).err().map(|e| e.to_string());
            let expected = format!(
                "malformed catalogue description from toolwright-codegen: {what} \
                 (are `toolwright` and `toolwright-codegen` the same version?)"
            );
            assert_eq!(error.as_deref(), Some(&*expected));
        }
    }
}
