package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fibegg/fibe/internal/localapi"
)

// cliRun is one timed run of the CLI.
type cliRun struct {
	Wall      time.Duration
	MaxRSS    int64         // bytes; 0 where the OS does not report it
	HelperRSS int64         // the measuring helper's own peak: MaxRSS cannot read below it
	CPU       time.Duration // user + system CPU time of the child
}

// cliCommand is one command line whose start-up is timed.
type cliCommand struct {
	Args []string
	// WallTarget (median wall time) and RSSTarget (max RSS) are the
	// issue's targets (0: none).
	WallTarget time.Duration
	RSSTarget  int64
}

// cliSetup runs once, unmeasured, so that the list has a row to print.
var cliSetup = []string{"--api-url", "local", "pg", "create", "--name", "bench-list", "--playspec", "web", "--marquee", "local"}

var cliCommands = []cliCommand{
	{Args: []string{"version"}, WallTarget: 20 * time.Millisecond, RSSTarget: 30_000_000},
	{Args: []string{"--api-url", "local", "pg", "list"}, WallTarget: 10 * time.Millisecond},
}

// runCLITiming builds the CLI (or takes a prebuilt one) and times its
// commands. When there is no CLI to build, the table says so.
func runCLITiming(ctx context.Context, env *runEnv, r *report) error {
	var t table
	t.Header = []string{"command", "runs", "min wall", "median wall", "p90 wall", "max wall", "median CPU (user+sys)", "median max RSS", "max RSS"}
	sec := section{Heading: "CLI start-up", Table: t}
	var inits []section // the init trace, after the timings
	defer func() { r.Sections = append(append(r.Sections, sec), inits...) }()

	bin := env.CLI
	if bin == "" {
		if env.ModuleDir == "" {
			sec.After = append(sec.After, "Not measured: no CLI binary (-no-cli, or not run inside the module).")
			return nil
		}
		bin = filepath.Join(env.TempDir, "fibe")
		began := time.Now()
		env.logf("overhead: building the CLI")
		if err := buildCLI(ctx, env.ModuleDir, bin); err != nil {
			sec.After = append(sec.After, "Not available: the CLI does not build yet ("+firstLine(err.Error())+").")
			r.check("`fibe version`: median wall < 20 ms and max RSS < 30 MB", false, "not available")
			return nil
		}
		r.param("CLI build (go build -o, not counted in the timings)", time.Since(began).Round(100*time.Millisecond))
	}
	r.param("CLI runs per command", fmt.Sprintf("%d, after one unmeasured warm-up run", env.CLIRuns))
	r.param("CLI environment", "fresh HOME/XDG_CONFIG_HOME/XDG_STATE_HOME in a temp dir, FIBE_API_KEY set, NO_COLOR=1; RSS and CPU time from getrusage of the child (ru_maxrss, ru_utime + ru_stime)")
	if rt := realTimePolicy(); rt != "" {
		r.param("scheduling of the benchmark and every CLI run", rt+": real-time, ahead of the machine's other work, so a busy machine inflates the timings less")
	}
	if la := loadAverage(); la != "" {
		r.param("load average (1, 5, 15 min) before the CLI timings", la)
		defer func() {
			if la := loadAverage(); la != "" {
				r.param("load average (1, 5, 15 min) after them", la)
			}
		}()
	}

	var helperFloor int64
	defer func() {
		if helperFloor > 0 {
			sec.After = append(sec.After, fmt.Sprintf("Wall time is measured around the child alone, by a small helper process that starts it and reads its rusage (see rusage.go for why); the helper's own peak RSS was %s, the floor below which an RSS reading cannot go.", fmtMB(helperFloor)))
		}
	}()
	home := filepath.Join(env.TempDir, "cli-home")
	environ := cliEnviron(home)
	if _, err := runCLIOnce(ctx, bin, cliSetup, environ); err != nil {
		sec.After = append(sec.After, "Setup `fibe "+strings.Join(cliSetup, " ")+"` failed ("+firstLine(err.Error())+"); the list is timed on an empty state.")
	} else {
		sec.After = append(sec.After, "Before timing, `fibe "+strings.Join(cliSetup, " ")+"` created one playground in the local state, so the list prints a row.")
	}
	for _, cmd := range cliCommands {
		label := "fibe " + strings.Join(cmd.Args, " ")
		runs, err := timeCLI(ctx, bin, cmd.Args, environ, env.CLIRuns)
		if err != nil {
			sec.Table.add("`"+label+"`", "0", "failed: "+firstLine(err.Error()), "", "", "", "", "", "")
			if cmd.WallTarget > 0 {
				r.check(fmt.Sprintf("`%s`: median wall ≤ %s", label, cmd.WallTarget), false, "failed: %s", firstLine(err.Error()))
			}
			continue
		}
		walls := make([]time.Duration, len(runs))
		cpus := make([]time.Duration, len(runs))
		rss := make([]int64, len(runs))
		for i, run := range runs {
			walls[i], cpus[i], rss[i] = run.Wall, run.CPU, run.MaxRSS
			helperFloor = max(helperFloor, run.HelperRSS)
		}
		medWall, maxWall, _ := medianMax(walls)
		medCPU, _, _ := medianMax(cpus)
		medRSS, maxRSS, _ := medianMax(rss)
		sec.Table.add("`"+label+"`", fmt.Sprint(len(runs)), fmtDur(quantile(walls, 0)), fmtDur(medWall), fmtDur(quantile(walls, 0.9)), fmtDur(maxWall), fmtDur(medCPU), fmtMB(medRSS), fmtMB(maxRSS))
		if cmd.WallTarget > 0 {
			r.check(fmt.Sprintf("`%s`: median wall ≤ %s", label, cmd.WallTarget), medWall <= cmd.WallTarget, "%s (p90 %s; CPU time %s)", fmtDur(medWall), fmtDur(quantile(walls, 0.9)), fmtDur(medCPU))
		}
		if cmd.RSSTarget > 0 {
			r.check(fmt.Sprintf("`%s`: max RSS < %d MB", label, cmd.RSSTarget/1_000_000), maxRSS > 0 && maxRSS < cmd.RSSTarget, "%s", fmtMB(maxRSS))
		}
	}
	inits = append(inits, initSection(ctx, r, bin, environ, env.CLIRuns)...)
	if env.Startup {
		inits = append(inits, lineupSection(ctx, env, r, bin, environ), mcpSection(ctx, env, r, bin, environ))
	}
	if env.Baseline != "" {
		base, err := baselineCLI(ctx, env)
		if err == nil {
			what := "revision " + env.Baseline + " of the module, built with go build"
			if base == env.Baseline {
				what = "a prebuilt binary (-baseline)"
			}
			r.param("baseline, paired run for run with this build", what)
			var paired section
			paired, err = pairedSection(ctx, base, bin, environ, env.CLIRuns)
			if err == nil {
				inits = append(inits, paired)
			}
		}
		if err != nil {
			inits = append(inits, section{Heading: "Paired with the baseline", After: []string{"Not measured: " + firstLine(err.Error())}})
		}
	}
	return nil
}

func buildCLI(ctx context.Context, moduleDir, out string) error {
	return buildPackage(ctx, moduleDir, ".", out)
}

// buildPackage builds a main package of the module as the releases build
// fibe (.goreleaser.yaml): static, without debug information, so that the
// start-up timed is the start-up shipped.
func buildPackage(ctx context.Context, moduleDir, pkg, out string) error {
	ctx, cancel := context.WithTimeout(ctx, 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags", "-s -w", "-o", out, pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	cmd.Dir = moduleDir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// cliEnviron isolates the CLI from the user's config, state and keyring:
// every run sees the same fresh directories.
func cliEnviron(home string) []string {
	keep := []string{}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "PATH", name == "TMPDIR", name == "LANG":
			keep = append(keep, kv)
		}
	}
	return append(keep,
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, "config"),
		"XDG_STATE_HOME="+filepath.Join(home, "state"),
		"XDG_CACHE_HOME="+filepath.Join(home, "cache"),
		"FIBE_API_KEY="+localapi.DefaultAPIKey,
		"NO_COLOR=1",
	)
}

// timeCLI runs bin args n times after one warm-up run, each with a bound.
func timeCLI(ctx context.Context, bin string, args, environ []string, n int) ([]cliRun, error) {
	var runs []cliRun
	for i := 0; i <= n; i++ {
		run, err := runCLIOnce(ctx, bin, args, environ)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			runs = append(runs, run)
		}
	}
	return runs, nil
}

// runCLIOnce runs bin once through the measuring helper (see rusage.go)
// and returns what the helper saw.
func runCLIOnce(ctx context.Context, bin string, args, environ []string) (cliRun, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	self, err := os.Executable()
	if err != nil {
		return cliRun{}, err
	}
	cmd := exec.CommandContext(ctx, self, append([]string{bin}, args...)...)
	cmd.Env = append(slices.Clone(environ), helperEnv+"=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return cliRun{}, fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	var m helperResult
	if err := json.Unmarshal(stdout.Bytes(), &m); err != nil {
		return cliRun{}, fmt.Errorf("measuring helper: %v", err)
	}
	if m.Exit != 0 {
		return cliRun{}, fmt.Errorf("exit status %d: %s", m.Exit, strings.TrimSpace(stderr.String()))
	}
	return cliRun{Wall: time.Duration(m.WallNS), MaxRSS: m.MaxRSS, HelperRSS: m.HelperRSS, CPU: time.Duration(m.CPUNS)}, nil
}

func fmtMB(b int64) string {
	if b <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f MB", float64(b)/1_000_000)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	if len(line) > 200 {
		line = line[:200] + "…"
	}
	return line
}
