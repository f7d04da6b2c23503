package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/reliability"
)

// brownoutParams are the numbers of the brownout scenario (issue 27: 30
// clients, each on its own marquee, a get-or-create every 2 s; every
// route answers 503 for 25 s, then the API is healthy again).
type brownoutParams struct {
	Clients     int
	Period      time.Duration // between two commands of one client
	Start, Len  time.Duration // the brownout window
	After       time.Duration // "after recovery": failures are counted in [end, end+After)
	BreakerWait time.Duration // fibe's --breaker-wait in the waiting kinds

	NaiveSleep    time.Duration
	NaiveAttempts int
	NaiveTimeout  time.Duration
	Retryable     retryableTiming
	Policy        reliability.Policy
}

func newBrownoutParams(env *runEnv) brownoutParams {
	p := brownoutParams{
		Clients:       30,
		Period:        env.scale(2 * time.Second),
		Start:         env.scale(5 * time.Second),
		Len:           env.scale(25 * time.Second),
		After:         env.scale(10 * time.Second),
		BreakerWait:   env.scale(45 * time.Second),
		NaiveSleep:    env.scale(time.Second),
		NaiveAttempts: 5,
		NaiveTimeout:  env.scale(30 * time.Second),
		Policy:        scaledPolicy(env),
	}
	if env.Short {
		p.Clients = 10
		p.Retryable = retryableTiming{WaitMin: env.scale(time.Second), WaitMax: env.scale(30 * time.Second)}
	}
	return p
}

func (p brownoutParams) recovery() time.Duration { return p.Start + p.Len }

// schedEnd is when clients stop starting commands: the 10 s after recovery
// and one more period.
func (p brownoutParams) schedEnd() time.Duration { return p.recovery() + p.After + p.Period }

// brownoutVariant is one fault pattern applied to every route in the window.
type brownoutVariant struct {
	Name  string
	Chaos string
}

var brownoutVariants = []brownoutVariant{
	{"every request 503", "503=1"},
	{"30% of requests 503", "503=0.3"},
}

// brownoutKind is one client kind; Breakers is set for fibe.
type brownoutKind struct {
	Name     string
	Breakers bool
	Waits    bool
	New      func(i int, baseURL, apiKey string) (apiClient, error)
}

func brownoutKinds(env *runEnv, p brownoutParams, variant int) ([]brownoutKind, error) {
	root := filepath.Join(env.TempDir, fmt.Sprintf("brownout-%d", variant))
	waiting := p.Policy
	waiting.BreakerWait = p.BreakerWait
	fibe := func(name string, pol reliability.Policy, shared bool) brownoutKind {
		dir := filepath.Join(root, name)
		return brownoutKind{Name: name, Breakers: true, Waits: pol.BreakerWait > 0, New: func(i int, u, k string) (apiClient, error) {
			d := dir
			if !shared {
				d = filepath.Join(dir, fmt.Sprint(i))
			}
			if err := os.MkdirAll(d, 0o700); err != nil {
				return nil, err
			}
			return newFibeClient(u, k, d, pol)
		}}
	}
	return []brownoutKind{
		{Name: "naive", New: func(i int, u, k string) (apiClient, error) {
			return newNaiveClient(u, k, p.NaiveTimeout, p.NaiveSleep, p.NaiveAttempts), nil
		}},
		{Name: "retryablehttp", New: func(i int, u, k string) (apiClient, error) {
			c := newRetryableClient(u, k, 0)
			if p.Retryable.WaitMin > 0 {
				c.RC.RetryWaitMin, c.RC.RetryWaitMax = p.Retryable.WaitMin, p.Retryable.WaitMax
			}
			return c, nil
		}},
		fibe("fibe (own state dirs)", p.Policy, false),
		fibe("fibe (shared state dir)", p.Policy, true),
		fibe(fmt.Sprintf("fibe --breaker-wait %s (own state dirs)", p.BreakerWait), waiting, false),
		fibe(fmt.Sprintf("fibe --breaker-wait %s (shared state dir)", p.BreakerWait), waiting, true),
	}, nil
}

// brownoutCmd is one get-or-create as its client saw it.
type brownoutCmd struct {
	Start, End  time.Duration
	Err         error
	CircuitOpen bool
}

type brownoutResult struct {
	Kind     brownoutKind
	Timeline timeline
	Cmds     [][]brownoutCmd // per client
	Err      error
}

func runBrownout(ctx context.Context, env *runEnv, r *report) error {
	p := newBrownoutParams(env)
	r.param("clients", fmt.Sprintf("%d, each on its own marquee (bo-0 …), its own playground, its own connections", p.Clients))
	r.param("command", fmt.Sprintf("get-or-create of the client's playground every %s (a GET; it was created before the run, so the create half never runs)", p.Period))
	r.param("brownout", fmt.Sprintf("every route from t=%s for %s (emulator chaos set at run time), then healthy; variants: %s and %s", p.Start, p.Len, brownoutVariants[0].Chaos, brownoutVariants[1].Chaos))
	r.param("after recovery", fmt.Sprintf("commands that ended in [%s, %s)", p.recovery(), p.recovery()+p.After))
	r.param("naive", fmt.Sprintf("fixed %s sleep, at most %d attempts per command, %s per attempt", p.NaiveSleep, p.NaiveAttempts, p.NaiveTimeout))
	if p.Retryable.WaitMin > 0 {
		r.param("retryablehttp", fmt.Sprintf("defaults with waits scaled to %s..%s", p.Retryable.WaitMin, p.Retryable.WaitMax))
	} else {
		r.param("retryablehttp", "NewClient defaults (4 retries, 1 s..30 s exponential, Retry-After honoured, no timeout)")
	}
	r.param("fibe policy", describePolicy(p.Policy))
	r.param("fibe --breaker-wait", p.BreakerWait)
	r.param("client kinds run", kindsRun(env))

	// A full run measures one variant after the other; -short runs both
	// side by side, to stay quick.
	results := make([][]brownoutResult, len(brownoutVariants))
	runVariant := func(vi int) error {
		kinds, err := brownoutKinds(env, p, vi)
		if err != nil {
			return err
		}
		results[vi] = make([]brownoutResult, len(kinds))
		forEachKind(env, len(kinds), func(i int) { results[vi][i] = brownoutRunKind(ctx, env, p, brownoutVariants[vi], kinds[i]) })
		return nil
	}
	errs := make([]error, len(brownoutVariants))
	if env.Short {
		forEachKind(env, len(brownoutVariants), func(vi int) { errs[vi] = runVariant(vi) })
	} else {
		for vi := range brownoutVariants {
			errs[vi] = runVariant(vi)
		}
	}
	for vi, v := range brownoutVariants {
		if errs[vi] != nil {
			return errs[vi]
		}
		for _, res := range results[vi] {
			if res.Err != nil {
				return fmt.Errorf("%s, %s: %w", v.Name, res.Kind.Name, res.Err)
			}
		}
		brownoutReport(r, p, v, results[vi])
	}
	r.note("Requests are counted server-side (every /api arrival); commands, failures and times client-side. A command belongs to the period in which it ended: what its user saw then (a command that waited out a breaker through recovery and then succeeded is a success after recovery).")
	r.note("The clients share the machine's CPUs with every other kind of the run (and, on a shared machine, with whatever else runs there).")
	return nil
}

func brownoutRunKind(ctx context.Context, env *runEnv, p brownoutParams, v brownoutVariant, k brownoutKind) brownoutResult {
	res := brownoutResult{Kind: k}
	emu, err := startEmulator(localapi.Config{Seed: 1, RateLimit: unlimited})
	if err != nil {
		res.Err = err
		return res
	}
	defer emu.Close()
	names := make([]string, p.Clients)
	for i := range names {
		mq := fmt.Sprintf("bo-%d", i)
		if err := emu.setup(ctx, "POST", "/api/marquees", map[string]any{"marquee": map[string]any{"name": mq, "host": fmt.Sprintf("10.9.0.%d", i+1)}}, nil); err != nil {
			res.Err = fmt.Errorf("seed marquee: %w", err)
			return res
		}
		names[i] = fmt.Sprintf("bo-pg-%d", i)
		if err := emu.createPlayground(ctx, names[i], mq); err != nil {
			res.Err = fmt.Errorf("seed playground: %w", err)
			return res
		}
	}
	clients := make([]apiClient, p.Clients)
	for i := range clients {
		if clients[i], err = k.New(i, emu.URL, emu.Key); err != nil {
			res.Err = err
			return res
		}
		// Each client learns its playground's marquee before the run, as
		// a client that has run before would have.
		if err := clients[i].GetPlayground(ctx, names[i]); err != nil {
			res.Err = fmt.Errorf("warm-up read: %w", err)
			return res
		}
	}

	env.logf("brownout: %s: %s: %d clients", v.Name, k.Name, p.Clients)
	t0 := emu.Rec.reset()
	faults := time.AfterFunc(p.Start, func() { _ = emu.API.SetChaos(v.Chaos) })
	heal := time.AfterFunc(p.recovery(), func() { _ = emu.API.SetChaos("") })
	defer faults.Stop()
	defer heal.Stop()
	// A command may wait out a breaker past the schedule; none is cut off
	// before its wait and one more open window could have ended.
	runCtx, cancel := context.WithDeadline(ctx, t0.Add(p.schedEnd()+p.BreakerWait+p.Policy.WithDefaults().BreakerOpenTimeout))
	defer cancel()

	res.Cmds = make([][]brownoutCmd, p.Clients)
	var wg sync.WaitGroup
	for i, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res.Cmds[i] = brownoutClient(runCtx, p, t0, time.Duration(i)*p.Period/time.Duration(p.Clients), c, names[i])
		}()
	}
	wg.Wait()
	res.Timeline = emu.Rec.timeline()
	if ctx.Err() != nil {
		res.Err = ctx.Err()
	}
	return res
}

// brownoutClient runs one command per period from offset until schedEnd;
// a command that overruns its slot skips the slots it missed.
func brownoutClient(ctx context.Context, p brownoutParams, t0 time.Time, offset time.Duration, c apiClient, name string) []brownoutCmd {
	var cmds []brownoutCmd
	for next := offset; next < p.schedEnd(); next += p.Period {
		now := time.Since(t0)
		for next < now {
			next += p.Period
		}
		if next >= p.schedEnd() || !sleepCtx(ctx, next-now) {
			return cmds
		}
		cmd := brownoutCmd{Start: time.Since(t0)}
		cmd.Err = c.GetPlayground(ctx, name)
		cmd.End = time.Since(t0)
		if ctx.Err() != nil && cmd.Err != nil {
			return cmds // cut off by the end of the run
		}
		cmd.CircuitOpen = cmd.Err != nil && isCircuitOpen(cmd.Err)
		cmds = append(cmds, cmd)
	}
	return cmds
}

// brownoutRow is what one kind did in one variant.
type brownoutRow struct {
	requests, inWindow           int
	cmdsWindow, failedWindow     int
	cmdsAfter, failedAfter, open int
	firstMed, firstMax           time.Duration
	never                        int
}

func brownoutMeasure(p brownoutParams, res brownoutResult) brownoutRow {
	rec := p.recovery()
	row := brownoutRow{requests: len(res.Timeline), inWindow: res.Timeline.between(p.Start, rec)}
	var firsts []time.Duration
	for _, cmds := range res.Cmds {
		first := time.Duration(-1)
		for _, c := range cmds {
			switch {
			case c.End >= p.Start && c.End < rec:
				row.cmdsWindow++
				if c.Err != nil {
					row.failedWindow++
				}
			case c.End >= rec && c.End < rec+p.After:
				row.cmdsAfter++
				if c.Err != nil {
					row.failedAfter++
					if c.CircuitOpen {
						row.open++
					}
				}
			}
			if c.Err == nil && c.End >= rec && first < 0 {
				first = c.End - rec
			}
		}
		if first < 0 {
			row.never++
		} else {
			firsts = append(firsts, first)
		}
	}
	var ok bool
	if row.firstMed, row.firstMax, ok = medianMax(firsts); !ok {
		row.firstMed, row.firstMax = -1, -1
	}
	return row
}

func brownoutReport(r *report, p brownoutParams, v brownoutVariant, results []brownoutResult) {
	var t table
	t.Header = []string{"client", "requests received", "in the window", "per client in the window", "commands ending in the window", "failed", "commands ending in the 10 s after", "failed", "of which CIRCUIT_OPEN", "first success after recovery: median", "max", "clients without one"}
	rows := map[string]brownoutRow{}
	for _, res := range results {
		row := brownoutMeasure(p, res)
		rows[res.Kind.Name] = row
		openCell := "-"
		if res.Kind.Breakers {
			openCell = fmt.Sprint(row.open)
		}
		t.add(res.Kind.Name, fmt.Sprint(row.requests), fmt.Sprint(row.inWindow), fmt.Sprintf("%.1f", float64(row.inWindow)/float64(p.Clients)),
			fmt.Sprint(row.cmdsWindow), fmt.Sprint(row.failedWindow), fmt.Sprint(row.cmdsAfter), fmt.Sprint(row.failedAfter), openCell,
			fmtDur(row.firstMed), fmtDur(row.firstMax), fmt.Sprint(row.never))
	}
	for _, res := range results {
		if !res.Kind.Waits {
			continue
		}
		name := res.Kind.Name
		base := "fibe (own state dirs)"
		if strings.HasSuffix(name, "(shared state dir)") {
			base = "fibe (shared state dir)"
		}
		w, d := rows[name], rows[base]
		if v.Chaos == brownoutVariants[0].Chaos {
			r.check(fmt.Sprintf("%s: %s: requests in the window ≤ the default's (%s)", v.Name, name, base),
				w.inWindow <= d.inWindow, "%d vs %d", w.inWindow, d.inWindow)
			r.check(fmt.Sprintf("%s: %s: no failed command in the %s after recovery", v.Name, name, p.After),
				w.failedAfter == 0, "%d failed of %d (default: %d of %d)", w.failedAfter, w.cmdsAfter, d.failedAfter, d.cmdsAfter)
		} else {
			r.check(fmt.Sprintf("%s: %s: failed commands no more than the default's (%s)", v.Name, name, base),
				w.failedWindow+w.failedAfter <= d.failedWindow+d.failedAfter, "%d vs %d", w.failedWindow+w.failedAfter, d.failedWindow+d.failedAfter)
		}
	}
	r.Sections = append(r.Sections, section{Heading: "Brownout: " + v.Name + " (" + v.Chaos + ")", Table: t, After: []string{
		fmt.Sprintf("The window is [%s, %s). First success after recovery is per client: from the end of the window to the end of its first successful command.", p.Start, p.recovery()),
	}})
}
