"""The Lua scripts of the Redis leases: every lease change is atomic and uses Redis's clock,
never a process's (``redis_cluster``, ``docs/cluster.md``)."""

_NOW = (
    "local t = redis.call('TIME')\n"
    "local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)\n"
)

CLAIM = (
    _NOW
    + """
-- KEYS: leases (zset table -> expiry ms), holders (hash table -> process)
-- ARGV: process, ttl ms, table...: take or renew each lease that is ours, free or lapsed (but
-- not one a process handed over within the last ttl: those are shared out by TAKE_LAPSED)
local got = {}
for i = 3, #ARGV do
  local t = ARGV[i]
  local holder = redis.call('HGET', KEYS[2], t)
  local expiry = tonumber(redis.call('ZSCORE', KEYS[1], t))
  local handed = holder and string.sub(holder, 1, 5) == 'from:'
    and expiry and expiry >= now - tonumber(ARGV[2])
  if holder == ARGV[1] or not expiry or (expiry < now and not handed) then
    redis.call('HSET', KEYS[2], t, ARGV[1])
    redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), t)
    got[#got + 1] = t
  end
end
return got
"""
)

TAKE_LAPSED = (
    _NOW
    + """
-- KEYS: leases, holders, processes (zset process -> heartbeat expiry ms)
-- ARGV: process, ttl ms, leases the process holds: beat, then take lapsed leases. Of those a
-- live process handed over within the last ttl, only up to this process's fair share (so the
-- first process to look cannot take every one and leave another with none), and never back to
-- the giver; handed over longer ago (nobody under their share took them), a share by anyone;
-- of those whose holder died, a share among all. Returns {taken, leases in all, live processes}.
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[2]), ARGV[1])
local alive = math.max(1, redis.call('ZCOUNT', KEYS[3], now, '+inf'))
local total = redis.call('ZCARD', KEYS[1])
local room = math.max(0, math.ceil(total / alive) - tonumber(ARGV[3]))
local mine = 'from:' .. ARGV[1]
local fresh, stale, orphaned = {}, {}, {}
local lapsed = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - 1, 'WITHSCORES')
for i = 1, #lapsed, 2 do
  local t, since = lapsed[i], tonumber(lapsed[i + 1])
  local holder = redis.call('HGET', KEYS[2], t)
  if holder and string.sub(holder, 1, 5) == 'from:' then
    if alive == 1 or since < now - tonumber(ARGV[2]) then
      stale[#stale + 1] = t
    elseif holder ~= mine then
      fresh[#fresh + 1] = t
    end
  else
    orphaned[#orphaned + 1] = t
  end
end
local got = {}
local function take(list, share)
  for i = 1, math.min(share, #list) do
    local t = list[i]
    redis.call('HSET', KEYS[2], t, ARGV[1])
    redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), t)
    got[#got + 1] = t
  end
end
take(fresh, math.min(room, math.ceil(#fresh / math.max(1, alive - 1))))
take(stale, math.ceil(#stale / alive))
take(orphaned, math.ceil(#orphaned / alive))
return {got, total, alive}
"""
)

DRAW = (
    _NOW
    + """
-- KEYS: leases, holders, presence of the table (hash process -> seats connected there)
-- ARGV: process, ttl ms, table: take the lease unless a live holder has people connected
local holder = redis.call('HGET', KEYS[2], ARGV[3])
local expiry = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[3]))
if holder and holder ~= ARGV[1] and expiry and expiry >= now
   and redis.call('HEXISTS', KEYS[3], holder) == 1 then
  return 0
end
redis.call('HSET', KEYS[2], ARGV[3], ARGV[1])
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
return 1
"""
)

PRESENCE = (
    _NOW
    + """
-- KEYS: presence of a table (hash process -> seats), processes; ARGV: process
-- The seats connected at the other live processes (a dead process's entry is ignored).
local found = {}
local entries = redis.call('HGETALL', KEYS[1])
for i = 1, #entries, 2 do
  local beat = tonumber(redis.call('ZSCORE', KEYS[2], entries[i]))
  if entries[i] ~= ARGV[1] and beat and beat >= now then found[#found + 1] = entries[i + 1] end
end
return found
"""
)

RELEASE = """
-- KEYS: leases, holders; ARGV: process, table...: give up the leases that are ours
for i = 2, #ARGV do
  local t = ARGV[i]
  if redis.call('HGET', KEYS[2], t) == ARGV[1] then
    redis.call('HDEL', KEYS[2], t)
    redis.call('ZREM', KEYS[1], t)
  end
end
return 0
"""

HAND_OFF = (
    _NOW
    + """
-- KEYS: leases, holders; ARGV: process, age ms, table...: let our leases lapse now, for the
-- others to take at their next round, marked as given by us. Age 0 (more than a fair share): the
-- others take them up to their own share, and we never take them back ourselves (TAKE_LAPSED);
-- an age past the ttl (a clean shutdown, a failed take-over): anyone takes them at once.
for i = 3, #ARGV do
  if redis.call('HGET', KEYS[2], ARGV[i]) == ARGV[1] then
    redis.call('HSET', KEYS[2], ARGV[i], 'from:' .. ARGV[1])
    redis.call('ZADD', KEYS[1], now - 1 - tonumber(ARGV[2]), ARGV[i])
  end
end
return 0
"""
)

PEERS = (
    _NOW
    + """
-- KEYS: processes; ARGV: forget after ms. The live processes; forget long-dead ones.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]))
return redis.call('ZRANGEBYSCORE', KEYS[1], now, '+inf')
"""
)

DUTY = """
-- KEYS: the duty's key; ARGV: process, ttl ms: take the duty if it is free, renew it if it is
-- ours; 1 if this process holds it now
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
  return 1
end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', tonumber(ARGV[2])) then
  return 1
end
return 0
"""
