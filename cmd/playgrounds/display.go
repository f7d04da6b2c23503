package playgrounds

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// ref prefers a name and falls back on the id.
func ref(name string, id int64) string {
	if name != "" {
		return name
	}
	if id != 0 {
		return strconv.FormatInt(id, 10)
	}
	return ""
}

func printPlayground(ios *iostreams.IOStreams, p *client.Playground) error {
	d := iostreams.NewDetail(ios.Out, ios.ColorScheme())
	addPlayground(d, ios.ColorScheme(), p)
	return d.Render()
}

func addPlayground(d *iostreams.Detail, cs *iostreams.ColorScheme, p *client.Playground) {
	d.Add("ID", strconv.FormatInt(p.ID, 10))
	d.Add("Name", output.Sanitize(p.Name))
	d.Add("Status", cs.Status(output.Sanitize(p.Status)))
	d.Add("Marquee", output.Sanitize(ref(p.MarqueeName, p.MarqueeID)))
	d.Add("Playspec", output.Sanitize(ref(p.PlayspecName, p.PlayspecID)))
	d.Add("Reason", output.Sanitize(p.StateReason))
	if len(p.StateReasons) > 0 && !(len(p.StateReasons) == 1 && p.StateReasons[0] == p.StateReason) {
		d.Add("Reasons", output.Sanitize(strings.Join(p.StateReasons, ", ")))
	}
	d.Add("Error", output.Sanitize(p.ErrorMessage))
	d.Add("Expires", cmdutil.FormatTime(p.ExpiresAt))
	d.Add("Created", cmdutil.FormatTime(p.CreatedAt))
	var urls [][]string
	for _, u := range p.ServiceURLs {
		urls = append(urls, output.SanitizeAll(u.Name, u.URL))
	}
	d.Add("URLs", iostreams.Columns(urls))
	var services [][]string
	for _, s := range p.Services {
		status := firstNonEmpty(s.Status, runningWord(s.Running))
		row := []string{output.Sanitize(s.Name), cs.Status(output.Sanitize(status))}
		if s.Health != "" && s.Health != status {
			row = append(row, output.Sanitize(s.Health))
		}
		if s.ExitCode != nil {
			row = append(row, fmt.Sprintf("exit %d", *s.ExitCode))
		}
		services = append(services, row)
	}
	d.Add("Services", iostreams.Columns(services))
	var builds [][]string
	for _, b := range p.BuildStatuses {
		builds = append(builds, []string{output.Sanitize(b.Service), cs.Status(output.Sanitize(b.Status)), output.Sanitize(b.Error)})
	}
	d.Add("Builds", iostreams.Columns(builds))
}

func printStatus(ios *iostreams.IOStreams, st *client.PlaygroundStatus) error {
	cs := ios.ColorScheme()
	d := iostreams.NewDetail(ios.Out, cs)
	addPlayground(d, cs, &st.Playground)
	step := st.ErrorStep
	if st.ErrorStepLabel != "" {
		step = strings.TrimSpace(step + " (" + st.ErrorStepLabel + ")")
	}
	d.Add("Failed step", output.Sanitize(step))
	for _, line := range detailPairs(st.ErrorDetails) {
		d.Add(output.Sanitize(line[0]), output.Sanitize(line[1]))
	}
	if st.FailureDiagnostics != nil {
		d.Add("Diagnostics", output.Sanitize(compact(st.FailureDiagnostics)))
	}
	return d.Render()
}

func detailPairs(m map[string]any) [][2]string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sortStrings(keys)
	out := make([][2]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, [2]string{"Detail " + k, compact(m[k])})
	}
	return out
}

func runningWord(running bool) string {
	if running {
		return "running"
	}
	return "stopped"
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

func printLines(w io.Writer, lines []string) error {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// PrintStatusCard prints the card of a playground (with its failed step
// and diagnostics when it has them), as `pg status` does. Other commands
// that end with a playground, such as `ops wait`, print the same card.
func PrintStatusCard(ios *iostreams.IOStreams, st *client.PlaygroundStatus) error {
	return printStatus(ios, st)
}
