package cmdutil

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/fibegg/fibe/internal/build"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/config"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/reliability"
	"github.com/fibegg/fibe/internal/statestore"
)

// LocalBaseURL is the base URL used with `--api-url local`. Requests never
// leave the process: the in-process transport answers any host.
const LocalBaseURL = "http://local.fibe"

// Factory hands each command what it needs, built on first use.
type Factory struct {
	IOStreams *iostreams.IOStreams
	// Invocation is the command line as typed, without the program name; it
	// is echoed back in "retry safely with: ..." hints.
	Invocation []string
	// Operation names the running command when it sends a mutation
	// ("create"), so an error can say which mutation may have been applied.
	Operation string

	// Transport, when set, replaces the HTTP transport (tests).
	Transport http.RoundTripper

	mu      sync.Mutex
	flags   *pflag.FlagSet
	cfg     *config.Config
	clients map[bool]*client.Client

	storeMu sync.Mutex
	store   reliability.Store // one per invocation, so a fallback warns once

	secretsWarned sync.Once
}

// New returns a Factory for the given streams and invocation.
func New(ios *iostreams.IOStreams, invocation []string) *Factory {
	return &Factory{IOStreams: ios, Invocation: invocation}
}

// CompleteFlag has fn complete the values of cmd's flag, when this
// invocation is a shell's completion request (`fibe __complete ...`) and
// only then. cobra keeps every registration in a package-level map for
// the life of the process: registered on every invocation, they held each
// command tree's options, Factory, clients and connections forever in a
// process that builds trees over and over (the benchmark's soak grew by
// about 300 KB an operation), and a command that is not completing has no
// use for them.
func (f *Factory) CompleteFlag(cmd *cobra.Command, flag string, fn cobra.CompletionFunc) {
	if len(f.Invocation) == 0 {
		return
	}
	switch f.Invocation[0] {
	case cobra.ShellCompRequestCmd, cobra.ShellCompNoDescRequestCmd:
		_ = cmd.RegisterFlagCompletionFunc(flag, fn)
	}
}

// Command is a fibe command line to suggest to the user: args, prefixed
// with the --api-url and --profile of the current command line so that a
// pasted suggestion talks to the same API.
func (f *Factory) Command(args ...string) string { return output.CommandLine(f.Invocation, args...) }

// SetFlags records the executing command's flags (local and inherited), from
// which the configuration is resolved.
func (f *Factory) SetFlags(fs *pflag.FlagSet) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.flags = fs
	f.cfg = nil
	f.clients = nil
}

// Config resolves the configuration once.
func (f *Factory) Config() (*config.Config, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.configLocked()
}

func (f *Factory) configLocked() (*config.Config, error) {
	if f.cfg != nil {
		return f.cfg, nil
	}
	cfg, err := config.Load(f.flags)
	if err != nil {
		var inv *config.InvalidError
		if errors.As(err, &inv) {
			return nil, output.FlagErrorWrap(err)
		}
		return nil, err
	}
	f.cfg = cfg
	if cfg.Debug {
		traceSettings(f.IOStreams.ErrOut, cfg)
	}
	return cfg, nil
}

// WarnSecretFlags says once, on stderr, that a secret came from a flag
// (--api-key, --token, a --state-store password): other users of the
// machine see a command line in ps, and the environment variable is the
// way. It is called when the secret is used (a client is built, the MCP
// server reads its token), so a usage error stays one line.
func (f *Factory) WarnSecretFlags() {
	cfg, err := f.Config()
	if err != nil {
		return
	}
	flags := cfg.SecretFlags()
	if len(flags) == 0 {
		return
	}
	f.secretsWarned.Do(func() {
		f.IOStreams.Warning("%s on the command line shows in ps to other users of this machine; use %s instead",
			strings.Join(flags, ", "), secretEnvs(flags))
	})
}

// secretEnvs names the environment variables of the settings behind
// flags, as the way to pass them.
func secretEnvs(flags []string) string {
	var envs []string
	for _, s := range config.Settings {
		if s.Env != "" && slices.Contains(flags, "--"+s.Flag) {
			envs = append(envs, s.Env)
		}
	}
	return strings.Join(envs, ", ")
}

// traceSettings writes, for --debug, where the configuration came from and
// every setting that is not at its default (secrets masked).
func traceSettings(w io.Writer, cfg *config.Config) {
	fmt.Fprintf(w, "[debug] config file %s, profile %s (%s)\n", cfg.File, cfg.Profile, cfg.ProfileSource)
	for _, v := range cfg.Values() {
		if v.Source != "default" && v.Key != "profile" {
			fmt.Fprintf(w, "[debug] setting %s=%s (%s)\n", v.Key, v.Value, v.Source)
		}
	}
}

// SkipConfigCheck is the annotation of a command that must run even when
// a setting has a bad value (`config set`, which repairs the file): the
// root does not resolve the configuration before it.
const SkipConfigCheck = "fibe/skip-config-check"

// NoDocument is the annotation of a command that prints no document (a
// shell script, manual pages): an output format from the environment or
// the config file (FIBE_OUTPUT) does not apply to it, so `source <(fibe
// completion bash)` works whatever the user's default; --json or --output
// on its command line is still refused.
const NoDocument = "fibe/no-document"

// Profile resolves only the profile, without the rest of the configuration.
func (f *Factory) Profile() (string, error) {
	f.mu.Lock()
	fs := f.flags
	f.mu.Unlock()
	name, _, err := config.Profile(fs)
	if err != nil {
		return "", output.FlagErrorWrap(err)
	}
	return name, nil
}

// APIKey finds the key to use and says where it came from: --api-key, then
// FIBE_API_KEY, then the key stored by `fibe auth login` for this profile
// and API, then (local API only) the emulator's default key.
func (f *Factory) APIKey() (key, source string, err error) {
	cfg, err := f.Config()
	if err != nil {
		return "", "", err
	}
	if cfg.APIKey != "" {
		return cfg.APIKey, cfg.APIKeySource, nil
	}
	creds, err := config.NewCredentials()
	if err != nil {
		return "", "", err
	}
	k, src, err := creds.Get(cfg.Profile, cfg.APIURL)
	if err != nil {
		return "", "", err
	}
	if k != "" {
		return k, src, nil
	}
	if cfg.Local() {
		return localapi.DefaultAPIKey, config.SourceLocal, nil
	}
	return "", "", nil
}

// Client returns the API client, requiring an API key.
func (f *Factory) Client() (*client.Client, error) { return f.client(true) }

// ClientWithoutKey returns a client for commands that only touch local
// state (breaker status/reset) or that supply the key themselves.
func (f *Factory) ClientWithoutKey() (*client.Client, error) { return f.client(false) }

func (f *Factory) client(requireKey bool) (*client.Client, error) {
	key, _, err := f.APIKey()
	if err != nil {
		return nil, err
	}
	cfg, err := f.Config()
	if err != nil {
		return nil, err
	}
	f.WarnSecretFlags()
	if key == "" && requireKey {
		return nil, &output.AuthRequiredError{APIURL: cfg.APIURL, Profile: cfg.Profile}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if c := f.clients[requireKey]; c != nil {
		return c, nil
	}
	c, err := f.newClient(cfg, key)
	if err != nil {
		return nil, err
	}
	if f.clients == nil {
		f.clients = map[bool]*client.Client{}
	}
	f.clients[requireKey] = c
	return c, nil
}

// ClientWithKey builds a client for an explicit key (auth login checks a
// key before storing it).
func (f *Factory) ClientWithKey(key string) (*client.Client, error) {
	cfg, err := f.Config()
	if err != nil {
		return nil, err
	}
	return f.newClient(cfg, key)
}

// quickClient is for shell completion: no retries, a short attempt
// timeout, no progress output.
func (f *Factory) quickClient() (*client.Client, error) {
	key, _, err := f.APIKey()
	if err != nil || key == "" {
		return nil, fmt.Errorf("no API key")
	}
	cfg, err := f.Config()
	if err != nil {
		return nil, err
	}
	return f.buildClient(cfg, key, func(o *client.Options) {
		o.Policy.MaxRetries = reliability.NoRetries
		o.Policy.AttemptTimeout = completionTimeout
		o.Policy.BreakerWait = 0 // a Tab never waits
		o.OnEvent = nil
		o.Debug = nil
	})
}

func (f *Factory) newClient(cfg *config.Config, key string) (*client.Client, error) {
	return f.buildClient(cfg, key, nil)
}

func (f *Factory) buildClient(cfg *config.Config, key string, adjust func(*client.Options)) (*client.Client, error) {
	stateDir, err := config.StateDir()
	if err != nil {
		return nil, err
	}
	store, err := f.stateStore(cfg, stateDir)
	if err != nil {
		return nil, err
	}
	retries := cfg.MaxRetries
	if retries == 0 {
		retries = reliability.NoRetries
	}
	opts := client.Options{
		BaseURL:   cfg.APIURL,
		APIKey:    key,
		Transport: f.Transport,
		UserAgent: build.UserAgent(),
		StateDir:  stateDir,
		Store:     store,
		Policy: reliability.Policy{
			MaxRetries:     retries,
			AttemptTimeout: cfg.Timeout,
			PollInterval:   cfg.PollInterval,
			PollTimeout:    cfg.WaitTimeout,
			BreakerWait:    cfg.BreakerWait,
		},
		TrustedHosts: cfg.TrustedHosts,
		OnEvent:      output.EventHandler(f.IOStreams, f.Invocation),
	}
	opts.Profile, opts.JournalWindow = cfg.Profile, cfg.JournalWindow
	if cfg.Debug {
		opts.Debug = f.IOStreams.ErrOut
	}
	if cfg.Local() {
		rt, err := LocalTransport(key)
		if err != nil {
			return nil, err
		}
		opts.BaseURL, opts.Transport = LocalBaseURL, rt
	}
	if adjust != nil {
		adjust(&opts)
	}
	return client.New(opts)
}

// stateStore opens the state store once per invocation: the file store
// under stateDir, or the shared store of config state_store with the file
// store as its fallback.
func (f *Factory) stateStore(cfg *config.Config, stateDir string) (reliability.Store, error) {
	f.storeMu.Lock()
	defer f.storeMu.Unlock()
	if f.store != nil {
		return f.store, nil
	}
	o := statestore.Options{URL: cfg.StateStore, StateDir: stateDir, Warnings: f.IOStreams.ErrOut}
	if cfg.Debug {
		o.Debug = f.IOStreams.ErrOut
	}
	s, err := statestore.Open(o)
	if err != nil {
		return nil, output.FlagErrorWrap(err)
	}
	f.store = s
	return s, nil
}
