package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	if isMeasuringHelper() { // started by the CLI timing, as the bench command would be
		os.Exit(measuringHelper(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// TestShortRun keeps the benchmark working: every scenario of "all" runs
// end to end in short mode against real emulators on 127.0.0.1 and writes
// its report. It checks the reports, not the targets: those are for full
// runs. The scenarios run side by side (each has its own emulators), so
// the test takes as long as the longest one.
func TestShortRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every scenario (about 15 s)")
	}
	t.Parallel()
	want := map[string][]string{
		"herd":       {"| naive |", "| retryablehttp |", "| fibe (own state dirs) |", "| fibe (shared state dir) |", "## Targets"},
		"duplicates": {"| naive | first run |", "| retryablehttp | first run |", "| fibe | first run |", "| fibe | after plain re-runs |"},
		"pacing":     {"| naive |", "| retryablehttp |", "| fibe |", "429s after the first window"},
		"overhead":   {"| net/http (bare) |", "| fibe client (in-memory state) |", "## CLI start-up"},
		"brownout": {"| naive |", "| retryablehttp |", "| fibe (own state dirs) |", "| fibe (shared state dir) |",
			"| fibe --breaker-wait 4.5s (own state dirs) |", "| fibe --breaker-wait 4.5s (shared state dir) |",
			"## Brownout: every request 503", "## Brownout: 30% of requests 503", "## Targets"},
	}
	if len(want) != len(scenarios) {
		t.Fatalf("%d scenarios in all, %d checked here", len(scenarios), len(want))
	}
	out := t.TempDir()
	for _, s := range scenarios {
		parts, ok := want[s.Name]
		if !ok {
			t.Fatalf("scenario %s is not checked", s.Name)
		}
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			var stdout, stderr bytes.Buffer
			began := time.Now()
			if err := run(ctx, []string{"-short", "-no-cli", "-out", out, s.Name}, &stdout, &stderr); err != nil {
				t.Fatalf("run: %v\n%s", err, stderr.String())
			}
			t.Logf("short %s took %s", s.Name, time.Since(began).Round(time.Millisecond))
			b, err := os.ReadFile(filepath.Join(out, s.Name+".md"))
			if err != nil {
				t.Fatal(err)
			}
			md := string(b)
			for _, p := range append(parts, "- Machine: ", "- Mode: short", "## Parameters") {
				if !strings.Contains(md, p) {
					t.Errorf("%s.md lacks %q:\n%s", s.Name, p, md)
				}
			}
			if !strings.Contains(stdout.String(), md) {
				t.Errorf("%s: the printed report differs from the written one", s.Name)
			}
		})
	}
}

// TestRecorderCountsWhatTheServerAnswered checks the server-side timeline:
// API requests with their statuses and arrival order; other paths ignored.
func TestRecorderCountsWhatTheServerAnswered(t *testing.T) {
	rec := newRecorder(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/down":
			w.WriteHeader(http.StatusServiceUnavailable)
		default:
			_, _ = w.Write([]byte("{}")) // implicit 200
		}
	}))
	srv := httptest.NewServer(rec)
	defer srv.Close()
	rec.reset()
	for _, p := range []string{"/api/me", "/api/down", "/_local/stats", "/api/down"} {
		resp, err := http.Get(srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	tl := rec.timeline()
	if len(tl) != 3 {
		t.Fatalf("recorded %d hits, want 3 (no /_local): %+v", len(tl), tl)
	}
	got := map[int]int{}
	for _, h := range tl {
		got[h.Status]++
	}
	if got[200] != 1 || got[503] != 2 {
		t.Errorf("statuses = %v, want 200×1, 503×2", got)
	}
	for i := 1; i < len(tl); i++ {
		if tl[i].At < tl[i-1].At {
			t.Errorf("timeline not sorted: %+v", tl)
		}
	}
}

func TestTimelineWindows(t *testing.T) {
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	var tl timeline
	for _, at := range []int{0, 100, 900, 1000, 1050, 1100, 1150, 2500} {
		tl = append(tl, hit{At: ms(at)})
	}
	if got := tl.between(ms(100), ms(1100)); got != 4 {
		t.Errorf("between = %d, want 4 (100, 900, 1000, 1050)", got)
	}
	if got := tl.peak(0, ms(3000), time.Second); got != 5 {
		t.Errorf("peak = %d, want 5 (the window from 900 ms holds 900..1150)", got)
	}
	if got := tl.peak(ms(2000), ms(3000), time.Second); got != 1 {
		t.Errorf("peak after 2 s = %d, want 1", got)
	}
	if got := tl.rate(0, 2*time.Second); got != 3.5 {
		t.Errorf("rate = %v, want 3.5/s", got)
	}
}

func TestBudgetShare(t *testing.T) {
	// 400 reads at 50 per 2 s: a perfect client ends at the start of the
	// 8th window, 14 s in, and has used all it was allowed.
	if got := budgetShare(400, 14*time.Second, 50, 2*time.Second); got != 1 {
		t.Errorf("perfect pacing share = %v, want 1", got)
	}
	if got := budgetShare(400, 30*time.Second, 50, 2*time.Second); got >= 0.9 {
		t.Errorf("slow pacing share = %v, want < 0.9", got)
	}
}

// TestCLITimingMeasuresAChild times a real child process (the go command,
// a small Go program: `go version`) through the measuring helper (this
// test binary) and reads its wall time and peak RSS.
func TestCLITimingMeasuresAChild(t *testing.T) {
	t.Parallel()
	goBin, err := exec.LookPath("go") // go test puts its own go first on PATH
	if err != nil {
		t.Fatalf("the go command is not on PATH: %v", err)
	}
	runs, err := timeCLI(context.Background(), goBin, []string{"version"}, append(cliEnviron(t.TempDir()), "GOTOOLCHAIN=local"), 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 {
		t.Fatalf("got %d runs, want 2", len(runs))
	}
	for _, r := range runs {
		if r.Wall <= 0 || r.Wall > 30*time.Second {
			t.Errorf("wall %s out of range", r.Wall)
		}
		if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
			continue // no rusage here
		}
		if r.CPU <= 0 {
			t.Errorf("CPU time %s: the child's rusage was not read", r.CPU)
		}
		if r.MaxRSS < 1_000_000 {
			t.Errorf("max RSS %d bytes: a Go process is larger than 1 MB", r.MaxRSS)
		}
		if r.HelperRSS <= 0 {
			t.Errorf("the helper reported no RSS of its own")
		}
	}
	if _, err := timeCLI(context.Background(), goBin, []string{"no-such-command"}, nil, 1); err == nil {
		t.Error("a failing command was timed as a success")
	}
}

// TestSoakShort runs the soak's short mode (100 operations, one wave)
// end to end: real emulator, the command tree in process, the journal in a
// state dir; its targets (no duplicate, nothing lost, no false failure
// after the plain re-run) must hold.
func TestSoakShort(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 100 CLI operations (about 10 s)")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	began := time.Now()
	if err := run(ctx, []string{"-short", "-out", out, "soak"}, &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	t.Logf("short soak took %s", time.Since(began).Round(time.Millisecond))
	b, err := os.ReadFile(filepath.Join(out, "soak.md"))
	if err != nil {
		t.Fatal(err)
	}
	md := string(b)
	for _, claim := range []string{"0 duplicates", "0 lost", "0 false failures after the re-run", "all 100 operations ran", "random seed | 12"} {
		if !strings.Contains(md, claim) {
			t.Fatalf("soak.md lacks %q:\n%s", claim, md)
		}
	}
	if strings.Contains(md, "| no |") {
		t.Fatalf("a soak target was missed:\n%s", md)
	}
}

// TestStartupWithoutCLI keeps the startup scenario wired: without a CLI
// to time it says so rather than failing, and names the comparison it
// cannot make.
func TestStartupWithoutCLI(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"-short", "-no-cli", "-out", out, "startup"}, &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	b, err := os.ReadFile(filepath.Join(out, "startup.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## CLI start-up", "Not measured: no CLI binary", "public Fibe CLI"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("startup.md lacks %q:\n%s", want, b)
		}
	}
}

// The init breakdown takes each package's median over the runs (0 where a
// run lacks it), names the heaviest first, and sums by origin.
func TestPerPackageMediansAndOrigins(t *testing.T) {
	ms := func(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }
	runs := []map[string]time.Duration{
		{"encoding/gob": ms(1), "github.com/itchyny/gojq": ms(3), "github.com/fibegg/fibe/cmd": ms(0.1)},
		{"encoding/gob": ms(2), "github.com/itchyny/gojq": ms(1)},
		{"encoding/gob": ms(9), "github.com/itchyny/gojq": ms(4), "github.com/fibegg/fibe/cmd": ms(0.3)},
	}
	var traces []initTrace
	for _, r := range runs {
		traces = append(traces, initTrace{PerPackage: r, PackageBytes: map[string]int64{}})
	}
	sec, groups := perPackage(traces)
	if len(sec.Table.Rows) != 3 || sec.Table.Rows[0][0] != "`github.com/itchyny/gojq`" || sec.Table.Rows[1][0] != "`encoding/gob`" {
		t.Fatalf("rows %v", sec.Table.Rows)
	}
	if groups[originLibrary] != ms(3) || groups[originStd] != ms(2) || groups[originFibe] != ms(0.1) {
		t.Fatalf("groups %v", groups)
	}
}

// The line-up times every contender in every round, under the measuring
// helper and under inittrace, and pairs the rounds for the ratios.
func TestLineupTimesEveryContender(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "nethttp")
	if err := buildPackage(context.Background(), "..", "./bench/yardstick/nethttp", bin); err != nil {
		t.Fatal(err)
	}
	cs := []contender{{Label: "a", Bin: bin}, {Label: "b", Bin: bin, Args: []string{"ignored"}}}
	runs, err := lineup(context.Background(), cs, cliEnviron(filepath.Join(dir, "home")), 3)
	if err != nil {
		t.Fatal(err)
	}
	for i, rs := range runs {
		if len(rs) != 3 {
			t.Fatalf("%s: %d runs, want 3", cs[i].Label, len(rs))
		}
		for _, r := range rs {
			if r.Wall <= 0 || r.CPU < 0 || r.Init <= 0 {
				t.Fatalf("%s: %+v", cs[i].Label, r)
			}
		}
	}
	if ratio := pairedRatio(runs[0], runs[0], wallOf); ratio != 1 {
		t.Fatalf("a program against itself: %v", ratio)
	}
	a := []lineupRun{{Wall: 10}, {Wall: 30}, {Wall: 20}}
	b := []lineupRun{{Wall: 20}, {Wall: 30}, {Wall: 80}}
	if got := pairedRatio(a, b, wallOf); got != 0.5 { // ratios 0.5, 1, 0.25
		t.Fatalf("paired ratio %v, want 0.5", got)
	}
}
