package cmd

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/cmd/factory"
	"github.com/fibegg/fibe/internal/iostreams"
)

// The names the root matches a command line against are the names and
// aliases the commands give themselves, in help's order and groups.
func TestTopLevelNames(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	root := NewCmdRoot(factory.New(ios, nil))
	var built []*cobra.Command
	for _, c := range root.Commands() {
		if c.Name() != "help" && c.Name() != cobra.ShellCompRequestCmd && c.Name() != cobra.ShellCompNoDescRequestCmd {
			built = append(built, c)
		}
	}
	if len(built) != len(topLevels) {
		t.Fatalf("%d top-level commands built, %d listed in topLevels", len(built), len(topLevels))
	}
	for i, c := range built {
		want := append([]string{c.Name()}, c.Aliases...)
		if tl := topLevels[i]; !slices.Equal(tl.names, want) || tl.group != c.GroupID {
			t.Errorf("topLevels[%d] = %v in %q; the command is %v in %q", i, tl.names, tl.group, want, c.GroupID)
		}
	}
}

// allPaths lists the words of every command of the tree below root.
func allPaths(c *cobra.Command, prefix []string, out *[][]string) {
	for _, s := range c.Commands() {
		p := append(slices.Clone(prefix), s.Name())
		*out = append(*out, p)
		allPaths(s, p, out)
	}
}

// A root built for a command line finds the command the whole tree finds,
// with flags before and after the command words.
func TestRootForACommandLineFindsTheSameCommand(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	full := NewCmdRoot(factory.New(ios, nil))
	var paths [][]string
	allPaths(full, nil, &paths)
	if len(paths) < 100 {
		t.Fatalf("only %d commands in the tree", len(paths))
	}
	partial := 0
	for _, p := range paths {
		for _, args := range [][]string{
			p,
			append([]string{"--api-url", "local", "-q"}, p...),
			append([]string{"--api-url=local", "--json", "--jq", ".x"}, append(slices.Clone(p), "--debug")...),
			append([]string{"-q", "--timeout", "5s"}, p...),
		} {
			lazy := newRootFor(factory.New(ios, args), args)
			if len(lazy.Commands()) < len(full.Commands()) {
				partial++
			}
			want, _, wantErr := full.Find(args)
			got, _, gotErr := lazy.Find(args)
			if (wantErr == nil) != (gotErr == nil) || want.CommandPath() != got.CommandPath() {
				t.Fatalf("%q: the whole tree finds %q (%v), the root for the line %q (%v)", args, want.CommandPath(), wantErr, got.CommandPath(), gotErr)
			}
		}
	}
	if partial == 0 {
		t.Fatal("every command line built the whole tree")
	}
}

func TestCommandWord(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	flags := newRoot(factory.New(ios, nil)).PersistentFlags()
	for line, want := range map[string]string{
		"version":                              "version",
		"pg list":                              "pg",
		"--api-url local pg list":              "pg",
		"--api-url=local mq get x":             "mq",
		"-q --json --jq .id secrets list":      "secrets",
		"--no-color=true status":               "status",
		"":                                     "",
		"--version":                            rootAlone,
		"-v":                                   rootAlone,
		"--version pg":                         "",
		"--json --version":                     "",
		"--help":                               "",
		"help pg":                              "",
		"nope":                                 "",
		"PG list":                              "",
		"--bogus pg list":                      "",
		"-- pg":                                "",
		"completion bash":                      "",
		"man":                                  "",
		"__complete pg li":                     "pg",
		"__complete pg":                        "",
		"__complete p":                         "",
		"__completeNoDesc --api-url local mq ": "mq",
	} {
		if got := commandWord(flags, words(line)); got != want {
			t.Errorf("%q: %q, want %q", line, got, want)
		}
	}
}

// words splits a command line as a shell would for these tests, keeping a
// trailing empty word (the word being completed).
func words(line string) []string {
	w := strings.Fields(line)
	if strings.HasSuffix(line, " ") {
		w = append(w, "")
	}
	return w
}

// Completions and help read the same from a root built for the line as
// from the whole tree.
func TestRootForACommandLineCompletesAndHelpsAlike(t *testing.T) {
	run := func(root func(*cmdutil.Factory, []string) *cobra.Command, args []string) string {
		ios, _, stdout, stderr := iostreams.Test()
		f := factory.New(ios, args)
		r := root(f, args)
		r.SetArgs(args)
		err := Execute(context.Background(), r)
		return stdout.String() + "|" + stderr.String() + "|" + errString(err)
	}
	whole := func(f *cmdutil.Factory, _ []string) *cobra.Command { return NewCmdRoot(f) }
	for _, line := range []string{
		"__complete pg ",
		"__complete pg li",
		"__complete --api-url local mq get --",
		"__complete secrets set --",
		"__completeNoDesc tricks ",
		"__complete p",
		"__complete ",
		"pg --help",
		"mq create --help",
		"version --help",
		"--version",
		"-v",
		"--help",
		"pg lst",
		"pgs",
	} {
		args := words(line)
		want := run(whole, args)
		got := run(newRootFor, args)
		if got != want {
			t.Errorf("%q:\nthe whole tree: %s\nthe root for the line: %s", line, want, got)
		}
		if strings.TrimSpace(want) == "||" {
			t.Errorf("%q printed nothing", line)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
