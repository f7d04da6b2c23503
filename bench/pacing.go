package main

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/reliability"
)

// pacingParams: the emulator allows Limit requests per Window per key;
// Workers goroutines share one client and send Requests reads in all.
type pacingParams struct {
	Limit    int
	Window   time.Duration
	Workers  int
	Requests int

	NaiveSleep    time.Duration
	NaiveAttempts int
	NaiveTimeout  time.Duration
	Policy        reliability.Policy
}

func newPacingParams(env *runEnv) pacingParams {
	p := pacingParams{
		Limit:         50,
		Window:        2 * time.Second,
		Workers:       8,
		Requests:      400,
		NaiveSleep:    env.scale(time.Second),
		NaiveAttempts: 5,
		NaiveTimeout:  env.scale(30 * time.Second),
		Policy:        scaledPolicy(env),
	}
	if env.Short {
		// Rate-limit headers speak whole seconds, so the window is not
		// compressed below one second; the counts shrink instead.
		p.Limit, p.Window, p.Requests = 20, time.Second, 40
	}
	return p
}

type pacingKind struct {
	Name string
	New  func(baseURL, apiKey string) (apiClient, error)
}

type pacingResult struct {
	Kind      string
	Timeline  timeline
	Successes int
	Failures  int
	Elapsed   time.Duration // first send to last answer
	Err       error
}

func runPacing(ctx context.Context, env *runEnv, r *report) error {
	p := newPacingParams(env)
	r.param("rate limit", fmt.Sprintf("%d requests per %s per key (emulator fixed windows aligned on the Unix clock, so X-RateLimit-Reset, in whole seconds, is a window's true end)", p.Limit, p.Window))
	r.param("workers", p.Workers)
	r.param("requests in all", fmt.Sprintf("%d (GET /api/me), one client shared by the workers", p.Requests))
	r.param("naive", fmt.Sprintf("fixed %s sleep, at most %d attempts", p.NaiveSleep, p.NaiveAttempts))
	r.param("retryablehttp", "NewClient defaults (Retry-After honoured on 429)")
	r.param("fibe policy", describePolicy(p.Policy)+", with a state dir")
	r.param("client kinds run", kindsRun(env))
	kinds := []pacingKind{
		{"naive", func(u, k string) (apiClient, error) {
			return newNaiveClient(u, k, p.NaiveTimeout, p.NaiveSleep, p.NaiveAttempts), nil
		}},
		{"retryablehttp", func(u, k string) (apiClient, error) { return newRetryableClient(u, k, 0), nil }},
		{"fibe", func(u, k string) (apiClient, error) {
			return newFibeClient(u, k, filepath.Join(env.TempDir, "pacing-state"), p.Policy)
		}},
	}
	results := make([]pacingResult, len(kinds))
	forEachKind(env, len(kinds), func(i int) { results[i] = pacingRun(ctx, env, p, kinds[i]) })
	for _, res := range results {
		if res.Err != nil {
			return fmt.Errorf("%s: %w", res.Kind, res.Err)
		}
	}

	budget := float64(p.Limit) / p.Window.Seconds()
	var t table
	t.Header = []string{"client", "reads ok", "reads failed", "requests sent", "429s", "429s after the first window", "elapsed", "throughput", "share of budget"}
	for _, res := range results {
		tl := res.Timeline
		var first time.Duration
		if len(tl) > 0 {
			first = tl[0].At
		}
		limited := tl.filter(func(h hit) bool { return h.Status == 429 })
		late := limited.filter(func(h hit) bool { return h.At >= first+p.Window })
		thr := float64(res.Successes) / res.Elapsed.Seconds()
		share := budgetShare(res.Successes, res.Elapsed, p.Limit, p.Window)
		t.add(res.Kind, fmt.Sprint(res.Successes), fmt.Sprint(res.Failures), fmt.Sprint(len(tl)), fmt.Sprint(len(limited)), fmt.Sprint(len(late)),
			fmtDur(res.Elapsed), fmtRate(thr), fmt.Sprintf("%.1f%%", 100*share))
		if res.Kind == "fibe" {
			r.check("fibe: no 429 after the first window", len(late) == 0, "%d", len(late))
			r.check("fibe: at least 90% of the budget used", share >= 0.9, "%.1f%%", 100*share)
		}
	}
	r.note("The emulator's windows are aligned on the Unix clock (they start at multiples of %s), so X-RateLimit-Reset, a whole Unix second, is the true end of a window and a client that waits for Reset, as the contract says, loses no time. The first window is what is left of the one in force when the run starts, so a client that fills every window back to back can score over 100%%.", p.Window)
	r.note("fibe's rate ledger takes a slot for every request it sends, so requests in flight on the other workers count before their answers arrive, and folds each answer in with the most conservative view (for the same Reset the smaller Remaining wins). The workers send a window's allowance, then wait until Reset.")
	r.note("A 429 carries Retry-After in whole seconds (at least 1), so every 429 a client earns costs it at least a second on that worker.")
	r.Sections = append(r.Sections, section{Heading: "Results (429s counted server-side)", Table: t, After: []string{
		fmt.Sprintf("The budget is %d requests per %s (%.1f/s). Share of budget = reads answered / (one window's allowance, available at the start, + %.1f/s × elapsed), so a client that fills every window back to back scores 100%%.", p.Limit, p.Window, budget, budget),
	}})
	return nil
}

// budgetShare is how much of the allowance a client used: n answered reads
// against what the limit allowed from the first send until the last answer.
func budgetShare(n int, elapsed time.Duration, limit int, window time.Duration) float64 {
	allowed := float64(limit) + float64(limit)*elapsed.Seconds()/window.Seconds()
	return float64(n) / allowed
}

func pacingRun(ctx context.Context, env *runEnv, p pacingParams, k pacingKind) pacingResult {
	res := pacingResult{Kind: k.Name}
	emu, err := startEmulator(localapi.Config{Seed: 1, RateLimit: p.Limit, RateWindow: p.Window})
	if err != nil {
		res.Err = err
		return res
	}
	defer emu.Close()
	c, err := k.New(emu.URL, emu.Key)
	if err != nil {
		res.Err = err
		return res
	}
	env.logf("pacing: %s: %d reads by %d workers", k.Name, p.Requests, p.Workers)
	runCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	t0 := emu.Rec.reset()
	var next, ok, failed atomic.Int64
	var lastEnd atomic.Int64
	var wg sync.WaitGroup
	for range p.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(p.Requests) {
				err := c.Me(runCtx)
				end := int64(time.Since(t0))
				for {
					cur := lastEnd.Load()
					if end <= cur || lastEnd.CompareAndSwap(cur, end) {
						break
					}
				}
				if err != nil {
					failed.Add(1)
				} else {
					ok.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	res.Successes, res.Failures = int(ok.Load()), int(failed.Load())
	res.Timeline = emu.Rec.timeline()
	if len(res.Timeline) > 0 {
		res.Elapsed = time.Duration(lastEnd.Load()) - res.Timeline[0].At
	}
	if ctx.Err() != nil {
		res.Err = ctx.Err()
	}
	return res
}

func kindsRun(env *runEnv) string {
	if env.Serial {
		return "one after another"
	}
	return "side by side, each against its own emulator"
}

// forEachKind runs fn for every client kind, side by side unless the run is
// serial. Each kind has its own emulator, so their loads never mix.
func forEachKind(env *runEnv, n int, fn func(i int)) {
	if env.Serial {
		for i := range n {
			fn(i)
		}
		return
	}
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() { defer wg.Done(); fn(i) }()
	}
	wg.Wait()
}
