package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
)

// initTrace is what GODEBUG=inittrace=1 reports of one start: the package
// initialisation's summed clock time and allocated bytes, and fibe's own
// share of the bytes.
type initTrace struct {
	Clock      time.Duration
	Bytes      int64
	FibeBytes  int64
	Packages   int
	Heaviest   string // the package that allocated most
	HeaviestKB int64
}

// traceInit runs bin args once with GODEBUG=inittrace=1 and sums its
// "init PKG @T ms, C ms clock, B bytes, N allocs" lines.
func traceInit(ctx context.Context, bin string, args, environ []string) (initTrace, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(slices.Clone(environ), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return initTrace{}, fmt.Errorf("%v: %s", err, firstLine(stderr.String()))
	}
	var tr initTrace
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[5] != "ms" || f[8] != "bytes," {
			continue
		}
		ms, err1 := strconv.ParseFloat(f[4], 64)
		b, err2 := strconv.ParseInt(f[7], 10, 64)
		if err1 != nil || err2 != nil {
			continue
		}
		tr.Packages++
		tr.Clock += time.Duration(ms * float64(time.Millisecond))
		tr.Bytes += b
		if strings.HasPrefix(f[1], "github.com/fibegg/fibe") {
			tr.FibeBytes += b
		}
		if b/1024 > tr.HeaviestKB {
			tr.Heaviest, tr.HeaviestKB = f[1], b/1024
		}
	}
	if tr.Packages == 0 {
		return tr, fmt.Errorf("no inittrace lines")
	}
	return tr, nil
}

// initSection measures `fibe version`'s package initialisation n times.
func initSection(ctx context.Context, r *report, bin string, environ []string, n int) section {
	var t table
	t.Header = []string{"command", "runs", "init clock: min", "median", "p90", "max", "init allocations", "of which fibe's packages", "packages", "heaviest"}
	sec := section{Heading: "Package initialisation (GODEBUG=inittrace=1)", Table: t}
	var clocks []time.Duration
	var last initTrace
	for range n {
		tr, err := traceInit(ctx, bin, []string{"version"}, environ)
		if err != nil {
			sec.After = append(sec.After, "Not measured: "+firstLine(err.Error()))
			return sec
		}
		clocks = append(clocks, tr.Clock)
		last = tr
	}
	med, mx, _ := medianMax(clocks)
	sec.Table.add("`fibe version`", fmt.Sprint(n), fmtDur(quantile(clocks, 0)), fmtDur(med), fmtDur(quantile(clocks, 0.9)), fmtDur(mx), fmt.Sprintf("%d KB", last.Bytes/1024),
		fmt.Sprintf("%d KB", last.FibeBytes/1024), fmt.Sprint(last.Packages), fmt.Sprintf("%s (%d KB)", last.Heaviest, last.HeaviestKB))
	sec.After = append(sec.After, "The clock columns sum every package's init clock time, as the runtime reports it; it is the first thing a busy machine inflates, and only ever upwards, so the minimum over the runs is the best estimate here of what an idle machine would show. The allocations are deterministic: e2e/cli_startup_test.go holds them under a bound, so start-up stays lazy (templates, the console bundle, JSON schemas, regexps and Redis scripts are built on first use).")
	r.check("`fibe version`: package init ≤ 3 ms (median, summed inittrace clock; the issue's budget is for an idle machine)", med <= 3*time.Millisecond, "%s (min %s)", fmtDur(med), fmtDur(quantile(clocks, 0)))
	return sec
}
