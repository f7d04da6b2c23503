package cmdutil

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/config"
	"github.com/fibegg/fibe/internal/output"

	"github.com/fibegg/fibe/internal/reliability"
)

// MutationFlags are the flags of every mutating command.
type MutationFlags struct {
	IdempotencyKey string
	NewKey         bool // do not reuse a journaled key
	cmd            *cobra.Command
}

// AddMutationFlags adds --idempotency-key and --new-key.
func AddMutationFlags(cmd *cobra.Command, m *MutationFlags) {
	m.cmd = cmd
	cmd.Flags().StringVar(&m.IdempotencyKey, "idempotency-key", "",
		"Idempotency-Key to send (1-255 printable ASCII characters, no spaces); re-running with the same key cannot apply the change twice")
	cmd.Flags().BoolVar(&m.NewKey, "new-key", false,
		"Mint a new idempotency key instead of reusing the key of this same unfinished mutation (see: fibe ops pending)")
}

// Options validates the flags: a bad key is a usage error and is never sent.
func (m *MutationFlags) Options() (client.MutationOptions, error) {
	given := m.IdempotencyKey != "" || (m.cmd != nil && m.cmd.Flags().Changed("idempotency-key"))
	if given {
		if err := reliability.ValidateIdempotencyKey(m.IdempotencyKey); err != nil {
			return client.MutationOptions{}, output.FlagErrorf("invalid --idempotency-key: %v", err)
		}
	}
	return client.MutationOptions{IdempotencyKey: m.IdempotencyKey, NewKey: m.NewKey}, nil
}

// WaitFlags are the flags of every command that starts an async operation.
// --wait-timeout and --poll-interval are the wait_timeout and poll_interval
// settings: config.Load reads them with the environment and the file.
type WaitFlags struct {
	NoWait bool
}

// AddWaitFlags adds --no-wait, --wait-timeout and --poll-interval.
func AddWaitFlags(cmd *cobra.Command, w *WaitFlags) {
	cmd.Flags().BoolVar(&w.NoWait, "no-wait", false, "Print the accepted operation's handle and exit instead of waiting")
	addWaitDurations(cmd, w)
}

// AddWaitDurationFlags adds only --wait-timeout and --poll-interval (for
// commands that always wait, like `ops wait`).
func AddWaitDurationFlags(cmd *cobra.Command, w *WaitFlags) { addWaitDurations(cmd, w) }

func addWaitDurations(cmd *cobra.Command, w *WaitFlags) {
	config.AddFlags(cmd.Flags(), "wait_timeout", "poll_interval")
}

// ExactArgs is cobra.ExactArgs reporting a usage error with the names of
// the expected arguments. A blank argument is a usage error too: an empty
// id or name would otherwise address the collection itself (GET
// /api/playgrounds/ is the list), and an empty breaker resource means all.
func ExactArgs(n int, names ...string) cobra.PositionalArgs {
	count := ArgCount(n, names...)
	return func(cmd *cobra.Command, args []string) error {
		if err := count(cmd, args); err != nil {
			return err
		}
		return nonBlank(cmd, args, names)
	}
}

// ArgCount checks only the number of arguments, for a command where an
// empty argument means something (`config set KEY ""` removes KEY).
func ArgCount(n int, names ...string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == n {
			return nil
		}
		what := strings.Join(names, " ")
		if len(args) < n {
			return output.FlagErrorf("%s: missing argument %s", cmd.CommandPath(), what)
		}
		return output.FlagErrorf("%s: expected %d argument(s) (%s), got %d", cmd.CommandPath(), n, what, len(args))
	}
}

// NoArgs rejects positional arguments with a usage error.
func NoArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return output.FlagErrorf("%s: unexpected argument %q", cmd.CommandPath(), args[0])
	}
	return nil
}

// RangeArgs accepts between min and max arguments, none of them blank.
func RangeArgs(min, max int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < min || len(args) > max {
			return output.FlagErrorf("%s: expected %d to %d arguments, got %d", cmd.CommandPath(), min, max, len(args))
		}
		return nonBlank(cmd, args, nil)
	}
}

// MaxNameLength is the longest name a playground or marquee can have.
const MaxNameLength = 63

// nonBlank rejects an argument that is empty or only spaces, and an
// <id|name> longer than any name can be (it would only earn a confusing
// answer from a server that refuses the URL).
func nonBlank(cmd *cobra.Command, args, names []string) error {
	for i, a := range args {
		what := "argument"
		if i < len(names) {
			what = names[i]
		}
		if strings.TrimSpace(a) == "" {
			return output.FlagErrorf("%s: %s must not be empty", cmd.CommandPath(), what)
		}
		if what == "<id|name>" && utf8.RuneCountInString(a) > MaxNameLength {
			return output.FlagErrorf("%s: %s is %d characters long; a name has at most %d characters",
				cmd.CommandPath(), what, utf8.RuneCountInString(a), MaxNameLength)
		}
	}
	return nil
}

// Plural is "1 playground" / "2 playgrounds".
func Plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
