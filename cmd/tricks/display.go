package tricks

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// printTrick is a trick's card.
func printTrick(ios *iostreams.IOStreams, p *client.Playground) error {
	d := iostreams.NewDetail(ios.Out, ios.ColorScheme())
	addTrick(d, ios.ColorScheme(), p)
	return d.Render()
}

// printTrickStatus is a trick's card and its job's rows.
func printTrickStatus(ios *iostreams.IOStreams, st *client.PlaygroundStatus) error {
	cs := ios.ColorScheme()
	d := iostreams.NewDetail(ios.Out, cs)
	addTrick(d, cs, &st.Playground)
	step := st.ErrorStep
	if st.ErrorStepLabel != "" {
		step = strings.TrimSpace(step + " (" + st.ErrorStepLabel + ")")
	}
	d.Add("Failed step", output.Sanitize(step))
	return d.Render()
}

func addTrick(d *iostreams.Detail, cs *iostreams.ColorScheme, p *client.Playground) {
	d.Add("ID", strconv.FormatInt(p.ID, 10))
	d.Add("Name", output.Sanitize(p.Name))
	d.Add("Status", cs.Status(output.Sanitize(p.Status)))
	d.Add("Outcome", cs.Status(client.TrickOutcome(p)))
	d.Add("Playspec", output.Sanitize(refOf(p.PlayspecName, p.PlayspecID)))
	d.Add("Marquee", output.Sanitize(refOf(p.MarqueeName, p.MarqueeID)))
	d.Add("Reason", output.Sanitize(p.StateReason))
	d.Add("Error", output.Sanitize(p.ErrorMessage))
	d.Add("Created", cmdutil.FormatTime(p.CreatedAt))
	if p.JobResult == nil {
		return
	}
	d.Add("Completed", cmdutil.FormatTime(p.JobResult.CompletedAt))
	if p.JobResult.Summary == nil {
		return
	}
	var rows [][]string
	for _, r := range p.JobResult.Summary.Rows {
		row := []string{output.Sanitize(r.Name), cs.Status(output.Sanitize(firstNonEmpty(r.Result, r.Status)))}
		if r.ExitCode != nil {
			row = append(row, fmt.Sprintf("exit %d", *r.ExitCode))
		}
		if !r.Watched {
			row = append(row, "(not watched)")
		}
		rows = append(rows, row)
	}
	d.Add("Services", iostreams.Columns(rows))
}

// refOf prefers a name and falls back on the id.
func refOf(name string, id int64) string {
	if name != "" || id == 0 {
		return name
	}
	return strconv.FormatInt(id, 10)
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
