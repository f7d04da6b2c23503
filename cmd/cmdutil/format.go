package cmdutil

import (
	"fmt"
	"time"
)

// Now is the clock used for relative times; tests may replace it.
var Now = time.Now

// FormatTime is "2025-01-02 15:04 UTC (in 3h)" — absolute and relative.
func FormatTime(t *time.Time) string {
	if t == nil || t.IsZero() {
		return ""
	}
	return fmt.Sprintf("%s (%s)", t.UTC().Format("2006-01-02 15:04 UTC"), Relative(*t))
}

// Relative is "in 3h", "5m ago" or "now".
func Relative(t time.Time) string {
	d := t.Sub(Now())
	suffix, prefix := "", "in "
	if d < 0 {
		d, suffix, prefix = -d, " ago", ""
	}
	var s string
	switch {
	case d < time.Minute:
		return "now"
	case d < time.Hour:
		s = fmt.Sprintf("%dm", int(d/time.Minute))
	case d < 48*time.Hour:
		s = fmt.Sprintf("%dh", int(d/time.Hour))
	default:
		s = fmt.Sprintf("%dd", int(d/(24*time.Hour)))
	}
	return prefix + s + suffix
}

// ShortRelative is Relative for table cells, "" for a nil time.
func ShortRelative(t *time.Time) string {
	if t == nil || t.IsZero() {
		return ""
	}
	return Relative(*t)
}
