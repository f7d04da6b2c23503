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

// dupParams: Creates logical creates, Concurrency at a time, under Chaos,
// each attempt bounded by Timeout.
type dupParams struct {
	Creates     int
	Concurrency int
	Chaos       string
	Timeout     time.Duration
	Marquee     string
	Playspec    string

	NaiveSleep    time.Duration
	NaiveAttempts int
	Retryable     retryableTiming
	Policy        reliability.Policy
}

func newDupParams(env *runEnv) dupParams {
	p := dupParams{
		Creates:       500,
		Concurrency:   8,
		Chaos:         fmt.Sprintf("503=0.2,commit-then-502=0.15,commit-then-hang=0.1:%s", env.scale(3*time.Second)),
		Timeout:       env.scale(time.Second),
		Marquee:       "prod-eu",
		Playspec:      "web",
		NaiveSleep:    env.scale(time.Second),
		NaiveAttempts: 5,
		Policy:        scaledPolicy(env),
	}
	p.Policy.AttemptTimeout = p.Timeout
	if env.Short {
		p.Creates = 40
		p.Retryable = retryableTiming{WaitMin: env.scale(time.Second), WaitMax: env.scale(30 * time.Second)}
	}
	return p
}

// dupOp is one logical create as its client reported it.
type dupOp struct {
	Name    string
	Key     string // the key the failure named (fibe only)
	Err     error
	Code    string
	RetryAt time.Time // when a CIRCUIT_OPEN error said to come back
}

// dupStage is the server's view after a stage, joined with the clients'.
type dupStage struct {
	Label         string
	Successes     int
	Failures      int
	Created       int // names created at least once
	Duplicates    int // names created more than once
	FalseFailures int // reported failed, but created
	NoKey         int // failures that named no idempotency key
	CircuitOpen   int
	NameTaken     int // creates refused as "name has already been taken"
	Replays       int // idempotent replays the emulator served
	KeysCopied    int // re-runs that passed a key back (none: re-runs are plain)
	Requests      int
	Faults        map[string]int
	Elapsed       time.Duration
}

type dupKind struct {
	Name  string
	New   func(baseURL, apiKey string) (apiClient, error)
	Rerun bool
}

type dupResult struct {
	Kind   string
	Stages []dupStage
	Err    error
}

func runDuplicates(ctx context.Context, env *runEnv, r *report) error {
	p := newDupParams(env)
	r.param("logical creates", fmt.Sprintf("%d, %d at a time, POST /api/playgrounds {name, playspec_id: %q, marquee_id: %q}", p.Creates, p.Concurrency, p.Playspec, p.Marquee))
	r.param("faults (emulator chaos)", p.Chaos)
	r.param("client timeout per attempt", p.Timeout)
	r.param("emulator rate limit", "off (only the pacing scenario measures it)")
	r.param("naive", fmt.Sprintf("fixed %s sleep, at most %d attempts, retries any failure", p.NaiveSleep, p.NaiveAttempts))
	r.param("retryablehttp", "NewClient defaults with HTTPClient.Timeout set to the client timeout")
	r.param("fibe policy", describePolicy(p.Policy)+"; one client with a state dir shared by the workers")
	r.param("client kinds run", kindsRun(env))
	r.param("plain re-runs (every client)", "each failed create once, one at a time, exactly as first sent (no idempotency key copied), after the faults are switched off and the last CIRCUIT_OPEN error's \"retry in\" time has passed; fibe's outcome journal (window 15m) is on, as in the CLI")
	kinds := []dupKind{
		{Name: "naive", Rerun: true, New: func(u, k string) (apiClient, error) {
			return newNaiveClient(u, k, p.Timeout, p.NaiveSleep, p.NaiveAttempts), nil
		}},
		{Name: "retryablehttp", Rerun: true, New: func(u, k string) (apiClient, error) {
			c := newRetryableClient(u, k, p.Timeout)
			if p.Retryable.WaitMin > 0 {
				c.RC.RetryWaitMin, c.RC.RetryWaitMax = p.Retryable.WaitMin, p.Retryable.WaitMax
			}
			return c, nil
		}},
		{Name: "fibe", Rerun: true, New: func(u, k string) (apiClient, error) {
			return newFibeClient(u, k, filepath.Join(env.TempDir, "dup-state"), p.Policy)
		}},
	}
	results := make([]dupResult, len(kinds))
	forEachKind(env, len(kinds), func(i int) { results[i] = dupRun(ctx, env, p, kinds[i]) })

	var t table
	t.Header = []string{"client", "stage", "successes", "failures", "playgrounds created", "duplicates", "false failures", "failures naming no key", "CIRCUIT_OPEN", "second creates refused as name taken (cumulative)", "replays served (cumulative)", "requests received (cumulative)", "took"}
	var faults []string
	for _, res := range results {
		if res.Err != nil {
			return fmt.Errorf("%s: %w", res.Kind, res.Err)
		}
		for _, st := range res.Stages {
			noKey := fmt.Sprint(st.NoKey)
			open := fmt.Sprint(st.CircuitOpen)
			if res.Kind != "fibe" {
				noKey, open = fmt.Sprintf("%d (prints none)", st.NoKey), "-"
			}
			t.add(res.Kind, st.Label, fmt.Sprint(st.Successes), fmt.Sprint(st.Failures), fmt.Sprint(st.Created), fmt.Sprint(st.Duplicates),
				fmt.Sprint(st.FalseFailures), noKey, open, fmt.Sprint(st.NameTaken), fmt.Sprint(st.Replays), fmt.Sprint(st.Requests), fmtDur(st.Elapsed))
		}
		if len(res.Stages) > 0 {
			faults = append(faults, fmt.Sprintf("%s: %v", res.Kind, res.Stages[0].Faults))
		}
		if res.Kind == "fibe" && len(res.Stages) == 2 {
			first, last := res.Stages[0], res.Stages[1]
			r.check("fibe: 0 duplicates at every stage", first.Duplicates == 0 && last.Duplicates == 0, "%d, then %d", first.Duplicates, last.Duplicates)
			r.check("fibe: every failure names its idempotency key", first.NoKey == 0 && last.NoKey == 0, "%d of %d failures named none", first.NoKey, first.Failures)
			r.check(fmt.Sprintf("fibe: after the plain re-runs (no key copied) exactly %d created, 0 duplicates", p.Creates), last.Created == p.Creates && last.Duplicates == 0 && last.KeysCopied == 0, "%d created, %d duplicates, %d keys copied", last.Created, last.Duplicates, last.KeysCopied)
			r.check("fibe: after the plain re-runs 0 false failures", last.FalseFailures == 0 && last.Failures == 0, "%d false failures, %d failures", last.FalseFailures, last.Failures)
			r.check("fibe: the plain re-runs were served as replays where the first attempt had committed", last.Replays >= first.FalseFailures, "%d replays served (cumulative); %d creates had committed unreported", last.Replays, first.FalseFailures)
		}
	}
	r.note("Under these faults about 45%% of fibe's fresh attempts fail (503, lost answer, or timeout), so five failures in a row come quickly and the marquee's breaker opens for %s: the creates that follow fail at once with CIRCUIT_OPEN, sending nothing. That is the contract working as written; the re-run stage is where those creates are completed.", p.Policy.WithDefaults().BreakerOpenTimeout)
	r.Sections = append(r.Sections, section{Heading: "Results (creations counted by the emulator)", Table: t, After: []string{
		"Duplicates are names the emulator created more than once. The emulator, like the API, refuses a second playground with a taken name (422), so a blind retry of a create that had in fact committed shows up as a *false failure* and as a \"second create refused as name taken\" rather than as a duplicate: without that unique name it would have been one.",
		"Faults injected in the first stage: " + joinLines(faults),
	}})
	return nil
}

func joinLines(xs []string) string {
	out := ""
	for i, x := range xs {
		if i > 0 {
			out += "; "
		}
		out += x
	}
	return out
}

func dupRun(ctx context.Context, env *runEnv, p dupParams, k dupKind) dupResult {
	res := dupResult{Kind: k.Name}
	emu, err := startEmulator(localapi.Config{Seed: 7, RateLimit: unlimited})
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
	if err := emu.API.SetChaos(p.Chaos); err != nil {
		res.Err = err
		return res
	}
	env.logf("duplicates: %s: %d creates", k.Name, p.Creates)
	emu.Rec.reset()
	ops := make([]dupOp, p.Creates)
	for i := range ops {
		ops[i].Name = fmt.Sprintf("dup-%04d", i)
	}
	all := make([]int, len(ops))
	for i := range all {
		all[i] = i
	}
	began := time.Now()
	dupPass(ctx, c, ops, all, p.Concurrency, p)
	res.Stages = append(res.Stages, dupEvaluate("first run", emu, ops, time.Since(began)))
	if !k.Rerun || ctx.Err() != nil {
		res.Err = ctx.Err()
		return res
	}

	// The user re-runs what failed, one command at a time, exactly as typed,
	// once the faults are over and the last "retry in" has passed.
	var failed []int
	var retryAt time.Time
	for i, op := range ops {
		if op.Err != nil {
			failed = append(failed, i)
			if op.RetryAt.After(retryAt) {
				retryAt = op.RetryAt
			}
		}
	}
	if err := emu.API.SetChaos(""); err != nil {
		res.Err = err
		return res
	}
	env.logf("duplicates: %s: re-running %d failed creates (after waiting %s for the breaker)", k.Name, len(failed), max(time.Until(retryAt), 0).Round(time.Millisecond))
	if !sleepCtx(ctx, time.Until(retryAt)) {
		res.Err = ctx.Err()
		return res
	}
	began = time.Now()
	dupPass(ctx, c, ops, failed, 1, p)
	res.Stages = append(res.Stages, dupEvaluate("after plain re-runs", emu, ops, time.Since(began)))
	res.Err = ctx.Err()
	return res
}

// dupPass runs the creates listed in idx, concurrency at a time, each
// exactly as a user typed it: no idempotency key is passed, also on a
// re-run (fibe's journal finds the key of a create that lost its answer).
func dupPass(ctx context.Context, c apiClient, ops []dupOp, idx []int, concurrency int, p dupParams) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				n := int(next.Add(1)) - 1
				if n >= len(idx) || ctx.Err() != nil {
					return
				}
				op := &ops[idx[n]]
				opCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
				fields := map[string]any{"name": op.Name, "playspec_id": p.Playspec, "marquee_id": p.Marquee}
				key, err := c.CreatePlayground(opCtx, fields, "")
				cancel()
				op.Err, op.Key, op.Code, op.RetryAt = err, key, errorCode(err), time.Time{}
				if wait := circuitRetryIn(err); wait > 0 {
					op.RetryAt = time.Now().Add(wait)
				}
			}
		}()
	}
	wg.Wait()
}

func dupEvaluate(label string, emu *emulator, ops []dupOp, elapsed time.Duration) dupStage {
	stats := emu.API.Stats()
	tl := emu.Rec.timeline()
	st := dupStage{Label: label, Faults: stats.Faults, Requests: len(tl), Elapsed: elapsed, Replays: stats.Replays}
	for _, h := range tl {
		if h.Method == "POST" && h.Path == "/api/playgrounds" && h.Status == 422 {
			st.NameTaken++
		}
	}
	for _, op := range ops {
		n := stats.Creates[op.Name]
		if n > 0 {
			st.Created++
		}
		if n > 1 {
			st.Duplicates++
		}
		if op.Err == nil {
			st.Successes++
			continue
		}
		st.Failures++
		if n > 0 {
			st.FalseFailures++
		}
		if op.Key == "" {
			st.NoKey++
		}
		if op.Code == "CIRCUIT_OPEN" {
			st.CircuitOpen++
		}
	}
	return st
}
