package ops

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/config"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/reliability"
)

// PendingOptions are the inputs of `fibe ops pending`.
type PendingOptions struct {
	cmdutil.Seams // Client needs no API key: the journal is local state
	now           func() time.Time
}

// Pending is the JSON form of one unfinished mutation of the journal.
type Pending struct {
	IdempotencyKey string    `json:"idempotency_key"`
	Operation      string    `json:"operation"`
	Method         string    `json:"method"`
	Path           string    `json:"path"`
	API            string    `json:"api"`
	Profile        string    `json:"profile,omitempty"`
	Started        time.Time `json:"started"`
	// Explicit: the key was given (--idempotency-key); only a run that
	// gives it again finishes the operation.
	Explicit bool `json:"explicit"`
}

// NewCmdPending builds `fibe ops pending`.
func NewCmdPending(f *cmdutil.Factory, runF func(context.Context, *PendingOptions) error) *cobra.Command {
	opts := &PendingOptions{Seams: f.LocalSeams(), now: time.Now}
	return &cobra.Command{
		Use:   "pending",
		Short: "List mutations whose outcome is not known yet (the outcome journal)",
		Long: `List the mutations whose answer was lost (a timeout, a reset, a 5xx after
the retries, an open breaker, Ctrl-C, a killed process). Running the same
command again within the journal window (config journal_window, default
15m) reuses its idempotency key, so the server replays it instead of
applying it twice. ` + "`fibe ops forget`" + ` drops entries. No request is sent.`,
		Example: `  fibe ops pending
  fibe ops pending --json | jq -r '.[].idempotency_key'`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return pendingRun(opts)
		},
	}
}

func pendingRun(opts *PendingOptions) error {
	entries, err := journalEntries(opts.Seams)
	if err != nil {
		return err
	}
	list := make([]Pending, 0, len(entries))
	for _, e := range entries {
		path, _, _ := strings.Cut(e.Path, "?") // an older version kept the query, whose values may be secrets
		list = append(list, Pending{IdempotencyKey: e.Key, Operation: firstNonEmpty(e.Label, e.Method+" "+path),
			Method: e.Method, Path: path, API: apiName(e.Origin), Profile: e.Profile, Started: e.Created.UTC(), Explicit: e.Explicit})
	}
	ios := opts.IO
	if ios.JSON() {
		return ios.PrintJSON(list)
	}
	if len(list) == 0 {
		ios.Notice("No pending mutations.")
		return nil
	}
	t := iostreams.NewTable(ios.Out, ios.ColorScheme(), "KEY", "OPERATION", "REQUEST", "API", "PROFILE", "STARTED")
	for _, p := range list {
		op := p.Operation
		if p.Explicit {
			op += " (given key)"
		}
		t.AddRow(output.Sanitize(p.IdempotencyKey), output.Sanitize(op), output.Sanitize(p.Method+" "+p.Path), output.Sanitize(p.API), output.Sanitize(p.Profile),
			p.Started.Local().Format("15:04:05")+" ("+ago(opts.now().Sub(p.Started))+")")
	}
	if err := t.Render(); err != nil {
		return err
	}
	ios.Notice("Run the same command again to finish one (its key is reused; a given key must be given again), or drop it with: %s", opts.CommandLine("ops", "forget", "<key>"))
	return nil
}

func journalEntries(s cmdutil.Seams) ([]reliability.JournalEntry, error) {
	c, err := s.Client()
	if err != nil {
		return nil, err
	}
	return c.Journal().List()
}

// apiName is the API of an entry as the user names it: the in-process
// emulator's internal base URL is the --api-url value "local".
func apiName(origin string) string {
	if strings.TrimSuffix(origin, "/") == cmdutil.LocalBaseURL {
		return config.LocalAPI
	}
	return origin
}

// ago is how long ago an entry started, to the second: "just now",
// "42s ago", "3m 12s ago", "2h 05m ago".
func ago(d time.Duration) string {
	switch {
	case d < time.Second:
		return "just now"
	case d < time.Minute:
		return fmt.Sprintf("%ds ago", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm %02ds ago", int(d/time.Minute), int(d%time.Minute/time.Second))
	}
	return fmt.Sprintf("%dh %02dm ago", int(d/time.Hour), int(d%time.Hour/time.Minute))
}
