// Package factory wires a cmdutil.Factory: it reads the configuration,
// finds the API key, opens the state store once per invocation, builds the
// API clients and, for --api-url local, starts the emulator in process or
// on loopback. cmd.Main calls New once per process; commands see only the
// Factory's fields (and, in their options, the cmdutil.Seams taken from
// it), never this package.
package factory

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/spf13/pflag"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/build"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/config"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/localapi"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/reliability"
	"github.com/fibegg/fibe/internal/statestore"
)

// New returns a Factory for the given streams and invocation (the command
// line without the program name), every function of it wired.
func New(ios *iostreams.IOStreams, invocation []string) *cmdutil.Factory {
	f := &cmdutil.Factory{IOStreams: ios, Invocation: invocation}
	w := &wiring{f: f}
	f.SetFlags = w.setFlags
	f.Config = w.config
	f.Profile = w.profile
	f.APIKey = w.apiKey
	f.WarnSecretFlags = w.warnSecretFlags
	f.Client = func() (*client.Client, error) { return w.client(true) }
	f.ClientWithoutKey = func() (*client.Client, error) { return w.client(false) }
	f.ClientWithKey = w.clientWithKey
	f.CompletionClient = w.completionClient
	f.StreamClient = w.streamClient
	f.LocalStreamClient = w.localStreamClient
	f.ServerClient = w.serverClient
	f.CallClients = w.callClients
	f.OperationOf = w.operationOf
	return f
}

// wiring is what the Factory's functions share for one invocation: the
// flags, the configuration resolved from them, the clients built, the
// state store.
type wiring struct {
	f *cmdutil.Factory

	mu      sync.Mutex
	flags   *pflag.FlagSet
	cfg     *config.Config
	clients map[bool]*client.Client

	storeMu sync.Mutex
	store   reliability.Store // one per invocation, so a fallback warns once

	secretsWarned sync.Once
}

func (w *wiring) setFlags(fs *pflag.FlagSet) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.flags = fs
	w.cfg = nil
	w.clients = nil
}

func (w *wiring) config() (*config.Config, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cfg != nil {
		return w.cfg, nil
	}
	cfg, err := config.Load(w.flags)
	if err != nil {
		var inv *config.InvalidError
		if errors.As(err, &inv) {
			return nil, output.FlagErrorWrap(err)
		}
		return nil, err
	}
	w.cfg = cfg
	if cfg.Debug {
		traceSettings(w.f.IOStreams.ErrOut, cfg)
	}
	return cfg, nil
}

// warnSecretFlags is called when a secret is used (a client is built, the
// MCP server reads its token), so a usage error stays one line.
func (w *wiring) warnSecretFlags() {
	cfg, err := w.config()
	if err != nil {
		return
	}
	flags := cfg.SecretFlags()
	if len(flags) == 0 {
		return
	}
	w.secretsWarned.Do(func() {
		w.f.IOStreams.Warning("%s on the command line shows in ps to other users of this machine; use %s instead",
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

func (w *wiring) profile() (string, error) {
	w.mu.Lock()
	fs := w.flags
	w.mu.Unlock()
	name, _, err := config.Profile(fs)
	if err != nil {
		return "", output.FlagErrorWrap(err)
	}
	return name, nil
}

func (w *wiring) apiKey() (key, source string, err error) {
	cfg, err := w.config()
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

func (w *wiring) client(requireKey bool) (*client.Client, error) {
	key, _, err := w.apiKey()
	if err != nil {
		return nil, err
	}
	cfg, err := w.config()
	if err != nil {
		return nil, err
	}
	w.warnSecretFlags()
	if key == "" && requireKey {
		return nil, &output.AuthRequiredError{APIURL: cfg.APIURL, Profile: cfg.Profile}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if c := w.clients[requireKey]; c != nil {
		return c, nil
	}
	c, err := w.buildClient(cfg, key, nil)
	if err != nil {
		return nil, err
	}
	if w.clients == nil {
		w.clients = map[bool]*client.Client{}
	}
	w.clients[requireKey] = c
	return c, nil
}

func (w *wiring) clientWithKey(key string) (*client.Client, error) {
	cfg, err := w.config()
	if err != nil {
		return nil, err
	}
	return w.buildClient(cfg, key, nil)
}

func (w *wiring) completionClient() (*client.Client, error) {
	key, _, err := w.apiKey()
	if err != nil || key == "" {
		return nil, fmt.Errorf("no API key")
	}
	cfg, err := w.config()
	if err != nil {
		return nil, err
	}
	return w.buildClient(cfg, key, func(o *client.Options) {
		o.Policy.MaxRetries = reliability.NoRetries
		o.Policy.AttemptTimeout = cmdutil.CompletionTimeout
		o.Policy.BreakerWait = 0 // a Tab never waits
		o.OnEvent = nil
		o.Debug = nil
	})
}

// buildClient builds a client of cfg's API with key, adjust applied last
// to its options.
func (w *wiring) buildClient(cfg *config.Config, key string, adjust func(*client.Options)) (*client.Client, error) {
	stateDir, err := config.StateDir()
	if err != nil {
		return nil, err
	}
	store, err := w.stateStore(cfg, stateDir)
	if err != nil {
		return nil, err
	}
	retries := cfg.MaxRetries
	if retries == 0 {
		retries = reliability.NoRetries
	}
	ios := w.f.IOStreams
	opts := client.Options{
		BaseURL:   cfg.APIURL,
		APIKey:    key,
		Transport: w.f.Transport,
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
		OnEvent:      output.EventHandler(ios, w.f.Invocation),
	}
	opts.Profile, opts.JournalWindow = cfg.Profile, cfg.JournalWindow
	if cfg.Debug {
		opts.Debug = ios.ErrOut
	}
	if cfg.Local() {
		rt, err := localTransport(key)
		if err != nil {
			return nil, err
		}
		opts.BaseURL, opts.Transport = cmdutil.LocalBaseURL, rt
	}
	if adjust != nil {
		adjust(&opts)
	}
	opts.OnEvent = w.recordAccepted(cfg, stateDir, opts.OnEvent)
	return client.New(opts)
}

// recordAccepted wraps a client's event callback: an operation the server
// accepted (202) is written to the operations record (operations.go)
// before next sees the event.
func (w *wiring) recordAccepted(cfg *config.Config, stateDir string, next func(client.Event)) func(client.Event) {
	api := recordAPI(cfg.APIURL)
	return func(e client.Event) {
		if e.Kind == client.EventAccepted {
			if err := rememberOperation(stateDir, api, e.RequestID, e.Method, e.URL, time.Now()); err != nil && cfg.Debug {
				fmt.Fprintf(w.f.IOStreams.ErrOut, "[debug] operation %s not recorded: %v\n", e.RequestID, err)
			}
		}
		if next != nil {
			next(e)
		}
	}
}

// operationOf is what this machine's operations record says of operation
// id of the configured API: the method and path of the request that
// started it.
func (w *wiring) operationOf(id string) (method, path string, ok bool) {
	cfg, err := w.config()
	if err != nil {
		return "", "", false
	}
	stateDir, err := config.StateDir()
	if err != nil {
		return "", "", false
	}
	o, ok := lookupOperation(stateDir, recordAPI(cfg.APIURL), id)
	return o.Method, o.Path, ok
}

// stateStore opens the state store once per invocation: the file store
// under stateDir, or the shared store of config state_store with the file
// store as its fallback.
func (w *wiring) stateStore(cfg *config.Config, stateDir string) (reliability.Store, error) {
	w.storeMu.Lock()
	defer w.storeMu.Unlock()
	if w.store != nil {
		return w.store, nil
	}
	ios := w.f.IOStreams
	o := statestore.Options{URL: cfg.StateStore, StateDir: stateDir, Warnings: ios.ErrOut}
	if cfg.Debug {
		o.Debug = ios.ErrOut
	}
	s, err := statestore.Open(o)
	if err != nil {
		return nil, output.FlagErrorWrap(err)
	}
	w.store = s
	return s, nil
}
