package statestore

import (
	"bytes"
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fibegg/fibe/internal/reliability"
	"github.com/fibegg/fibe/internal/reliability/reliabilitytest"
	"github.com/fibegg/fibe/internal/statestore/redistest"
)

// refusedURL names a port on which nothing listens.
func refusedURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "redis://" + addr + "/0"
}

// silentURL names a listener that accepts and never answers.
func silentURL(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() })
		}
	}()
	return "redis://" + l.Addr().String() + "/0"
}

func TestFailoverFallsBackOnceWithOneWarning(t *testing.T) {
	srv := redistest.Start(t, "--requirepass", "s3cret-pw")
	wrongType := srv.URL(0)
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr, Password: "s3cret-pw"})
	t.Cleanup(func() { rdb.Close() })
	if err := rdb.Set(context.Background(), RedisKey(reliability.BreakersKey("api.example")), "a string", 0).Err(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, url string
	}{
		{"refused", refusedURL(t)},
		{"timeout", silentURL(t)},
		{"auth error", "redis://:wrong-pw@" + srv.Addr + "/0"},
		{"no password", wrongType},
		{"wrong-type key", "redis://:s3cret-pw@" + srv.Addr + "/0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var warn bytes.Buffer
			dir := t.TempDir()
			s, err := Open(Options{URL: c.url, StateDir: dir, Warnings: &warn})
			if err != nil {
				t.Fatal(err)
			}
			b := reliability.NewBreakers(s, "api.example", reliability.Policy{}, nil)
			began := time.Now()
			for i := 0; i < 5; i++ {
				tk, err := b.Allow(res)
				if err != nil {
					t.Fatalf("attempt %d refused: %v", i+1, err)
				}
				tk.Done(reliability.Failure)
			}
			took := time.Since(began)
			if _, err := b.Allow(res); err == nil {
				t.Fatal("the fallback file store did not open the breaker")
			}
			// Five transitions that each tried the broken store would cost at
			// least five 200 ms timeouts; falling back once costs one. The
			// bound sits between the two, so a loaded machine's slack on the
			// one timeout does not fail it.
			if took >= 5*200*time.Millisecond {
				t.Fatalf("the fallback cost %s", took)
			}
			lines := strings.Split(strings.TrimSpace(warn.String()), "\n")
			if len(lines) != 1 || !strings.Contains(lines[0], "using the file store") {
				t.Fatalf("warnings: %q", warn.String())
			}
			if strings.Contains(warn.String(), "s3cret") || strings.Contains(warn.String(), "wrong-pw") {
				t.Fatalf("password in the warning: %q", warn.String())
			}
			// The state is in the file store of the state directory.
			if st := reliability.NewBreakers(reliability.NewFileStore(dir), "api.example", reliability.Policy{}, nil).Status(res); st.ConsecutiveFailures != 5 && st.State.String() != "open" {
				t.Fatalf("file store: %+v", st)
			}
			if d := s.Describe(); !strings.Contains(d, "fallback") || strings.Contains(d, "pw") && !strings.Contains(d, "****@") {
				t.Fatalf("describe: %q", d)
			}
		})
	}
}

// Entries journaled in the file store during a fallback are listed,
// claimed and removed by an invocation that reaches Redis.
func TestFailoverJournalSeesFallbackEntries(t *testing.T) {
	srv := redistest.Start(t)
	dir := t.TempDir()
	down, _ := Open(Options{URL: refusedURL(t), StateDir: dir})
	j := reliability.NewJournal(down, nil)
	if _, _, err := j.Claim("sig", time.Hour, reliability.JournalEntry{Signature: "sig", Key: "k-fallback"}); err != nil {
		t.Fatal(err)
	}
	up, _ := Open(Options{URL: srv.URL(0), StateDir: dir, Timeout: 2 * time.Second}) // up: generous on a loaded machine
	j = reliability.NewJournal(up, nil)
	if err := j.Put(reliability.JournalEntry{Signature: "other", Key: "k-shared"}); err != nil {
		t.Fatal(err)
	}
	list, err := j.List()
	if err != nil || len(list) != 2 {
		t.Fatalf("%+v %v", list, err)
	}
	got, reused, err := j.Claim("sig", time.Hour, reliability.JournalEntry{Signature: "sig", Key: "k-new"})
	if err != nil || !reused || got.Key != "k-fallback" {
		t.Fatalf("claim: %+v %v %v", got, reused, err)
	}
	if err := j.Remove("k-fallback"); err != nil {
		t.Fatal(err)
	}
	if list, _ := j.List(); len(list) != 1 || list[0].Key != "k-shared" {
		t.Fatalf("%+v", list)
	}
	if up.(*Failover).Down() {
		t.Fatal("fell back with Redis up")
	}
}

// A GET on a closed breaker costs the store at most 2 round trips: one
// pipeline reads the breakers, the ledger and the marquee cache, and one
// read decides that the success changes nothing.
func TestClosedBreakerGetRoundTrips(t *testing.T) {
	srv := redistest.Start(t)
	s, err := OpenRedis(srv.URL(0), 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	b := reliability.NewBreakers(s, "api.example", reliability.Policy{}, nil)
	l := reliability.NewLedger(s, "api.example", reliability.Policy{}, nil)
	reliability.Prefetch(s, b.Key(), l.Key(), "marquees-api.example")
	if _, err := s.CacheGet("marquees-api.example", "pg:demo"); err != nil {
		t.Fatal(err)
	}
	if err := l.Admit(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	tk, err := b.Allow(res)
	if err != nil {
		t.Fatal(err)
	}
	tk.Done(reliability.Success)
	if n := s.RoundTrips(); n > 2 {
		t.Fatalf("%d round trips, want at most 2", n)
	}
}

func TestRedactHidesThePassword(t *testing.T) {
	for _, raw := range []string{"redis://user:s3cret@host:6379/0", "rediss://:s3cret@host/1", "redis://:s3cret@ho st/0"} {
		if got := redact(raw); strings.Contains(got, "s3cret") {
			t.Errorf("Redact(%q) = %q", raw, got)
		}
		if _, err := OpenRedis(raw+"/x/y", 0); err == nil || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("OpenRedis(%q): want an error that does not show the password, got %v", raw+"/x/y", err)
		}
	}
}

// Redis killed mid-run: the next call fails at once, the invocation goes on
// with the file store, and no journal entry already in the file store is
// lost.
func TestFailoverRedisKilledMidRun(t *testing.T) {
	srv := redistest.Start(t)
	dir := t.TempDir()
	earlier := reliability.NewJournal(reliability.NewFileStore(dir), nil) // an earlier fallback's entry
	if err := earlier.Put(reliability.JournalEntry{Signature: "s1", Key: "k-file"}); err != nil {
		t.Fatal(err)
	}
	var warn bytes.Buffer
	s, err := Open(Options{URL: srv.URL(0), StateDir: dir, Warnings: &warn, Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	j := reliability.NewJournal(s, nil)
	b := reliability.NewBreakers(s, "api.example", reliability.Policy{}, nil)
	if err := j.Put(reliability.JournalEntry{Signature: "s2", Key: "k-redis"}); err != nil {
		t.Fatal(err)
	}
	tk, err := b.Allow(res)
	if err != nil {
		t.Fatal(err)
	}
	srv.Stop()
	began := time.Now()
	tk.Done(reliability.Failure)
	if took := time.Since(began); took > 200*time.Millisecond+300*time.Millisecond { // slack for a loaded machine
		t.Fatalf("the fallback took %s", took)
	}
	if !s.(*Failover).Down() || strings.Count(warn.String(), "\n") != 1 {
		t.Fatalf("no fallback, or not one warning: %q", warn.String())
	}
	list, err := j.List()
	if err != nil || len(list) != 1 || list[0].Key != "k-file" {
		t.Fatalf("journal after the fallback: %+v %v", list, err)
	}
	if err := j.Put(reliability.JournalEntry{Signature: "s3", Key: "k-during"}); err != nil {
		t.Fatal(err)
	}
	if list, _ := earlier.List(); len(list) != 2 {
		t.Fatalf("file store journal: %+v", list)
	}
}

// A long-running process that fell back to files tries Redis again at most
// once a minute (one call, not every call), and goes back to it when it
// answers; while Redis still fails, the retry costs one call a minute.
func TestFailoverTriesRedisAgainOnceAMinute(t *testing.T) {
	srv := redistest.Start(t)
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr})
	t.Cleanup(func() { rdb.Close() })
	ctx := context.Background()
	breakers := RedisKey(reliability.BreakersKey("api.example"))
	if err := rdb.Set(ctx, breakers, "a string", 0).Err(); err != nil { // every breaker call fails: WRONGTYPE
		t.Fatal(err)
	}
	primary, err := OpenRedis(srv.URL(0), 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { primary.Close() })
	clock := reliabilitytest.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	warnings := 0
	f := &Failover{Primary: primary, Local: reliability.NewFileStore(t.TempDir()), Clock: clock,
		Warn: func(error) { warnings++ }}
	get := func() {
		t.Helper()
		if _, err := f.BreakerGet(reliability.BreakersKey("api.example"), res); err != nil {
			t.Fatal(err) // the file store answers
		}
	}

	get()
	if !f.Down() || warnings != 1 {
		t.Fatalf("no fallback on WRONGTYPE: down %v, %d warnings", f.Down(), warnings)
	}
	trips := primary.RoundTrips()
	for i := 0; i < 20; i++ {
		clock.Advance(2 * time.Second) // 40 s in all: still inside the minute
		get()
	}
	if n := primary.RoundTrips() - trips; n != 0 {
		t.Fatalf("%d calls to Redis within the minute after the fallback, want 0", n)
	}
	clock.Advance(20 * time.Second) // a minute since the failure: one try, which fails again
	get()
	get()
	if n := primary.RoundTrips() - trips; n != 1 || !f.Down() {
		t.Fatalf("a minute later: %d calls to Redis (want 1), down %v", n, f.Down())
	}

	if err := rdb.Del(ctx, breakers).Err(); err != nil { // Redis is healthy again
		t.Fatal(err)
	}
	clock.Advance(59 * time.Second)
	get()
	if !f.Down() {
		t.Fatal("back on Redis before a minute had passed since the last try")
	}
	clock.Advance(time.Second)
	get()
	if f.Down() || warnings != 1 {
		t.Fatalf("not back on Redis a minute after the last try: down %v, %d warnings", f.Down(), warnings)
	}
	trips = primary.RoundTrips()
	get()
	if primary.RoundTrips() == trips {
		t.Fatal("calls after the recovery do not go to Redis")
	}
}
