//! The Lua scripts that change records: each runs atomically in Redis, so
//! that a job settles once whoever races to settle it.
//!
//! Keys, under the store's prefix `P` (`toolwright:` by default):
//!
//! | key | type | holds |
//! |---|---|---|
//! | `P job:ID` | hash | the record; expires with the job's time-to-live once it has finished |
//! | `P jobs` | sorted set | every job id, scored by creation time |
//! | `P owner:OWNER` | sorted set | the job ids of one owner |
//! | `P worker:W:jobs` | set | the unfinished jobs of worker `W` |
//! | `P worker:W:lease` | string | present while `W`'s lease holds |
//! | `P workers` | set | the workers that may have unfinished jobs |
//!
//! Each settle is published on the channel `P settled` as `ID STATE`. The
//! scripts name some keys they compute (a job's worker set), which a single
//! Redis or Valkey server allows and Redis Cluster does not.

/// Records a new job. KEYS: job, all jobs, the owner's jobs (or all jobs
/// again), the worker's jobs, the workers. ARGV: id, created_at, worker
/// (or empty), then the hash's fields and values. 1, or 0 when the id is
/// taken.
pub(super) const INSERT: &str = r"
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
if ARGV[3] ~= '' then
  redis.call('SADD', KEYS[4], ARGV[1])
  redis.call('SADD', KEYS[5], ARGV[3])
end
return 1
";

/// Pending → running. KEYS: job. ARGV: started_at.
pub(super) const START: &str = r"
if redis.call('HGET', KEYS[1], 'state') == 'pending' then
  redis.call('HSET', KEYS[1], 'state', 'running', 'started_at', ARGV[1])
end
return 1
";

/// An unfinished job's progress. KEYS: job. ARGV: fraction.
pub(super) const PROGRESS: &str = r"
local state = redis.call('HGET', KEYS[1], 'state')
if state == 'pending' or state == 'running' then
  redis.call('HSET', KEYS[1], 'progress', ARGV[1])
end
return 1
";

/// Settles an unfinished job. KEYS: job. ARGV: id, state, completed_at,
/// ttl in ms, the settle channel, result JSON (or empty), error JSON (or
/// empty), the key prefix. 1 when it settled now, 0 when it had settled
/// or is unknown.
pub(super) const SETTLE: &str = r"
local state = redis.call('HGET', KEYS[1], 'state')
if state ~= 'pending' and state ~= 'running' then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[2], 'completed_at', ARGV[3])
if ARGV[6] ~= '' then redis.call('HSET', KEYS[1], 'result', ARGV[6]) end
if ARGV[7] ~= '' then redis.call('HSET', KEYS[1], 'error', ARGV[7]) end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
local worker = redis.call('HGET', KEYS[1], 'worker')
if worker then redis.call('SREM', ARGV[8] .. 'worker:' .. worker .. ':jobs', ARGV[1]) end
redis.call('PUBLISH', ARGV[5], ARGV[1] .. ' ' .. ARGV[2])
return 1
";

/// Settles failed every unfinished job of every worker whose lease has
/// lapsed, and forgets those workers. KEYS: the workers. ARGV: the key
/// prefix, completed_at, ttl in ms, the settle channel, the error JSON.
/// The ids it settled.
pub(super) const REAP: &str = r"
local reaped = {}
for _, worker in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local base = ARGV[1] .. 'worker:' .. worker
  if redis.call('EXISTS', base .. ':lease') == 0 then
    for _, id in ipairs(redis.call('SMEMBERS', base .. ':jobs')) do
      local key = ARGV[1] .. 'job:' .. id
      local state = redis.call('HGET', key, 'state')
      if state == 'pending' or state == 'running' then
        redis.call('HSET', key, 'state', 'failed', 'completed_at', ARGV[2], 'error', ARGV[5])
        redis.call('PEXPIRE', key, ARGV[3])
        redis.call('PUBLISH', ARGV[4], id .. ' failed')
        table.insert(reaped, id)
      end
    end
    redis.call('DEL', base .. ':jobs')
    redis.call('SREM', KEYS[1], worker)
  end
end
return reaped
";
