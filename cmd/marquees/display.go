package marquees

import (
	"strconv"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// funded words billing_runtime_active: paid for today or not ("" when the
// server does not say).
func funded(active *bool) string {
	switch {
	case active == nil:
		return ""
	case *active:
		return "yes"
	}
	return "no"
}

func printMarquee(ios *iostreams.IOStreams, m *client.Marquee) error {
	cs := ios.ColorScheme()
	d := iostreams.NewDetail(ios.Out, cs)
	d.Add("ID", strconv.FormatInt(m.ID, 10))
	d.Add("Name", output.Sanitize(m.Name))
	d.Add("Host", output.Sanitize(m.Host))
	if m.Port != 0 {
		d.Add("Port", strconv.Itoa(m.Port))
	}
	d.Add("User", output.Sanitize(m.User))
	d.Add("Status", cs.Status(output.Sanitize(m.Status)))
	d.Add("Paid until", cmdutil.FormatTime(m.PaidUntil))
	if f := funded(m.BillingRuntimeActive); f == "no" {
		d.Add("Funded today", "no (top up to run playgrounds)")
	} else if f != "" {
		d.Add("Funded today", f)
	}
	d.Add("Created", cmdutil.FormatTime(m.CreatedAt))
	d.Add("Updated", cmdutil.FormatTime(m.UpdatedAt))
	return d.Render()
}

// PrintMarquee prints the card of a marquee, as `mq get` does.
func PrintMarquee(ios *iostreams.IOStreams, m *client.Marquee) error { return printMarquee(ios, m) }
