// `#[tools]` on a trait impl.

include!("../support/catalogue.rs");

struct Studio;

#[toolwright::tools(not_implemented)]
impl Default for Studio {
    fn default() -> Self {
        Studio
    }
}

fn main() {}
