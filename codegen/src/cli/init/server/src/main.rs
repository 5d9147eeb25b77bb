//! An MCP server for the tools declared in `idl/`.
//!
//! `cargo run` serves MCP on stdin and stdout, for a client that starts
//! the server itself; `cargo run -- --http [ADDR]` serves Streamable HTTP
//! at `http://ADDR/mcp` (default `127.0.0.1:8787`).

use catalogue::{GreetError, GreetRequest, GreetResponse};
use toolwright::Dispatcher;
use toolwright::mcp::{HttpConfig, McpServer};

/// The service: one method per tool of the catalogue, bound by `#[tools]`
/// to the `catalogue` crate. A tool without a method, or a method without
/// a tool, fails the build.
struct Service;

#[toolwright::tools(catalogue)]
impl Service {
    /// `greet` (idl/greetings.tool). The request has been checked against
    /// the IDL's constraints before it gets here: `name` is 1 to 100
    /// characters.
    #[tool]
    async fn greet(&self, request: GreetRequest) -> Result<GreetResponse, GreetError> {
        let name = request.name.trim();
        if name.is_empty() {
            return Err(GreetError::BlankName {});
        }
        let message = format!("Hello, {name}!");
        Ok(GreetResponse {
            message: if request.shout {
                message.to_uppercase()
            } else {
                message
            },
        })
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = McpServer::new(Dispatcher::new(Service))?;
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => server.serve_stdio().await?,
        [flag, rest @ ..] if flag == "--http" && rest.len() <= 1 => {
            let mut config = HttpConfig::default();
            if let Some(addr) = rest.first() {
                config = config.addr(addr.parse().map_err(|e| format!("`{addr}`: {e}"))?);
            }
            eprintln!("serving MCP at http://{}{}", config.addr, config.path);
            server.serve_http(config).await?;
        }
        _ => return Err("usage: [--http [ADDR]]".into()),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// Every `example` in `idl/` holds: the handler answers each request
    /// with the declared response or error.
    #[tokio::test]
    async fn every_example_holds() {
        let service = std::sync::Arc::new(super::Service);
        toolwright::testing::check_examples(&service)
            .await
            .assert_all_served();
    }
}
