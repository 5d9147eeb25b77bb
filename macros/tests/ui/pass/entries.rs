// Every resource, prompt and completion bound, in each form a handler
// may take: async or not, with a context or without, returning the
// values of a completion or a `Result` of them.

include!("../../support/entries.rs");

use toolwright::entry::{Completion, CompletionRequest, PromptMessages};
use toolwright::{Context, ToolError};

struct Store;

#[toolwright::tools]
impl Store {
    #[tool]
    fn hello(&self) -> Result<Greeting, ToolError> {
        Ok(Greeting { text: "hi".into() })
    }

    #[resource]
    async fn cas_object(&self, arguments: CasObjectArguments, _cx: Context) -> Result<toolwright::Bytes, CasError> {
        Ok(arguments.hash.into_bytes().into())
    }

    #[resource]
    fn cas_listing(&self, _arguments: CasListingArguments) -> Result<CasListing, ToolError> {
        Ok(CasListing { hashes: Vec::new() })
    }

    #[resource(name = "licence")]
    fn licence_text(&self) -> Result<&'static str, ToolError> {
        Ok("MIT")
    }

    #[prompt]
    async fn compose(&self, _arguments: ComposeArguments) -> Result<PromptMessages, ToolError> {
        Ok(PromptMessages::new().user("hi"))
    }

    #[toolwright::prompt]
    fn summarise(&self, _cx: Context) -> Result<PromptMessages, ToolError> {
        Ok(PromptMessages::new())
    }

    #[complete(cas_object.hash)]
    fn hashes(&self, _request: CompletionRequest) -> Result<Vec<String>, ToolError> {
        Ok(Vec::new())
    }

    #[complete(compose.mood)]
    async fn moods(&self, request: CompletionRequest, _cx: Context) -> Completion {
        Completion::matching(["happy"], &request.value)
    }
}

fn main() {
    let _ = <Store as toolwright::Service>::entry;
}
