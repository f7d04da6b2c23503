package statestore

import (
	"sync"

	"github.com/redis/go-redis/v9"
)

// lazyScript makes a script on first use: a command that never opens the
// Redis store does not hash the scripts at start-up.
func lazyScript(src string) func() *redis.Script {
	return sync.OnceValue(func() *redis.Script { return redis.NewScript(src) })
}

// The Lua scripts run one transition each, atomically on the server. The
// breaker scripts are the Lua twins of admitBreaker, recordBreaker,
// advanceBreaker and clampBreaker in internal/reliability/breaker.go; the ledger script of
// reserveRateLimit and MergeRateLimit in ledger.go; the claim script of
// claimJournal in journal.go. The tests of this package run one table of
// cases against these scripts and the file store.
//
// Times are Unix milliseconds (Lua numbers are doubles: exact far beyond
// that). A breaker record is a field of the host's hash, JSON:
//   s state (0 closed, 1 half-open, 2 open), g generation, rq requests,
//   ts/tf total successes/failures, cs/cf consecutive ones, te exclusions,
//   st start, ex expiry.

// breakerPrelude: KEYS[1] the hash; ARGV: resource, now, threshold,
// probes, successes, open timeout, probe lease, ttl (ms).
const breakerPrelude = `
local key, res = KEYS[1], ARGV[1]
local now, threshold, probes = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local successes, openms, leasems, ttl = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8])
local fields = {'g', 'rq', 'ts', 'tf', 'cs', 'cf', 'te', 'st', 'ex'}
local function load()
  local raw = redis.call('HGET', key, res)
  local ok, r = false, nil
  if raw then ok, r = pcall(cjson.decode, raw) end
  if not ok or type(r) ~= 'table' or (r.s ~= 0 and r.s ~= 1 and r.s ~= 2) then
    return {s = 0, g = 1, rq = 0, ts = 0, tf = 0, cs = 0, cf = 0, te = 0, st = 0, ex = 0}
  end
  for _, f in ipairs(fields) do
    if type(r[f]) ~= 'number' then r[f] = 0 end
  end
  return r
end
local moves = {}
local dirty = false
local function newgen(r)
  r.g = r.g + 1
  r.rq, r.ts, r.tf, r.cs, r.cf, r.te = 0, 0, 0, 0, 0, 0
  r.st = now
  if r.s == 2 then r.ex = now + openms elseif r.s == 1 then r.ex = now + leasems else r.ex = 0 end
  dirty = true
end
local function setstate(r, to)
  table.insert(moves, r.s)
  table.insert(moves, to)
  r.s = to
  newgen(r)
end
local function valid(r)
  if r.rq < r.te then return 0 end
  return r.rq - r.te
end
local function clamp(r)
  local most = nil
  if r.s == 2 then most = openms elseif r.s == 1 then most = leasems end
  if most and r.ex > now + most then
    r.ex = now + most
    dirty = true
  end
end
local function advance(r)
  clamp(r)
  if r.s == 2 then
    if now >= r.ex then setstate(r, 1) end
  elseif r.s == 1 then
    if valid(r) > 0 and now > r.ex then newgen(r) end
  end
end
local function save(r)
  local out = {s = r.s}
  for _, f in ipairs(fields) do out[f] = r[f] end
  redis.call('HSET', key, res, cjson.encode(out))
  redis.call('PEXPIRE', key, ttl)
end
`

// admitScript answers {allowed, state, generation, expiry, from1, to1, ...}.
var admitScript = lazyScript(breakerPrelude + `
local r = load()
advance(r)
local allowed = 1
if r.s == 2 then
  allowed = 0
elseif r.s == 1 and valid(r) >= probes then
  allowed = 0
end
if allowed == 1 then
  if r.s == 1 then r.ex = now + leasems end
  r.rq = r.rq + 1
  dirty = true
end
if dirty then save(r) end
local out = {allowed, r.s, r.g, r.ex}
for _, m in ipairs(moves) do table.insert(out, m) end
return out
`)

// recordScript: ARGV[9] generation, ARGV[10] outcome (0 ignored, 1
// success, 2 failure). Answers {state, from1, to1, ...}.
var recordScript = lazyScript(breakerPrelude + `
local gen, outcome = tonumber(ARGV[9]), tonumber(ARGV[10])
local r = load()
advance(r)
if r.g == gen then
  if outcome == 0 then
    r.te = r.te + 1
    dirty = true
  elseif outcome == 1 then
    if r.cf ~= 0 or r.s ~= 0 then dirty = true end
    r.ts, r.cs, r.cf = r.ts + 1, r.cs + 1, 0
    if r.s == 1 and r.cs >= successes then setstate(r, 0) end
  elseif outcome == 2 then
    r.tf, r.cf, r.cs = r.tf + 1, r.cf + 1, 0
    dirty = true
    if r.s == 0 and r.cf >= threshold then setstate(r, 2)
    elseif r.s == 1 then setstate(r, 2) end
  end
end
if dirty then save(r) end
local out = {r.s}
for _, m in ipairs(moves) do table.insert(out, m) end
return out
`)

// reserveScript: KEYS[1] the ledger hash (l limit, r remaining, t reset);
// ARGV: view limit, remaining, reset, take (1 or 0), now, keep (ms a
// window's record outlives its reset), horizon (ms: a reset farther ahead
// is implausible and dropped, reliability.MaxRateReset). Without take the
// view is an answer's and replaces a stored window that differs. The TTL
// is bounded by horizon + keep. Answers {limit, remaining, reset, took}.
var reserveScript = lazyScript(`
local now = tonumber(ARGV[5])
local horizon = now + tonumber(ARGV[7])
local take = ARGV[4] == '1'
local s = redis.call('HMGET', KEYS[1], 'l', 'r', 't')
local al, ar, at = tonumber(s[1]) or 0, tonumber(s[2]) or 0, tonumber(s[3]) or 0
local bl, br, bt = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
if ar < 0 then al, ar, at = 0, 0, 0 end
if at <= now or at > horizon then ar, at = 0, 0 end
if bt <= now or bt > horizon then br, bt = 0, 0 end
if not take and bt > 0 and bt ~= at then
  if bl == 0 then bl = al end
  al, ar, at = bl, br, bt
else
  if bt > at then al, ar, at, bl, br, bt = bl, br, bt, al, ar, at end
  if at == bt then
    ar = math.min(ar, br)
    al = math.max(al, bl)
  elseif al == 0 then
    al = bl
  end
end
if ar < 0 then ar = 0 end
local took = 0
if take and at > now and ar > 0 then
  ar = ar - 1
  took = 1
end
if at > now then
  redis.call('HSET', KEYS[1], 'l', al, 'r', ar, 't', at)
  redis.call('PEXPIRE', KEYS[1], math.min(at - now, tonumber(ARGV[7])) + tonumber(ARGV[6]))
elseif redis.call('EXISTS', KEYS[1]) == 1 and (tonumber(s[3]) or 0) > horizon then
  redis.call('DEL', KEYS[1])
end
return {al, ar, at, took}
`)

// The journal is one hash: field = idempotency key, value = JSON
// {"ms": created, "sig": signature, "e": the entry}.

// journalPutScript: KEYS[1] the journal; ARGV: key, value, now, max age,
// ttl (ms). Drops entries older than max age on the way.
var journalPutScript = lazyScript(`
local now, maxage = tonumber(ARGV[3]), tonumber(ARGV[4])
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local ok, v = pcall(cjson.decode, all[i + 1])
  if not ok or type(v) ~= 'table' or type(v.ms) ~= 'number' or now - v.ms > maxage then
    redis.call('HDEL', KEYS[1], all[i])
  end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[5]))
return 1
`)

// journalClaimScript: KEYS[1] the journal; ARGV: signature, window, fresh
// key, fresh value, now, max age, ttl (ms). Answers {reused (1/0), value}.
var journalClaimScript = lazyScript(`
local sig, window, now, maxage = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[5]), tonumber(ARGV[6])
local all = redis.call('HGETALL', KEYS[1])
local best, bestms = nil, nil
for i = 1, #all, 2 do
  local ok, v = pcall(cjson.decode, all[i + 1])
  if not ok or type(v) ~= 'table' or type(v.ms) ~= 'number' or now - v.ms > maxage then
    redis.call('HDEL', KEYS[1], all[i])
  elseif v.sig == sig and sig ~= '' and not (type(v.e) == 'table' and v.e.explicit == true) and (now - v.ms <= window or (type(v.e) == 'table' and v.e.handed_off == true)) and (bestms == nil or v.ms > bestms) then
    best, bestms = all[i + 1], v.ms
  end
end
if best then return {1, best} end
redis.call('HSET', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[7]))
return {0, ARGV[4]}
`)

// cachePutScript: KEYS[1] the cache hash; ARGV: ttl (ms), then field,
// value pairs.
var cachePutScript = lazyScript(`
for i = 2, #ARGV, 2 do
  redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
end
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]))
return 1
`)

// prefetchScript reads the hashes KEYS in one round trip: {fields and
// values of KEYS[1]}, {... of KEYS[2]}, ...
var prefetchScript = lazyScript(`
local out = {}
for i, k in ipairs(KEYS) do
  out[i] = redis.call('HGETALL', k)
end
return out
`)
