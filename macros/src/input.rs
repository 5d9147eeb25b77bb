//! What `bind!` receives: the catalogue description, then what `#[tools]`
//! passed on through the generated `__toolwright_catalogue!`.
//!
//! ```text
//! runtime (::toolwright)           // optional; the runtime crate's path
//! catalogue { tool "add" { ... } ... }
//! module (crate::api)
//! options (not_implemented)        // or (not_implemented (a, b)), or ()
//! impl Studio { ... }
//! ```

use proc_macro2::{Span, TokenStream};
use syn::parse::{Parse, ParseStream};
use syn::spanned::Spanned;
use syn::{Ident, Item, ItemImpl, Path, braced, parenthesized};

use crate::catalogue::Catalogue;
use crate::messages;
use crate::options::Options;

/// The parsed input of `bind!`.
pub(crate) struct BindInput {
    /// The runtime crate's path (`::toolwright` unless the catalogue was
    /// generated with `Builder::runtime_crate`).
    pub(crate) runtime: Option<Path>,
    pub(crate) catalogue: Catalogue,
    /// Where the generated items live (`crate`, `crate::api`).
    pub(crate) module: Path,
    pub(crate) options: Options,
    /// The user's impl block, spans intact.
    pub(crate) item: ItemImpl,
}

impl BindInput {
    /// Where code that belongs to no user token points: the module path
    /// `#[tools]` passed on, which carries the span of the `#[tools]`
    /// attribute (or of the path written in it). Without it, rustc would
    /// point into the generated catalogue file.
    pub(crate) fn anchor(&self) -> Span {
        self.module
            .segments
            .first()
            .map_or_else(Span::call_site, |segment| segment.ident.span())
    }
}

impl BindInput {
    /// Reads `bind!`'s input. When only the impl block is unreadable, the
    /// error comes with the block's tokens, to be emitted unchanged so that
    /// the error is the only one.
    pub(crate) fn parse(tokens: TokenStream) -> Result<Self, (syn::Error, TokenStream)> {
        let Header {
            runtime,
            catalogue,
            module,
            options,
            rest,
        } = syn::parse2(tokens).map_err(|error| (error, TokenStream::new()))?;
        let item = match syn::parse2(rest.clone()) {
            Ok(Item::Impl(item)) if item.trait_.is_none() => item,
            Ok(Item::Impl(item)) => {
                let path = item.trait_.map(|(path, _)| path);
                return Err((syn::Error::new_spanned(path, messages::NOT_AN_IMPL), rest));
            }
            Ok(other) => return Err((syn::Error::new(other.span(), messages::NOT_AN_IMPL), rest)),
            Err(error) => return Err((error, rest)),
        };
        Ok(BindInput {
            runtime,
            catalogue,
            module,
            options,
            item,
        })
    }
}

/// Everything before the impl block.
struct Header {
    runtime: Option<Path>,
    catalogue: Catalogue,
    module: Path,
    options: Options,
    rest: TokenStream,
}

impl Parse for Header {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let runtime = if input.fork().parse::<Ident>().is_ok_and(|i| i == "runtime") {
            keyword(input, "runtime")?;
            let content;
            parenthesized!(content in input);
            let path = content.call(Path::parse_mod_style)?;
            if !content.is_empty() {
                return Err(content.error("expected the runtime crate's path"));
            }
            Some(path)
        } else {
            None
        };
        keyword(input, "catalogue")?;
        let content;
        braced!(content in input);
        let catalogue = content.parse()?;

        keyword(input, "module")?;
        let content;
        parenthesized!(content in input);
        let module = content.call(Path::parse_mod_style)?;
        if !content.is_empty() {
            return Err(content.error("expected a module path"));
        }

        keyword(input, "options")?;
        let content;
        parenthesized!(content in input);
        let options = content.parse()?;

        Ok(Header {
            runtime,
            catalogue,
            module,
            options,
            rest: input.parse()?,
        })
    }
}

fn keyword(input: ParseStream, expected: &str) -> syn::Result<()> {
    let found: Ident = input.parse()?;
    if found == expected {
        Ok(())
    } else {
        Err(syn::Error::new(
            found.span(),
            format!("expected `{expected}`"),
        ))
    }
}
