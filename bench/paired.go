package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// baselineCLI returns the binary -baseline names: an executable file as
// it is, or else a git revision of the module, exported with git archive
// into the scratch directory and built there.
func baselineCLI(ctx context.Context, env *runEnv) (string, error) {
	if st, err := os.Stat(env.Baseline); err == nil && !st.IsDir() {
		return env.Baseline, nil
	}
	if env.ModuleDir == "" {
		return "", fmt.Errorf("-baseline %s: not a file, and not run inside the module to build a revision", env.Baseline)
	}
	src := filepath.Join(env.TempDir, "baseline-src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	archive := exec.CommandContext(ctx, "git", "-C", env.ModuleDir, "archive", "--format=tar", env.Baseline)
	untar := exec.CommandContext(ctx, "tar", "-x", "-C", src)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return "", err
	}
	untar.Stdin = pipe
	var stderr bytes.Buffer
	archive.Stderr, untar.Stderr = &stderr, &stderr
	if err := untar.Start(); err != nil {
		return "", err
	}
	if err := archive.Run(); err != nil {
		_ = untar.Wait()
		return "", fmt.Errorf("git archive %s: %v: %s", env.Baseline, err, strings.TrimSpace(stderr.String()))
	}
	if err := untar.Wait(); err != nil {
		return "", fmt.Errorf("tar: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	bin := filepath.Join(env.TempDir, "fibe-baseline")
	if err := buildCLI(ctx, src, bin); err != nil {
		return "", err
	}
	return bin, nil
}

// pairedSection runs the baseline and this build one after the other, in
// alternating order, n times each (after one unmeasured warm-up pair), so
// that both see the same moments of a machine whose load moves; then the
// package initialisation of `fibe version` the same way. It reports the
// medians side by side, their ratio, and the median of the pairs'
// differences.
func pairedSection(ctx context.Context, base, bin string, environ []string, n int) (section, error) {
	var t table
	t.Header = []string{"measure", "pairs", "baseline: median", "this build: median", "ratio", "median of the pairs' differences", "baseline: min", "this build: min"}
	sec := section{Heading: "Paired with the baseline", Table: t}
	add := func(label string, a, b []time.Duration) {
		ma, _, _ := medianMax(a)
		mb, _, _ := medianMax(b)
		diffs := make([]time.Duration, len(a))
		for i := range a {
			diffs[i] = b[i] - a[i]
		}
		md, _, _ := medianMax(diffs)
		ratio := "-"
		if ma > 0 {
			ratio = fmt.Sprintf("%.2f×", float64(mb)/float64(ma))
		}
		sec.Table.add(label, fmt.Sprint(len(a)), fmtDur(ma), fmtDur(mb), ratio, fmtDelta(md), fmtDur(quantile(a, 0)), fmtDur(quantile(b, 0)))
	}
	for _, cmd := range cliCommands {
		label := "`fibe " + strings.Join(cmd.Args, " ") + "`"
		var wallA, wallB, cpuA, cpuB []time.Duration
		for i := 0; i <= n; i++ {
			order := []string{base, bin}
			if i%2 == 1 {
				order = []string{bin, base}
			}
			var got [2]cliRun
			for _, b := range order {
				run, err := runCLIOnce(ctx, b, cmd.Args, environ)
				if err != nil {
					return sec, fmt.Errorf("%s (%s): %v", label, b, err)
				}
				if b == base {
					got[0] = run
				} else {
					got[1] = run
				}
			}
			if i == 0 {
				continue
			}
			wallA, wallB = append(wallA, got[0].Wall), append(wallB, got[1].Wall)
			cpuA, cpuB = append(cpuA, got[0].CPU), append(cpuB, got[1].CPU)
		}
		add(label+", wall", wallA, wallB)
		add(label+", CPU time (user+sys)", cpuA, cpuB)
	}
	var clockA, clockB []time.Duration
	var lastA, lastB initTrace
	for i := 0; i < n; i++ {
		order := []string{base, bin}
		if i%2 == 1 {
			order = []string{bin, base}
		}
		for _, b := range order {
			tr, err := traceInit(ctx, b, []string{"version"}, environ)
			if err != nil {
				return sec, fmt.Errorf("inittrace (%s): %v", b, err)
			}
			if b == base {
				clockA, lastA = append(clockA, tr.Clock), tr
			} else {
				clockB, lastB = append(clockB, tr.Clock), tr
			}
		}
	}
	add("`fibe version`, package init (inittrace clock, summed)", clockA, clockB)
	sec.After = append(sec.After,
		fmt.Sprintf("Package init of `fibe version` allocates %d KB in %d packages (baseline) against %d KB in %d packages (this build); allocations do not depend on the machine's load.",
			lastA.Bytes/1024, lastA.Packages, lastB.Bytes/1024, lastB.Packages),
		"Each pair runs the two binaries back to back, in alternating order, with the same environment and state directory: a load that comes and goes falls on both alike, so the ratio and the median difference are steadier than either median.")
	return sec, nil
}
