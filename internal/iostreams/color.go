package iostreams

import "github.com/fatih/color"

// ColorScheme paints strings when color is enabled and returns them
// unchanged otherwise. Each color is enabled or disabled explicitly, so
// fatih/color's process-wide guess (based on os.Stdout) never decides.
type ColorScheme struct {
	enabled bool
}

func newColorScheme(enabled bool) *ColorScheme { return &ColorScheme{enabled: enabled} }

func (c *ColorScheme) paint(s string, attrs ...color.Attribute) string {
	if !c.enabled {
		return s
	}
	col := color.New(attrs...)
	col.EnableColor()
	return col.Sprint(s)
}

func (c *ColorScheme) Bold(s string) string   { return c.paint(s, color.Bold) }
func (c *ColorScheme) Red(s string) string    { return c.paint(s, color.FgRed) }
func (c *ColorScheme) Green(s string) string  { return c.paint(s, color.FgGreen) }
func (c *ColorScheme) Yellow(s string) string { return c.paint(s, color.FgYellow) }
func (c *ColorScheme) Cyan(s string) string   { return c.paint(s, color.FgCyan) }
func (c *ColorScheme) Gray(s string) string   { return c.paint(s, color.FgHiBlack) }

// Status colors a playground, marquee or operation status by what it means.
func (c *ColorScheme) Status(status string) string {
	switch status {
	case "running", "success", "active", "ok", "closed", "connected":
		return c.Green(status)
	case "error", "failed", "destroyed", "open", "unpaid", "disconnected":
		return c.Red(status)
	case "pending", "creating", "building", "queued", "stopping", "half-open":
		return c.Yellow(status)
	case "stopped":
		return c.Gray(status)
	default:
		return status
	}
}

// Check is a success mark: a green ✓ on a color terminal, "✓" otherwise.
func Check(cs *ColorScheme) string { return cs.Green("✓") }
