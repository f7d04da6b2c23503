package cmd

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/spf13/cobra"

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

// NewCmdRoot builds the command tree.
func NewCmdRoot(f *cmdutil.Factory) *cobra.Command {
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
	addToGroup(root, groupCore,
		playgrounds.NewCmdPlaygrounds(f),
		marquees.NewCmdMarquees(f),
		playspecs.NewCmdPlayspecs(f),
		tricks.NewCmdTricks(f),
		agents.NewCmdAgents(f),
		props.NewCmdProps(f),
		ops.NewCmdOps(f),
		templates.NewCmdTemplates(f),
		launch.NewCmdLaunch(f, nil),
	)
	addToGroup(root, groupSetup,
		auth.NewCmdAuth(f),
		configcmd.NewCmdConfig(f),
		breaker.NewCmdBreaker(f),
		doctor.NewCmdDoctor(f, nil),
		secrets.NewCmdSecrets(f),
		apikeys.NewCmdAPIKeys(f),
		status.NewCmdStatus(f, nil),
	)
	addToGroup(root, groupMore,
		webhooks.NewCmdWebhooks(f),
		cmdutil.NewCmdResource(f, resource.AuditLogs()),
		api.NewCmdAPI(f, nil),
		local.NewCmdLocal(f),
		mcpcmd.NewCmdMCP(f),

		consolecmd.NewCmdConsole(f),
		completion.NewCmdCompletion(f),
		mancmd.NewCmdMan(f),
		version.NewCmdVersion(f),
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

func addToGroup(root *cobra.Command, group string, cmds ...*cobra.Command) {
	for _, c := range cmds {
		c.GroupID = group
		root.AddCommand(c)
	}
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

	root := NewCmdRoot(f)
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
