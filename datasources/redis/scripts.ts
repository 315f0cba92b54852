/**
 * The Lua scripts behind the Redis KeyValue's atomic operations. Each runs as one Redis command,
 * so concurrent callers (from any number of processes) see each other's effects whole.
 */
import { createHash } from 'node:crypto';

export interface LuaScript {
  source: string;
  sha1: string;
}

function luaScript(source: string): LuaScript {
  return { source, sha1: createHash('sha1').update(source).digest('hex') };
}

/**
 * Sliding windows as exact logs: one sorted set per window (score = time, member = a unique
 * sequence number from a companion counter key). Every window is checked before any is charged.
 *
 * KEYS: per window, its sorted set then its sequence key.
 * ARGV: nowMs, cost, charge (1 consume / 0 peek), then per window: limit, windowMs.
 * Returns: allowed (1/0), then per window: used, resetMs.
 */
export const WINDOWS_SCRIPT = luaScript(`
local now = tonumber(ARGV[1])
local cost = tonumber(ARGV[2])
local charge = ARGV[3] == '1'
local count = #KEYS / 2
local used = {}
local allowed = true
for i = 1, count do
  local limit = tonumber(ARGV[2 + 2 * i])
  local windowMs = tonumber(ARGV[3 + 2 * i])
  redis.call('ZREMRANGEBYSCORE', KEYS[2 * i - 1], '-inf', now - windowMs)
  used[i] = redis.call('ZCARD', KEYS[2 * i - 1])
  if used[i] + cost > limit then allowed = false end
end
local charged = allowed and charge and cost > 0
if charged then
  for i = 1, count do
    local windowMs = tonumber(ARGV[3 + 2 * i])
    local last = redis.call('INCRBY', KEYS[2 * i], cost)
    local entries = {}
    for unit = 1, cost do
      entries[2 * unit - 1] = now
      entries[2 * unit] = last - cost + unit
    end
    redis.call('ZADD', KEYS[2 * i - 1], unpack(entries))
    redis.call('PEXPIRE', KEYS[2 * i - 1], windowMs)
    redis.call('PEXPIRE', KEYS[2 * i], windowMs)
    used[i] = used[i] + cost
  end
end
local needed = cost
if charged then needed = 1 end
local result = { allowed and 1 or 0 }
for i = 1, count do
  local limit = tonumber(ARGV[2 + 2 * i])
  local windowMs = tonumber(ARGV[3 + 2 * i])
  local excess = used[i] + needed - limit
  local resetMs = 0
  if excess > 0 then
    if needed > limit then
      resetMs = windowMs
    else
      local freeing = redis.call('ZRANGE', KEYS[2 * i - 1], excess - 1, excess - 1, 'WITHSCORES')
      resetMs = tonumber(freeing[2]) + windowMs - now
    end
  end
  result[#result + 1] = used[i]
  result[#result + 1] = resetMs
end
return result
`);

/**
 * Quota counters: plain integers expiring at their reset instant. Every counter is checked
 * before any is charged; a negative limit means unlimited (counted, never refused).
 *
 * KEYS: the counters. ARGV: cost, charge (1 consume / 0 peek), then per counter: limit, resetsAt.
 * Returns: refusedIndex (0-based, -1 when allowed), then per counter: used.
 */
export const COUNTERS_SCRIPT = luaScript(`
local cost = tonumber(ARGV[1])
local charge = ARGV[2] == '1'
local used = {}
local refused = -1
for i = 1, #KEYS do
  used[i] = tonumber(redis.call('GET', KEYS[i]) or '0')
  local limit = tonumber(ARGV[1 + 2 * i])
  if refused == -1 and limit >= 0 and used[i] + cost > limit then refused = i - 1 end
end
if refused == -1 and charge then
  for i = 1, #KEYS do
    used[i] = redis.call('INCRBY', KEYS[i], cost)
    redis.call('PEXPIREAT', KEYS[i], ARGV[2 + 2 * i])
  end
end
local result = { refused }
for i = 1, #KEYS do result[i + 1] = used[i] end
return result
`);

/**
 * Claims an idempotency record (a hash: state, fingerprint, response) when absent.
 *
 * KEYS: the record. ARGV: fingerprint, inFlightTtlMs.
 * Returns: an empty array when claimed, else the record's state, fingerprint, response.
 */
export const BEGIN_IDEMPOTENT_SCRIPT = luaScript(`
local existing = redis.call('HMGET', KEYS[1], 'state', 'fingerprint', 'response')
if existing[1] then return existing end
redis.call('HSET', KEYS[1], 'state', 'in_flight', 'fingerprint', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {}
`);

/**
 * Adds `by` to a plain counter, setting the TTL only when this call created the key.
 *
 * KEYS: the key. ARGV: by, ttlMs ('' for none). Returns the new value.
 */
export const INCREMENT_SCRIPT = luaScript(`
local created = redis.call('EXISTS', KEYS[1]) == 0
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
if created and ARGV[2] ~= '' then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return value
`);

/**
 * Takes an absent lease (an expired one is absent: Redis dropped it) or extends the holder's own.
 *
 * KEYS: the lease. ARGV: holder, ttlMs. Returns 1 when the holder holds it now, else 0.
 */
export const HOLD_LEASE_SCRIPT = luaScript(`
local current = redis.call('GET', KEYS[1])
if current ~= false and current ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`);

/** Deletes the lease when the holder still holds it. KEYS: the lease. ARGV: holder. Returns 1 when deleted. */
export const RELEASE_LEASE_SCRIPT = luaScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1])
`);
