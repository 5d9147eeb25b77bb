//! `gateway --route NAME=ENDPOINT…`: one gateway in front of several
//! services, each a HOOT01 client of its own naming its service in every
//! Request, so that only the backends serving it take its calls (a backend
//! refuses another service with `UNKNOWN_SERVICE`). Each service is served
//! over Streamable HTTP at `/NAME/mcp` of one listener, with one set of
//! probes for all of them: `/readyz` is ready when every service has a
//! backend in rotation.

use std::time::Duration;

use studio::ToolCatalogue;
use toolwright::hoot::{Client, ClientConfig};
use toolwright::http::Probes;
use toolwright::mcp::{HttpConfig, McpServer};

/// The services a gateway routes to, in the order first named, each with
/// its backends.
pub(crate) struct Routes(Vec<(String, Vec<String>)>);

impl Routes {
    /// Takes every `--route NAME=ENDPOINT` out of `args`.
    pub(crate) fn take(args: &mut Vec<String>) -> Result<Routes, Box<dyn std::error::Error>> {
        let mut routes: Vec<(String, Vec<String>)> = Vec::new();
        while let Some(at) = args.iter().position(|a| a == "--route") {
            if at + 1 >= args.len() {
                return Err("--route needs NAME=ENDPOINT".into());
            }
            let route = args.remove(at + 1);
            args.remove(at);
            let (name, endpoint) = route
                .split_once('=')
                .filter(|(name, endpoint)| !endpoint.is_empty() && is_path_segment(name))
                .ok_or_else(|| {
                    format!(
                        "bad --route `{route}`: give NAME=ENDPOINT, NAME of letters, digits, \
                         `-` and `_` (it is also the URL path /NAME/mcp)"
                    )
                })?;
            match routes.iter_mut().find(|(known, _)| known == name) {
                Some((_, endpoints)) => endpoints.push(endpoint.to_owned()),
                None => routes.push((name.to_owned(), vec![endpoint.to_owned()])),
            }
        }
        Ok(Routes(routes))
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Connects a client per service (`config` is each one's, with the
    /// service named), makes its server with `make`, and serves them all
    /// at `addr` until the process is stopped.
    pub(crate) async fn serve<F>(
        self,
        config: &ClientConfig,
        addr: Option<&str>,
        credentials: &crate::credentials::Credentials,
        make: F,
    ) -> Result<(), Box<dyn std::error::Error>>
    where
        F: AsyncFn(
            McpServer<Client<ToolCatalogue>>,
        ) -> Result<McpServer<Client<ToolCatalogue>>, Box<dyn std::error::Error>>,
    {
        let listener = crate::listen(addr).await?;
        let local = listener.local_addr()?;
        let shutdown = crate::stop_on_signal();
        let mut router = axum::Router::new();
        let mut probes = Probes::new();
        let mut readiness = Vec::new();
        for (service, backends) in self.0 {
            let client = Client::<ToolCatalogue>::connect(
                &backends,
                config.clone().service(service.as_str()),
            )?;
            // Every service's backends are waited for at once, before
            // serving (as a one-service gateway does): one service's
            // absent backends add nothing to the others' wait.
            probes = probes.port(client.clone());
            let (waiting, named, listed) = (client.clone(), service.clone(), backends.join(", "));
            readiness.push(tokio::spawn(async move {
                if !waiting.ready(Duration::from_secs(5)).await {
                    eprintln!(
                        "studio: no backend of `{named}` answers yet ({listed}); its calls fail \
                         with UNAVAILABLE until one does"
                    );
                }
            }));
            let server =
                make(McpServer::new(client)?.named("studio-gateway", env!("CARGO_PKG_VERSION")))
                    .await?;
            let mut http = HttpConfig::default().shutdown(shutdown.clone());
            http.path = format!("/{service}/mcp");
            // One catalogue page per listener: the routes serve MCP alone;
            // one set of probes, added below for every service.
            http.web = false;
            http.probes = false;
            let http = credentials.apply(http, local);
            eprintln!(
                "studio: gateway to `{service}` ({}) at http://{local}{}",
                backends.join(", "),
                http.path
            );
            router = router.merge(server.router(http)?);
        }
        let probed = HttpConfig::default().shutdown(shutdown.clone());
        router = router.merge(probes.router(&credentials.apply(probed, local))?);
        for ready in readiness {
            let _ = ready.await;
        }
        axum::serve(listener, router)
            .with_graceful_shutdown(shutdown.cancelled_owned())
            .await?;
        Ok(())
    }
}

/// Whether `name` may be a service's name and a URL path segment.
fn is_path_segment(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 255
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}
