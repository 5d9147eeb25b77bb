//! The tools declared in `../idl`, generated on every build: one type per
//! request, response and error, their codecs, and the MCP schemas. The
//! server crate binds its handlers to them with
//! `#[toolwright::tools(catalogue)]`.

toolwright::include_tools!();
