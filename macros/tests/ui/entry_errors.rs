// Resources, prompts and completions bound wrongly: a prompt marked as a
// resource, a completion of an argument no handler completes, a handler
// whose contents are not the declared ones, and a completion left out.

include!("../support/entries.rs");

use toolwright::ToolError;
use toolwright::entry::{CompletionRequest, PromptMessages};

struct Store;

#[toolwright::tools]
impl Store {
    #[tool]
    fn hello(&self) -> Result<Greeting, ToolError> {
        Ok(Greeting { text: "hi".into() })
    }

    #[resource]
    fn cas_object(&self, arguments: CasObjectArguments) -> Result<Vec<u8>, CasError> {
        Ok(arguments.hash.into_bytes())
    }

    #[resource]
    fn cas_listing(&self, arguments: CasListingArguments) -> Result<String, ToolError> {
        Ok(arguments.prefix)
    }

    #[resource]
    fn licence(&self) -> Result<String, ToolError> {
        Ok(String::new())
    }

    #[resource]
    fn compose(&self, _arguments: ComposeArguments) -> Result<PromptMessages, ToolError> {
        Ok(PromptMessages::new())
    }

    #[prompt]
    fn summarise(&self) -> Result<PromptMessages, ToolError> {
        Ok(PromptMessages::new())
    }

    #[complete(compose.key)]
    fn keys(&self, _request: CompletionRequest) -> Vec<String> {
        Vec::new()
    }
}

fn main() {}
