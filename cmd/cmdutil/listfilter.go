package cmdutil

import (
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/output"
)

// FilterFlags are the filter flags of a list command (docs/api.md, Lists).
// What can be checked locally is checked before anything is sent: a
// status, a date or a sort key the server could not match is a usage error
// rather than a request.
type FilterFlags struct {
	Status        string
	Name          string
	Search        string
	CreatedAfter  string
	CreatedBefore string
	Sort          string

	statuses, sortKeys []string
}

// AddFilterFlags adds --status, --name, --search, --created-after,
// --created-before and --sort; statuses and sortKeys are what the server
// accepts for this resource.
func AddFilterFlags(fa *Factory, cmd *cobra.Command, f *FilterFlags, plural string, statuses, sortKeys []string) {
	f.statuses, f.sortKeys = statuses, sortKeys
	fl := cmd.Flags()
	if len(statuses) > 0 {
		fl.StringVar(&f.Status, "status", "", "Only "+plural+" with this status ("+strings.Join(statuses, ", ")+")")
		fa.CompleteFlag(cmd, "status", cobra.FixedCompletions(statuses, cobra.ShellCompDirectiveNoFileComp))
	}
	fl.StringVar(&f.Name, "name", "", "Only the "+strings.TrimSuffix(plural, "s")+" with exactly this name")
	fl.StringVar(&f.Search, "search", "", "Only "+plural+" whose name contains this text")
	fl.StringVar(&f.CreatedAfter, "created-after", "", "Only "+plural+" created after this ISO 8601 date or time")
	fl.StringVar(&f.CreatedBefore, "created-before", "", "Only "+plural+" created before this ISO 8601 date or time")
	if len(sortKeys) == 0 {
		return
	}
	fl.StringVar(&f.Sort, "sort", "", "Order by comma-separated keys ("+strings.Join(sortKeys, ", ")+"), - for descending")
	var sortValues []string
	for _, k := range sortKeys {
		sortValues = append(sortValues, k, "-"+k)
	}
	fa.CompleteFlag(cmd, "sort", cobra.FixedCompletions(sortValues, cobra.ShellCompDirectiveNoFileComp))
}

// Validate checks the filters locally (exit 2, nothing sent).
func (f *FilterFlags) Validate() error {
	if f.Status != "" && len(f.statuses) > 0 && !slices.Contains(f.statuses, f.Status) {
		return output.FlagErrorf("invalid --status %q: want one of %s", f.Status, strings.Join(f.statuses, ", "))
	}
	for _, d := range []struct{ flag, value string }{{"--created-after", f.CreatedAfter}, {"--created-before", f.CreatedBefore}} {
		if d.value != "" && !isISO8601(d.value) {
			return output.FlagErrorf("invalid %s %q: want an ISO 8601 date or time, e.g. 2026-01-31 or 2026-01-31T12:00:00Z", d.flag, d.value)
		}
	}
	if f.Sort != "" {
		for _, k := range strings.Split(f.Sort, ",") {
			if key := strings.TrimPrefix(strings.TrimSpace(k), "-"); !slices.Contains(f.sortKeys, key) {
				return output.FlagErrorf("invalid --sort key %q: want %s, each optionally prefixed with -", k, strings.Join(f.sortKeys, ", "))
			}
		}
	}
	return nil
}

// Apply copies the filters into o.
func (f *FilterFlags) Apply(o *client.ListOptions) {
	o.Status, o.Name, o.Q = f.Status, f.Name, f.Search
	o.CreatedAfter, o.CreatedBefore, o.Sort = f.CreatedAfter, f.CreatedBefore, strings.ReplaceAll(f.Sort, " ", "")
}

// isISO8601 accepts the forms the API documents: a date, or a date and time
// with or without a zone.
func isISO8601(v string) bool {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"} {
		if _, err := time.Parse(layout, v); err == nil {
			return true
		}
	}
	return false
}
