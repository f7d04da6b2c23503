package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// contender is one program of a line-up: a binary and the arguments that
// make it print its version (or, for the MCP line-up, serve MCP).
type contender struct {
	Label string
	Bin   string
	Args  []string
}

// lineupRun is what one round measured of one contender.
type lineupRun struct {
	Wall, CPU, Init time.Duration
}

// lineup runs every contender once a round, n rounds after one unmeasured
// round, rotating who goes first, so that a load that comes and goes
// falls on all of them alike. Each run is timed through the measuring
// helper, then traced for its package initialisation. The first contender
// is fibe; the others are its yardsticks.
func lineup(ctx context.Context, cs []contender, environ []string, n int) ([][]lineupRun, error) {
	runs := make([][]lineupRun, len(cs))
	for round := 0; round <= n; round++ {
		for k := range cs {
			i := (k + round) % len(cs)
			c := cs[i]
			run, err := runCLIOnce(ctx, c.Bin, c.Args, environ)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", c.Label, err)
			}
			tr, err := traceInit(ctx, c.Bin, c.Args, environ)
			if err != nil {
				return nil, fmt.Errorf("%s (inittrace): %v", c.Label, err)
			}
			if round > 0 {
				runs[i] = append(runs[i], lineupRun{Wall: run.Wall, CPU: run.CPU, Init: tr.Clock})
			}
		}
	}
	return runs, nil
}

// pairedRatio is the median, over the rounds, of a's figure over b's.
func pairedRatio(a, b []lineupRun, fig func(lineupRun) time.Duration) float64 {
	da, db := make([]time.Duration, len(a)), make([]time.Duration, len(b))
	for i := range a {
		da[i], db[i] = fig(a[i]), fig(b[i])
	}
	return medianRatio(da, db)
}

// medianRatio is the median of a[i] / b[i] over the rounds (0 when no b
// is positive).
func medianRatio(a, b []time.Duration) float64 {
	ratios := make([]float64, 0, len(a))
	for i := range a {
		if b[i] > 0 {
			ratios = append(ratios, float64(a[i])/float64(b[i]))
		}
	}
	if len(ratios) == 0 {
		return 0
	}
	slices.Sort(ratios)
	return ratios[len(ratios)/2]
}

func wallOf(r lineupRun) time.Duration { return r.Wall }
func cpuOf(r lineupRun) time.Duration  { return r.CPU }
func initOf(r lineupRun) time.Duration { return r.Init }

func medianOf(runs []lineupRun, fig func(lineupRun) time.Duration) time.Duration {
	ds := make([]time.Duration, len(runs))
	for i, r := range runs {
		ds[i] = fig(r)
	}
	return quantile(ds, 0.5)
}

func minOf(runs []lineupRun, fig func(lineupRun) time.Duration) time.Duration {
	ds := make([]time.Duration, len(runs))
	for i, r := range runs {
		ds[i] = fig(r)
	}
	return quantile(ds, 0)
}

// yardsticks builds the two floor programs of bench/yardstick as the
// releases build fibe.
func yardsticks(ctx context.Context, env *runEnv) ([]contender, error) {
	var out []contender
	for _, y := range []struct{ label, pkg string }{
		{"the design's libraries alone (bench/yardstick/libraries)", "./bench/yardstick/libraries"},
		{"net/http alone (bench/yardstick/nethttp)", "./bench/yardstick/nethttp"},
	} {
		bin := filepath.Join(env.TempDir, filepath.Base(y.pkg))
		if err := buildPackage(ctx, env.ModuleDir, y.pkg, bin); err != nil {
			return nil, fmt.Errorf("building %s: %v", y.pkg, err)
		}
		args := []string{"version"}
		if strings.HasSuffix(y.pkg, "nethttp") {
			args = nil
		}
		out = append(out, contender{Label: y.label, Bin: bin, Args: args})
	}
	return out, nil
}

// lineupSection times `fibe version` beside its yardsticks and, with
// -public, the public Fibe CLI's --version.
func lineupSection(ctx context.Context, env *runEnv, r *report, bin string, environ []string) section {
	var t table
	t.Header = []string{"program", "rounds", "median wall", "fibe's wall ÷ its (paired)", "median CPU (user+sys)", "package init: median", "min", "fibe's init ÷ its (paired)"}
	sec := section{Heading: "Beside its yardsticks and the public Fibe CLI", Table: t}
	cs := []contender{{Label: "`fibe version`", Bin: bin, Args: []string{"version"}}}
	if env.Public != "" {
		cs = append(cs, contender{Label: "the public Fibe CLI's `fibe --version` (-public)", Bin: env.Public, Args: []string{"--version"}})
	}
	if env.ModuleDir != "" {
		ys, err := yardsticks(ctx, env)
		if err != nil {
			sec.After = append(sec.After, "Yardsticks not measured: "+firstLine(err.Error()))
		} else {
			cs = append(cs, ys...)
		}
	}
	if len(cs) == 1 {
		sec.After = append(sec.After, "Not measured: no yardstick could be built and no -public binary was given.")
		return sec
	}
	runs, err := lineup(ctx, cs, environ, env.CLIRuns)
	if err != nil {
		sec.After = append(sec.After, "Not measured: "+firstLine(err.Error()))
		return sec
	}
	for i, c := range cs {
		wallRatio, initRatio := "-", "-"
		if i > 0 {
			wallRatio = fmt.Sprintf("%.2f×", pairedRatio(runs[0], runs[i], wallOf))
			initRatio = fmt.Sprintf("%.2f×", pairedRatio(runs[0], runs[i], initOf))
		}
		sec.Table.add(c.Label, fmt.Sprint(len(runs[i])), fmtDur(medianOf(runs[i], wallOf)), wallRatio, fmtDur(medianOf(runs[i], cpuOf)),
			fmtDur(medianOf(runs[i], initOf)), fmtDur(minOf(runs[i], initOf)), initRatio)
	}
	if env.Public != "" {
		ratio := pairedRatio(runs[0], runs[1], wallOf)
		r.check("`fibe version` ≤ 0.3× the public Fibe CLI's `--version` (median of the paired wall-time ratios)", ratio <= 0.3, "%.2f× (%s against %s)", ratio,
			fmtDur(medianOf(runs[0], wallOf)), fmtDur(medianOf(runs[1], wallOf)))
	}
	sec.After = append(sec.After,
		"Every round runs each program once, in rotating order, and then once more under GODEBUG=inittrace=1; the ratios are the medians of the rounds' own ratios, so a load that comes and goes falls on every program alike.",
		"The yardsticks are built as the releases build fibe (CGO_ENABLED=0, -trimpath, -ldflags \"-s -w\"). Go runs the package initialisation of every package a binary links, used or not, and the yardsticks link only what they name: net/http alone is the floor of any Go client on this machine, and the design's libraries (cobra, viper, spinner, color, backoff, gobreaker) the floor of a command line built the way docs/architecture.md describes, before any of fibe's own features.")
	return sec
}

// mcpSpawn starts `bin mcp serve`, sends initialize and returns how long
// the answer took from the start of the process. The process is then
// ended by closing its stdin, as MCP clients do.
func mcpSpawn(ctx context.Context, bin string, environ []string) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "mcp", "serve")
	cmd.Env = environ
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return 0, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	began := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer func() {
		_ = stdin.Close()
		_, _ = io.Copy(io.Discard, stdout)
		_ = cmd.Wait()
	}()
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}` + "\n"
	if _, err := io.WriteString(stdin, initialize); err != nil {
		return 0, err
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<16), 1<<22)
	for sc.Scan() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) == nil && string(msg.ID) == "1" {
			if len(msg.Result) == 0 {
				return 0, fmt.Errorf("initialize failed: %s", firstLine(sc.Text()))
			}
			return time.Since(began), nil
		}
	}
	return 0, errors.New("no answer to initialize")
}

// mcpSection times `fibe mcp serve` from spawn to its initialize answer,
// paired with the public Fibe CLI's `mcp serve` when -public is given.
func mcpSection(ctx context.Context, env *runEnv, r *report, bin string, environ []string) section {
	var t table
	t.Header = []string{"server", "spawns", "spawn to initialize answered: min", "median", "p90", "fibe's ÷ its (paired)"}
	sec := section{Heading: "MCP: spawn to an answered initialize", Table: t}
	bins := []string{bin}
	labels := []string{"`fibe mcp serve`"}
	if env.Public != "" {
		bins = append(bins, env.Public)
		labels = append(labels, "the public Fibe CLI's `fibe mcp serve` (-public)")
	}
	times := make([][]time.Duration, len(bins))
	for round := 0; round <= env.CLIRuns; round++ {
		for k := range bins {
			i := (k + round) % len(bins)
			d, err := mcpSpawn(ctx, bins[i], environ)
			if err != nil {
				sec.After = append(sec.After, "Not measured: "+labels[i]+": "+firstLine(err.Error()))
				return sec
			}
			if round > 0 {
				times[i] = append(times[i], d)
			}
		}
	}
	ratio := 0.0
	for i, label := range labels {
		cell := "-"
		if i > 0 {
			ratio = medianRatio(times[0], times[i])
			cell = fmt.Sprintf("%.2f×", ratio)
		}
		sec.Table.add(label, fmt.Sprint(len(times[i])), fmtDur(quantile(times[i], 0)), fmtDur(quantile(times[i], 0.5)), fmtDur(quantile(times[i], 0.9)), cell)
	}
	if env.Public != "" {
		r.check("MCP spawn to `initialize` answered ≤ 0.5× the public Fibe CLI's `mcp serve` (median of the paired ratios)", ratio <= 0.5, "%.2f× (%s against %s)", ratio,
			fmtDur(quantile(times[0], 0.5)), fmtDur(quantile(times[1], 0.5)))
	}
	sec.After = append(sec.After, "The time runs from starting the process to reading its answer to initialize on stdout, as an MCP client sees it; the servers alternate, spawn by spawn.")
	return sec
}
