package statestore

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fibegg/fibe/internal/reliability"
	"github.com/fibegg/fibe/internal/reliability/reliabilitytest"
	"github.com/fibegg/fibe/internal/statestore/redistest"
)

// On a store shared by a fleet every slot of a known window is reserved in
// the store: ten ledgers (ten machines) that all learned the same window
// take exactly its Remaining slots between them, then wait for Reset.
func TestFleetLedgerSharesEverySlot(t *testing.T) {
	srv := redistest.Start(t)
	clock := reliabilitytest.NewClock(start)
	window := reliability.RateLimit{Limit: 100, Remaining: 30, Reset: start.Add(time.Minute)}
	var sent atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 10; i++ {
		s, err := OpenRedis(srv.URL(0), 2*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		l := reliability.NewLedger(s, "api.example", reliability.Policy{}, clock)
		if err := l.Observe(window); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 10; j++ {
				waited := false
				ctx, cancel := context.WithCancel(context.Background())
				cancel() // a wait would return at once: count only sends without one
				err := l.Admit(ctx, func(time.Duration) { waited = true })
				if err == nil && !waited {
					sent.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if n := sent.Load(); n != 30 {
		t.Fatalf("%d requests sent in a window of 30", n)
	}
}

// Every key the store writes is namespaced and expires.
func TestRedisKeysAreNamespacedAndExpire(t *testing.T) {
	srv := redistest.Start(t)
	s, err := OpenRedis(srv.URL(0), 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	now := time.Now()
	b := reliability.NewBreakers(s, "api.example", reliability.Policy{}, nil)
	tk, _ := b.Allow(res)
	tk.Done(reliability.Failure)
	if _, _, err := s.LedgerReserve(reliability.LedgerKey("api.example"), reliability.RateLimit{Limit: 10, Remaining: 5, Reset: now.Add(time.Minute)}, true, now); err != nil {
		t.Fatal(err)
	}
	if err := s.CachePut("marquees-api.example", map[string]reliability.CacheEntry{"pg:x": {Marquee: "m", At: now}}, time.Minute, now); err != nil {
		t.Fatal(err)
	}
	if err := reliability.NewJournal(s, nil).Put(reliability.JournalEntry{Key: "k", Signature: "s"}); err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr})
	defer rdb.Close()
	keys, err := rdb.Keys(context.Background(), "*").Result()
	if err != nil || len(keys) != 4 {
		t.Fatalf("keys %v %v", keys, err)
	}
	for _, k := range keys {
		if !strings.HasPrefix(k, "fibe:") {
			t.Errorf("key %q is not under fibe:", k)
		}
		ttl, err := rdb.PTTL(context.Background(), k).Result()
		if err != nil || ttl <= 0 || ttl > reliability.JournalMaxAge {
			t.Errorf("key %q: TTL %v %v", k, ttl, err)
		}
	}
}

// A bogus X-RateLimit-Reset (year 5138) gave the ledger key a TTL of about
// 3,100 years, so a whole fleet stalled: now an implausible window is never
// stored, one planted by an older version is dropped at the next touch,
// and the longest TTL is a day and a minute.
func TestRedisLedgerTTLIsBounded(t *testing.T) {
	srv := redistest.Start(t)
	s, err := OpenRedis(srv.URL(0), 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr})
	defer rdb.Close()
	ctx := context.Background()
	key := reliability.LedgerKey("api.example")
	now := time.Now()
	if _, _, err := s.LedgerReserve(key, reliability.RateLimit{Remaining: 0, Reset: time.Unix(99999999999, 0)}, false, now); err != nil {
		t.Fatal(err)
	}
	if n, _ := rdb.Exists(ctx, RedisKey(key)).Result(); n != 0 {
		t.Fatalf("an implausible window was stored (ttl %v)", rdb.PTTL(ctx, RedisKey(key)).Val())
	}
	if err := rdb.HSet(ctx, RedisKey(key), "l", 10, "r", 0, "t", int64(99999999999000)).Err(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.LedgerReserve(key, reliability.RateLimit{Remaining: 0, Reset: now.Add(-time.Second)}, true, now); err != nil {
		t.Fatal(err)
	}
	if n, _ := rdb.Exists(ctx, RedisKey(key)).Result(); n != 0 {
		t.Fatal("a planted implausible window survived a touch")
	}
	if _, _, err := s.LedgerReserve(key, reliability.RateLimit{Remaining: 3, Reset: now.Add(23 * time.Hour)}, false, now); err != nil {
		t.Fatal(err)
	}
	ttl := rdb.PTTL(ctx, RedisKey(key)).Val()
	if ttl <= 0 || ttl > reliability.MaxRateReset+time.Minute {
		t.Fatalf("ledger TTL %v", ttl)
	}
}
