package cmdutil

import (
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/resource"
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
// --created-before and --sort, but not those of the generic filters lacks
// names (resource.Resource.ListLacks); statuses and sortKeys are what the
// server accepts for this resource.
func AddFilterFlags(fa *Factory, cmd *cobra.Command, f *FilterFlags, plural string, statuses, sortKeys []string, lacks resource.GenericFilter) {
	f.statuses, f.sortKeys = statuses, sortKeys
	takes := func(g resource.GenericFilter) bool { return lacks&g == 0 }
	fl := cmd.Flags()
	if len(statuses) > 0 {
		fl.StringVar(&f.Status, "status", "", "Only "+plural+" with this status ("+strings.Join(statuses, ", ")+")")
		fa.CompleteFlag(cmd, "status", cobra.FixedCompletions(statuses, cobra.ShellCompDirectiveNoFileComp))
	}
	if takes(resource.FilterName) {
		fl.StringVar(&f.Name, "name", "", "Only "+plural+" whose name contains this text")
	}
	if takes(resource.FilterSearch) {
		search := "name and other text columns"
		if !takes(resource.FilterName) {
			search = "its text columns"
		}
		fl.StringVar(&f.Search, "search", "", "Only "+plural+" where this text is found ("+search+")")
	}
	if takes(resource.FilterCreated) {
		fl.StringVar(&f.CreatedAfter, "created-after", "", "Only "+plural+" created on or after this ISO 8601 date or time")
		fl.StringVar(&f.CreatedBefore, "created-before", "", "Only "+plural+" created on or before this ISO 8601 date or time")
	}
	if len(sortKeys) == 0 {
		return
	}
	fl.StringVar(&f.Sort, "sort", "", "Order by COLUMN_asc or COLUMN_desc, columns "+strings.Join(sortKeys, ", ")+" (default created_at_desc)")
	fa.CompleteFlag(cmd, "sort", cobra.FixedCompletions(resource.SortValues(sortKeys), cobra.ShellCompDirectiveNoFileComp))
}

// Validate checks the filters locally (exit 2, nothing sent); an old
// --sort form is translated, and warn says so.
func (f *FilterFlags) Validate(warn func(format string, args ...any)) error {
	if f.Status != "" && len(f.statuses) > 0 && !slices.Contains(f.statuses, f.Status) {
		return output.FlagErrorf("invalid --status %q: want one of %s", f.Status, strings.Join(f.statuses, ", "))
	}
	for _, d := range []struct{ flag, value string }{{"--created-after", f.CreatedAfter}, {"--created-before", f.CreatedBefore}} {
		if d.value != "" && !isISO8601(d.value) {
			return output.FlagErrorf("invalid %s %q: want an ISO 8601 date or time, e.g. 2026-01-31 or 2026-01-31T12:00:00Z", d.flag, d.value)
		}
	}
	if f.Sort != "" {
		sort, old, err := sortValue(f.Sort, f.sortKeys)
		if err != nil {
			return err
		}
		if old && warn != nil {
			warn("--sort %s is the old form; sending %s (use --sort %s)", f.Sort, sort, sort)
		}
		f.Sort = sort
	}
	return nil
}

// sortValue reads a --sort value: COLUMN_asc or COLUMN_desc, as the API
// takes it, or the old form (COLUMN, -COLUMN), translated (old is true).
func sortValue(v string, columns []string) (sort string, old bool, err error) {
	v = strings.TrimSpace(v)
	for _, dir := range []string{"_asc", "_desc"} {
		if col, ok := strings.CutSuffix(v, dir); ok && slices.Contains(columns, col) {
			return v, false, nil
		}
	}
	col, desc := strings.CutPrefix(v, "-")
	if slices.Contains(columns, col) {
		if desc {
			return col + "_desc", true, nil
		}
		return col + "_asc", true, nil
	}
	return "", false, output.FlagErrorf("invalid --sort %q: want COLUMN_asc or COLUMN_desc, with COLUMN one of %s", v, strings.Join(columns, ", "))
}

// Apply copies the filters into o.
func (f *FilterFlags) Apply(o *client.ListOptions) {
	o.Status, o.Name, o.Q = f.Status, f.Name, f.Search
	o.CreatedAfter, o.CreatedBefore, o.Sort = f.CreatedAfter, f.CreatedBefore, f.Sort
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
