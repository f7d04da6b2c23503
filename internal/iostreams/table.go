package iostreams

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// Table prints rows as aligned columns. Widths are measured without ANSI
// escapes, so colored cells line up like plain ones (text/tabwriter counts
// the escape bytes, which misaligns a colored column).
type Table struct {
	w       io.Writer
	cs      *ColorScheme
	headers []string
	rows    [][]string
}

// NewTable starts a table on w with the given column headers.
func NewTable(w io.Writer, cs *ColorScheme, headers ...string) *Table {
	return &Table{w: w, cs: cs, headers: headers}
}

// AddRow adds one row; missing cells print empty.
func (t *Table) AddRow(cells ...string) { t.rows = append(t.rows, cells) }

var ansiEscape = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`) })

func visibleWidth(s string) int { return utf8.RuneCountInString(ansiEscape().ReplaceAllString(s, "")) }

// Render writes the table. The header is bold on a color terminal.
func (t *Table) Render() error {
	cols := len(t.headers)
	for _, r := range t.rows {
		cols = max(cols, len(r))
	}
	widths := make([]int, cols)
	measure := func(r []string) {
		for i, c := range r {
			widths[i] = max(widths[i], visibleWidth(c))
		}
	}
	measure(t.headers)
	for _, r := range t.rows {
		measure(r)
	}
	var b strings.Builder
	line := func(r []string, header bool) {
		var l strings.Builder
		for i := 0; i < cols; i++ {
			cell := ""
			if i < len(r) {
				cell = r[i]
			}
			pad := widths[i] - visibleWidth(cell)
			if header && t.cs != nil {
				cell = t.cs.Bold(cell)
			}
			l.WriteString(cell)
			if i < cols-1 {
				l.WriteString(strings.Repeat(" ", pad+2))
			}
		}
		// Lines end clean: no padding after the last non-empty cell.
		b.WriteString(strings.TrimRight(l.String(), " "))
		b.WriteString("\n")
	}
	if len(t.headers) > 0 {
		line(t.headers, true)
	}
	for _, r := range t.rows {
		line(r, false)
	}
	_, err := io.WriteString(t.w, b.String())
	return err
}

// Detail prints "Label: value" lines with the labels aligned, skipping empty values.
type Detail struct {
	w     io.Writer
	cs    *ColorScheme
	pairs [][2]string
}

// NewDetail starts a detail view on w.
func NewDetail(w io.Writer, cs *ColorScheme) *Detail { return &Detail{w: w, cs: cs} }

// Add adds a field; an empty value is left out.
func (d *Detail) Add(label, value string) {
	if value == "" {
		return
	}
	d.pairs = append(d.pairs, [2]string{label, value})
}

// Render writes the view.
func (d *Detail) Render() error {
	width := 0
	for _, p := range d.pairs {
		width = max(width, visibleWidth(p[0]))
	}
	var b strings.Builder
	for _, p := range d.pairs {
		label := p[0] + ":"
		pad := strings.Repeat(" ", width-visibleWidth(p[0])+1)
		if d.cs != nil {
			label = d.cs.Bold(label)
		}
		// Continuation lines of a multi-line value are indented under the value.
		value := strings.ReplaceAll(p[1], "\n", "\n"+strings.Repeat(" ", width+2))
		fmt.Fprintf(&b, "%s%s%s\n", label, pad, value)
	}
	_, err := io.WriteString(d.w, b.String())
	return err
}

// Columns aligns rows of cells into lines (for a multi-line detail value),
// measuring widths without ANSI escapes.
func Columns(rows [][]string) string {
	var b strings.Builder
	t := &Table{w: &b, rows: rows}
	_ = t.Render()
	return strings.TrimRight(b.String(), "\n")
}
