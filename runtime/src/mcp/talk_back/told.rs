//! What a handler tells its client while the client waits: log messages
//! and progress, queued for the call's own loop, which sends them in order
//! with the call's stream chunks and what is left before the answer. The
//! queue is bounded: a handler that floods it loses messages rather than
//! growing the server's memory.

use std::sync::{Arc, Mutex};

use rmcp::RoleServer;
use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};
use rmcp::service::Peer;
use tokio::sync::mpsc;

use super::progress::Progress;
use crate::Json;
use crate::caller::LogLevel;

/// How many log messages and progress reports may wait for the call's loop.
pub(in crate::mcp) const QUEUE: usize = 256;

/// A session's `logging/setLevel`: the least severe level it takes; every
/// level until the client sets one.
pub(in crate::mcp) type SessionLevel = Arc<Mutex<Option<LogLevel>>>;

/// What a handler sends its client while the client waits.
#[derive(Debug)]
pub(in crate::mcp) enum Told {
    Log {
        level: LogLevel,
        logger: Option<String>,
        data: Json,
    },
    Progress(f32),
}

/// Which log messages a call's client takes.
#[derive(Debug)]
pub(in crate::mcp) enum Heard {
    /// Up to 2025-11-25: the session's `logging/setLevel`.
    Session(SessionLevel),
    /// On 2026-07-28: what the request opts into with
    /// `io.modelcontextprotocol/logLevel` in its `_meta`; none without it.
    Request(Option<LogLevel>),
}

/// Sends what the handler told its client before the call ended.
pub(in crate::mcp) async fn drain(
    told: &mut mpsc::Receiver<Told>,
    peer: &Peer<RoleServer>,
    progress: &mut Option<Progress>,
) {
    while let Ok(message) = told.try_recv() {
        tell(peer, progress, message).await;
    }
}

/// Sends one thing the handler told its client: a log message as
/// `notifications/message`, progress as `notifications/progress` when the
/// caller gave a progress token. A client that went away just stops
/// receiving them.
pub(in crate::mcp) async fn tell(
    peer: &Peer<RoleServer>,
    progress: &mut Option<Progress>,
    told: Told,
) {
    match told {
        Told::Log {
            level,
            logger,
            data,
        } => {
            let mut param = LoggingMessageNotificationParam::new(logging_level(level), data);
            param.logger = logger;
            let _ = peer.notify_logging_message(param).await;
        }
        Told::Progress(fraction) => {
            if let Some(progress) = progress {
                progress.send(format!("{:.0}%", fraction * 100.0)).await;
            }
        }
    }
}

/// A log level from MCP's name for it.
pub(in crate::mcp) fn log_level(level: LoggingLevel) -> LogLevel {
    match level {
        LoggingLevel::Debug => LogLevel::Debug,
        LoggingLevel::Info => LogLevel::Info,
        LoggingLevel::Notice => LogLevel::Notice,
        LoggingLevel::Warning => LogLevel::Warning,
        LoggingLevel::Error => LogLevel::Error,
        LoggingLevel::Critical => LogLevel::Critical,
        LoggingLevel::Alert => LogLevel::Alert,
        LoggingLevel::Emergency => LogLevel::Emergency,
    }
}

/// MCP's name for a log level.
pub(in crate::mcp) fn logging_level(level: LogLevel) -> LoggingLevel {
    match level {
        LogLevel::Debug => LoggingLevel::Debug,
        LogLevel::Info => LoggingLevel::Info,
        LogLevel::Notice => LoggingLevel::Notice,
        LogLevel::Warning => LoggingLevel::Warning,
        LogLevel::Error => LoggingLevel::Error,
        LogLevel::Critical => LoggingLevel::Critical,
        LogLevel::Alert => LoggingLevel::Alert,
        LogLevel::Emergency => LoggingLevel::Emergency,
    }
}
