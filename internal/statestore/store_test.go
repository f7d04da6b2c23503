package statestore

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/sony/gobreaker/v2"

	"github.com/fibegg/fibe/internal/reliability"
	"github.com/fibegg/fibe/internal/reliability/reliabilitytest"
	"github.com/fibegg/fibe/internal/statestore/redistest"
)

// One behaviour, two stores: every case below runs against the file store
// (transitions in Go under the file lock) and a real Redis (transitions in
// Lua), and must see the same answers.

// storeKind builds a fresh, empty store of one kind; each call of open
// returns another handle on the same data (another process's view).
type storeKind struct {
	name string
	open func() reliability.Store
	// corrupt makes key's record unreadable.
	corrupt func(key, resource string)
	// plantLedger writes a ledger record as an older version could have.
	plantLedger func(key string, rl reliability.RateLimit)
}

func storeKinds(t *testing.T) []storeKind {
	dir := t.TempDir()
	srv := redistest.Start(t)
	file := storeKind{name: "file", open: func() reliability.Store { return reliability.NewFileStore(dir) },
		corrupt: func(key, _ string) {
			if err := os.WriteFile(filepath.Join(dir, reliability.SafeName(key)+".json"), []byte("{not json"), 0o600); err != nil {
				t.Fatal(err)
			}
		}, plantLedger: func(key string, rl reliability.RateLimit) {
			data, _ := json.Marshal(rl)
			if err := os.WriteFile(filepath.Join(dir, reliability.SafeName(key)+".json"), data, 0o600); err != nil {
				t.Fatal(err)
			}
		}}
	url := srv.URL(0)
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr})
	t.Cleanup(func() { rdb.Close() })
	red := storeKind{name: "redis", open: func() reliability.Store {
		s, err := OpenRedis(url, 2*time.Second) // generous: the machine is loaded
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}, corrupt: func(key, resource string) {
		if err := rdb.HSet(context.Background(), RedisKey(key), resource, "{not json").Err(); err != nil {
			t.Fatal(err)
		}
	}, plantLedger: func(key string, rl reliability.RateLimit) {
		if err := rdb.HSet(context.Background(), RedisKey(key), "l", rl.Limit, "r", rl.Remaining, "t", rl.Reset.UnixMilli()).Err(); err != nil {
			t.Fatal(err)
		}
	}}
	return []storeKind{file, red}
}

var start = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

const res = "marquee/prod-eu"

type storeCase struct {
	name string
	run  func(t *testing.T, k storeKind, clock *reliabilitytest.Clock)
}

func breakersOn(k storeKind, clock *reliabilitytest.Clock) *reliability.Breakers {
	return reliability.NewBreakers(k.open(), "api.example", reliability.Policy{}, clock)
}

func fail(t *testing.T, b *reliability.Breakers, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		tk, err := b.Allow(res)
		if err != nil {
			t.Fatalf("failure %d refused: %v", i+1, err)
		}
		tk.Done(reliability.Failure)
	}
}

func openBreaker(t *testing.T, b *reliability.Breakers, clock *reliabilitytest.Clock) {
	t.Helper()
	fail(t, b, 5)
	clock.Advance(30 * time.Second) // half-open from now on
}

var storeCases = []storeCase{
	{"five failures open the breaker for 30s", func(t *testing.T, k storeKind, clock *reliabilitytest.Clock) {
		b := breakersOn(k, clock)
		var moves []string
		b.OnStateChange = func(_ string, from, to gobreaker.State) { moves = append(moves, from.String()+"→"+to.String()) }
		fail(t, b, 4)
		if s := b.Status(res); s.State != gobreaker.StateClosed || s.ConsecutiveFailures != 4 {
			t.Fatalf("after 4 failures: %+v", s)
		}
		fail(t, b, 1)
		if fmt.Sprint(moves) != "[closed→open]" {
			t.Fatalf("moves %v", moves)
		}
		_, err := b.Allow(res)
		oe, ok := err.(*reliability.OpenError)
		if !ok || oe.State != gobreaker.StateOpen || oe.RetryIn != 30*time.Second || !oe.Until.Equal(start.Add(30*time.Second)) {
			t.Fatalf("open breaker admitted or wrong wait: %v %+v", err, oe)
		}
		clock.Advance(29 * time.Second)
		if _, err := breakersOn(k, clock).Allow(res); err == nil {
			t.Fatal("another process was admitted while open")
		}
	}},
	{"a success ends a failure run", func(t *testing.T, k storeKind, clock *reliabilitytest.Clock) {
		b := breakersOn(k, clock)
		fail(t, b, 4)
		tk, _ := b.Allow(res)
		tk.Done(reliability.Success)
		fail(t, b, 4)
		if s := b.Status(res); s.State != gobreaker.StateClosed || s.ConsecutiveFailures != 4 {
			t.Fatalf("%+v", s)
		}
	}},
	{"half-open admits two probes, two successes close", func(t *testing.T, k storeKind, clock *reliabilitytest.Clock) {
		b := breakersOn(k, clock)
		openBreaker(t, b, clock)
		p1, err1 := b.Allow(res)
		p2, err2 := breakersOn(k, clock).Allow(res)
		_, err3 := breakersOn(k, clock).Allow(res)
		if err1 != nil || err2 != nil {
			t.Fatalf("probes refused: %v %v", err1, err2)
		}
		oe, ok := err3.(*reliability.OpenError)
		if !ok || oe.State != gobreaker.StateHalfOpen {
			t.Fatalf("third probe: %v", err3)
		}
		if st := p1.Done(reliability.Success); st != gobreaker.StateHalfOpen {
			t.Fatalf("after one success: %v", st)
		}
		if st := p2.Done(reliability.Success); st != gobreaker.StateClosed {
			t.Fatalf("after two successes: %v", st)
		}
		if _, err := b.Allow(res); err != nil {
			t.Fatal(err)
		}
	}},
	{"a failed probe opens it again", func(t *testing.T, k storeKind, clock *reliabilitytest.Clock) {
		b := breakersOn(k, clock)
		openBreaker(t, b, clock)
		p, err := b.Allow(res)
		if err != nil {
			t.Fatal(err)
		}
		if st := p.Done(reliability.Failure); st != gobreaker.StateOpen {
			t.Fatalf("after a failed probe: %v", st)
		}
		if s := b.Status(res); s.State != gobreaker.StateOpen || !s.OpenUntil.Equal(clock.Now().Add(30*time.Second)) {
			t.Fatalf("%+v", s)
		}
	}},
	{"an ignored probe frees its slot", func(t *testing.T, k storeKind, clock *reliabilitytest.Clock) {
		b := breakersOn(k, clock)
		openBreaker(t, b, clock)
		p1, _ := b.Allow(res)
		if _, err := b.Allow(res); err != nil {
			t.Fatal(err)
		}
		p1.Done(reliability.Ignored)
		if _, err := b.Allow(res); err != nil {
			t.Fatalf("slot not freed: %v", err)
		}
		if _, err := b.Allow(res); err == nil {
			t.Fatal("a third slot")
		}
	}},
	{"a probe lease runs out", func(t *testing.T, k storeKind, clock *reliabilitytest.Clock) {
		b := breakersOn(k, clock)
		openBreaker(t, b, clock)
		old, _ := b.Allow(res)
		_, _ = b.Allow(res)
		if _, err := b.Allow(res); err == nil {
			t.Fatal("a third slot")
		}
		clock.Advance(time.Minute + time.Second) // 2 × the 30 s attempt timeout
		if _, err := b.Allow(res); err != nil {
			t.Fatalf("abandoned probes still hold their slots: %v", err)
		}
		old.Done(reliability.Failure) // of an older round: changes nothing
		if s := b.Status(res); s.State != gobreaker.StateHalfOpen {
			t.Fatalf("a stale outcome counted: %+v", s)
		}
	}},
	{"reset one or all, list", func(t *testing.T, k storeKind, clock *reliabilitytest.Clock) {
		b := breakersOn(k, clock)
		fail(t, b, 5)
		tk, _ := b.Allow("api/api.example")
		tk.Done(reliability.Failure)
		list, err := b.List()
		if err != nil || len(list) != 2 || list[0].Resource != "api/api.example" || list[1].State != gobreaker.StateOpen {
			t.Fatalf("%+v %v", list, err)
		}
		if err := b.Reset(res); err != nil {
			t.Fatal(err)
		}
		if s := b.Status(res); s.State != gobreaker.StateClosed {
			t.Fatalf("%+v", s)
		}
		if err := b.Reset(""); err != nil {
			t.Fatal(err)
		}
		if list, _ := b.List(); len(list) != 0 {
			t.Fatalf("%+v", list)
		}
	}},
	{"an open-until beyond one window is clamped to it", func(t *testing.T, k storeKind, clock *reliabilitytest.Clock) {
		b := breakersOn(k, clock)
		fail(t, b, 5)
		// Another machine's clock ran a year ahead of this one.
		ahead := reliabilitytest.NewClock(start.Add(365 * 24 * time.Hour))
		if _, err := breakersOn(k, ahead).Allow(res); err != nil { // a probe that never reports
			t.Fatal(err)
		}
		fail(t, breakersOn(k, ahead), 1) // half-open → open, until a year from now
		_, err := b.Allow(res)
		oe, ok := err.(*reliability.OpenError)
		if !ok || oe.RetryIn != 30*time.Second {
			t.Fatalf("want open for one window at most: %v", err)
		}
		clock.Advance(30 * time.Second)
		if _, err := b.Allow(res); err != nil {
			t.Fatalf("still open after one window: %v", err)
		}
	}},
	{"a corrupt record reads as closed", func(t *testing.T, k storeKind, clock *reliabilitytest.Clock) {
		b := breakersOn(k, clock)
		fail(t, b, 5)
		k.corrupt(reliability.BreakersKey("api.example"), res)
		if _, err := b.Allow(res); err != nil {
			t.Fatal(err)
		}
		fail(t, b, 5)
		if s := b.Status(res); s.State != gobreaker.StateOpen {
			t.Fatalf("%+v", s)
		}
	}},
	{"ledger: the conservative view wins and slots are taken", func(t *testing.T, k storeKind, clock *reliabilitytest.Clock) {
		s := k.open()
		now := clock.Now()
		w1 := reliability.RateLimit{Limit: 10, Remaining: 3, Reset: now.Add(time.Minute)}
		got, took, err := s.LedgerReserve("ratelimit-api.example", w1, false, now)
		if err != nil || took || !sameWindow(got, w1) {
			t.Fatalf("%+v %v %v", got, took, err)
		}
		// Same window: the smaller Remaining wins; then take a slot.
		got, took, _ = s.LedgerReserve("ratelimit-api.example", reliability.RateLimit{Limit: 10, Remaining: 5, Reset: w1.Reset}, true, now)
		if !took || got.Remaining != 2 {
			t.Fatalf("%+v %v", got, took)
		}
		for i := 0; i < 2; i++ {
			if _, took, _ = s.LedgerReserve("ratelimit-api.example", got, true, now); !took {
				t.Fatal("slot refused")
			}
		}
		got, took, _ = s.LedgerReserve("ratelimit-api.example", got, true, now)
		if took || got.Remaining != 0 {
			t.Fatalf("took from a spent window: %+v", got)
		}
		if l, err := k.open().LedgerLoad("ratelimit-api.example"); err != nil || l.Remaining != 0 || !l.Reset.Equal(w1.Reset) || l.Limit != 10 {
			t.Fatalf("stored %+v %v", l, err)
		}
		// A later window replaces it; an ended one is ignored.
		w2 := reliability.RateLimit{Remaining: 9, Reset: now.Add(2 * time.Minute)}
		got, _, _ = s.LedgerReserve("ratelimit-api.example", w2, false, now)
		if got.Remaining != 9 || got.Limit != 10 || !got.Reset.Equal(w2.Reset) {
			t.Fatalf("later window: %+v", got)
		}
		got, _, _ = s.LedgerReserve("ratelimit-api.example", reliability.RateLimit{Limit: 10, Remaining: 0, Reset: now.Add(-time.Second)}, false, now)
		if got.Remaining != 9 {
			t.Fatalf("an ended window counted: %+v", got)
		}
	}},
	{"ledger: an implausible reset is dropped, an answer replaces another window, reset forgets", func(t *testing.T, k storeKind, clock *reliabilitytest.Clock) {
		s := k.open()
		now := clock.Now()
		const key = "ratelimit-api.example"
		bogus := reliability.RateLimit{Limit: 10, Remaining: 0, Reset: time.Unix(99999999999, 0)} // year 5138
		if got, _, _ := s.LedgerReserve(key, bogus, false, now); !got.Reset.IsZero() {
			t.Fatalf("an implausible window was kept: %+v", got)
		}
		if got, _, _ := s.LedgerReserve(key, reliability.RateLimit{Remaining: 0, Reset: now.Add(25 * time.Hour)}, true, now); !got.Reset.IsZero() {
			t.Fatalf("a reset 25 h ahead was kept: %+v", got)
		}
		// A record an older version stored is no view either, and the next
		// answer replaces it.
		k.plantLedger(key, bogus)
		healthy := reliability.RateLimit{Limit: 10, Remaining: 9, Reset: now.Add(time.Minute)}
		got, took, err := s.LedgerReserve(key, healthy, true, now)
		if err != nil || !took || !got.Reset.Equal(healthy.Reset) || got.Remaining != 8 {
			t.Fatalf("a reservation beside a bogus record: %+v %v %v", got, took, err)
		}
		// An answer about an earlier (plausible) window replaces a later one.
		k.plantLedger(key, reliability.RateLimit{Limit: 10, Remaining: 0, Reset: now.Add(20 * time.Hour)})
		got, _, _ = s.LedgerReserve(key, healthy, false, now)
		if !sameWindow(got, healthy) || got.Remaining != 9 {
			t.Fatalf("the later answer did not replace the stored window: %+v", got)
		}
		if err := s.LedgerReset(key); err != nil {
			t.Fatal(err)
		}
		if l, err := k.open().LedgerLoad(key); err != nil || !l.Reset.IsZero() {
			t.Fatalf("after reset: %+v %v", l, err)
		}
	}},
	{"journal: an explicit entry is listed, never claimed", func(t *testing.T, k storeKind, clock *reliabilitytest.Clock) {
		j := reliability.NewJournal(k.open(), clock)
		// An explicit entry carries no signature; even one that did (an
		// older writer) is never handed out.
		for _, e := range []reliability.JournalEntry{{Key: "given-1", Explicit: true}, {Key: "given-2", Signature: "sig", Explicit: true}} {
			if err := j.Put(e); err != nil {
				t.Fatal(err)
			}
		}
		for _, sig := range []string{"", "sig"} {
			got, reused, err := j.Claim(sig, 15*time.Minute, reliability.JournalEntry{Signature: sig, Key: "fresh-" + sig})
			if err != nil || reused || got.Key != "fresh-"+sig {
				t.Fatalf("claim %q: %+v %v %v", sig, got, reused, err)
			}
		}
		list, _ := j.List()
		explicit := 0
		for _, e := range list {
			if e.Explicit {
				explicit++
			}
		}
		if len(list) != 4 || explicit != 2 {
			t.Fatalf("%+v", list)
		}
	}},
	{"journal: put, claim within the window, remove, clear, age", func(t *testing.T, k storeKind, clock *reliabilitytest.Clock) {
		j := reliability.NewJournal(k.open(), clock)
		first, reused, err := j.Claim("sig", 15*time.Minute, reliability.JournalEntry{Signature: "sig", Key: "k1", Method: "POST"})
		if err != nil || reused || first.Key != "k1" {
			t.Fatalf("%+v %v %v", first, reused, err)
		}
		clock.Advance(10 * time.Minute)
		again, reused, _ := reliability.NewJournal(k.open(), clock).Claim("sig", 15*time.Minute, reliability.JournalEntry{Signature: "sig", Key: "k2"})
		if !reused || again.Key != "k1" || again.Method != "POST" {
			t.Fatalf("claim inside the window: %+v %v", again, reused)
		}
		clock.Advance(10 * time.Minute)
		late, reused, _ := j.Claim("sig", 15*time.Minute, reliability.JournalEntry{Signature: "sig", Key: "k3"})
		if reused || late.Key != "k3" {
			t.Fatalf("claim after the window: %+v %v", late, reused)
		}
		if err := j.Put(reliability.JournalEntry{Signature: "other", Key: "k4"}); err != nil {
			t.Fatal(err)
		}
		list, _ := j.List()
		if len(list) != 3 || list[0].Key != "k1" || list[2].Key != "k4" {
			t.Fatalf("%+v", list)
		}
		if err := j.Remove("k1"); err != nil {
			t.Fatal(err)
		}
		if err := j.Remove("none"); err != nil {
			t.Fatal(err)
		}
		clock.Advance(reliability.JournalMaxAge - time.Minute)
		if list, _ := j.List(); len(list) != 2 || list[0].Key != "k3" {
			t.Fatalf("younger than a day: %+v", list)
		}
		clock.Advance(2 * time.Minute)
		if list, _ := j.List(); len(list) != 0 {
			t.Fatalf("older than a day: %+v", list)
		}
		if err := j.Put(reliability.JournalEntry{Signature: "other", Key: "k5"}); err != nil {
			t.Fatal(err)
		}
		if err := j.Clear(); err != nil {
			t.Fatal(err)
		}
		if list, _ := j.List(); len(list) != 0 {
			t.Fatalf("after clear: %+v", list)
		}
	}},
	{"journal: a handed-off entry is claimed after the window, until the replay window closes", func(t *testing.T, k storeKind, clock *reliabilitytest.Clock) {
		j := reliability.NewJournal(k.open(), clock)
		first, _, err := j.Claim("sig-h", time.Minute, reliability.JournalEntry{Signature: "sig-h", Key: "h1"})
		if err != nil {
			t.Fatal(err)
		}
		first.HandedOff = true
		if err := j.Put(first); err != nil {
			t.Fatal(err)
		}
		clock.Advance(time.Hour)
		again, reused, _ := j.Claim("sig-h", time.Minute, reliability.JournalEntry{Signature: "sig-h", Key: "h2"})
		if !reused || again.Key != "h1" || !again.HandedOff {
			t.Fatalf("claim an hour after a hand-off: %+v %v", again, reused)
		}
		clock.Advance(reliability.JournalMaxAge)
		late, reused, _ := j.Claim("sig-h", time.Minute, reliability.JournalEntry{Signature: "sig-h", Key: "h3"})
		if reused || late.Key != "h3" {
			t.Fatalf("claim past the replay window: %+v %v", late, reused)
		}
	}},
	{"marquee cache: put and get", func(t *testing.T, k storeKind, clock *reliabilitytest.Clock) {
		s := k.open()
		now := clock.Now()
		err := s.CachePut("marquees-api.example", map[string]reliability.CacheEntry{
			"pg:demo": {Marquee: "prod-eu", At: now}, "mq:7": {Marquee: "local", At: now}}, time.Minute, now)
		if err != nil {
			t.Fatal(err)
		}
		got, err := k.open().CacheGet("marquees-api.example", "pg:demo", "pg:none")
		if err != nil || len(got) != 1 || got["pg:demo"].Marquee != "prod-eu" || !got["pg:demo"].At.Equal(now) {
			t.Fatalf("%+v %v", got, err)
		}
	}},
	{"one trip under 50 concurrent failures", func(t *testing.T, k storeKind, clock *reliabilitytest.Clock) {
		var trips atomic.Int32
		var wg sync.WaitGroup
		for i := 0; i < 50; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				b := breakersOn(k, clock)
				b.OnStateChange = func(_ string, from, to gobreaker.State) {
					if to == gobreaker.StateOpen {
						trips.Add(1)
					}
				}
				if tk, err := b.Allow(res); err == nil {
					tk.Done(reliability.Failure)
				}
			}()
		}
		wg.Wait()
		if n := trips.Load(); n != 1 {
			t.Fatalf("%d trips, want 1", n)
		}
	}},
	{"half-open admits exactly 2 of 50 concurrent probes", func(t *testing.T, k storeKind, clock *reliabilitytest.Clock) {
		openBreaker(t, breakersOn(k, clock), clock)
		var admitted atomic.Int32
		var wg sync.WaitGroup
		for i := 0; i < 50; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := breakersOn(k, clock).Allow(res); err == nil {
					admitted.Add(1)
				}
			}()
		}
		wg.Wait()
		if n := admitted.Load(); n != 2 {
			t.Fatalf("%d probes admitted, want 2", n)
		}
	}},
}

func sameWindow(a, b reliability.RateLimit) bool {
	return a.Limit == b.Limit && a.Remaining == b.Remaining && a.Reset.Equal(b.Reset)
}

func TestStoresBehaveAlike(t *testing.T) {
	for _, c := range storeCases {
		t.Run(c.name, func(t *testing.T) {
			for _, k := range storeKinds(t) {
				t.Run(k.name, func(t *testing.T) {
					c.run(t, k, reliabilitytest.NewClock(start))
				})
			}
		})
	}
}
