// `#[tools(path)]` naming a module without the generated catalogue.

include!("../support/catalogue.rs");

mod api {}

struct Studio;

#[toolwright::tools(crate::api, not_implemented)]
impl Studio {}

fn main() {}
