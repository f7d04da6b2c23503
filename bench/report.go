package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// report is one scenario's result: what was run, where, and what came out.
// It renders as markdown, which is both what is printed and what is kept.
type report struct {
	Scenario string
	Flags    []string // the flags the run was given, but -out (for the Command line)
	Title    string
	Short    bool
	Started  time.Time
	Wall     time.Duration
	Machine  machine
	Params   []param
	Sections []section
	Targets  []target
	Notes    []string
}

type param struct{ Name, Value string }

// section is a headed table, optionally followed by explanatory lines.
type section struct {
	Heading string
	Table   table
	After   []string
}

type table struct {
	Header []string
	Rows   [][]string
}

func (t *table) add(cells ...string) { t.Rows = append(t.Rows, cells) }

// target is one claim of the issue checked against a measured value.
type target struct {
	Claim    string
	Measured string
	Met      bool
}

func (r *report) param(name string, value any) {
	r.Params = append(r.Params, param{name, fmt.Sprint(value)})
}

func (r *report) note(format string, args ...any) {
	r.Notes = append(r.Notes, fmt.Sprintf(format, args...))
}

func (r *report) check(claim string, met bool, format string, args ...any) {
	r.Targets = append(r.Targets, target{Claim: claim, Measured: fmt.Sprintf(format, args...), Met: met})
}

func (r *report) markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n", r.Title)
	mode := "full"
	if r.Short {
		mode = "short (scaled down; not comparable with the targets)"
	}
	fmt.Fprintf(&b, "- Date: %s\n", r.Started.UTC().Format("2006-01-02 15:04:05 UTC"))
	fmt.Fprintf(&b, "- Machine: %s\n", r.Machine)
	fmt.Fprintf(&b, "- Go: %s\n", r.Machine.GoVersion)
	fmt.Fprintf(&b, "- Mode: %s\n", mode)
	fmt.Fprintf(&b, "- Wall time: %s\n", r.Wall.Round(100*time.Millisecond))
	fmt.Fprintf(&b, "- Command: `go run ./bench %s%s`\n", r.flags(), r.Scenario)
	if len(r.Params) > 0 {
		b.WriteString("\n## Parameters\n\n")
		var t table
		t.Header = []string{"parameter", "value"}
		for _, p := range r.Params {
			t.add(p.Name, p.Value)
		}
		b.WriteString(t.markdown())
	}
	for _, s := range r.Sections {
		fmt.Fprintf(&b, "\n## %s\n\n", s.Heading)
		b.WriteString(s.Table.markdown())
		for _, line := range s.After {
			fmt.Fprintf(&b, "\n%s\n", line)
		}
	}
	if len(r.Targets) > 0 {
		b.WriteString("\n## Targets\n\n")
		var t table
		t.Header = []string{"target", "measured", "met"}
		for _, g := range r.Targets {
			met := "no"
			if g.Met {
				met = "yes"
			}
			t.add(g.Claim, g.Measured, met)
		}
		b.WriteString(t.markdown())
	}
	if len(r.Notes) > 0 {
		b.WriteString("\n## Notes\n\n")
		for _, n := range r.Notes {
			fmt.Fprintf(&b, "- %s\n", n)
		}
	}
	return b.String()
}

// flags are the command's flags as given (but -out), each followed by a
// space; -short when the report was made without them.
func (r *report) flags() string {
	if len(r.Flags) > 0 {
		return strings.Join(r.Flags, " ") + " "
	}
	if r.Short {
		return "-short "
	}
	return ""
}

func (t table) markdown() string {
	if len(t.Header) == 0 {
		return ""
	}
	var b strings.Builder
	row := func(cells []string) {
		b.WriteString("|")
		for i := range t.Header {
			c := ""
			if i < len(cells) {
				c = strings.ReplaceAll(cells[i], "|", `\|`)
			}
			b.WriteString(" " + c + " |")
		}
		b.WriteString("\n")
	}
	row(t.Header)
	b.WriteString("|")
	for range t.Header {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		row(r)
	}
	return b.String()
}

// publish prints the report and, when dir is set, writes it to
// dir/<scenario>.md.
func (r *report) publish(stdout io.Writer, dir string) (string, error) {
	md := r.markdown()
	if _, err := io.WriteString(stdout, md+"\n"); err != nil {
		return "", err
	}
	if dir == "" {
		return "", nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, r.Scenario+".md")
	return path, os.WriteFile(path, []byte(md), 0o644)
}

// Small formatting helpers shared by the scenarios.

// quantile is the q-quantile of ds (nearest rank), 0 when empty.
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

func fmtDur(d time.Duration) string {
	switch {
	case d < 0:
		return "-"
	case d < time.Millisecond:
		return fmt.Sprintf("%.1f µs", float64(d)/float64(time.Microsecond))
	case d < time.Second:
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	default:
		return fmt.Sprintf("%.2f s", d.Seconds())
	}
}

// fmtDelta is a signed duration, for differences.
func fmtDelta(d time.Duration) string {
	if d < 0 {
		return "−" + fmtDur(-d)
	}
	return "+" + fmtDur(d)
}

func fmtRate(perSec float64) string { return fmt.Sprintf("%.1f/s", perSec) }
