//! `ResourceUpdates`: how a server says a resource changed, for clients
//! subscribed to it (MCP `resources/subscribe` and `subscriptions/listen`,
//! IOPub's `resource/updated` across HOOT01).

use std::sync::Arc;

use tokio::sync::broadcast;

/// How many updates a slow subscriber may fall behind before it loses the
/// oldest.
const CAPACITY: usize = 1_024;

/// The channel a server's resource updates go through: the service keeps
/// a clone and says [`updated`](Self::updated) when a resource's contents
/// change; the dispatcher ([`Dispatcher::with_resource_updates`](crate::Dispatcher::with_resource_updates))
/// hands each update to every door with a subscriber for it. Cheap to
/// clone; clones share the channel.
///
/// ```
/// use toolwright::entry::ResourceUpdates;
///
/// let updates = ResourceUpdates::new();
/// let mut heard = updates.subscribe();
/// updates.updated("garden://regions");
/// assert_eq!(&*heard.try_recv().unwrap(), "garden://regions");
/// ```
#[derive(Clone, Debug)]
pub struct ResourceUpdates {
    sender: broadcast::Sender<Arc<str>>,
}

impl ResourceUpdates {
    /// A channel of its own.
    pub fn new() -> Self {
        let (sender, _) = broadcast::channel(CAPACITY);
        ResourceUpdates { sender }
    }

    /// Says the resource at `uri` changed: a subscriber reads it again.
    /// Nobody listening is no error.
    pub fn updated(&self, uri: impl Into<Arc<str>>) {
        let _ = self.sender.send(uri.into());
    }

    /// Receives every update from now on. A receiver that falls more than
    /// 1,024 updates behind loses the oldest.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<str>> {
        self.sender.subscribe()
    }
}

impl Default for ResourceUpdates {
    fn default() -> Self {
        ResourceUpdates::new()
    }
}
