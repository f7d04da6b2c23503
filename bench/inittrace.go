package main

import (
	"bufio"
	"bytes"
	"cmp"
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
	// PerPackage is each package's init clock time, and PackageBytes its
	// allocations.
	PerPackage   map[string]time.Duration
	PackageBytes map[string]int64
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
	tr := initTrace{PerPackage: map[string]time.Duration{}, PackageBytes: map[string]int64{}}
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
		clock := time.Duration(ms * float64(time.Millisecond))
		tr.Clock += clock
		tr.Bytes += b
		tr.PerPackage[f[1]] += clock
		tr.PackageBytes[f[1]] += b
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

// initSection measures `fibe version`'s package initialisation n times:
// the summed clock, then where it goes, package by package.
func initSection(ctx context.Context, r *report, bin string, environ []string, n int) []section {
	var t table
	t.Header = []string{"command", "runs", "init clock: min", "median", "p90", "max", "init allocations", "of which fibe's packages", "packages", "heaviest"}
	sec := section{Heading: "Package initialisation (GODEBUG=inittrace=1)", Table: t}
	var clocks []time.Duration
	var traces []initTrace
	for range n {
		tr, err := traceInit(ctx, bin, []string{"version"}, environ)
		if err != nil {
			sec.After = append(sec.After, "Not measured: "+firstLine(err.Error()))
			return []section{sec}
		}
		clocks = append(clocks, tr.Clock)
		traces = append(traces, tr)
	}
	last := traces[len(traces)-1]
	med, mx, _ := medianMax(clocks)
	sec.Table.add("`fibe version`", fmt.Sprint(n), fmtDur(quantile(clocks, 0)), fmtDur(med), fmtDur(quantile(clocks, 0.9)), fmtDur(mx), fmt.Sprintf("%d KB", last.Bytes/1024),
		fmt.Sprintf("%d KB", last.FibeBytes/1024), fmt.Sprint(last.Packages), fmt.Sprintf("%s (%d KB)", last.Heaviest, last.HeaviestKB))
	sec.After = append(sec.After, "The clock columns sum every package's init clock time, as the runtime reports it; it is the first thing a busy machine inflates, and only ever upwards, so the minimum over the runs is the best estimate here of what an idle machine would show. The allocations are deterministic: e2e/cli_startup_test.go holds them under a bound, so start-up stays lazy (templates, the console bundle, JSON schemas, regexps and Redis scripts are built on first use).")
	per, groups := perPackage(traces)
	r.check("`fibe version`: package init ≤ 3 ms (median, summed inittrace clock; the issue's budget is for an idle machine)", med <= 3*time.Millisecond,
		"%s (min %s); by the packages' own medians: third-party libraries %s, the standard library and runtime %s, fibe's packages %s", fmtDur(med), fmtDur(quantile(clocks, 0)),
		fmtDur(groups[originLibrary]), fmtDur(groups[originStd]), fmtDur(groups[originFibe]))
	return []section{sec, per}
}

// The origins of a package, for the budget's breakdown.
const (
	originStd     = "standard library and runtime"
	originLibrary = "third-party library"
	originFibe    = "fibe"
)

func originOf(pkg string) string {
	first, _, _ := strings.Cut(pkg, "/")
	switch {
	case strings.HasPrefix(pkg, "github.com/fibegg/fibe"):
		return originFibe
	case strings.Contains(first, "."):
		return originLibrary
	default:
		return originStd
	}
}

// perPackageRows is how many packages the breakdown names; the others
// share one row.
const perPackageRows = 16

// perPackage is the breakdown of the init clock: each package's median
// over the runs (0 in a run it did not appear in), the heaviest first, and
// the sums of those medians by origin.
func perPackage(traces []initTrace) (section, map[string]time.Duration) {
	var t table
	t.Header = []string{"package", "origin", "init clock (median)", "allocations"}
	sec := section{Heading: "Where package initialisation goes (`fibe version`)", Table: t}
	type row struct {
		pkg   string
		med   time.Duration
		bytes int64
	}
	seen := map[string]bool{}
	for _, tr := range traces {
		for pkg := range tr.PerPackage {
			seen[pkg] = true
		}
	}
	var rows []row
	groups := map[string]time.Duration{}
	var total time.Duration
	for pkg := range seen {
		xs := make([]time.Duration, len(traces))
		var bytes int64
		for i, tr := range traces {
			xs[i] = tr.PerPackage[pkg]
			bytes = max(bytes, tr.PackageBytes[pkg])
		}
		med, _, _ := medianMax(xs)
		rows = append(rows, row{pkg, med, bytes})
		groups[originOf(pkg)] += med
		total += med
	}
	slices.SortFunc(rows, func(a, b row) int {
		if a.med != b.med {
			return cmp.Compare(b.med, a.med)
		}
		return strings.Compare(a.pkg, b.pkg)
	})
	var rest time.Duration
	for i, x := range rows {
		if i < perPackageRows {
			sec.Table.add("`"+x.pkg+"`", originOf(x.pkg), fmtDur(x.med), fmt.Sprintf("%d KB", x.bytes/1024))
		} else {
			rest += x.med
		}
	}
	if len(rows) > perPackageRows {
		sec.Table.add(fmt.Sprintf("the other %d packages", len(rows)-perPackageRows), "", fmtDur(rest), "")
	}
	sec.After = append(sec.After, fmt.Sprintf("The medians add up to %s: %s in third-party libraries, %s in the standard library and the runtime, %s in fibe's own packages. Go initialises every package a binary links, whether or not the command uses it: a library's init can only be avoided by leaving it out of the binary.",
		fmtDur(total), fmtDur(groups[originLibrary]), fmtDur(groups[originStd]), fmtDur(groups[originFibe])))
	return sec, groups
}
