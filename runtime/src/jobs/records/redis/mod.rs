//! [`RedisJobs`]: the records in Redis (or Valkey), shared by every worker
//! and gateway of a deployment.

mod hash;
mod scripts;

use std::time::Duration;

use futures_util::StreamExt;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{AsyncCommands, Script};
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;

use super::memory::interrupted;
use super::{
    Change, Ending, JobHead, JobPage, JobQuery, JobRecord, JobRecords, Retention, StoreError,
    StoreFuture,
};
use crate::time::now_ms;

/// The key prefix of every key the store writes.
const PREFIX: &str = "toolwright:";

/// How many changes a follower may fall behind by before it is told it
/// missed some.
const CHANGES: usize = 1024;

/// How long a command waits for Redis to answer, and a connection to be
/// made: a store that is down is an `UNAVAILABLE` error within this, never
/// a hang.
const TIMEOUT: Duration = Duration::from_secs(2);
const CONNECT_TIMEOUT: Duration = Duration::from_millis(500);

/// Job records in Redis, for deployments of more than one process: every
/// worker writes its jobs here, every gateway answers `job_status`,
/// `job_list`, `job_poll` and `job_cancel` from here, and a job settles
/// once (a Lua script makes each change atomic). A worker holds a lease,
/// renewed with its heartbeat; the unfinished jobs of a worker whose lease
/// lapsed are settled failed with [`INTERRUPTED`](super::INTERRUPTED) by
/// whoever reaps first. Settles are published on a channel, so waiting for
/// a job is woken by Redis itself.
///
/// A finished record expires with the job's time-to-live (`PEXPIRE`); the
/// count bound of [`Retention`] is left to Redis's own `maxmemory`. Redis
/// keeps what it has acknowledged as long as its persistence says: with
/// `appendonly yes` and `appendfsync everysec` (the usual setting) at most
/// the last second of changes is lost if the Redis server itself crashes;
/// `appendfsync always` loses none.
///
/// A single Redis or Valkey server (or a primary with replicas); the
/// scripts compute some keys, which Redis Cluster does not allow.
#[derive(Clone)]
pub struct RedisJobs {
    connection: ConnectionManager,
    changes: broadcast::Sender<Change>,
    /// Where Redis is, for messages.
    addr: String,
    /// Cancelled when the last clone goes: the follower task ends.
    _stop: std::sync::Arc<StopOnDrop>,
}

struct StopOnDrop(CancellationToken);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

impl std::fmt::Debug for RedisJobs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisJobs")
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

impl RedisJobs {
    /// A store at `url` (`redis://HOST:PORT/DB`, or `rediss://` when the
    /// client was built with TLS). Returns at once, without connecting:
    /// a store that is down makes the calls that need it fail with
    /// `UNAVAILABLE` until it is back, and nothing else.
    ///
    /// Call it within a tokio runtime with its I/O driver on
    /// (`enable_all`): the store follows its settle channel on a task of
    /// it.
    ///
    /// # Errors
    /// For a URL that is not a Redis URL, or outside a tokio runtime.
    pub fn open(url: &str) -> Result<Self, StoreError> {
        let runtime = tokio::runtime::Handle::try_current().map_err(|_| {
            StoreError("a Redis job store is opened within a tokio runtime".to_owned())
        })?;
        let (client, connection, addr) = connect(url, &runtime)?;
        let (changes, _) = broadcast::channel(CHANGES);
        let stop = CancellationToken::new();
        runtime.spawn(follow(client, changes.clone(), stop.clone()));
        Ok(RedisJobs {
            connection,
            changes,
            addr,
            _stop: std::sync::Arc::new(StopOnDrop(stop)),
        })
    }

    fn error(&self, e: &redis::RedisError) -> StoreError {
        StoreError(format!("Redis at {}: {e}", self.addr))
    }

    /// Runs one command or script on the shared connection.
    fn connection(&self) -> ConnectionManager {
        self.connection.clone()
    }
}

/// A client of the Redis at `url` and its shared connection, made without
/// connecting (it connects on first use, and again after a loss), and the
/// server's address for messages.
pub(crate) fn connect(
    url: &str,
    runtime: &tokio::runtime::Handle,
) -> Result<(redis::Client, ConnectionManager, String), StoreError> {
    let client = redis::Client::open(url).map_err(|e| StoreError(format!("{url}: {e}")))?;
    let addr = client.get_connection_info().addr().to_string();
    let config = ConnectionManagerConfig::new()
        .set_connection_timeout(Some(CONNECT_TIMEOUT))
        .set_response_timeout(Some(TIMEOUT))
        .set_number_of_retries(1)
        .set_min_delay(Duration::from_millis(50))
        .set_max_delay(Duration::from_millis(500));
    let connection = {
        let _entered = runtime.enter();
        ConnectionManager::new_lazy_with_config(client.clone(), config)
            .map_err(|e| StoreError(format!("Redis at {addr}: {e}")))?
    };
    Ok((client, connection, addr))
}

fn key(kind: &str, name: &str) -> String {
    format!("{PREFIX}{kind}:{name}")
}

fn all_jobs() -> String {
    format!("{PREFIX}jobs")
}

fn workers() -> String {
    format!("{PREFIX}workers")
}

fn channel() -> String {
    format!("{PREFIX}settled")
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX).max(1)
}

/// Follows the settle channel, reconnecting after a lost connection (and
/// saying then that changes may have been missed), until `stop`.
async fn follow(
    client: redis::Client,
    changes: broadcast::Sender<Change>,
    stop: CancellationToken,
) {
    let mut delay = Duration::from_millis(50);
    loop {
        let session = async {
            let mut pubsub = client.get_async_pubsub().await?;
            pubsub.subscribe(channel()).await?;
            // Subscribed (again): whatever settled while not, is read again.
            let _ = changes.send(Change::Missed);
            let mut messages = pubsub.on_message();
            while let Some(message) = messages.next().await {
                let Ok(payload) = message.get_payload::<String>() else {
                    continue;
                };
                if let Some((job_id, state)) = payload.split_once(' ')
                    && let Some(state) = hash::state(state)
                {
                    let _ = changes.send(Change::Settled {
                        job_id: job_id.to_owned(),
                        state,
                    });
                }
            }
            Ok::<(), redis::RedisError>(())
        };
        tokio::select! {
            () = stop.cancelled() => return,
            ended = session => {
                if ended.is_ok() {
                    delay = Duration::from_millis(50);
                }
            }
        }
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(delay) => {}
        }
        delay = (delay * 2).min(Duration::from_secs(1));
    }
}

impl JobRecords for RedisJobs {
    fn insert(&self, job: JobRecord) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            let job_key = key("job", &job.job_id);
            let owner_key = job
                .owner
                .as_deref()
                .map_or_else(all_jobs, |owner| key("owner", owner));
            let worker = job.worker.clone().unwrap_or_default();
            let worker_key = key("worker", &format!("{worker}:jobs"));
            let script = Script::new(scripts::INSERT);
            let mut invocation = script.key(&job_key);
            invocation
                .key(all_jobs())
                .key(owner_key)
                .key(worker_key)
                .key(workers())
                .arg(&job.job_id)
                .arg(job.created_at)
                .arg(&worker);
            for (field, value) in hash::fields(&job) {
                invocation.arg(field).arg(value);
            }
            let inserted: i64 = invocation
                .invoke_async(&mut self.connection())
                .await
                .map_err(|e| self.error(&e))?;
            if inserted == 0 {
                return Err(StoreError(format!(
                    "the job {} is recorded already",
                    job.job_id
                )));
            }
            Ok(())
        })
    }

    fn start<'a>(&'a self, job_id: &'a str, at: u64) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let _: i64 = Script::new(scripts::START)
                .key(key("job", job_id))
                .arg(at)
                .invoke_async(&mut self.connection())
                .await
                .map_err(|e| self.error(&e))?;
            Ok(())
        })
    }

    fn progress<'a>(&'a self, job_id: &'a str, fraction: f32) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let _: i64 = Script::new(scripts::PROGRESS)
                .key(key("job", job_id))
                .arg(fraction)
                .invoke_async(&mut self.connection())
                .await
                .map_err(|e| self.error(&e))?;
            Ok(())
        })
    }

    fn settle<'a>(
        &'a self,
        job_id: &'a str,
        ending: Ending,
        keep: Retention,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let result = match &ending.result {
                Some(json) => serde_json::to_string(json)
                    .map_err(|e| StoreError(format!("the result does not encode: {e}")))?,
                None => String::new(),
            };
            let error = match &ending.error {
                Some(error) => serde_json::to_string(error)
                    .map_err(|e| StoreError(format!("the error does not encode: {e}")))?,
                None => String::new(),
            };
            let settled: i64 = Script::new(scripts::SETTLE)
                .key(key("job", job_id))
                .arg(job_id)
                .arg(hash::state_name(ending.state))
                .arg(ending.at)
                .arg(millis(keep.ttl))
                .arg(channel())
                .arg(result)
                .arg(error)
                .arg(PREFIX)
                .invoke_async(&mut self.connection())
                .await
                .map_err(|e| self.error(&e))?;
            Ok(settled == 1)
        })
    }

    fn get<'a>(&'a self, job_id: &'a str) -> StoreFuture<'a, Option<JobRecord>> {
        Box::pin(async move {
            let fields: Vec<(String, String)> = self
                .connection()
                .hgetall(key("job", job_id))
                .await
                .map_err(|e| self.error(&e))?;
            if fields.is_empty() {
                return Ok(None);
            }
            hash::record(job_id, fields).map(Some)
        })
    }

    fn head<'a>(&'a self, job_id: &'a str) -> StoreFuture<'a, Option<JobHead>> {
        Box::pin(async move {
            let (state, owner): (Option<String>, Option<String>) = redis::cmd("HMGET")
                .arg(key("job", job_id))
                .arg("state")
                .arg("owner")
                .query_async(&mut self.connection())
                .await
                .map_err(|e| self.error(&e))?;
            let Some(state) = state else {
                return Ok(None);
            };
            let state = hash::state(&state).ok_or_else(|| {
                StoreError(format!(
                    "the record of {job_id} has a state this version cannot read: {state:?}"
                ))
            })?;
            Ok(Some(JobHead { state, owner }))
        })
    }

    fn list(&self, query: JobQuery) -> StoreFuture<'_, JobPage> {
        Box::pin(async move {
            let index = query
                .owner
                .as_deref()
                .map_or_else(all_jobs, |owner| key("owner", owner));
            let mut connection = self.connection();
            let ids: Vec<String> = connection
                .zrevrange(&index, 0, -1)
                .await
                .map_err(|e| self.error(&e))?;
            if ids.is_empty() {
                return Ok(JobPage::new());
            }
            // First what every filter needs, for every job; then whole
            // records for the page alone.
            let mut pipe = redis::pipe();
            for id in &ids {
                pipe.cmd("HMGET")
                    .arg(key("job", id))
                    .arg("state")
                    .arg("tool")
                    .arg("owner");
            }
            let heads: Vec<(Option<String>, Option<String>, Option<String>)> = pipe
                .query_async(&mut connection)
                .await
                .map_err(|e| self.error(&e))?;
            let mut expired = Vec::new();
            let mut counted = JobPage::new();
            let mut wanted = Vec::new();
            for (id, (state, tool, owner)) in ids.iter().zip(heads) {
                let (Some(state), Some(tool)) = (state.as_deref().and_then(hash::state), tool)
                else {
                    expired.push(id.clone());
                    continue;
                };
                let mut head = JobRecord::pending(id, &tool, owner.as_deref(), None, 0);
                head.state = state;
                let before = counted.jobs.len();
                counted.add(&query, &head);
                if counted.jobs.len() > before {
                    wanted.push(id.clone());
                }
            }
            let mut page = JobPage {
                jobs: Vec::with_capacity(wanted.len()),
                ..counted
            };
            if !wanted.is_empty() {
                let mut pipe = redis::pipe();
                for id in &wanted {
                    pipe.hgetall(key("job", id));
                }
                let records: Vec<Vec<(String, String)>> = pipe
                    .query_async(&mut connection)
                    .await
                    .map_err(|e| self.error(&e))?;
                for (id, fields) in wanted.iter().zip(records) {
                    // Expired between the two reads: left out.
                    if !fields.is_empty() {
                        page.jobs.push(hash::record(id, fields)?);
                    }
                }
            }
            if !expired.is_empty() {
                // Expired records leave their ids in the indexes; the
                // next reader need not look at them again.
                let mut pipe = redis::pipe();
                pipe.zrem(all_jobs(), &expired).ignore();
                if query.owner.is_some() {
                    pipe.zrem(&index, &expired).ignore();
                }
                let _: Result<(), _> = pipe.query_async(&mut connection).await;
            }
            Ok(page)
        })
    }

    fn renew<'a>(&'a self, worker: &'a str, lease: Duration) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let () = redis::pipe()
                .atomic()
                .set_options(
                    key("worker", &format!("{worker}:lease")),
                    1,
                    redis::SetOptions::default()
                        .with_expiration(redis::SetExpiry::PX(millis(lease))),
                )
                .ignore()
                .sadd(workers(), worker)
                .ignore()
                .query_async(&mut self.connection())
                .await
                .map_err(|e| self.error(&e))?;
            Ok(())
        })
    }

    fn reap(&self, keep: Retention) -> StoreFuture<'_, Vec<String>> {
        Box::pin(async move {
            let error = serde_json::to_string(&interrupted())
                .map_err(|e| StoreError(format!("the error does not encode: {e}")))?;
            Script::new(scripts::REAP)
                .key(workers())
                .arg(PREFIX)
                .arg(now_ms())
                .arg(millis(keep.ttl))
                .arg(channel())
                .arg(error)
                .invoke_async(&mut self.connection())
                .await
                .map_err(|e| self.error(&e))
        })
    }

    fn follow(&self) -> broadcast::Receiver<Change> {
        self.changes.subscribe()
    }

    fn is_shared(&self) -> bool {
        true
    }

    fn ping(&self) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            redis::cmd("PING")
                .query_async::<()>(&mut self.connection())
                .await
                .map_err(|e| self.error(&e))
        })
    }
}
