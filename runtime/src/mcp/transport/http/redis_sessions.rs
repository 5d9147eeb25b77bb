//! [`RedisSessions`]: MCP sessions kept in Redis, so that any replica of a
//! server behind one address serves any session.

use std::time::Duration;

use redis::AsyncCommands;
use redis::aio::ConnectionManager;
use rmcp::transport::streamable_http_server::session::{
    SessionState, SessionStore, SessionStoreError,
};

use super::redis_events::IDLE;
use crate::caller::LogLevel;
use crate::jobs::records::StoreError;

/// MCP 2025-11-25 sessions in Redis (or Valkey). A session begun on one
/// server is served by another that shares the store: rmcp replays the
/// session's `initialize` there (its negotiated revision and
/// capabilities), and the server restores the log level the client set
/// and the session's 2025-11-25 tasks (the last 4096 a session made).
/// Its jobs need no more: they belong to the session's id, and are in the
/// shared job store (`RedisJobs`). Give the server one with
/// [`McpServer::sessions`](crate::mcp::McpServer::sessions).
///
/// Its SSE streams resume on any replica too: their events are kept in
/// the same Redis as they are sent (the last 1000 of each stream, for a
/// day after the last), so a client that reconnects with `Last-Event-ID`
/// to another replica gets those it missed.
///
/// A session is forgotten a day after its last write, or when its client
/// ends it.
#[derive(Clone)]
pub struct RedisSessions {
    connection: ConnectionManager,
    addr: String,
}

impl std::fmt::Debug for RedisSessions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisSessions")
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

fn key(session: &str) -> String {
    format!("toolwright:mcp-session:{session}")
}

/// The session's task records, by task id.
fn tasks_key(session: &str) -> String {
    format!("toolwright:mcp-session:{session}:tasks")
}

/// The session's task ids, scored by when each was made: the order they
/// are listed and dropped in.
fn task_order_key(session: &str) -> String {
    format!("toolwright:mcp-session:{session}:task-order")
}

/// Most task records one session keeps, as a server keeps in memory:
/// past it the oldest go.
const MAX_TASKS: usize = 4096;

/// Writes one task record and drops the session's oldest past
/// [`MAX_TASKS`], in one step. KEYS: records, order. ARGV: task id,
/// record, made at (ms), most kept, idle seconds.
const KEEP_TASK: &str = r"
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[4])
if over > 0 then
  local old = redis.call('ZPOPMIN', KEYS[2], over)
  for i = 1, #old, 2 do redis.call('HDEL', KEYS[1], old[i]) end
end
redis.call('EXPIRE', KEYS[1], ARGV[5])
redis.call('EXPIRE', KEYS[2], ARGV[5])
return 1
";

fn seconds(d: Duration) -> i64 {
    i64::try_from(d.as_secs()).unwrap_or(i64::MAX)
}

impl RedisSessions {
    /// Sessions in the Redis at `url` (`redis://HOST:PORT/DB`). Returns at
    /// once, without connecting; call it within a tokio runtime.
    ///
    /// # Errors
    /// For a URL that is not a Redis URL, or outside a tokio runtime.
    pub fn open(url: &str) -> Result<Self, StoreError> {
        let runtime = tokio::runtime::Handle::try_current().map_err(|_| {
            StoreError("a Redis session store is opened within a tokio runtime".to_owned())
        })?;
        let (_, connection, addr) = crate::jobs::records::redis::connect(url, &runtime)?;
        Ok(RedisSessions { connection, addr })
    }

    /// The store of SSE events that goes with these sessions, on the same
    /// connection: each server that shares the sessions makes its own.
    pub(super) fn events(&self) -> super::redis_events::RedisEvents {
        super::redis_events::RedisEvents::new(self.connection.clone(), &self.addr)
    }

    fn error(&self, e: &redis::RedisError) -> StoreError {
        StoreError(format!("Redis at {}: {e}", self.addr))
    }

    /// The key every server sharing this store seals MCP 2026-07-28
    /// `requestState` with (give it to
    /// [`McpServer::request_state_key`](crate::mcp::McpServer::request_state_key)),
    /// so that a call's next round opens on any of them: drawn once, by
    /// the first server to ask, and kept in the store.
    ///
    /// # Errors
    /// When Redis cannot be reached, or the operating system gives no
    /// random bytes.
    pub async fn request_state_key(&self) -> Result<Vec<u8>, StoreError> {
        const KEY: &str = "toolwright:mcp-request-state-key";
        let mut drawn = [0_u8; 32];
        getrandom::fill(&mut drawn).map_err(|e| StoreError(format!("no random key: {e}")))?;
        let mut connection = self.connection.clone();
        // Whoever sets it first, every server reads the same one.
        let _: bool = connection
            .set_nx(KEY, drawn.as_slice())
            .await
            .map_err(|e| self.error(&e))?;
        let key: Vec<u8> = connection.get(KEY).await.map_err(|e| self.error(&e))?;
        if key.len() < 32 {
            return Err(StoreError(format!(
                "{KEY} holds {} bytes, fewer than a key needs",
                key.len()
            )));
        }
        Ok(key)
    }

    /// The log level the session's client set, if any.
    ///
    /// # Errors
    /// When Redis cannot be reached.
    pub(crate) async fn level(&self, session: &str) -> Result<Option<LogLevel>, StoreError> {
        let level: Option<String> = self
            .connection
            .clone()
            .hget(key(session), "level")
            .await
            .map_err(|e| self.error(&e))?;
        Ok(level.and_then(|level| serde_json::from_str(&level).ok()))
    }

    /// Records the log level the session's client set.
    ///
    /// # Errors
    /// When Redis cannot be reached.
    pub(crate) async fn set_level(&self, session: &str, level: LogLevel) -> Result<(), StoreError> {
        let level = serde_json::to_string(&level)
            .map_err(|e| StoreError(format!("the level does not encode: {e}")))?;
        let () = redis::pipe()
            .atomic()
            .hset(key(session), "level", level)
            .ignore()
            .expire(key(session), seconds(IDLE))
            .ignore()
            .query_async(&mut self.connection.clone())
            .await
            .map_err(|e| self.error(&e))?;
        Ok(())
    }
}

impl RedisSessions {
    /// Keeps (or rewrites) the record of one of the session's tasks, made
    /// at `created_at` (ms since the epoch); the record is the tasks
    /// module's own text.
    ///
    /// # Errors
    /// When Redis cannot be reached.
    pub(crate) async fn keep_task(
        &self,
        session: &str,
        task_id: &str,
        created_at: u64,
        record: &str,
    ) -> Result<(), StoreError> {
        let _: i64 = redis::Script::new(KEEP_TASK)
            .key(tasks_key(session))
            .key(task_order_key(session))
            .arg(task_id)
            .arg(record)
            .arg(created_at)
            .arg(MAX_TASKS)
            .arg(seconds(IDLE))
            .invoke_async(&mut self.connection.clone())
            .await
            .map_err(|e| self.error(&e))?;
        Ok(())
    }

    /// The records of the session's tasks, oldest first.
    ///
    /// # Errors
    /// When Redis cannot be reached.
    pub(crate) async fn tasks(&self, session: &str) -> Result<Vec<(String, String)>, StoreError> {
        let mut connection = self.connection.clone();
        let ids: Vec<String> = connection
            .zrange(task_order_key(session), 0, -1)
            .await
            .map_err(|e| self.error(&e))?;
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let records: Vec<Option<String>> = redis::cmd("HMGET")
            .arg(tasks_key(session))
            .arg(&ids)
            .query_async(&mut connection)
            .await
            .map_err(|e| self.error(&e))?;
        Ok(ids
            .into_iter()
            .zip(records)
            .filter_map(|(id, record)| Some((id, record?)))
            .collect())
    }
}

#[async_trait::async_trait]
impl SessionStore for RedisSessions {
    async fn load(&self, session_id: &str) -> Result<Option<SessionState>, SessionStoreError> {
        let state: Option<String> = self
            .connection
            .clone()
            .hget(key(session_id), "init")
            .await
            .map_err(|e| self.error(&e))?;
        match state {
            Some(state) => Ok(Some(serde_json::from_str(&state)?)),
            None => Ok(None),
        }
    }

    async fn store(&self, session_id: &str, state: &SessionState) -> Result<(), SessionStoreError> {
        let state = serde_json::to_string(state)?;
        let () = redis::pipe()
            .atomic()
            .hset(key(session_id), "init", state)
            .ignore()
            .expire(key(session_id), seconds(IDLE))
            .ignore()
            .query_async(&mut self.connection.clone())
            .await
            .map_err(|e| self.error(&e))?;
        Ok(())
    }

    async fn delete(&self, session_id: &str) -> Result<(), SessionStoreError> {
        let () = self
            .connection
            .clone()
            .del(&[
                key(session_id),
                tasks_key(session_id),
                task_order_key(session_id),
            ])
            .await
            .map_err(|e| self.error(&e))?;
        Ok(())
    }
}
