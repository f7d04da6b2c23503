package statestore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
	"github.com/sony/gobreaker/v2"

	"github.com/fibegg/fibe/internal/reliability"
)

// Redis is a reliability.Store kept in Redis, shared by every machine that
// names the same server. Each transition is one Lua script (scripts.go),
// atomic on the server; reads are single commands. No lock is ever held
// across an API call: a transition is over when its script returns.
//
// Keys are namespaced by the hash of what the record is about,
// "fibe:<hash>:breakers" (a hash, field = resource), "fibe:<hash>:ratelimit",
// "fibe:<hash>:marquees", and "fibe:journal" for the outcome journal, and
// carry TTLs so stale state disappears: breakers a day after their last
// change, a rate-limit window a minute after its reset, the marquee cache
// after its TTL, the journal a day after its last entry.
type Redis struct {
	rdb     *redis.Client
	name    string        // the URL, password masked
	timeout time.Duration // of each call
	// Trace, when set, is told about each call (no secrets in it).
	Trace func(format string, args ...any)

	calls atomic.Int64 // round trips: commands, pipelines and scripts sent
	dials atomic.Int64 // connections opened

	preMu   sync.Mutex
	preKeys []string              // logical keys to fetch with the first read
	pre     map[string]prefetched // by Redis key, each used once
	preDone bool
}

type prefetched struct {
	hash map[string]string
	err  error
}

// DefaultTimeout bounds each call to the store (contract §6: an
// unreachable store costs at most 200 ms).
const DefaultTimeout = 200 * time.Millisecond

const (
	breakerTTL = 24 * time.Hour
	journalTTL = reliability.JournalMaxAge
	windowKeep = time.Minute
)

// quiet keeps go-redis from logging to stderr: a failing store is reported
// once, by Failover's warning.
type quiet struct{}

func (quiet) Printf(context.Context, string, ...any) {}

var setLogger sync.Once

// OpenRedis returns the store named by rawURL (redis://[user:pass@]host:port/db
// or rediss:// for TLS). Nothing is sent until the first call.
func OpenRedis(rawURL string, timeout time.Duration) (*Redis, error) {
	opt, err := redis.ParseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("invalid state store URL %s: %v", redact(rawURL), redactErr(err, rawURL))
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	setLogger.Do(func() { redis.SetLogger(quiet{}) })
	opt.DialTimeout, opt.ReadTimeout, opt.WriteTimeout = timeout, timeout, timeout
	opt.ContextTimeoutEnabled = true
	opt.MaxRetries = -1 // one try: a failing store is left for the file store
	opt.DialerRetries = 1
	opt.PoolSize = 4
	opt.Protocol = 2
	opt.DisableIdentity = true
	opt.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
	s := &Redis{name: redact(rawURL), timeout: timeout}
	dial := opt.Dialer
	opt.Dialer = func(ctx context.Context, network, addr string) (net.Conn, error) {
		s.dials.Add(1)
		if dial != nil {
			return dial(ctx, network, addr)
		}
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}
	s.rdb = redis.NewClient(opt)
	return s, nil
}

// Close closes the connections.
func (s *Redis) Close() error { return s.rdb.Close() }

// SharedByFleet reports true: a Redis store is shared by many machines.
func (s *Redis) SharedByFleet() bool { return true }

// Describe is the URL, password masked.
func (s *Redis) Describe() string { return s.name }

// RoundTrips is how many commands, pipelines and scripts were sent.
func (s *Redis) RoundTrips() int64 { return s.calls.Load() }

// Dials is how many connections were opened.
func (s *Redis) Dials() int64 { return s.dials.Load() }

// RedisKey maps a logical record ("breakers-<host>") to its Redis key.
func RedisKey(logical string) string {
	if logical == "journal" {
		return "fibe:journal"
	}
	kind, scope, _ := strings.Cut(logical, "-")
	sum := sha256.Sum256([]byte(scope))
	return "fibe:" + hex.EncodeToString(sum[:8]) + ":" + kind
}

// call runs fn with the call's deadline, counts it and traces it.
func (s *Redis) call(what string, fn func(ctx context.Context) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	start := time.Now()
	s.calls.Add(1)
	err := fn(ctx)
	if errors.Is(err, redis.Nil) {
		err = nil
	}
	if s.Trace != nil {
		res := "ok"
		if err != nil {
			res = err.Error()
		}
		s.Trace("state store %s: %s (%s, %s)", s.name, what, res, time.Since(start).Round(time.Microsecond))
	}
	return err
}

func ms(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMS(v int64) time.Time {
	if v <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(v)
}

// Prefetch names the logical keys the first read fetches in one round trip.
func (s *Redis) Prefetch(keys ...string) {
	s.preMu.Lock()
	defer s.preMu.Unlock()
	if !s.preDone {
		s.preKeys = append(s.preKeys, keys...)
	}
}

// hash returns the whole hash of key: from the prefetch when it holds it
// (once), else with HGETALL.
func (s *Redis) hash(logical string) (map[string]string, error) {
	key := RedisKey(logical)
	if p, ok := s.takePrefetched(logical, key); ok {
		return p.hash, p.err
	}
	var out map[string]string
	err := s.call("HGETALL "+key, func(ctx context.Context) error {
		var err error
		out, err = s.rdb.HGetAll(ctx, key).Result()
		return err
	})
	return out, err
}

func (s *Redis) takePrefetched(logical, key string) (prefetched, bool) {
	s.preMu.Lock()
	defer s.preMu.Unlock()
	if !s.preDone {
		s.preDone = true
		keys := s.preKeys
		s.preKeys = nil
		found := false
		for _, k := range keys {
			found = found || k == logical
		}
		if found {
			s.pre = s.fetch(keys)
		}
	}
	p, ok := s.pre[key]
	if !strings.HasPrefix(logical, "marquees-") {
		delete(s.pre, key) // state is read fresh after its first use; the cache may be a little stale
	}
	return p, ok
}

// cacheView is the invocation's copy of a cache hash, if it was prefetched.
func (s *Redis) cacheView(key string) map[string]string {
	s.preMu.Lock()
	defer s.preMu.Unlock()
	if p, ok := s.pre[key]; ok && p.err == nil {
		return p.hash
	}
	return nil
}

// fetch reads every hash of keys in one script (a pipeline would cost a
// second connection).
func (s *Redis) fetch(keys []string) map[string]prefetched {
	var names []string
	seen := map[string]bool{}
	for _, k := range keys {
		if rk := RedisKey(k); !seen[rk] {
			seen[rk] = true
			names = append(names, rk)
		}
	}
	res, err := s.script("prefetch", prefetchScript(), names)
	out := map[string]prefetched{}
	list, _ := res.([]any)
	if err == nil && len(list) != len(names) {
		err = cmpErr(nil, res)
	}
	for i, rk := range names {
		if err != nil {
			out[rk] = prefetched{err: err}
			continue
		}
		flat, _ := list[i].([]any)
		h := make(map[string]string, len(flat)/2)
		for j := 0; j+1 < len(flat); j += 2 {
			f, _ := flat[j].(string)
			v, _ := flat[j+1].(string)
			h[f] = v
		}
		out[rk] = prefetched{hash: h}
	}
	return out
}

// breakerJSON is a breaker record as the scripts keep it.
type breakerJSON struct {
	S  float64 `json:"s"`
	G  float64 `json:"g"`
	RQ float64 `json:"rq"`
	TS float64 `json:"ts"`
	TF float64 `json:"tf"`
	CS float64 `json:"cs"`
	CF float64 `json:"cf"`
	TE float64 `json:"te"`
	ST float64 `json:"st"`
	EX float64 `json:"ex"`
}

func decodeBreaker(raw string) (gobreaker.SharedState, bool) {
	var b breakerJSON
	if json.Unmarshal([]byte(raw), &b) != nil || b.S < 0 || b.S > 2 {
		return gobreaker.SharedState{}, false
	}
	return gobreaker.SharedState{
		State:      gobreaker.State(b.S),
		Generation: uint64(b.G),
		Counts: gobreaker.Counts{
			Requests:             uint32(b.RQ),
			TotalSuccesses:       uint32(b.TS),
			TotalFailures:        uint32(b.TF),
			ConsecutiveSuccesses: uint32(b.CS),
			ConsecutiveFailures:  uint32(b.CF),
			TotalExclusions:      uint32(b.TE),
		},
		Start:  fromMS(int64(b.ST)),
		Expiry: fromMS(int64(b.EX)),
	}, true
}

func freshBreaker() gobreaker.SharedState {
	return gobreaker.SharedState{State: gobreaker.StateClosed, Generation: 1}
}

func (s *Redis) BreakerGet(key, resource string) (gobreaker.SharedState, error) {
	rk := RedisKey(key)
	if p, ok := s.takePrefetched(key, rk); ok {
		if p.err != nil {
			return gobreaker.SharedState{}, p.err
		}
		if r, ok := decodeBreaker(p.hash[resource]); ok {
			return r, nil
		}
		return freshBreaker(), nil
	}
	var raw string
	err := s.call("HGET "+rk+" "+resource, func(ctx context.Context) error {
		var err error
		raw, err = s.rdb.HGet(ctx, rk, resource).Result()
		return err
	})
	if err != nil {
		return gobreaker.SharedState{}, err
	}
	if r, ok := decodeBreaker(raw); ok {
		return r, nil
	}
	return freshBreaker(), nil
}

func (s *Redis) BreakerList(key string) (map[string]gobreaker.SharedState, error) {
	h, err := s.hash(key)
	if err != nil {
		return nil, err
	}
	out := make(map[string]gobreaker.SharedState, len(h))
	for res, raw := range h {
		if r, ok := decodeBreaker(raw); ok {
			out[res] = r
		}
	}
	return out, nil
}

func breakerArgs(resource string, p reliability.BreakerParams, now time.Time) []any {
	return []any{resource, ms(now), p.Threshold, p.Probes, p.Successes,
		p.OpenTimeout.Milliseconds(), p.ProbeLease.Milliseconds(), breakerTTL.Milliseconds()}
}

func ints(v any) ([]int64, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("state store: unexpected script answer %T", v)
	}
	out := make([]int64, len(list))
	for i, e := range list {
		n, ok := e.(int64)
		if !ok {
			return nil, fmt.Errorf("state store: unexpected script answer %v", v)
		}
		out[i] = n
	}
	return out, nil
}

func moves(v []int64) []reliability.BreakerMove {
	var out []reliability.BreakerMove
	for i := 0; i+1 < len(v); i += 2 {
		out = append(out, reliability.BreakerMove{From: gobreaker.State(v[i]), To: gobreaker.State(v[i+1])})
	}
	return out
}

func (s *Redis) script(what string, sc *redis.Script, keys []string, args ...any) (any, error) {
	var res any
	err := s.call(what+" "+strings.Join(keys, " "), func(ctx context.Context) error {
		var err error
		res, err = sc.Run(ctx, s.rdb, keys, args...).Result()
		return err
	})
	return res, err
}

func (s *Redis) BreakerAdmit(key, resource string, p reliability.BreakerParams, now time.Time) (reliability.BreakerAdmission, error) {
	res, err := s.script("admit "+resource, admitScript(), []string{RedisKey(key)}, breakerArgs(resource, p, now)...)
	if err != nil {
		return reliability.BreakerAdmission{}, err
	}
	v, err := ints(res)
	if err != nil || len(v) < 4 {
		return reliability.BreakerAdmission{}, cmpErr(err, res)
	}
	return reliability.BreakerAdmission{
		Allowed: v[0] == 1,
		Record:  gobreaker.SharedState{State: gobreaker.State(v[1]), Generation: uint64(v[2]), Expiry: fromMS(v[3])},
		Moves:   moves(v[4:]),
	}, nil
}

func (s *Redis) BreakerRecord(key, resource string, generation uint64, o reliability.Outcome, p reliability.BreakerParams, now time.Time) (reliability.BreakerRecorded, error) {
	args := append(breakerArgs(resource, p, now), generation, int(o))
	res, err := s.script("record "+o.String()+" "+resource, recordScript(), []string{RedisKey(key)}, args...)
	if err != nil {
		return reliability.BreakerRecorded{}, err
	}
	v, err := ints(res)
	if err != nil || len(v) < 1 {
		return reliability.BreakerRecorded{}, cmpErr(err, res)
	}
	return reliability.BreakerRecorded{State: gobreaker.State(v[0]), Moves: moves(v[1:])}, nil
}

func cmpErr(err error, res any) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("state store: unexpected script answer %v", res)
}

func (s *Redis) BreakerReset(key, resource string) error {
	rk := RedisKey(key)
	if resource == "" {
		return s.call("DEL "+rk, func(ctx context.Context) error { return s.rdb.Del(ctx, rk).Err() })
	}
	return s.call("HDEL "+rk+" "+resource, func(ctx context.Context) error { return s.rdb.HDel(ctx, rk, resource).Err() })
}

func (s *Redis) LedgerLoad(key string) (reliability.RateLimit, error) {
	h, err := s.hash(key)
	if err != nil {
		return reliability.RateLimit{}, err
	}
	l, _ := strconv.Atoi(h["l"])
	r, _ := strconv.Atoi(h["r"])
	t, _ := strconv.ParseInt(h["t"], 10, 64)
	if r < 0 || t <= 0 {
		return reliability.RateLimit{}, nil
	}
	return reliability.RateLimit{Limit: l, Remaining: r, Reset: fromMS(t)}, nil
}

func (s *Redis) LedgerReset(key string) error {
	rk := RedisKey(key)
	return s.call("DEL "+rk, func(ctx context.Context) error { return s.rdb.Del(ctx, rk).Err() })
}

func (s *Redis) LedgerReserve(key string, view reliability.RateLimit, take bool, now time.Time) (reliability.RateLimit, bool, error) {
	t := 0
	if take {
		t = 1
	}
	res, err := s.script("reserve", reserveScript(), []string{RedisKey(key)},
		view.Limit, view.Remaining, ms(view.Reset), t, ms(now), windowKeep.Milliseconds(), reliability.MaxRateReset.Milliseconds())
	if err != nil {
		return reliability.RateLimit{}, false, err
	}
	v, err := ints(res)
	if err != nil || len(v) != 4 {
		return reliability.RateLimit{}, false, cmpErr(err, res)
	}
	return reliability.RateLimit{Limit: int(v[0]), Remaining: int(v[1]), Reset: fromMS(v[2])}, v[3] == 1, nil
}

type journalValue struct {
	MS  int64                    `json:"ms"`
	Sig string                   `json:"sig"`
	E   reliability.JournalEntry `json:"e"`
}

func encodeJournal(e reliability.JournalEntry) (string, error) {
	b, err := json.Marshal(journalValue{MS: ms(e.Created), Sig: e.Signature, E: e})
	return string(b), err
}

func (s *Redis) JournalPut(e reliability.JournalEntry, now time.Time) error {
	v, err := encodeJournal(e)
	if err != nil {
		return err
	}
	_, err = s.script("journal put", journalPutScript(), []string{RedisKey("journal")},
		e.Key, v, ms(now), reliability.JournalMaxAge.Milliseconds(), journalTTL.Milliseconds())
	return err
}

func (s *Redis) JournalRemove(key string, _ time.Time) error {
	rk := RedisKey("journal")
	return s.call("HDEL "+rk, func(ctx context.Context) error { return s.rdb.HDel(ctx, rk, key).Err() })
}

func (s *Redis) JournalClear(time.Time) error {
	rk := RedisKey("journal")
	return s.call("DEL "+rk, func(ctx context.Context) error { return s.rdb.Del(ctx, rk).Err() })
}

func (s *Redis) JournalList(now time.Time) ([]reliability.JournalEntry, error) {
	h, err := s.hash("journal")
	if err != nil {
		return nil, err
	}
	out := make([]reliability.JournalEntry, 0, len(h))
	for _, raw := range h {
		var v journalValue
		if json.Unmarshal([]byte(raw), &v) != nil || v.E.Key == "" || now.Sub(v.E.Created) > reliability.JournalMaxAge {
			continue
		}
		out = append(out, v.E)
	}
	return out, nil
}

func (s *Redis) JournalClaim(signature string, window time.Duration, fresh reliability.JournalEntry, now time.Time) (reliability.JournalEntry, bool, error) {
	v, err := encodeJournal(fresh)
	if err != nil {
		return fresh, false, err
	}
	res, err := s.script("journal claim", journalClaimScript(), []string{RedisKey("journal")},
		signature, window.Milliseconds(), fresh.Key, v, ms(now), reliability.JournalMaxAge.Milliseconds(), journalTTL.Milliseconds())
	if err != nil {
		return fresh, false, err
	}
	list, ok := res.([]any)
	if !ok || len(list) != 2 {
		return fresh, false, cmpErr(nil, res)
	}
	reused, _ := list[0].(int64)
	raw, _ := list[1].(string)
	var got journalValue
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		return fresh, false, err
	}
	return got.E, reused == 1, nil
}

func (s *Redis) CacheGet(key string, fields ...string) (map[string]reliability.CacheEntry, error) {
	rk := RedisKey(key)
	raw := map[string]string{}
	if p, ok := s.takePrefetched(key, rk); ok {
		if p.err != nil {
			return nil, p.err
		}
		raw = p.hash
	} else {
		err := s.call("HMGET "+rk, func(ctx context.Context) error {
			vals, err := s.rdb.HMGet(ctx, rk, fields...).Result()
			for i, v := range vals {
				if str, ok := v.(string); ok {
					raw[fields[i]] = str
				}
			}
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	out := make(map[string]reliability.CacheEntry, len(fields))
	for _, f := range fields {
		var e reliability.CacheEntry
		if v, ok := raw[f]; ok && json.Unmarshal([]byte(v), &e) == nil {
			out[f] = e
		}
	}
	return out, nil
}

func (s *Redis) CachePut(key string, entries map[string]reliability.CacheEntry, ttl time.Duration, _ time.Time) error {
	rk := RedisKey(key)
	view := s.cacheView(rk)
	args := []any{max(ttl.Milliseconds(), 1)}
	for f, e := range entries {
		var old reliability.CacheEntry
		if raw, ok := view[f]; ok && json.Unmarshal([]byte(raw), &old) == nil && !reliability.CacheStale(old, e, ttl) {
			continue
		}
		b, err := json.Marshal(e)
		if err != nil {
			return err
		}
		args = append(args, f, string(b))
	}
	if len(args) == 1 {
		return nil // nothing new: no round trip
	}
	_, err := s.script("cache put", cachePutScript(), []string{rk}, args...)
	if err == nil && view != nil {
		s.preMu.Lock()
		for i := 1; i+1 < len(args); i += 2 {
			view[args[i].(string)] = args[i+1].(string)
		}
		s.preMu.Unlock()
	}
	return err
}

var _ reliability.Store = (*Redis)(nil)
