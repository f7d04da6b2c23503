package main

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/reliability"
)

// herdParams are the numbers of the herd scenario (issue: K = 200 clients,
// one read every 2 s for 60 s, the marquee down from 10 s for 25 s).
type herdParams struct {
	Clients      int
	Period       time.Duration // between two reads of one client
	Duration     time.Duration // reads are scheduled in [0, Duration)
	OutageStart  time.Duration
	OutageLen    time.Duration
	Warmup       time.Duration // steady rate is measured in [Warmup, OutageStart)
	AfterWindow  time.Duration // the peak after recovery is looked for in this window
	RateWindow   time.Duration // "1 s" of the peak rate (scaled in short mode)
	RecoveryGoal time.Duration // every fibe client should read again this soon after recovery
	Marquee      string
	Playground   string

	NaiveSleep    time.Duration
	NaiveAttempts int
	NaiveTimeout  time.Duration
	Retryable     retryableTiming
	Policy        reliability.Policy
}

// retryableTiming lets the short mode compress go-retryablehttp's waits
// like every other timer; a full run keeps its defaults (zero values).
type retryableTiming struct{ WaitMin, WaitMax time.Duration }

func newHerdParams(env *runEnv) herdParams {
	p := herdParams{
		Clients:       200,
		Period:        env.scale(2 * time.Second),
		Duration:      env.scale(60 * time.Second),
		OutageStart:   env.scale(10 * time.Second),
		OutageLen:     env.scale(25 * time.Second),
		Warmup:        env.scale(2 * time.Second),
		AfterWindow:   env.scale(5 * time.Second),
		RateWindow:    env.scale(time.Second),
		RecoveryGoal:  env.scale(35 * time.Second),
		Marquee:       "prod-eu",
		Playground:    "herd-target",
		NaiveSleep:    env.scale(time.Second),
		NaiveAttempts: 5,
		NaiveTimeout:  env.scale(30 * time.Second),
		Policy:        scaledPolicy(env),
	}
	if env.Short {
		p.Clients = 20
		p.Retryable = retryableTiming{WaitMin: env.scale(time.Second), WaitMax: env.scale(30 * time.Second)}
	}
	return p
}

func (p herdParams) recovery() time.Duration { return p.OutageStart + p.OutageLen }

// hardStop bounds the run: clients that have not read successfully since
// recovery may go on past Duration, but never past recovery + goal + one
// period, so "within 35 s of recovery" can be observed rather than assumed.
func (p herdParams) hardStop() time.Duration {
	return max(p.Duration, p.recovery()+p.RecoveryGoal+p.Period)
}

// openWindows is how many open windows one breaker can have during the
// outage: each admits two half-open probes in the target's bound.
func (p herdParams) openWindows() int {
	open := p.Policy.WithDefaults().BreakerOpenTimeout
	return int((p.OutageLen + open - 1) / open)
}

// herdKind is one client kind in the herd.
type herdKind struct {
	Name string
	// New builds client i; clients never share connections (separate machines).
	New func(i int, baseURL, apiKey string) (apiClient, error)
	// Breakers is how many breakers guard the marquee across the fleet
	// (fibe only; 0 for the baselines).
	Breakers int
	// Fleet, for the fleet mode, gathers the store's round trips.
	Fleet *fleetStats
}

// herdKinds returns the client kinds, and what stops the fleet's Redis.
func herdKinds(env *runEnv, p herdParams, r *report) ([]herdKind, func(), error) {
	shared := filepath.Join(env.TempDir, "herd-shared-state")
	own := filepath.Join(env.TempDir, "herd-own-state")
	fleetDirs := filepath.Join(env.TempDir, "herd-fleet-state")
	for _, d := range []string{shared, own, fleetDirs} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, nil, err
		}
	}
	kinds := []herdKind{
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
		{Name: "fibe (own state dirs)", Breakers: p.Clients, New: func(i int, u, k string) (apiClient, error) {
			return newFibeClient(u, k, filepath.Join(own, fmt.Sprint(i)), p.Policy)
		}},
		{Name: "fibe (shared state dir)", Breakers: 1, New: func(i int, u, k string) (apiClient, error) {
			return newFibeClient(u, k, shared, p.Policy)
		}},
	}
	stop := func() {}
	srv, err := startFleetRedis()
	if err != nil {
		r.note("Fleet mode not run: %v.", err)
		return kinds, stop, nil
	}
	stats := &fleetStats{}
	kinds = append(kinds, herdKind{Name: "fibe fleet (own state dirs, one Redis)", Breakers: 1, Fleet: stats,
		New: func(i int, u, k string) (apiClient, error) {
			return newFleetClient(u, k, filepath.Join(fleetDirs, fmt.Sprint(i)), srv.URL(0), p.Policy, stats), nil
		}})
	r.param("fleet mode", "every client has its own state dir and every read is a fresh invocation (new client, new store); all share one redis-server on 127.0.0.1 through --state-store redis://")
	return kinds, srv.Stop, nil
}

// herdRead is one logical read as its client saw it.
type herdRead struct {
	Start, End  time.Duration
	Err         error
	CircuitOpen bool
}

// herdResult is what one kind's run produced.
type herdResult struct {
	Kind     herdKind
	Timeline timeline
	Reads    [][]herdRead // per client
	Stats    localapi.Stats
	Err      error
}

func runHerd(ctx context.Context, env *runEnv, r *report) error {
	p := newHerdParams(env)
	kinds, stopFleet, err := herdKinds(env, p, r)
	if err != nil {
		return err
	}
	defer stopFleet()
	r.param("clients (K)", p.Clients)
	r.param("read period", p.Period)
	r.param("scheduled run", p.Duration)
	r.param("outage", fmt.Sprintf("marquee/%s down from t=%s for %s (emulator chaos outage=marquee/%s@%s+%s)", p.Marquee, p.OutageStart, p.OutageLen, p.Marquee, p.OutageStart, p.OutageLen))
	r.param("emulator rate limit", "off (all clients share one API key; the default 600/min would throttle the herd)")
	r.param("steady rate measured in", fmt.Sprintf("[%s, %s)", p.Warmup, p.OutageStart))
	r.param("peak after recovery looked for in", fmt.Sprintf("[%s, %s), 1 s sliding window (scaled in short mode)", p.recovery(), p.recovery()+p.AfterWindow))
	r.param("naive", fmt.Sprintf("fixed %s sleep, at most %d attempts per read, %s per attempt", p.NaiveSleep, p.NaiveAttempts, p.NaiveTimeout))
	if p.Retryable.WaitMin > 0 {
		r.param("retryablehttp", fmt.Sprintf("defaults with waits scaled to %s..%s", p.Retryable.WaitMin, p.Retryable.WaitMax))
	} else {
		r.param("retryablehttp", "NewClient defaults (4 retries, 1 s..30 s exponential, Retry-After honoured, no timeout)")
	}
	r.param("fibe policy", describePolicy(p.Policy))
	r.param("client kinds run", kindsRun(env))

	results := make([]herdResult, len(kinds))
	forEachKind(env, len(kinds), func(i int) { results[i] = herdRunKind(ctx, env, p, kinds[i]) })
	for _, res := range results {
		if res.Err != nil {
			return fmt.Errorf("%s: %w", res.Kind.Name, res.Err)
		}
	}
	herdReport(r, p, results)
	return nil
}

func herdRunKind(ctx context.Context, env *runEnv, p herdParams, k herdKind) herdResult {
	res := herdResult{Kind: k}
	emu, err := startEmulator(localapi.Config{Seed: 1, RateLimit: unlimited})
	if err != nil {
		res.Err = err
		return res
	}
	defer emu.Close()
	if err := emu.createPlayground(ctx, p.Playground, p.Marquee); err != nil {
		res.Err = fmt.Errorf("seed playground: %w", err)
		return res
	}
	clients := make([]apiClient, p.Clients)
	for i := range clients {
		if clients[i], err = k.New(i, emu.URL, emu.Key); err != nil {
			res.Err = err
			return res
		}
	}

	env.logf("herd: %s: %d clients for %s", k.Name, p.Clients, p.Duration)
	t0 := emu.Rec.reset()
	if k.Fleet != nil {
		k.Fleet.start(t0)
	}
	if err := emu.API.SetChaos(fmt.Sprintf("outage=marquee/%s@%s+%s", p.Marquee, p.OutageStart, p.OutageLen)); err != nil {
		res.Err = fmt.Errorf("set chaos: %w", err)
		return res
	}
	// Reads still running when the run ends are cut off, with margin for a
	// last round of retries.
	runCtx, cancel := context.WithDeadline(ctx, t0.Add(p.hardStop()+p.Period))
	defer cancel()

	res.Reads = make([][]herdRead, p.Clients)
	var wg sync.WaitGroup
	for i, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res.Reads[i] = herdClient(runCtx, p, t0, time.Duration(i)*p.Period/time.Duration(p.Clients), c)
		}()
	}
	wg.Wait()
	res.Timeline = emu.Rec.timeline()
	res.Stats = emu.API.Stats()
	if ctx.Err() != nil {
		res.Err = ctx.Err()
	}
	return res
}

// herdClient reads on a fixed schedule starting at offset (clients are
// spread evenly over one period, as independent machines would be). A read
// that overruns its slot skips the slots it missed, like a ticker.
func herdClient(ctx context.Context, p herdParams, t0 time.Time, offset time.Duration, c apiClient) []herdRead {
	var reads []herdRead
	recovered := false
	for next := offset; ; next += p.Period {
		now := time.Since(t0)
		for next < now {
			next += p.Period
		}
		if next >= p.hardStop() || (next >= p.Duration && recovered) {
			return reads
		}
		if !sleepCtx(ctx, next-now) {
			return reads
		}
		rd := herdRead{Start: time.Since(t0)}
		rd.Err = c.GetPlayground(ctx, p.Playground)
		rd.End = time.Since(t0)
		if ctx.Err() != nil && rd.Err != nil {
			return reads // cut off by the end of the run, not a failed read
		}
		rd.CircuitOpen = rd.Err != nil && isCircuitOpen(rd.Err)
		reads = append(reads, rd)
		if rd.Err == nil && rd.End >= p.recovery() {
			recovered = true
		}
	}
}

func sleepCtx(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

func herdReport(r *report, p herdParams, results []herdResult) {
	rec := p.recovery()
	w := p.RateWindow
	var load, recovery table
	load.Header = []string{"client", "requests received", "during outage", "steady rate before outage", "peak in 5 s after recovery", "peak / steady", "peak from recovery to end of run", "peak / steady"}
	recovery.Header = []string{"client", "reads", "failed reads", "of which CIRCUIT_OPEN", "first success after recovery: median", "max", "clients not reading again by the end"}
	for _, res := range results {
		tl := res.Timeline
		// Steady and peak are both requests per rate window (1 s in a full run).
		steady := tl.rate(p.Warmup, p.OutageStart) * w.Seconds()
		during := tl.between(p.OutageStart, rec)
		peakSoon := tl.peak(rec, rec+p.AfterWindow, w)
		peakLate := tl.peak(rec, p.Duration, w)
		load.add(res.Kind.Name, fmt.Sprint(len(tl)), fmt.Sprint(during), fmt.Sprintf("%.1f", steady),
			fmt.Sprint(peakSoon), ratio(float64(peakSoon), steady), fmt.Sprint(peakLate), ratio(float64(peakLate), steady))

		var reads, failed, open int
		var firsts []time.Duration
		missing := 0
		for _, rs := range res.Reads {
			first := time.Duration(-1)
			for _, rd := range rs {
				reads++
				if rd.Err != nil {
					failed++
					if rd.CircuitOpen {
						open++
					}
				} else if first < 0 && rd.End >= rec {
					first = rd.End - rec
				}
			}
			if first < 0 {
				missing++
			} else {
				firsts = append(firsts, first)
			}
		}
		med, mx, ok := medianMax(firsts)
		if !ok {
			med, mx = -1, -1
		}
		openCell := "-"
		if res.Kind.Breakers > 0 {
			openCell = fmt.Sprint(open)
		}
		recovery.add(res.Kind.Name, fmt.Sprint(reads), fmt.Sprint(failed), openCell, fmtDur(med), fmtDur(mx), fmt.Sprint(missing))

		if res.Kind.Breakers > 0 {
			bound := res.Kind.Breakers * (p.Policy.WithDefaults().BreakerThreshold + 2*p.openWindows())
			r.check(fmt.Sprintf("%s: requests during the outage ≤ %d breaker(s) × (5 + 2 × %d open window)", res.Kind.Name, res.Kind.Breakers, p.openWindows()),
				during <= bound, "%d (bound %d)", during, bound)
			r.check(fmt.Sprintf("%s: peak 1 s rate in the 5 s after recovery ≤ 1.5 × steady", res.Kind.Name),
				float64(peakSoon) <= 1.5*steady, "%d vs steady %.1f (%s)", peakSoon, steady, ratio(float64(peakSoon), steady))
			r.check(fmt.Sprintf("%s: (stricter reading) peak from recovery to the end of the run ≤ 1.5 × steady", res.Kind.Name),
				float64(peakLate) <= 1.5*steady, "%d vs steady %.1f (%s)", peakLate, steady, ratio(float64(peakLate), steady))
			r.check(fmt.Sprintf("%s: every client reads again within %s of recovery", res.Kind.Name, p.RecoveryGoal),
				missing == 0 && mx <= p.RecoveryGoal, "max %s, %d never did", fmtDur(mx), missing)
		}
	}
	r.note("A fibe client whose breaker is open sends nothing at all, so its peak in the 5 s after recovery says little on its own: the breakers opened early in the outage stay open for %s and half-open later. The last load column shows the peak from recovery to the end of the run, which includes that moment.", p.Policy.WithDefaults().BreakerOpenTimeout)
	r.note("Failed reads of fibe are mostly CIRCUIT_OPEN: failing fast without sending while the breaker is open is the point of the breaker, and counts as a failed read here.")
	r.Sections = append(r.Sections,
		section{Heading: "Load on the server (counted server-side)", Table: load, After: []string{
			fmt.Sprintf("Rates are requests per %s: the steady rate is the mean before the outage, peaks are the busiest %s sliding window. \"During outage\" counts requests that arrived while the marquee was down.", w, w),
		}},
		section{Heading: "Reads as the clients saw them", Table: recovery, After: []string{
			"First success after recovery is per client: time from the end of the outage to the end of that client's first successful read. A client that had not read successfully since recovery by the end of the scheduled run keeps reading on its schedule until recovery + goal + one period.",
		}})
	for _, res := range results {
		if res.Kind.Fleet != nil {
			fleetSection(r, p, res.Kind.Name, res.Kind.Fleet)
		}
	}
}

func ratio(v, base float64) string {
	if base == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f×", v/base)
}

// medianMax returns the median (upper median for an even count) and the
// maximum; ok is false for an empty list.
func medianMax[T cmp.Ordered](xs []T) (med, mx T, ok bool) {
	if len(xs) == 0 {
		return med, mx, false
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2], s[len(s)-1], true
}

// scaledPolicy is the contract's default policy, with every duration
// compressed in short mode.
func scaledPolicy(env *runEnv) reliability.Policy {
	p := reliability.DefaultPolicy()
	for _, d := range []*time.Duration{&p.BaseDelay, &p.MaxDelay, &p.AttemptTimeout, &p.PollInterval, &p.PollTimeout, &p.BreakerOpenTimeout, &p.RateWaitCeiling, &p.MarqueeCacheTTL} {
		*d = env.scale(*d)
	}
	return p
}

func describePolicy(p reliability.Policy) string {
	p = p.WithDefaults()
	return fmt.Sprintf("%d retries, full jitter base %s ceiling %s, %s per attempt, breaker opens after %d failures for %s (%d probes, %d successes close it), poll every %s",
		p.MaxRetries, p.BaseDelay, p.MaxDelay, p.AttemptTimeout, p.BreakerThreshold, p.BreakerOpenTimeout, p.BreakerProbes, p.BreakerSuccesses, p.PollInterval)
}
