package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// scenario is one benchmark: it runs, and fills a report.
type scenario struct {
	Name  string
	Title string
	Run   func(ctx context.Context, env *runEnv, r *report) error
}

// scenarios in the order "all" runs them: overhead first, while the process
// is fresh, since its timings are the most sensitive to a busy heap.
var scenarios = []scenario{
	{"overhead", "Overhead: one request, and the CLI's start-up", runOverhead},
	{"herd", "Herd: a fleet of readers and a marquee outage", runHerd},
	{"duplicates", "Duplicates: creates under faults, and re-runs with the printed key", runDuplicates},
	{"pacing", "Pacing: a shared rate limit", runPacing},
	{"brownout", "Brownout: every route failing for 25 s, and after", runBrownout},
}

// longScenarios run only when named: "all" leaves them out.
var longScenarios = []scenario{
	{"soak", "Soak: thousands of CLI operations under hostile faults, re-run plainly", runSoak},
	{"startup", "Start-up: `fibe version` and `fibe --api-url local pg list`, and package initialisation", runStartup},
}

// runEnv is what every scenario gets: the mode, where to put scratch files,
// and where to say what it is doing.
type runEnv struct {
	Short   bool
	Serial  bool // run client kinds one after another instead of side by side
	TempDir string
	Log     io.Writer
	// ModuleDir is the module root, for building the CLI; "" skips it.
	ModuleDir string
	// CLI, when set, is a prebuilt binary to time instead of building one.
	CLI string
	// Baseline, when set, is a binary or a git revision timed beside the
	// CLI, run for run (paired.go).
	Baseline string
	// Public, when set, is the public Fibe CLI's binary, timed beside
	// fibe in the startup scenario (lineup.go).
	Public string
	// Startup: the startup scenario runs, which adds the line-ups to the
	// CLI timings.
	Startup bool
	// CLIRuns is how many times each CLI command is run; CLIRunsSet says
	// -cli-runs chose it.
	CLIRuns    int
	CLIRunsSet bool
	// SoakOps overrides the soak's operation count; SoakProcs runs each
	// operation as a real fibe process.
	SoakOps   int
	SoakProcs bool
	// SoakSeed, when set, replaces the soak's seed (faults and the choice
	// of operations), so a run can try another.
	SoakSeed *int64
	// MemProfile, when set, is where the soak writes a heap profile after
	// its last wave.
	MemProfile string

	logMu sync.Mutex // client kinds log side by side
}

func (e *runEnv) logf(format string, args ...any) {
	if e.Log == nil {
		return
	}
	e.logMu.Lock()
	defer e.logMu.Unlock()
	fmt.Fprintf(e.Log, "bench: "+format+"\n", args...)
}

// scale turns a full-run duration into the one used by this mode: short
// runs compress time tenfold so every timer keeps its proportions.
func (e *runEnv) scale(d time.Duration) time.Duration {
	if e.Short {
		return d / 10
	}
	return d
}

func main() {
	if isMeasuringHelper() {
		os.Exit(measuringHelper(os.Args[1:]))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	short := fs.Bool("short", false, "scaled-down run of a few seconds (keeps the benchmark working; not comparable with the targets)")
	serial := fs.Bool("serial", false, "run the client kinds of a scenario one after another instead of side by side")
	out := fs.String("out", "", "directory for <scenario>.md results (default bench/results for a full run, none for -short)")
	cliBin := fs.String("cli", "", "prebuilt fibe binary to time in the overhead scenario (default: build one)")
	noCLI := fs.Bool("no-cli", false, "skip timing the CLI in the overhead scenario")
	public := fs.String("public", "", "startup: the public Fibe CLI's binary, timed beside fibe (its --version, and its mcp serve from spawn to initialize)")
	baseline := fs.String("baseline", "", "startup and overhead: also time this fibe binary, or this git revision of the module (built), paired with this build, run for run")
	cliRuns := fs.Int("cli-runs", 0, "times each CLI command is run (default 20 in overhead, 50 in startup, 3 with -short)")
	soakOps := fs.Int("soak-ops", 0, "soak: number of operations (default 10000, or 200 with -short), in waves of 500")
	soakProcs := fs.Bool("soak-procs", false, "soak: run each operation as a real fibe process (built, or -cli) instead of in process")
	soakSeed := fs.Int64("soak-seed", 0, "soak: random seed of the emulator's faults and of the choice of operations (default 12)")
	memProfile := fs.String("soak-memprofile", "", "soak: write a heap profile (go tool pprof) to this file after the last wave")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: go run ./bench [flags] <scenario>...\n\nscenarios: all")
		for _, s := range append(scenarios, longScenarios...) {
			fmt.Fprintf(stderr, ", %s", s.Name)
		}
		fmt.Fprintf(stderr, "\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	chosen, err := pick(fs.Args())
	if err != nil {
		fs.Usage()
		return err
	}

	modDir, _ := moduleRoot()
	outDir := *out
	if outDir == "" && !*short && modDir != "" {
		outDir = filepath.Join(modDir, "bench", "results")
	}
	tmp, err := os.MkdirTemp("", "fibe-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	raiseFileLimit()

	env := &runEnv{Short: *short, Serial: *serial, TempDir: tmp, Log: stderr, ModuleDir: modDir, CLI: *cliBin, Baseline: *baseline, Public: *public, CLIRuns: 20,
		SoakOps: *soakOps, SoakProcs: *soakProcs, MemProfile: *memProfile}
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "soak-seed" {
			env.SoakSeed = soakSeed
		}
	})
	if *short {
		env.CLIRuns = 3
	}
	if *cliRuns > 0 {
		env.CLIRuns, env.CLIRunsSet = *cliRuns, true
	}
	if *noCLI {
		env.ModuleDir, env.CLI = "", ""
	}
	var given []string
	fs.Visit(func(f *flag.Flag) {
		switch b, isBool := f.Value.(interface{ IsBoolFlag() bool }); {
		case f.Name == "out":
		case f.Name == "soak-memprofile": // a path of the machine that ran it
			given = append(given, "-soak-memprofile=FILE")
		case (f.Name == "cli" || f.Name == "baseline" || f.Name == "public") && strings.ContainsRune(f.Value.String(), os.PathSeparator):
			given = append(given, "-"+f.Name+"=BIN") // a path of the machine that ran it
		case isBool && b.IsBoolFlag() && f.Value.String() == "true":
			given = append(given, "-"+f.Name)
		default:
			given = append(given, "-"+f.Name+"="+f.Value.String())
		}
	})
	m := describeMachine()
	began := time.Now()
	for _, s := range chosen {
		r := &report{Scenario: s.Name, Flags: given, Title: "fibe benchmark — " + s.Title, Short: *short, Started: time.Now(), Machine: m}
		env.logf("%s: running", s.Name)
		if err := s.Run(ctx, env, r); err != nil {
			return fmt.Errorf("%s: %w", s.Name, err)
		}
		r.Wall = time.Since(r.Started)
		path, err := r.publish(stdout, outDir)
		if err != nil {
			return err
		}
		if path != "" {
			env.logf("%s: wrote %s", s.Name, path)
		}
	}
	env.logf("done in %s", time.Since(began).Round(100*time.Millisecond))
	return nil
}

func pick(names []string) ([]scenario, error) {
	if len(names) == 0 {
		return nil, errors.New("name a scenario")
	}
	var out []scenario
	for _, n := range names {
		if n == "all" {
			return scenarios, nil
		}
		found := false
		for _, s := range append(scenarios, longScenarios...) {
			if s.Name == n {
				out = append(out, s)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown scenario %q", n)
		}
	}
	return out, nil
}

// moduleRoot finds the directory holding go.mod, walking up from the
// working directory, so results land in bench/results wherever the command
// is started inside the module.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.Contains(string(b), "module github.com/fibegg/fibe") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod of github.com/fibegg/fibe not found")
		}
		dir = parent
	}
}
