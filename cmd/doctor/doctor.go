// Package doctor implements `fibe doctor`: one line per check of this
// setup (config file, credentials, the key, the API and its latency, the
// clock against the server's, the state store, breakers, the outcome
// journal, shell completion), each ✗ with its fix. Exit 0 when every
// check passes, 1 when any fails; --json gives the same as a document.
package doctor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/config"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/statestore"
)

// Options are the inputs of `fibe doctor`.
type Options struct {
	cmdutil.Seams
	// APIKey finds the key and says where it comes from.
	APIKey func() (key, source string, err error)
	// ClientWithKey builds a client for the key found.
	ClientWithKey func(key string) (*client.Client, error)
	// Env reads the environment (SHELL, XDG_DATA_HOME, FPATH); nil → os.Getenv.
	Env func(string) string
}

// The states of a check.
const (
	StatusOK   = "ok"
	StatusFail = "fail"
	StatusSkip = "skip" // not checked: an earlier check failed, or it does not apply
)

// Check is one line of the report.
type Check struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
	// LatencyMS is the round trip of the API or the state store, when measured.
	LatencyMS *float64 `json:"latency_ms,omitempty"`
}

// Report is the --json document.
type Report struct {
	OK     bool    `json:"ok"`
	Checks []Check `json:"checks"`
}

// MaxSkew is the clock difference with the server beyond which the clock
// check fails: rate-limit waits read the server's X-RateLimit-Reset.
const MaxSkew = 5 * time.Second

// NewCmdDoctor builds `fibe doctor`.
func NewCmdDoctor(f *cmdutil.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{Seams: f.Seams(), APIKey: f.APIKey, ClientWithKey: f.ClientWithKey}
	return &cobra.Command{
		Use:   "doctor",
		Short: "Check this setup, with a fix for each problem",
		Long: `Check this setup, one line per check: the config file, where the API key
comes from and whether the API accepts it (with its scopes), whether the API
answers and how fast, the clock against the server's (a skewed clock breaks
rate-limit waits), the state store (files writable, or Redis reachable and
its latency), open circuit breakers, mutations whose outcome is unknown,
and shell completion. Each ✗ comes with a fix. Exit 0 when every check
passes, 1 when any fails; --json prints the same as one document.`,
		Example: `  fibe doctor
  fibe doctor --json | jq '.checks[] | select(.status == "fail")'
  fibe --state-store redis://127.0.0.1:6379/0 doctor`,
		Args: cmdutil.NoArgs,
		// A broken config file is one of the things it reports.
		Annotations: map[string]string{cmdutil.SkipConfigCheck: "true"},
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return run(cmd.Context(), opts)
		},
	}
}

// failed is the outcome of a report with a ✗: exit 1, nothing more printed.
type failed struct{ n int }

func (e *failed) Error() string   { return fmt.Sprintf("%d checks failed", e.n) }
func (e *failed) ExitStatus() int { return output.ExitError }

func run(ctx context.Context, opts *Options) error {
	if opts.Env == nil {
		opts.Env = os.Getenv
	}
	checks := collect(ctx, opts)
	rep := Report{OK: true, Checks: checks}
	n := 0
	for _, c := range checks {
		if c.Status == StatusFail {
			rep.OK = false
			n++
		}
	}
	ios := opts.IO
	if ios.JSON() {
		if err := ios.PrintJSON(rep); err != nil {
			return err
		}
	} else {
		printReport(ios, checks)
	}
	if n > 0 {
		return &output.StoppedError{Err: &failed{n: n}}
	}
	return nil
}

func printReport(ios *iostreams.IOStreams, checks []Check) {
	cs := ios.ColorScheme()
	var b strings.Builder
	for _, c := range checks {
		mark := iostreams.Check(cs)
		switch c.Status {
		case StatusFail:
			mark = cs.Red("✗")
		case StatusSkip:
			mark = cs.Gray("-")
		}
		// A detail may quote the server (a user name, an error).
		fmt.Fprintf(&b, "%s %s: %s", mark, c.Name, output.Sanitize(c.Detail))
		if c.Fix != "" {
			fmt.Fprintf(&b, " %s %s", cs.Gray("→"), output.Sanitize(c.Fix))
		}
		b.WriteByte('\n')
	}
	_, _ = io.WriteString(ios.Out, b.String())
}

func ms(d time.Duration) *float64 {
	v := float64(d.Microseconds()) / 1000
	return &v
}

func ok(name, detail string) Check   { return Check{Name: name, Status: StatusOK, Detail: detail} }
func skip(name, detail string) Check { return Check{Name: name, Status: StatusSkip, Detail: detail} }
func fail(name, detail, fix string) Check {
	return Check{Name: name, Status: StatusFail, Detail: detail, Fix: fix}
}

// collect runs the checks in order; a check that needs what an earlier
// one found missing is skipped, not failed.
func collect(ctx context.Context, opts *Options) []Check {
	var out []Check
	cfg, cfgCheck := checkConfig(opts)
	out = append(out, cfgCheck)
	if cfg == nil {
		for _, name := range []string{"API key", "Key accepted", "API", "Clock", "State store", "Breakers", "Journal"} {
			out = append(out, skip(name, "not checked: the configuration does not load"))
		}
		return append(out, checkCompletion(opts))
	}
	key, source, err := opts.APIKey()
	switch {
	case err != nil:
		out = append(out, fail("API key", "cannot read the stored keys: "+output.ErrorLine(err),
			"run `"+opts.CommandLine("auth", "login")+"` again, or set FIBE_API_KEY"))
	case key == "":
		out = append(out, fail("API key", "none for "+cfg.APIURL+" (profile "+cfg.Profile+")",
			"run `"+opts.CommandLine("auth", "login", "--web")+"` (or `auth login`), or set FIBE_API_KEY"))
	default:
		out = append(out, ok("API key", "from "+source))
	}

	c, cerr := opts.ClientWithKey(key)
	if cerr != nil {
		out = append(out, fail("API", "cannot build a client: "+output.ErrorLine(cerr), "check the settings with `"+opts.CommandLine("config", "list")+"`"))
		return append(out, checkCompletion(opts))
	}
	out = append(out, checkAPI(ctx, opts, c, key)...)
	out = append(out, checkStore(cfg))
	out = append(out, checkBreakers(opts, c), checkJournal(opts, c), checkCompletion(opts))
	return out
}

func checkConfig(opts *Options) (*config.Config, Check) {
	path, _ := config.ConfigFile()
	cfg, err := opts.Config()
	if err != nil {
		fix := "correct the value where the line says it comes from: the flag, the variable, or the file (`" +
			opts.CommandLine("config", "set", "KEY", "VALUE") + "`"
		if path != "" {
			fix += ", or edit " + path
		}
		fix += ")"
		return nil, fail("Config", output.ErrorLine(err), fix)
	}
	if _, statErr := os.Stat(cfg.File); errors.Is(statErr, os.ErrNotExist) {
		return cfg, ok("Config", "no file at "+cfg.File+"; defaults, environment and flags")
	}
	return cfg, ok("Config", cfg.File+" is valid")
}

// checkAPI asks GET /api/me once: whether the API answers and how fast,
// whether it accepts the key and with which scopes, and the server's
// clock from its Date header.
func checkAPI(ctx context.Context, opts *Options, c *client.Client, key string) []Check {
	base := c.BaseURL().String()
	if key == "" {
		return []Check{skip("Key accepted", "not checked: no API key"), skip("API", "not checked: no API key"), skip("Clock", "not checked: no API key")}
	}
	start := time.Now()
	me, meta, err := c.Me(ctx)
	took := time.Since(start)
	if err == nil {
		scopes := "none"
		if len(me.APIKeyScopes) > 0 {
			scopes = strings.Join(me.APIKeyScopes, ", ")
		}
		api := ok("API", base+" answers")
		api.Detail += fmt.Sprintf(" (%s)", took.Round(time.Millisecond))
		api.LatencyMS = ms(took)
		return []Check{ok("Key accepted", "as "+userName(me)+"; scopes: "+scopes), api, checkClock(meta, start, took)}
	}
	e, isAPI := client.AsError(err)
	switch {
	case isAPI && (e.Code == client.CodeUnauthorized || e.Code == client.CodeForbidden):
		api := ok("API", fmt.Sprintf("%s answers (%s)", base, took.Round(time.Millisecond)))
		api.LatencyMS = ms(took)
		return []Check{
			fail("Key accepted", "refused: "+output.ErrorLine(err),
				"run `"+opts.CommandLine("auth", "login", "--web")+"` for a new key, or set FIBE_API_KEY to a valid one"),
			api, skip("Clock", "not checked: the key was refused")}
	case isAPI && e.Code == client.CodeCircuitOpen:
		return []Check{skip("Key accepted", "not checked: the breaker held the request back"),
			fail("API", "not asked: "+output.ErrorLine(err), "see the Breakers line below"),
			skip("Clock", "not checked: the API was not asked")}
	}
	return []Check{skip("Key accepted", "not checked: the API did not answer"),
		fail("API", base+" does not answer: "+output.ErrorLine(err),
			"check the API URL (`"+opts.CommandLine("config", "get", "api_url")+"`, FIBE_API_URL) and the network"),
		skip("Clock", "not checked: the API did not answer")}
}

func userName(u *client.User) string {
	switch {
	case u.Username != "":
		return u.Username
	case u.Name != "":
		return u.Name
	case u.Email != "":
		return u.Email
	}
	return "an unnamed user"
}

// checkClock compares the server's Date (one-second resolution) with the
// local clock at the middle of the request.
func checkClock(meta *client.Response, start time.Time, took time.Duration) Check {
	if meta == nil || meta.Date.IsZero() {
		return skip("Clock", "not checked: the API sent no Date header")
	}
	local := start.Add(took / 2)
	skew := local.Sub(meta.Date)
	abs := skew
	if abs < 0 {
		abs = -abs
	}
	if abs <= MaxSkew+time.Second { // Date has whole seconds
		return ok("Clock", fmt.Sprintf("within %s of the server", max(abs.Round(time.Second), time.Second)))
	}
	dir := "ahead of"
	if skew < 0 {
		dir = "behind"
	}
	return fail("Clock", fmt.Sprintf("%s %s the server", abs.Round(time.Second), dir),
		"synchronise the clock (NTP); rate-limit waits read the server's reset time")
}

func checkStore(cfg *config.Config) Check {
	dir, err := config.StateDir()
	if err != nil {
		return fail("State store", "no state directory: "+err.Error(), "set XDG_STATE_HOME or HOME")
	}
	if cfg.StateStore == "" || cfg.StateStore == "file" {
		if err := writable(dir); err != nil {
			return fail("State store", "files in "+dir+" are not writable: "+err.Error(),
				"make "+dir+" writable by you (or set XDG_STATE_HOME)")
		}
		return ok("State store", "files in "+dir+" (writable)")
	}
	r, err := statestore.OpenRedis(cfg.StateStore, 0)
	if err != nil {
		return fail("State store", err.Error(), "fix state_store (FIBE_STATE_STORE): redis://[user:pass@]host:port/db")
	}
	defer r.Close()
	took, err := r.Ping()
	if err != nil {
		return fail("State store", r.Describe()+" does not answer: "+oneLine(err.Error()),
			"start Redis there or fix state_store (FIBE_STATE_STORE); until then each command warns and uses the files in "+dir)
	}
	c := ok("State store", fmt.Sprintf("%s answers (%s)", r.Describe(), took.Round(100*time.Microsecond)))
	c.LatencyMS = ms(took)
	return c
}

func writable(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".doctor-*")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

func checkBreakers(opts *Options, c *client.Client) Check {
	bs, err := c.Breakers()
	if err != nil {
		return fail("Breakers", "cannot read them: "+oneLine(err.Error()), "see the State store line")
	}
	var open []string
	for _, b := range bs {
		if b.State == "open" {
			open = append(open, fmt.Sprintf("%s until %s", b.Resource, b.OpenUntil.Local().Format("15:04:05")))
		}
	}
	if len(open) == 0 {
		return ok("Breakers", fmt.Sprintf("none open (%d known)", len(bs)))
	}
	return fail("Breakers", "open: "+strings.Join(open, "; "),
		"wait for the time shown, or once the API is healthy run `"+opts.CommandLine("breaker", "reset")+"`")
}

func checkJournal(opts *Options, c *client.Client) Check {
	entries, err := c.Journal().List()
	if err != nil {
		return fail("Journal", "cannot read it: "+oneLine(err.Error()), "see the State store line")
	}
	if len(entries) == 0 {
		return ok("Journal", "no mutation with an unknown outcome")
	}
	return fail("Journal", fmt.Sprintf("%d mutations whose outcome is unknown", len(entries)),
		"`"+opts.CommandLine("ops", "pending")+"` lists them: run each again to finish it (its key is reused), or `"+
			opts.CommandLine("ops", "forget", "--all")+"`")
}

// checkCompletion looks for fibe's completion where the user's shell
// ($SHELL) loads completions from, or for a line that sources it.
func checkCompletion(opts *Options) Check {
	shell := filepath.Base(opts.Env("SHELL"))
	home, _ := os.UserHomeDir()
	data := opts.Env("XDG_DATA_HOME")
	if data == "" {
		data = filepath.Join(home, ".local", "share")
	}
	confDir := opts.Env("XDG_CONFIG_HOME")
	if confDir == "" {
		confDir = filepath.Join(home, ".config")
	}
	var files, rcs []string
	var fix string
	switch shell {
	case "bash":
		files = []string{filepath.Join(data, "bash-completion", "completions", "fibe"),
			"/usr/share/bash-completion/completions/fibe", "/usr/local/share/bash-completion/completions/fibe",
			"/etc/bash_completion.d/fibe", "/opt/homebrew/etc/bash_completion.d/fibe", "/usr/local/etc/bash_completion.d/fibe"}
		rcs = []string{filepath.Join(home, ".bashrc"), filepath.Join(home, ".bash_profile")}
		fix = "echo 'source <(fibe completion bash)' >> ~/.bashrc"
	case "zsh":
		for _, d := range filepath.SplitList(opts.Env("FPATH")) {
			files = append(files, filepath.Join(d, "_fibe"))
		}
		files = append(files, "/usr/share/zsh/vendor-completions/_fibe", "/usr/share/zsh/site-functions/_fibe",
			"/usr/local/share/zsh/site-functions/_fibe", "/opt/homebrew/share/zsh/site-functions/_fibe")
		rcs = []string{filepath.Join(home, ".zshrc")}
		fix = `fibe completion zsh > "${fpath[1]}/_fibe"`
	case "fish":
		files = []string{filepath.Join(confDir, "fish", "completions", "fibe.fish"),
			"/usr/share/fish/vendor_completions.d/fibe.fish", "/usr/local/share/fish/vendor_completions.d/fibe.fish",
			"/opt/homebrew/share/fish/vendor_completions.d/fibe.fish"}
		fix = "fibe completion fish > ~/.config/fish/completions/fibe.fish"
	default:
		return skip("Completion", "not checked: the shell ($SHELL) is not bash, zsh or fish")
	}
	for _, f := range files {
		if _, err := os.Stat(f); err == nil {
			return ok("Completion", shell+": "+f)
		}
	}
	for _, rc := range rcs {
		if b, err := os.ReadFile(rc); err == nil && strings.Contains(string(b), "fibe completion") {
			return ok("Completion", shell+": loaded by "+rc)
		}
	}
	return fail("Completion", "not installed for "+shell, fix)
}

func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
