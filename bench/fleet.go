package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/reliability"
	"github.com/fibegg/fibe/internal/statestore"
	"github.com/fibegg/fibe/internal/statestore/redistest"
)

// The fleet mode of the herd: every client is another machine (its own
// state directory) and every read another invocation (a fresh client and
// store, as a CI job that runs `fibe` once), and all of them share one
// Redis through --state-store. The Redis is private to the run (127.0.0.1,
// a free port, no persistence).

// startFleetRedis starts the run's Redis, or says why the fleet mode is
// skipped.
func startFleetRedis() (*redistest.Server, error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, errors.New("redis-server not installed (apt-get install redis-server)")
	}
	return redistest.Launch(bin)
}

// fleetStats gathers what the invocations of one fleet did with the store.
type fleetStats struct {
	mu   sync.Mutex
	t0   time.Time
	runs []fleetRun
}

type fleetRun struct {
	At         time.Duration // since t0
	RoundTrips int64
	Dials      int64
	FellBack   bool
	OK         bool
	Attempts   int64 // HTTP attempts sent
	// First: the machine's first invocation, which learns the cache
	// whenever it starts.
	First bool
}

func (s *fleetStats) start(t0 time.Time) {
	s.mu.Lock()
	s.t0, s.runs = t0, nil
	s.mu.Unlock()
}

func (s *fleetStats) add(r fleetRun, at time.Time) {
	s.mu.Lock()
	r.At = at.Sub(s.t0)
	s.runs = append(s.runs, r)
	s.mu.Unlock()
}

// fleetClient is one machine of the fleet.
type fleetClient struct {
	baseURL, apiKey, stateDir, storeURL string
	pol                                 reliability.Policy
	http                                http.RoundTripper // kept across invocations: not what is measured
	stats                               *fleetStats
	invocations                         atomic.Int64
}

func newFleetClient(baseURL, apiKey, stateDir, storeURL string, pol reliability.Policy, stats *fleetStats) *fleetClient {
	return &fleetClient{baseURL: baseURL, apiKey: apiKey, stateDir: stateDir, storeURL: storeURL, pol: pol,
		http: http.DefaultTransport.(*http.Transport).Clone(), stats: stats}
}

// invoke runs fn as one invocation: a fresh store and client.
func (f *fleetClient) invoke(fn func(c *client.Client) error) error {
	began := time.Now()
	rs, err := statestore.OpenRedis(f.storeURL, statestore.DefaultTimeout)
	if err != nil {
		return err
	}
	defer rs.Close()
	store := &statestore.Failover{Primary: rs, Local: reliability.NewFileStore(f.stateDir)}
	var attempts atomic.Int64
	c, err := client.New(client.Options{BaseURL: f.baseURL, APIKey: f.apiKey, Store: store, Policy: f.pol,
		Transport: f.http, UserAgent: "fibe-bench", OnEvent: func(e client.Event) {
			if e.Kind == client.EventAttempt {
				attempts.Add(1)
			}
		}})
	if err != nil {
		return err
	}
	first := f.invocations.Add(1) == 1
	err = fn(c)
	f.stats.add(fleetRun{RoundTrips: rs.RoundTrips(), Dials: rs.Dials(), FellBack: store.Down(), OK: err == nil,
		Attempts: attempts.Load(), First: first}, began)
	return err
}

func (f *fleetClient) GetPlayground(ctx context.Context, ref string) error {
	return f.invoke(func(c *client.Client) error { _, _, err := c.Playgrounds.Get(ctx, ref); return err })
}

func (f *fleetClient) Me(ctx context.Context) error {
	return f.invoke(func(c *client.Client) error { _, _, err := c.Me(ctx); return err })
}

func (f *fleetClient) CreatePlayground(ctx context.Context, fields map[string]any, key string) (string, error) {
	used := key
	err := f.invoke(func(c *client.Client) error {
		_, resp, err := c.Playgrounds.Create(ctx, fields, client.MutationOptions{IdempotencyKey: key}, client.WaitOptions{})
		if e, ok := client.AsError(err); ok {
			used = e.IdempotencyKey
		} else if resp != nil && resp.IdempotencyKey != "" {
			used = resp.IdempotencyKey
		}
		return err
	})
	return used, err
}

// fleetSection reports the Redis round trips per invocation: in the
// warm-up, over the steady period before the outage (a GET on a closed
// breaker), during the outage, and after it.
func fleetSection(r *report, p herdParams, name string, s *fleetStats) {
	s.mu.Lock()
	runs := slices.Clone(s.runs)
	s.mu.Unlock()
	var t table
	t.Header = []string{"invocations", "count", "round trips: mean", "median", "max", "connections opened per invocation", "fell back to the file store", "requests sent: with Redis", "after a fallback"}
	var closedMax int64
	phases := []struct {
		label    string
		from, to time.Duration
	}{
		{"warm-up (the fleet learns the cache and the rate window; with any machine's first read that started later)", 0, p.Warmup},
		{"steady, before the outage (a GET on a closed breaker)", p.Warmup, p.OutageStart},
		{"during the outage", p.OutageStart, p.recovery()},
		{"after recovery", p.recovery(), time.Duration(1 << 62)},
	}
	for _, ph := range phases {
		var trips []int64
		var dials, fell, sentShared, sentFallback int64
		for _, run := range runs {
			in := run.At >= ph.from && run.At < ph.to
			switch ph.from {
			case 0: // a machine's first read is its warm-up, even when it starts late
				in = in || (run.First && run.At < p.OutageStart)
			case p.Warmup:
				in = in && !run.First
			}
			if !in {
				continue
			}
			trips = append(trips, run.RoundTrips)
			dials += run.Dials
			if run.FellBack {
				fell++
				sentFallback += run.Attempts
			} else {
				sentShared += run.Attempts
			}
		}
		if ph.from == p.OutageStart {
			bound := p.Policy.WithDefaults().BreakerThreshold + 2*p.openWindows()
			r.check(fmt.Sprintf("%s: requests sent in the outage by invocations that reached Redis ≤ 1 breaker × (5 + 2 × %d open window)", name, p.openWindows()),
				sentShared <= int64(bound), "%d (bound %d; %d more from %d invocations that fell back to their own file store)", sentShared, bound, sentFallback, fell)
		}
		if len(trips) == 0 {
			t.add(ph.label, "0", "-", "-", "-", "-", "-", "-", "-")
			continue
		}
		var sum int64
		for _, n := range trips {
			sum += n
		}
		med, mx, _ := medianMax(trips)
		if ph.from == p.Warmup {
			closedMax = mx
		}
		t.add(ph.label, fmt.Sprint(len(trips)), fmt.Sprintf("%.2f", float64(sum)/float64(len(trips))), fmt.Sprint(med), fmt.Sprint(mx),
			fmt.Sprintf("%.2f", float64(dials)/float64(len(trips))), fmt.Sprint(fell), fmt.Sprint(sentShared), fmt.Sprint(sentFallback))
	}
	r.check(fmt.Sprintf("%s: Redis round trips of a GET on a closed breaker ≤ 2", name), closedMax <= 2, "max %d", closedMax)
	r.Sections = append(r.Sections, section{Heading: "Fleet: Redis round trips per invocation (" + name + ")", Table: t, After: []string{
		"A round trip is one command, pipeline or script sent to Redis by the store; opening a connection (TCP, plus SELECT when the URL names a database other than 0) is counted apart. Every read is a fresh invocation: a new client and a new store, as a CI job running fibe once.",
		"An invocation falls back to its own file store when a store call takes more than 200 ms (contract §6). Here 200 machines share the benchmark's CPUs, so a starved invocation can miss that bound; it then knows nothing of the fleet's breaker and sends its attempts. Requests are counted per invocation by its start, client-side.",
	}})
}
