package cmdutil

import (
	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// Prepare validates a mutation's flags and returns what the call needs:
// the mutation options, the wait options (zero when w is nil: the command
// does not wait) and the API client. Flags are checked first, so a bad
// --idempotency-key is a usage error even without an API key.
func (s Seams) Prepare(m *MutationFlags, w *WaitFlags) (client.MutationOptions, client.WaitOptions, *client.Client, error) {
	var wo client.WaitOptions
	if m.cmd != nil && s.SetOperation != nil {
		s.SetOperation(m.cmd.Name()) // "the create may have been applied"
	}
	mo, err := m.Options()
	if err != nil {
		return mo, wo, nil, err
	}
	if w != nil {
		if wo, err = s.WaitOptions(w); err != nil {
			return mo, wo, nil, err
		}
	}
	c, err := s.Client()
	return mo, wo, c, err
}

// Finish prints the outcome of a call that may have been answered 202:
// the handle when the user chose not to wait (noResult: the client handed
// back no result), the replay notice, then result as JSON or, for people,
// whatever human prints.
func (s Seams) Finish(resp *client.Response, result any, noResult bool, human func() error) error {
	if accepted, err := s.Accepted(resp, noResult); accepted {
		return err
	}
	s.ReplayNotice(resp)
	if s.IO.JSON() {
		return s.IO.PrintJSON(result)
	}
	return human()
}

// ListFlags are the paging flags of every list command.
type ListFlags struct {
	Page    int
	PerPage int
	All     bool
}

// AddListFlags adds --page, --per-page and --all.
func AddListFlags(cmd *cobra.Command, l *ListFlags) {
	cmd.Flags().IntVar(&l.Page, "page", 0, "Page to show (default 1)")
	cmd.Flags().IntVar(&l.PerPage, "per-page", 0, "Items per page (default: the server's)")
	cmd.Flags().BoolVar(&l.All, "all", false, "Fetch every page")
}

// Validate rejects negative pages and --all with --page.
func (l *ListFlags) Validate(cmd *cobra.Command) error {
	if l.Page < 0 || l.PerPage < 0 {
		return output.FlagErrorf("--page and --per-page must be positive")
	}
	if l.All && cmd.Flags().Changed("page") {
		return output.FlagErrorf("--all and --page cannot be used together")
	}
	return nil
}

// PrintList prints a page (or, with --all, every page) of items: a JSON
// array (never null), or the table drawn by table and a hint when there
// are more pages. plural names the items ("playgrounds").
func PrintList[T any](ios *iostreams.IOStreams, items []T, meta *client.ListMeta, plural string, table func([]T) error) error {
	if items == nil {
		items = []T{}
	}
	if ios.JSON() {
		return ios.PrintJSON(items)
	}
	if len(items) == 0 {
		ios.Notice("No %s.", plural)
		return nil
	}
	if err := table(items); err != nil {
		return err
	}
	if meta != nil && meta.Total > len(items) {
		ios.Notice("Showing %d of %d (page %d); use --page or --all for more.", len(items), meta.Total, max(meta.Page, 1))
	}
	return nil
}
