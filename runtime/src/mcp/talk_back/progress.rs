//! Where a call's progress goes: `notifications/progress` to the caller's
//! `progressToken`, for the chunks and progress of what it waits on and
//! for what its handler reports.

use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::{Peer, RoleServer};

use crate::edge;
use crate::jobs::JobEvent;

/// Where a call's progress goes: the caller's `progressToken` on the
/// session it called from.
pub(in crate::mcp) struct Progress {
    token: ProgressToken,
    peer: Peer<RoleServer>,
    /// Notifications sent so far: the `progress` value, which must grow.
    sent: u32,
}

impl Progress {
    pub(in crate::mcp) fn new(token: ProgressToken, peer: Peer<RoleServer>) -> Self {
        Progress {
            token,
            peer,
            sent: 0,
        }
    }

    /// Sends one `notifications/progress`. A client that went away just
    /// stops receiving them.
    pub(in crate::mcp) async fn send(&mut self, message: String) {
        self.sent = self.sent.saturating_add(1);
        let param = ProgressNotificationParam::new(self.token.clone(), f64::from(self.sent))
            .with_message(message);
        let _ = self.peer.notify_progress(param).await;
    }

    /// Reports a job event: a chunk as its JSON, progress as a percentage.
    pub(in crate::mcp) async fn event(&mut self, event: &JobEvent) {
        match event {
            JobEvent::Chunk { chunk, .. } => self.send(edge::chunk_text(chunk)).await,
            JobEvent::Progress { job_id, fraction } => {
                self.send(format!("{job_id}: {:.0}%", fraction * 100.0))
                    .await;
            }
            _ => {}
        }
    }
}
