package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fibegg/fibe/cmd"
	"github.com/fibegg/fibe/cmd/factory"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/output"
)

// soakParams: Ops logical operations in Waves waves, Workers at a time,
// against an emulator at Speed under Chaos plus an outage of prod-eu.
type soakParams struct {
	Ops, Waves, Workers int
	Speed               float64
	Seed                int64
	Chaos               string        // without the outage
	OutageAt, OutageFor time.Duration // from the start of each wave
	Timeout             time.Duration // per attempt (FIBE_TIMEOUT)
	WaitTimeout         time.Duration // FIBE_WAIT_TIMEOUT
	PollInterval        time.Duration // FIBE_POLL_INTERVAL
	Span                time.Duration // the first runs of a wave start evenly over this span (0: back to back)
	ResetBreakers       bool          // -short: reset instead of waiting the open window out
	ParallelReruns      bool          // -short: re-run failures on the workers, not one at a time
	Procs               bool          // real fibe processes instead of the in-process runner
}

func newSoakParams(env *runEnv) soakParams {
	p := soakParams{
		Ops: 10_000, Waves: 20, Workers: 8, Speed: 50, Seed: 12,
		Chaos:    "hostile,commit-then-hang=0.05:3s,latency=0.2:300ms",
		OutageAt: 3 * time.Second, OutageFor: 15 * time.Second,
		Timeout: 2 * time.Second, WaitTimeout: time.Minute, PollInterval: 50 * time.Millisecond,
		Span: 25 * time.Second, Procs: env.SoakProcs,
	}
	if env.Short {
		p.Ops, p.Waves, p.Speed, p.Workers = 100, 1, 100, 32
		p.OutageAt, p.OutageFor = time.Second, 3*time.Second
		p.ResetBreakers, p.ParallelReruns, p.Span = true, true, 0
	}
	if env.SoakSeed != nil {
		p.Seed = *env.SoakSeed
	}
	if env.SoakOps > 0 {
		p.Ops = env.SoakOps
		p.Waves = max(1, (p.Ops+499)/500)
	}
	return p
}

func (p soakParams) chaosSpec() string {
	return fmt.Sprintf("%s,outage=marquee/prod-eu@%s+%s", p.Chaos, p.OutageAt, p.OutageFor)
}

// soakMemProfileRate is the heap profile's sampling rate during the soak.
const soakMemProfileRate = 8 << 10

// soakOp is one logical operation and what its command reported.
type soakOp struct {
	Wave    int
	Kind    string // create, rollout, restart, stop, start, delete, get
	Name    string
	Marquee string
	PGID    int64 // the playground's id (0 for a create until it exists)

	First, Final int // exit codes of the first run and of the re-run (= First when not re-run)
	Rerun        bool
	Reused       bool   // the re-run said "Reusing idempotency key"
	FinalError   string // the error line of a final failure
}

func (o *soakOp) args() []string {
	switch o.Kind {
	case "create":
		return []string{"pg", "create", "--name", o.Name, "--playspec", "web", "--marquee", o.Marquee}
	case "restart", "rollout", "stop", "start":
		return []string{"pg", o.Kind, o.Name}
	case "delete":
		return []string{"pg", "delete", o.Name, "--yes"}
	}
	return []string{"pg", "get", o.Name}
}

// serverKind is the emulator operation an op starts ("" when none).
func (o *soakOp) serverKind() string {
	switch o.Kind {
	case "restart":
		return "hard_restart"
	case "rollout", "stop", "start":
		return o.Kind
	case "delete":
		return "destroy"
	}
	return ""
}

// claimed is the status a successful op leaves its playground in ("" for
// gone, "-" when it claims nothing).
func (o *soakOp) claimed() string {
	switch o.Kind {
	case "create", "rollout", "restart", "start":
		return "running"
	case "stop":
		return "stopped"
	case "delete":
		return ""
	}
	return "-"
}

// soakRunner runs one fibe command line and returns its exit code and stderr.
type soakRunner func(ctx context.Context, args []string) (int, string)

// inProcess runs the command tree in this process, as main does, with
// fresh streams: the environment (API, state dir, timeouts) is the
// process's own, set by runSoak.
//
// Each operation gets an HTTP transport of its own and closes its idle
// connections when it ends, as a process does when it exits. (Left open,
// every operation's keep-alive connection, with its goroutines and
// buffers, held its client and its whole command tree until the idle
// timeout: the soak's memory grew with every wave; see bench/results/soak.md.)
func inProcess(ctx context.Context, args []string) (int, string) {
	ios, _, _, errOut := iostreams.Test()
	f := factory.New(ios, args)
	tr := http.DefaultTransport.(*http.Transport).Clone()
	defer tr.CloseIdleConnections()
	f.Transport = tr
	root := cmd.NewCmdRoot(f)
	root.SetArgs(args)
	err := cmd.Execute(ctx, root)
	if err == nil {
		return 0, errOut.String()
	}
	output.PrintError(ios, err, f.Invocation, f.Operation)
	return output.ExitCode(err), errOut.String()
}

func processRunner(bin string, environ []string) soakRunner {
	return func(ctx context.Context, args []string) (int, string) {
		c := exec.CommandContext(ctx, bin, args...)
		c.Env = environ
		var stderr strings.Builder
		c.Stderr = &stderr
		err := c.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), stderr.String()
		}
		if err != nil {
			return -1, err.Error()
		}
		return 0, stderr.String()
	}
}

// soakWave is one wave's numbers.
type soakWave struct {
	Ops, Creates, Actions, Gets   int
	FirstFailures                 map[int]int // exit code → count
	Reruns, Reused                int
	Replays                       int // replays the emulator served during the wave
	Mutations                     int // mutations it executed
	FinalFailures, FalseFailures  int
	Duplicates, Lost, Unexplained int
	Faults                        map[string]int
	First, Rerun                  time.Duration
	Details                       []string // what went wrong, op by op

	// Memory of the benchmark process once the wave is over: the heap in
	// use and the live heap after a collection, the peak RSS so far, and
	// the live heap by owner (emulator, fibe, the benchmark itself) from
	// the heap profile.
	HeapInuse, HeapAlloc uint64
	PeakRSS              int64
	Owners               heapOwners
}

func runSoak(ctx context.Context, env *runEnv, r *report) error {
	p := newSoakParams(env)
	// Sample the heap finely enough that the split by owner after each
	// wave is not noise (the default samples one allocation per 512 KiB).
	// Set here, it misses what package initialisation allocated before;
	// GODEBUG=memprofilerate=8192 sets it from the process start.
	defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
	fromStart := runtime.MemProfileRate == soakMemProfileRate
	runtime.MemProfileRate = soakMemProfileRate
	if fromStart {
		r.param("heap profile", fmt.Sprintf("sampled every %d KiB from the process start (GODEBUG=memprofilerate=%d)", soakMemProfileRate>>10, soakMemProfileRate))
	} else {
		r.param("heap profile", fmt.Sprintf("sampled every %d KiB from the start of the soak: what package initialisation allocated before is undercounted (most of the gap between the live heap and the owners' sum); GODEBUG=memprofilerate=%d counts it", soakMemProfileRate>>10, soakMemProfileRate))
	}
	runner := soakRunner(inProcess)
	how := "the in-process command runner (cmd.NewCmdRoot + Execute, fresh streams per operation; each builds its own client, as a process would)"
	home := filepath.Join(env.TempDir, "soak-home")
	emu, err := startEmulator(localapi.Config{Seed: p.Seed, Speed: p.Speed, RateLimit: unlimited})
	if err != nil {
		return err
	}
	defer emu.Close()
	vars := map[string]string{
		"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, "config"), "XDG_STATE_HOME": filepath.Join(home, "state"),
		"FIBE_NO_KEYRING": "1", "NO_COLOR": "1", "FIBE_API_URL": emu.URL, "FIBE_API_KEY": emu.Key,
		"FIBE_TIMEOUT": p.Timeout.String(), "FIBE_WAIT_TIMEOUT": p.WaitTimeout.String(), "FIBE_POLL_INTERVAL": p.PollInterval.String(),
		"FIBE_JOURNAL_WINDOW": "15m",
	}
	if p.Procs {
		bin := env.CLI
		if bin == "" {
			if env.ModuleDir == "" {
				return fmt.Errorf("-soak-procs needs the module (to build fibe) or -cli")
			}
			bin = filepath.Join(env.TempDir, "fibe-soak")
			env.logf("soak: building fibe")
			if err := buildCLI(ctx, env.ModuleDir, bin); err != nil {
				return err
			}
		}
		environ := []string{"PATH=" + os.Getenv("PATH")}
		for k, v := range vars {
			environ = append(environ, k+"="+v)
		}
		runner, how = processRunner(bin, environ), "a real fibe process per operation"
	} else {
		restore := setEnv(vars)
		defer restore()
	}

	r.param("operations", fmt.Sprintf("%d logical operations in %d waves, %d workers; creates (unique names), rollouts, restarts, stops, starts, deletes, gets", p.Ops, p.Waves, p.Workers))
	r.param("each operation", how)
	r.param("faults (emulator chaos, each wave)", p.chaosSpec())
	r.param("random seed", fmt.Sprintf("%d (emulator faults and the choice of operations)", p.Seed))
	r.param("emulator speed", fmt.Sprintf("%g× (simulated durations ÷ %g)", p.Speed, p.Speed))
	if p.Span > 0 {
		r.param("pacing", fmt.Sprintf("the first runs of a wave start evenly over %s, so the operations of a wave meet the outage and the breakers opening, half-opening and closing", p.Span))
	}
	r.param("client settings", fmt.Sprintf("FIBE_TIMEOUT=%s FIBE_WAIT_TIMEOUT=%s FIBE_POLL_INTERVAL=%s FIBE_JOURNAL_WINDOW=15m; contract defaults otherwise (3 retries, breaker 5 failures / 30 s); one state dir for every worker (one machine)", p.Timeout, p.WaitTimeout, p.PollInterval))
	between := "the faults stop, the breakers' open window passes (read from `fibe breaker status --json`)"
	if p.ResetBreakers {
		between = "the faults stop, the breakers are reset (`fibe breaker reset`; -short only, instead of waiting up to 30 s)"
	}
	how1 := "one at a time"
	if p.ParallelReruns {
		how1 = fmt.Sprintf("on the %d workers (-short only)", p.Workers)
	}
	r.param("after each wave", between+", every operation that did not exit 0 is re-run once, "+how1+", with the same command line (no key copied), then the emulator's world is compared with the ledger; the faults resume for the next wave")

	rng := rand.New(rand.NewPCG(uint64(p.Seed), 0x50a4))
	var waves []soakWave
	var all []*soakOp
	began := time.Now()
	perWave := (p.Ops + p.Waves - 1) / p.Waves
	// Seed playgrounds (no faults), so the first wave already mixes
	// actions with creates.
	seed := perWave * 3 / 4
	for i := 0; i < seed; i++ {
		m := "local"
		if i%2 == 0 {
			m = "prod-eu"
		}
		if err := emu.createPlayground(ctx, fmt.Sprintf("soak-seed-%04d", i), m); err != nil {
			return err
		}
	}
	if err := soakSettle(ctx, emu); err != nil {
		return err
	}
	r.param("seeded before the first wave", fmt.Sprintf("%d playgrounds (no faults), half on prod-eu", seed))
	for w := 0; w < p.Waves && ctx.Err() == nil; w++ {
		n := min(perWave, p.Ops-len(all))
		_, pgs := emu.API.Audit()
		ops := planWave(rng, w, n, pgs)
		all = append(all, ops...)
		env.logf("soak: wave %d/%d: %d operations (seed %d)", w+1, p.Waves, len(ops), p.Seed)
		wave, err := soakRunWave(ctx, env, p, emu, runner, ops)
		if err != nil {
			return err
		}
		wave.HeapInuse, wave.HeapAlloc, wave.PeakRSS = memoryNow()
		if wave.Owners, err = heapByOwner(); err != nil {
			return err
		}
		if w == 0 && env.MemProfile != "" && p.Waves > 1 {
			if err := writeHeapProfile(env.MemProfile + ".wave1"); err != nil {
				return err
			}
		}
		waves = append(waves, wave)
		env.logf("soak: wave %d: first-run failures %v, re-run %d (%d reused a key), final failures %d, duplicates %d, lost %d; live heap %s: fibe %s, emulator %s, harness %s",
			w+1, wave.FirstFailures, wave.Reruns, wave.Reused, wave.FinalFailures, wave.Duplicates, wave.Lost,
			fmtBytes(int64(wave.HeapAlloc)), fmtBytes(wave.Owners.Fibe), fmtBytes(wave.Owners.Emulator), fmtBytes(wave.Owners.Harness))
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if env.MemProfile != "" {
		if err := writeHeapProfile(env.MemProfile); err != nil {
			return err
		}
		env.logf("soak: heap profile in %s", env.MemProfile)
	}
	soakReport(r, p, waves, all, emu, time.Since(began))
	return nil
}

// planWave picks n operations: creates of new names, and at most one
// operation per existing playground, chosen by its status.
func planWave(rng *rand.Rand, wave, n int, pgs []localapi.AuditPlayground) []*soakOp {
	var pool []localapi.AuditPlayground
	for _, pg := range pgs {
		if pg.Status == "running" || pg.Status == "stopped" {
			pool = append(pool, pg)
		}
	}
	sort.Slice(pool, func(i, j int) bool { return pool[i].ID < pool[j].ID })
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	creates := max(n/4, n-len(pool))
	var ops []*soakOp
	for i := 0; i < creates; i++ {
		m := "local"
		if i%2 == 0 {
			m = "prod-eu"
		}
		ops = append(ops, &soakOp{Wave: wave, Kind: "create", Name: fmt.Sprintf("soak-%02d-%04d", wave, i), Marquee: m})
	}
	for _, pg := range pool[:n-creates] {
		kind := pickWeighted(rng, map[string]int{"rollout": 3, "restart": 3, "stop": 2, "delete": 1, "get": 3})
		if pg.Status == "stopped" {
			kind = pickWeighted(rng, map[string]int{"start": 4, "delete": 1, "get": 2})
		}
		ops = append(ops, &soakOp{Wave: wave, Kind: kind, Name: pg.Name, PGID: pg.ID})
	}
	rng.Shuffle(len(ops), func(i, j int) { ops[i], ops[j] = ops[j], ops[i] })
	return ops
}

func pickWeighted(rng *rand.Rand, weights map[string]int) string {
	keys := make([]string, 0, len(weights))
	total := 0
	for k, w := range weights {
		keys = append(keys, k)
		total += w
	}
	sort.Strings(keys)
	n := rng.IntN(total)
	for _, k := range keys {
		if n < weights[k] {
			return k
		}
		n -= weights[k]
	}
	return keys[len(keys)-1]
}

func soakRunWave(ctx context.Context, env *runEnv, p soakParams, emu *emulator, run soakRunner, ops []*soakOp) (soakWave, error) {
	w := soakWave{Ops: len(ops), FirstFailures: map[int]int{}}
	before := emu.API.Stats()
	start := time.Now()
	if err := emu.API.SetChaos(p.chaosSpec()); err != nil {
		return w, err
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range p.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(ops) || ctx.Err() != nil {
					return
				}
				op := ops[i]
				if p.Span > 0 && !sleepCtx(ctx, time.Until(start.Add(p.Span*time.Duration(i)/time.Duration(len(ops))))) {
					return
				}
				op.First, _ = run(ctx, op.args())
				op.Final = op.First
			}
		}()
	}
	wg.Wait()
	w.First = time.Since(start)
	if err := emu.API.SetChaos(""); err != nil {
		return w, err
	}
	faults := emu.API.Stats().Faults
	w.Faults = map[string]int{}
	for k, v := range faults {
		if d := v - before.Faults[k]; d > 0 {
			w.Faults[k] = d
		}
	}
	if err := soakBreakers(ctx, p, run); err != nil {
		return w, err
	}
	rerunStart := time.Now()
	var failed []*soakOp
	for _, op := range ops {
		if op.First != 0 {
			failed = append(failed, op)
		}
	}
	// One at a time, as a CI job re-run by hand; -short runs them on the
	// workers (each is another playground's operation, so they do not
	// meet) to keep the test quick.
	rerunners := 1
	if p.ParallelReruns {
		rerunners = p.Workers
	}
	next.Store(0)
	for range rerunners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(failed) || ctx.Err() != nil {
					return
				}
				op := failed[i]
				var stderr string
				op.Rerun = true
				op.Final, stderr = run(ctx, op.args())
				op.Reused = strings.Contains(stderr, "Reusing idempotency key")
				if op.Final != 0 {
					op.FinalError = errorLine(stderr)
				}
			}
		}()
	}
	wg.Wait()
	w.Rerun = time.Since(rerunStart)
	if err := soakSettle(ctx, emu); err != nil {
		return w, err
	}
	after := emu.API.Stats()
	w.Replays, w.Mutations = after.Replays-before.Replays, after.Mutations-before.Mutations
	soakAudit(&w, emu, ops, start, before, after)
	return w, ctx.Err()
}

// soakBreakers lets the breakers' open window pass (or, in -short, resets them).
func soakBreakers(ctx context.Context, p soakParams, run soakRunner) error {
	if p.ResetBreakers {
		if code, stderr := run(ctx, []string{"breaker", "reset"}); code != 0 {
			return fmt.Errorf("breaker reset: exit %d: %s", code, stderr)
		}
		return nil
	}
	for i := 0; i < 100; i++ {
		var list []struct {
			State     string    `json:"state"`
			OpenUntil time.Time `json:"open_until"`
		}
		out, code := soakJSON(ctx, []string{"breaker", "status", "--json"})
		if code != 0 || json.Unmarshal([]byte(out), &list) != nil {
			return fmt.Errorf("breaker status: exit %d: %s", code, out)
		}
		var until time.Time
		for _, b := range list {
			if b.State == "open" && b.OpenUntil.After(until) {
				until = b.OpenUntil
			}
		}
		if until.IsZero() || !time.Now().Before(until) {
			return nil
		}
		if !sleepCtx(ctx, time.Until(until)+50*time.Millisecond) {
			return ctx.Err()
		}
	}
	return nil
}

// soakJSON runs a read-only command in process and returns its stdout
// (breaker status reads the state dir, shared by both runners).
func soakJSON(ctx context.Context, args []string) (string, int) {
	ios, _, out, errOut := iostreams.Test()
	f := factory.New(ios, args)
	root := cmd.NewCmdRoot(f)
	root.SetArgs(args)
	if err := cmd.Execute(ctx, root); err != nil {
		return errOut.String() + err.Error(), output.ExitCode(err)
	}
	return out.String(), 0
}

// soakSettle waits (bounded) until no playground is between states.
func soakSettle(ctx context.Context, emu *emulator) error {
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		_, pgs := emu.API.Audit()
		busy := 0
		for _, pg := range pgs {
			switch pg.Status {
			case "running", "stopped", "error", "failed", "destroyed":
			default:
				busy++
			}
		}
		if busy == 0 {
			return nil
		}
		if !sleepCtx(ctx, 50*time.Millisecond) {
			return ctx.Err()
		}
	}
	return fmt.Errorf("playgrounds still between states after 2 minutes")
}

// soakAudit compares the emulator's world with the ledger of one wave.
func soakAudit(w *soakWave, emu *emulator, ops []*soakOp, start time.Time, before, after localapi.Stats) {
	sops, pgs := emu.API.Audit()
	byName := map[string]localapi.AuditPlayground{}
	for _, pg := range pgs {
		byName[pg.Name] = pg
	}
	type target struct {
		id   int64
		kind string
	}
	started := map[target]int{}
	for _, o := range sops {
		if !o.CreatedAt.Before(start) && o.PlaygroundID != 0 {
			started[target{o.PlaygroundID, o.Kind}]++
		}
	}
	expected := map[target]bool{}
	for _, op := range ops {
		switch op.Kind {
		case "create":
			w.Creates++
		case "get":
			w.Gets++
		default:
			w.Actions++
		}
		if op.First != 0 {
			w.FirstFailures[op.First]++
		}
		if op.Rerun {
			w.Reruns++
		}
		if op.Reused {
			w.Reused++
		}
		pg, exists := byName[op.Name]
		applied := false
		switch op.Kind {
		case "create":
			n := after.Creates[op.Name] - before.Creates[op.Name]
			applied = n > 0
			if n > 1 {
				w.Duplicates++
				w.Details = append(w.Details, fmt.Sprintf("%s created %d times", op.Name, n))
			}
		case "get":
			applied = true
		default:
			t := target{op.PGID, op.serverKind()}
			expected[t] = true
			n := started[t]
			applied = n > 0 || (op.Kind == "delete" && !exists)
			if n > 1 {
				w.Duplicates++
				w.Details = append(w.Details, fmt.Sprintf("%s %s applied %d times", op.Kind, op.Name, n))
			}
		}
		if op.Final != 0 {
			w.FinalFailures++
			if applied && op.Kind != "get" {
				w.FalseFailures++
				w.Details = append(w.Details, fmt.Sprintf("%s %s: false failure (exit %d: %s)", op.Kind, op.Name, op.Final, op.FinalError))
			} else {
				w.Details = append(w.Details, fmt.Sprintf("%s %s: failed (exit %d: %s)", op.Kind, op.Name, op.Final, op.FinalError))
			}
			continue
		}
		if c := op.claimed(); c != "-" {
			got := pg.Status
			if !exists {
				got = ""
			}
			if got != c && !(c == "" && got == "destroyed") {
				w.Lost++
				w.Details = append(w.Details, fmt.Sprintf("%s %s succeeded but the playground is %q", op.Kind, op.Name, got))
			}
		}
	}
	for t, n := range started {
		if !expected[t] && t.kind != "create" {
			w.Unexplained += n
			w.Details = append(w.Details, fmt.Sprintf("operation %s on playground %d that no command asked for", t.kind, t.id))
		}
	}
}

func errorLine(stderr string) string {
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "Error: ") {
			return firstLine(strings.TrimPrefix(l, "Error: "))
		}
	}
	return firstLine(strings.TrimSpace(stderr))
}

// setEnv sets the variables for the in-process runner and returns what
// restores the old values.
func setEnv(vars map[string]string) func() {
	old := map[string]*string{}
	for k, v := range vars {
		if prev, ok := os.LookupEnv(k); ok {
			old[k] = &prev
		} else {
			old[k] = nil
		}
		_ = os.Setenv(k, v)
	}
	return func() {
		for k, v := range old {
			if v == nil {
				_ = os.Unsetenv(k)
			} else {
				_ = os.Setenv(k, *v)
			}
		}
	}
}

func soakReport(r *report, p soakParams, waves []soakWave, all []*soakOp, emu *emulator, took time.Duration) {
	var tot soakWave
	tot.FirstFailures, tot.Faults = map[int]int{}, map[string]int{}
	var t table
	t.Header = []string{"wave", "ops", "creates / actions / gets", "first-run failures (by exit code)", "re-run", "re-runs reusing a journaled key", "replays served", "mutations executed", "final failures", "false failures", "duplicates", "lost", "first run", "re-runs", "heap in use after", "live heap", "of which fibe", "emulator", "harness", "peak RSS so far"}
	for i, w := range waves {
		t.add(fmt.Sprint(i+1), fmt.Sprint(w.Ops), fmt.Sprintf("%d / %d / %d", w.Creates, w.Actions, w.Gets), fmtCodes(w.FirstFailures),
			fmt.Sprint(w.Reruns), fmt.Sprint(w.Reused), fmt.Sprint(w.Replays), fmt.Sprint(w.Mutations), fmt.Sprint(w.FinalFailures),
			fmt.Sprint(w.FalseFailures), fmt.Sprint(w.Duplicates), fmt.Sprint(w.Lost), fmtDur(w.First), fmtDur(w.Rerun),
			fmtBytes(int64(w.HeapInuse)), fmtBytes(int64(w.HeapAlloc)), fmtBytes(w.Owners.Fibe), fmtBytes(w.Owners.Emulator), fmtBytes(w.Owners.Harness), fmtBytes(w.PeakRSS))
		tot.Ops += w.Ops
		tot.Creates += w.Creates
		tot.Actions += w.Actions
		tot.Gets += w.Gets
		for k, v := range w.FirstFailures {
			tot.FirstFailures[k] += v
		}
		for k, v := range w.Faults {
			tot.Faults[k] += v
		}
		tot.Reruns += w.Reruns
		tot.Reused += w.Reused
		tot.Replays += w.Replays
		tot.Mutations += w.Mutations
		tot.FinalFailures += w.FinalFailures
		tot.FalseFailures += w.FalseFailures
		tot.Duplicates += w.Duplicates
		tot.Lost += w.Lost
		tot.Unexplained += w.Unexplained
		tot.First += w.First
		tot.Rerun += w.Rerun
		tot.Details = append(tot.Details, w.Details...)
	}
	t.add("all", fmt.Sprint(tot.Ops), fmt.Sprintf("%d / %d / %d", tot.Creates, tot.Actions, tot.Gets), fmtCodes(tot.FirstFailures),
		fmt.Sprint(tot.Reruns), fmt.Sprint(tot.Reused), fmt.Sprint(tot.Replays), fmt.Sprint(tot.Mutations), fmt.Sprint(tot.FinalFailures),
		fmt.Sprint(tot.FalseFailures), fmt.Sprint(tot.Duplicates), fmt.Sprint(tot.Lost), fmtDur(tot.First), fmtDur(tot.Rerun), "", "", "", "", "", "")
	if n := len(waves); n > 1 {
		first, last := waves[0], waves[n-1]
		fo, lo := first.Owners, last.Owners
		r.check(fmt.Sprintf("memory after %d operations within 1.5× that after %d: fibe's own live heap (the heap profile's in-use bytes not allocated by the emulator or the benchmark)", tot.Ops, first.Ops),
			float64(lo.Fibe) <= 1.5*float64(fo.Fibe), "%s vs %s (%s); beside it, the whole process: live heap %s vs %s (%s), heap in use %s vs %s (%s)",
			fmtBytes(lo.Fibe), fmtBytes(fo.Fibe), ratio(float64(lo.Fibe), float64(fo.Fibe)),
			fmtBytes(int64(last.HeapAlloc)), fmtBytes(int64(first.HeapAlloc)), ratio(float64(last.HeapAlloc), float64(first.HeapAlloc)),
			fmtBytes(int64(last.HeapInuse)), fmtBytes(int64(first.HeapInuse)), ratio(float64(last.HeapInuse), float64(first.HeapInuse)))
		if first.PeakRSS > 0 {
			r.check(fmt.Sprintf("peak RSS after %d operations within 1.5× that after %d", tot.Ops, first.Ops),
				float64(last.PeakRSS) <= 1.5*float64(first.PeakRSS), "%s vs %s (%s)", fmtBytes(last.PeakRSS), fmtBytes(first.PeakRSS),
				ratio(float64(last.PeakRSS), float64(first.PeakRSS)))
		}
	}
	r.check("0 duplicates (no name created twice, no action applied twice for one logical operation)", tot.Duplicates == 0 && tot.Unexplained == 0,
		"%d duplicates, %d operations no command asked for", tot.Duplicates, tot.Unexplained)
	r.check("0 lost (every operation that finally reported success is in the state it claimed)", tot.Lost == 0, "%d lost", tot.Lost)
	r.check("0 false failures after the re-run", tot.FalseFailures == 0, "%d false failures (%d final failures in all)", tot.FalseFailures, tot.FinalFailures)
	r.check(fmt.Sprintf("all %d operations ran", p.Ops), tot.Ops == p.Ops, "%d", tot.Ops)
	after := []string{
		fmt.Sprintf("Replays served in all: %d (the emulator's counter: answers to a request whose Idempotency-Key it had already seen, within a run's retries or on a re-run). Re-runs that reused a journaled key: %d of %d.", tot.Replays, tot.Reused, tot.Reruns),
		"Faults injected: " + fmtFaults(tot.Faults) + ".",
		fmt.Sprintf("Wall time: %s (first runs %s, re-runs %s, the rest waiting for breakers and for the world to settle).", fmtDur(took), fmtDur(tot.First), fmtDur(tot.Rerun)),
	}
	if len(tot.Details) > 0 {
		d := tot.Details
		if len(d) > 20 {
			d = append(d[:20:20], fmt.Sprintf("… and %d more", len(tot.Details)-20))
		}
		after = append(after, "What went wrong: "+strings.Join(d, "; ")+".")
	}
	r.Sections = append(r.Sections, section{Heading: "Results (the emulator's world against the workers' ledger)", Table: t, After: after})
	open := tot.FirstFailures[output.ExitCircuitOpen]
	if failed := tot.Reruns; failed > 0 {
		r.note("%d of the %d first-run failures (%.0f%%) were CIRCUIT_OPEN: under these faults (about 60%% of attempts fail) the breakers of prod-eu, local and the API host, shared by all eight workers through one state dir, open within the first operations of a wave and, with each half-open probe meeting the same faults, stay open; those operations fail at once and send nothing. So most of a wave's operations are completed by the plain re-run, and the lost answers (commit-then-502/-reset/-hang) are concentrated in the operations that did reach the server. The re-runs of gets do not reuse a key (a GET has none), which is why fewer re-runs reuse a key than are re-run.",
			open, failed, 100*float64(open)/float64(failed))
	}
	r.note("Memory: the emulator runs in this process, so the process's heap holds its world (every playground created, its operations, idempotency records and counters, kept as the API keeps them), which grows with the operations by design. After each wave the heap profile (sampled every %d KiB) is split by owner: the emulator (a stack through internal/localapi, or through net/http's server with no other owner), the benchmark's own ledger and request recorder (package main, with no fibe frame nearer the allocation), and fibe (everything else: cmd, client, reliability, the state store, the client transports, libraries and the runtime). The memory target is judged on fibe's share; the whole heap is beside it. The live heap (the bytes of live objects) is smaller than the heap in use (whole spans, with their free slots); the owners' shares are the profile's estimates, within sampling error of the live heap.", soakMemProfileRate/1024)
	r.note("Exit codes of the first runs: 9 is CIRCUIT_OPEN (the marquee's or the host's breaker, shared by every worker through the state dir, opened and nothing was sent), 12 is a server or network failure after the retries, 6 a conflict, 10 a wait that ran out. Each such operation is re-run once, exactly as typed; the outcome journal gives the re-run of an operation whose answer was lost the key of the first run, so the server replays it instead of applying it twice.")
}

func fmtCodes(m map[int]int) string {
	if len(m) == 0 {
		return "0"
	}
	codes := make([]int, 0, len(m))
	total := 0
	for c, n := range m {
		codes = append(codes, c)
		total += n
	}
	sort.Ints(codes)
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = fmt.Sprintf("%d×%d", m[c], c)
	}
	return fmt.Sprintf("%d (%s)", total, strings.Join(parts, ", "))
}

func fmtFaults(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
