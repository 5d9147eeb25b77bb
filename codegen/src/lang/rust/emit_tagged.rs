//! Enums told apart by a tag that comes first in their map: `ToolRequest`
//! and `ToolResponse` (tag `"tool"`) and the action enums (tag `"action"`).
//!
//! Serialize is serde's internally tagged derive, which streams. Deserialize
//! is not derived (serde's would buffer the whole map to look for the tag):
//! it reads the tag through `toolwright::__private::tagged` and hands the
//! rest of the same map to the variant's own decoder.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::context::{Cx, allow_deprecated, deprecated_attr};
use super::emit_types::large_enum_allow;
use crate::model::Deprecation;

/// One variant: `Add(MathOperands)`, or `GardenPlay` without a payload.
pub(crate) struct TaggedVariant<'a> {
    pub(crate) ident: Ident,
    /// The tag value (`"add"`).
    pub(crate) wire: String,
    /// The payload type, when there is one.
    pub(crate) payload: Option<TokenStream>,
    pub(crate) docs: TokenStream,
    pub(crate) deprecated: Option<&'a Deprecation>,
}

/// The enum as a whole.
pub(crate) struct TaggedEnum<'a> {
    pub(crate) name: Ident,
    /// `"tool"` or `"action"`.
    pub(crate) tag: &'a str,
    /// What it is, for error messages ("a tool request").
    pub(crate) expecting: String,
    pub(crate) docs: TokenStream,
    pub(crate) variants: Vec<TaggedVariant<'a>>,
    /// Its variants differ so much in size that clippy would object.
    pub(crate) lopsided: bool,
    /// A variant or payload is deprecated.
    pub(crate) touches_deprecated: bool,
    /// It is what a caller sends (a request), not what it gets back.
    pub(crate) request: bool,
}

pub(crate) fn tagged_enum(cx: &Cx<'_>, e: &TaggedEnum<'_>) -> TokenStream {
    let rt = &cx.rt;
    let TaggedEnum {
        name, tag, docs, ..
    } = e;
    let encodes = cx.side.serializes(e.request, !e.request);
    let decodes = cx.side.deserializes(e.request, !e.request);
    // serde's attributes exist only beside its derive.
    let serde = if encodes {
        cx.serde_attr(quote!(tag = #tag))
    } else {
        TokenStream::new()
    };
    let serialize = encodes.then(|| quote!(#rt::serde::Serialize,));
    // Without serde's derive schemars is told the tag itself; a request's
    // variants without a payload refuse other keys, as the decoder does.
    // Every variant is an object, and the root says so: schemars gives a
    // bare `oneOf`, which rmcp refuses as a tool's input schema.
    let schemars_derive = super::schemars::derive(cx);
    let mut schemars_items = vec![quote!(extend("type" = "object"))];
    if !encodes {
        schemars_items.push(quote!(tag = #tag));
    }
    if e.request {
        schemars_items.push(quote!(deny_unknown_fields));
    }
    let schemars_tag = super::schemars::attr(cx, &schemars_items);
    let allow = allow_deprecated(e.touches_deprecated);
    let allow_large = large_enum_allow(e.lopsided);
    let definitions = e.variants.iter().map(|v| {
        let TaggedVariant {
            ident,
            wire,
            payload,
            docs,
            ..
        } = v;
        let deprecated = deprecated_attr(v.deprecated);
        let payload = payload.as_ref().map(|p| quote!((#p)));
        let rename = if encodes {
            quote!(#[serde(rename = #wire)])
        } else {
            super::schemars::attr(cx, &[quote!(rename = #wire)])
        };
        quote! {
            #docs
            #deprecated
            #rename
            #ident #payload
        }
    });
    let decoder = decodes.then(|| decoder(cx, e));
    quote! {
        #docs
        #allow
        #allow_large
        #[derive(
            ::core::clone::Clone,
            ::core::fmt::Debug,
            ::core::cmp::PartialEq,
            #serialize
        )]
        #schemars_derive
        #serde
        #schemars_tag
        pub enum #name {
            #(#definitions,)*
        }

        #decoder
    }
}

/// The hand-written `Deserialize`: the tag first, then the rest of the
/// same map to the variant's own decoder.
fn decoder(cx: &Cx<'_>, e: &TaggedEnum<'_>) -> TokenStream {
    let rt = &cx.rt;
    let TaggedEnum {
        name,
        tag,
        expecting,
        ..
    } = e;
    let allow = allow_deprecated(e.touches_deprecated);
    let wires = e.variants.iter().map(|v| &v.wire);
    let arms = e.variants.iter().map(|v| {
        let TaggedVariant { ident, wire, .. } = v;
        if v.payload.is_some() {
            quote!(#wire => tagged::rest(map).map(Self::#ident))
        } else {
            quote!(#wire => tagged::unit(map).map(|()| Self::#ident))
        }
    });
    let unknown = quote!(::core::result::Result::Err(tagged::unknown::<_, Self>(
        name
    )));
    // An enum without variants (a catalogue without tools) has nothing to
    // match and never reads the map.
    let (map, body) = if e.variants.is_empty() {
        (quote!(_map), unknown)
    } else {
        (
            quote!(map),
            quote! {
                match name {
                    #(#arms,)*
                    _ => #unknown,
                }
            },
        )
    };
    quote! {
        impl<'de> #rt::serde::Deserialize<'de> for #name {
            fn deserialize<D>(deserializer: D) -> ::core::result::Result<Self, D::Error>
            where
                D: #rt::serde::Deserializer<'de>,
            {
                #rt::tagged::deserialize(deserializer)
            }
        }

        #allow
        impl #rt::tagged::Tagged for #name {
            const TAG: &'static str = #tag;
            const EXPECTING: &'static str = #expecting;
            const VARIANTS: &'static [&'static str] = &[#(#wires),*];

            fn variant<'de, A>(name: &str, #map: A) -> ::core::result::Result<Self, A::Error>
            where
                A: #rt::serde::de::MapAccess<'de>,
            {
                use #rt::tagged;
                #body
            }
        }
    }
}
