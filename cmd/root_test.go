package cmd

import (
	"context"
	"fmt"
	"testing"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/factory"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

func TestCobraErrorsAreUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--bogus"},
		{"nope"},
		{"pg", "list", "--page", "x"},
		{"pg", "get"},
		{"pg", "list", "--jq", ".["},
		{"version", "extra"},
	} {
		ios, _, _, _ := iostreams.Test()
		root := NewCmdRoot(factory.New(ios, args))
		root.SetArgs(args)
		err := Execute(context.Background(), root)
		if output.ExitCode(err) != output.ExitUsage {
			t.Errorf("%v: %v (exit %d)", args, err, output.ExitCode(err))
		}
	}
}

func TestInterruptBecomesCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // as the SIGINT handler does
	cmd := &cobra.Command{Use: "slow", RunE: func(cmd *cobra.Command, _ []string) error {
		<-cmd.Context().Done()
		return fmt.Errorf("waiting: %w", cmd.Context().Err())
	}}
	cmd.SetArgs(nil)
	err := Execute(ctx, cmd)
	if !client.IsCancelled(err) || output.ExitCode(err) != output.ExitInterrupted {
		t.Fatalf("got %v (exit %d), want CANCELLED / 130", err, output.ExitCode(err))
	}
}

func TestWantsJSON(t *testing.T) {
	for args, want := range map[string]bool{
		"pg list --json":       true,
		"pg list --jq=.":       true,
		"pg list":              false,
		"pg list -- --json":    false,
		"pg list --json=false": false,
	} {
		if got := wantsJSON(splitArgs(args)); got != want {
			t.Errorf("%q: %v", args, got)
		}
	}
}

func splitArgs(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' {
			if start >= 0 {
				out = append(out, s[start:i])
			}
			start = -1
		} else if start < 0 {
			start = i
		}
	}
	return out
}

// Every command a user can run has a one-line summary and at least one
// example; every group has a summary.
func TestHelpTexts(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	root := NewCmdRoot(factory.New(ios, nil))
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			if sub.Hidden || sub.Name() == "help" {
				continue
			}
			if sub.Short == "" {
				t.Errorf("%s has no Short", sub.CommandPath())
			}
			if !sub.HasSubCommands() && sub.Example == "" {
				t.Errorf("%s has no Example", sub.CommandPath())
			}
			walk(sub)
		}
	}
	walk(root)
	// The root help lists the everyday commands first.
	var names []string
	for _, c := range root.Commands() {
		if c.GroupID == groupCore {
			names = append(names, c.Name())
		}
	}
	if fmt.Sprint(names) != "[playgrounds marquees playspecs tricks agents props ops templates launch]" {
		t.Errorf("core commands %v", names)
	}
}
