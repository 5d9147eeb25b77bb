//! Opening a session with a mounted server, and the client side of it:
//! what the mounted server's list-changed and resource-updated
//! notifications set off.

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    ClientCapabilities, ClientConfig, Implementation, ResourceUpdatedNotificationParam,
};
use rmcp::service::{NotificationContext, RoleClient, RunningService};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientHandler, ServiceExt};
use tokio::sync::Notify;

use super::names::{Target, prefixed_uri};
use super::state::Mounted;

/// How long opening a session (starting the command, the handshake) may
/// take before the attempt counts as failed.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The mounting server as the mounted one's client: it asks for nothing
/// the mounted server could ask back (no sampling, no elicitation, no
/// roots), re-lists when told a list changed, and passes a subscribed
/// resource's update on with its URI as served.
#[derive(Clone)]
pub(super) struct Client {
    pub(super) relist: Arc<Notify>,
    pub(super) mounted: Arc<Mounted>,
}

impl ClientHandler for Client {
    async fn on_tool_list_changed(&self, _: NotificationContext<RoleClient>) {
        self.relist.notify_one();
    }

    async fn on_resource_list_changed(&self, _: NotificationContext<RoleClient>) {
        self.relist.notify_one();
    }

    async fn on_prompt_list_changed(&self, _: NotificationContext<RoleClient>) {
        self.relist.notify_one();
    }

    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _: NotificationContext<RoleClient>,
    ) {
        let served = prefixed_uri(&self.mounted.prefix, &params.uri);
        // Nobody following any more is no error.
        let _ = self.mounted.updates.send(served.into());
    }

    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("toolwright-mount", env!("CARGO_PKG_VERSION")),
        )
    }
}

/// A session with the server at `target`.
///
/// # Errors
/// Why not, as one line: the command did not start, the endpoint did not
/// answer, the handshake failed or timed out.
pub(super) async fn connect(
    target: &Target,
    client: Client,
) -> Result<RunningService<RoleClient, Client>, String> {
    let opened = match target {
        Target::Command { program, args } => {
            let mut command = tokio::process::Command::new(program);
            command.args(args).kill_on_drop(true);
            let child = TokioChildProcess::new(command)
                .map_err(|e| format!("cannot start {target}: {e}"))?;
            tokio::time::timeout(CONNECT_TIMEOUT, client.serve(child)).await
        }
        Target::Http(url) => {
            let transport = StreamableHttpClientTransport::from_uri(url.as_str());
            tokio::time::timeout(CONNECT_TIMEOUT, client.serve(transport)).await
        }
    };
    match opened {
        Ok(Ok(service)) => Ok(service),
        Ok(Err(e)) => Err(format!("{target} did not initialize: {e}")),
        Err(_) => Err(format!(
            "{target} did not initialize within {} s",
            CONNECT_TIMEOUT.as_secs()
        )),
    }
}
