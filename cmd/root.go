package cmd

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/fibegg/fibe/cmd/agents"
	"github.com/fibegg/fibe/cmd/api"
	"github.com/fibegg/fibe/cmd/apikeys"
	"github.com/fibegg/fibe/cmd/auth"
	"github.com/fibegg/fibe/cmd/breaker"
	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/cmd/completion"
	configcmd "github.com/fibegg/fibe/cmd/config"
	consolecmd "github.com/fibegg/fibe/cmd/console"
	"github.com/fibegg/fibe/cmd/doctor"
	"github.com/fibegg/fibe/cmd/factory"
	"github.com/fibegg/fibe/cmd/launch"
	"github.com/fibegg/fibe/cmd/local"
	mancmd "github.com/fibegg/fibe/cmd/man"
	"github.com/fibegg/fibe/cmd/marquees"
	mcpcmd "github.com/fibegg/fibe/cmd/mcp"
	"github.com/fibegg/fibe/cmd/ops"
	"github.com/fibegg/fibe/cmd/playgrounds"
	"github.com/fibegg/fibe/cmd/playspecs"
	"github.com/fibegg/fibe/cmd/props"
	"github.com/fibegg/fibe/cmd/secrets"
	"github.com/fibegg/fibe/cmd/status"
	"github.com/fibegg/fibe/cmd/templates"
	"github.com/fibegg/fibe/cmd/tricks"
	"github.com/fibegg/fibe/cmd/version"
	"github.com/fibegg/fibe/cmd/webhooks"
	"github.com/fibegg/fibe/internal/build"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/config"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/resource"
)

func init() {
	// Subcommands are listed in the order they are added (a lifecycle
	// order: list, get, create, ... delete), not alphabetically, and the
	// longest name still gets two spaces before its text.
	cobra.EnableCommandSorting = false
}

// GlobalFlags are the flags every command accepts (README.md, "Configuration"; docs/contract.md, "Defaults, settings and flags").
// The flags that are settings (--api-url, --api-key, --profile, --timeout,
// --max-retries, --state-store, --debug) come from the settings table of
// internal/config and are read through config.Load; these are the ones that
// only shape output.
type GlobalFlags struct {
	JSON    bool
	JQ      string
	NoColor bool
	Quiet   bool
}

// NewCmdRoot builds the whole command tree.
func NewCmdRoot(f *cmdutil.Factory) *cobra.Command {
	root := newRoot(f)
	addCommands(root, f, "")
	return root
}

// newRootFor builds the root with only the top-level command args run,
// when that command can be told from args alone, and the whole tree
// otherwise (help, completion of the top level, an unknown word). Building
// the tree is the largest part of the work a quick command does after
// start-up; a command never looks at its siblings, so the others are left
// out (docs/architecture.md, "Start-up").
func newRootFor(f *cmdutil.Factory, args []string) *cobra.Command {
	root := newRoot(f)
	addCommands(root, f, commandWord(root.PersistentFlags(), args))
	return root
}

// newRoot builds the root command alone: its flags, groups and hooks.
func newRoot(f *cmdutil.Factory) *cobra.Command {
	g := &GlobalFlags{}
	root := &cobra.Command{
		Use:   "fibe",
		Short: "Manage Fibe playgrounds and marquees from the command line",
		Long: `fibe manages Fibe playgrounds (preview environments) and the marquees
(servers) they run on. Every request follows one reliability contract:
typed errors, retries with backoff, idempotency keys on every mutation,
waiting on asynchronous operations, and a circuit breaker per marquee.

Try it without an account against the embedded local API:

  fibe --api-url local pg create --name demo --playspec web --marquee local
  fibe --api-url local pg rollout demo`,
		// Any non-empty Version gives cobra its --version flag; the
		// template reads the stamp only when --version is asked for.
		Version:       "-",
		SilenceErrors: true,
		SilenceUsage:  true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			return applyGlobals(f, cmd, g)
		},
	}
	addVersionFunc()
	root.SetVersionTemplate("fibe {{fibeVersion}}\n")
	root.SetUsageTemplate(strings.ReplaceAll(root.UsageTemplate(),
		"{{rpad .Name .NamePadding }} {{.Short}}", "{{rpad .Name .NamePadding }}  {{.Short}}"))
	root.SetOut(f.IOStreams.Out)
	root.SetErr(f.IOStreams.ErrOut)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return output.FlagErrorWrap(err) })

	pf := root.PersistentFlags()
	config.AddGlobalFlags(pf)
	pf.BoolVar(&g.JSON, "json", false, "Print exactly one JSON document on stdout")
	pf.StringVar(&g.JQ, "jq", "", "Filter the JSON output with a jq expression (implies --json)")
	pf.BoolVar(&g.NoColor, "no-color", false, "Disable color (also NO_COLOR)")
	pf.BoolVarP(&g.Quiet, "quiet", "q", false, "No notices: only data and errors")

	// Help lists commands by what they are for, most used first.
	root.AddGroup(
		&cobra.Group{ID: groupCore, Title: "Core commands:"},
		&cobra.Group{ID: groupSetup, Title: "Account and settings:"},
		&cobra.Group{ID: groupMore, Title: "More commands:"},
	)
	root.SetHelpCommandGroupID(groupMore)
	root.SetCompletionCommandGroupID(groupMore)
	return root
}

const (
	groupCore  = "core"
	groupSetup = "setup"
	groupMore  = "more"
)

// topLevel is one command of the root. names are its name and aliases, so
// that the command a line runs is found without building any command;
// TestTopLevelNames holds them to what build makes.
type topLevel struct {
	group string
	names []string
	build func(*cmdutil.Factory) *cobra.Command
	// tree: the command reads the whole tree (completion scripts, manual
	// pages), so running it builds every command.
	tree bool
}

// topLevels lists the root's commands in the order help shows them.
var topLevels = []topLevel{
	{groupCore, []string{"playgrounds", "pg", "playground"}, playgrounds.NewCmdPlaygrounds, false},
	{groupCore, []string{"marquees", "mq", "marquee"}, marquees.NewCmdMarquees, false},
	{groupCore, []string{"playspecs", "ps", "playspec"}, playspecs.NewCmdPlayspecs, false},
	{groupCore, []string{"tricks", "trick"}, tricks.NewCmdTricks, false},
	{groupCore, []string{"agents", "agent"}, agents.NewCmdAgents, false},
	{groupCore, []string{"props", "prop"}, props.NewCmdProps, false},
	{groupCore, []string{"ops", "op", "operations"}, ops.NewCmdOps, false},
	{groupCore, []string{"templates", "tpl", "template"}, templates.NewCmdTemplates, false},
	{groupCore, []string{"launch"}, func(f *cmdutil.Factory) *cobra.Command { return launch.NewCmdLaunch(f, nil) }, false},
	{groupSetup, []string{"auth"}, auth.NewCmdAuth, false},
	{groupSetup, []string{"config"}, configcmd.NewCmdConfig, false},
	{groupSetup, []string{"breaker", "breakers"}, breaker.NewCmdBreaker, false},
	{groupSetup, []string{"doctor"}, func(f *cmdutil.Factory) *cobra.Command { return doctor.NewCmdDoctor(f, nil) }, false},
	{groupSetup, []string{"secrets", "secret"}, secrets.NewCmdSecrets, false},
	{groupSetup, []string{"api-keys", "api-key"}, apikeys.NewCmdAPIKeys, false},
	{groupSetup, []string{"status"}, func(f *cmdutil.Factory) *cobra.Command { return status.NewCmdStatus(f, nil) }, false},
	{groupMore, []string{"webhooks", "webhook", "wh"}, webhooks.NewCmdWebhooks, false},
	{groupMore, []string{"audit-logs", "audit-log", "audit"}, func(f *cmdutil.Factory) *cobra.Command { return cmdutil.NewCmdResource(f, resource.AuditLogs()) }, false},
	{groupMore, []string{"api"}, func(f *cmdutil.Factory) *cobra.Command { return api.NewCmdAPI(f, nil) }, false},
	{groupMore, []string{"local"}, local.NewCmdLocal, false},
	{groupMore, []string{"mcp"}, mcpcmd.NewCmdMCP, false},
	{groupMore, []string{"console"}, consolecmd.NewCmdConsole, false},
	{groupMore, []string{"completion"}, completion.NewCmdCompletion, true},
	{groupMore, []string{"man"}, mancmd.NewCmdMan, true},
	{groupMore, []string{"version"}, version.NewCmdVersion, false},
}

// rootAlone is the word of a line the root answers by itself (--version).
const rootAlone = "\x00root"

// addCommands adds the top-level command named word to root, every one
// when word is "", and none for rootAlone.
func addCommands(root *cobra.Command, f *cmdutil.Factory, word string) {
	if word == rootAlone {
		return
	}
	for _, tl := range topLevels {
		if word != "" && !slices.Contains(tl.names, word) {
			continue
		}
		c := tl.build(f)
		c.GroupID = tl.group
		root.AddCommand(c)
	}
}

// commandWord returns the top-level command args run, rootAlone for a
// plain --version, or "" when it cannot be told for sure without the
// whole tree: no command (help), an unknown word or flag, a command that reads the tree, or
// the completion of the command word itself. Flags before the command are
// skipped as cobra skips them, by what root's persistent flags say takes a
// value.
func commandWord(flags *pflag.FlagSet, args []string) string {
	if len(args) == 1 && (args[0] == "--version" || args[0] == "-v") {
		return rootAlone // cobra prints the version before it looks for a command
	}
	if len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd) {
		// Shell completion: the line being completed follows. Its last
		// word is the one being typed, so a command word there is not
		// known yet.
		line := args[1:]
		if len(line) == 0 {
			return ""
		}
		return commandWord(flags, line[:len(line)-1])
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--" || a == "-":
			return ""
		case strings.HasPrefix(a, "--"):
			name, _, inline := strings.Cut(a[2:], "=")
			fl := flags.Lookup(name)
			if fl == nil {
				return ""
			}
			if !inline && fl.NoOptDefVal == "" {
				i++ // its value is the next argument
			}
		case strings.HasPrefix(a, "-"):
			// One or more shorthands (-q, -qo json, -ojson).
			for j := 1; j < len(a); j++ {
				fl := flags.ShorthandLookup(a[j : j+1])
				if fl == nil {
					return ""
				}
				if fl.NoOptDefVal == "" {
					if j == len(a)-1 {
						i++
					}
					break
				}
			}
		default:
			for _, tl := range topLevels {
				if slices.Contains(tl.names, a) {
					if tl.tree {
						return ""
					}
					return a
				}
			}
			return ""
		}
	}
	return ""
}

// applyGlobals hands the parsed global flags to the streams and the factory.
func applyGlobals(f *cmdutil.Factory, cmd *cobra.Command, g *GlobalFlags) error {
	ios := f.IOStreams
	f.SetFlags(cmd.Flags())
	ios.SetNoColor(g.NoColor)
	ios.SetQuiet(g.Quiet)
	ios.SetJSON(g.JSON)
	if cmd.Flags().Changed("jq") {
		q, err := iostreams.CompileJQ(g.JQ)
		if err != nil {
			return output.FlagErrorWrap(err) // a bad expression is a usage error
		}
		ios.SetJQ(q)
	}
	// Every setting is resolved now, whatever the command: a bad value in a
	// flag, the environment or the config file is a usage error before
	// anything runs. Help, and `config set` that repairs the file, still run.
	if cmd.Name() == "help" || cmd.Annotations[cmdutil.SkipConfigCheck] != "" {
		if cfg, err := f.Config(); err == nil {
			return applyOutput(ios, cmd, g, cfg)
		}
		return nil
	}
	cfg, err := f.Config()
	if err != nil {
		return err
	}
	return applyOutput(ios, cmd, g, cfg)
}

// applyOutput applies the output setting (--output, FIBE_OUTPUT, config
// output): yaml prints every document of the --json path as YAML, json is
// --json. --json and --jq given as flags win over the environment and the
// file; given with --output yaml they are a usage error, as --jq filters
// JSON only.
func applyOutput(ios *iostreams.IOStreams, cmd *cobra.Command, g *GlobalFlags, cfg *config.Config) error {
	jq := cmd.Flags().Changed("jq")
	asked := cmd.Flags().Changed("json") || jq
	if cmd.Annotations[cmdutil.NoDocument] != "" && !cmd.Flags().Changed("output") {
		return nil
	}
	switch cfg.Output {
	case config.OutputJSON:
		ios.SetJSON(true)
	case config.OutputYAML:
		if !cmd.Flags().Changed("output") {
			if !asked {
				ios.SetYAML(true)
			}
			return nil // --json or --jq on the command line wins over FIBE_OUTPUT
		}
		ios.SetYAML(true) // the usage errors below are printed as asked, in YAML
		if jq {
			return output.FlagErrorf("--jq filters JSON only: use --output json (or --json) with --jq")
		}
		if g.JSON {
			return output.FlagErrorf("--json and --output yaml disagree: pick one")
		}
	}
	return nil
}

// Main runs fibe with the process's arguments and returns the exit code.
func Main() int {
	ios := iostreams.System()
	args := os.Args[1:]
	f := factory.New(ios, args)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		// After the first signal, stop catching: a second Ctrl-C ends the
		// process immediately instead of waiting for a clean unwind.
		<-ctx.Done()
		stop()
	}()

	root := newRootFor(f, args)
	root.SetArgs(args)
	err := Execute(ctx, root)
	if err == nil {
		return output.ExitOK
	}
	if !ios.JSON() && wantsJSON(args) {
		// The flags were never applied (a parse error): honour --json anyway.
		ios.SetJSON(true)
	}
	if !ios.JSON() && wantsYAML(args) {
		ios.SetYAML(true)
	}
	output.PrintError(ios, err, f.Invocation, f.Operation)
	return output.ExitCode(err)
}

// Execute runs the tree and normalizes its error: cobra's own parse
// failures become usage errors, and an interruption becomes CANCELLED.
func Execute(ctx context.Context, root *cobra.Command) error {
	_, err := root.ExecuteContextC(ctx)
	if err == nil {
		return nil
	}
	if isCobraUsageError(err) {
		return output.FlagErrorWrap(err)
	}
	if _, ok := client.AsError(err); !ok && ctx.Err() != nil && errors.Is(err, context.Canceled) {
		return &client.Error{Code: client.CodeCancelled, Message: "interrupted", Err: err}
	}
	return err
}

// isCobraUsageError recognises the errors cobra returns before a command
// runs (they carry no type to test).
func isCobraUsageError(err error) bool {
	var flagErr *output.FlagError
	if errors.As(err, &flagErr) {
		return false // already one
	}
	msg := err.Error()
	for _, prefix := range []string{"unknown command ", "unknown flag", "unknown shorthand flag", "required flag(s) ", "if any flags in the group ", "invalid argument ", "flag needs an argument", "accepts ", "requires at least ", "requires at most "} {
		if strings.HasPrefix(msg, prefix) {
			return true
		}
	}
	return false
}

// wantsYAML spots --output yaml on a command line that failed to parse.
func wantsYAML(args []string) bool {
	for i, a := range args {
		if a == "--" {
			return false
		}
		if v, ok := strings.CutPrefix(a, "--output="); ok {
			return strings.EqualFold(v, config.OutputYAML)
		}
		if a == "--output" && i+1 < len(args) {
			return strings.EqualFold(args[i+1], config.OutputYAML)
		}
	}
	return false
}

// wantsJSON spots --json or --jq on a command line that failed to parse.
func wantsJSON(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--json" || a == "--jq" || strings.HasPrefix(a, "--jq=") || strings.HasPrefix(a, "--json=") {
			return a != "--json=false"
		}
	}
	return false
}

// addVersionFunc gives cobra's templates fibeVersion, once per process:
// cobra keeps template functions in one map for every command tree, and
// trees are built concurrently (the soak, tests).
var addVersionFunc = sync.OnceFunc(func() {
	cobra.AddTemplateFunc("fibeVersion", func() string { v, _, _ := build.Stamp(); return v })
})
