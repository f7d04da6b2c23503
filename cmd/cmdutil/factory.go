package cmdutil

import (
	"net/http"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/config"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// LocalBaseURL is the base URL used with `--api-url local`. Requests never
// leave the process: the in-process transport answers any host.
const LocalBaseURL = "http://local.fibe"

// Factory hands each command what it needs. This is only its shape: the
// functions are filled by cmd/factory.New, which wires them (reading the
// configuration, building clients and the state store, the emulator
// behind --api-url local), each building what it returns on first use. A
// command's NewCmd* takes from it, into its options, only what its run
// function needs (Seams and, rarely, one of the other constructors).
type Factory struct {
	IOStreams *iostreams.IOStreams
	// Invocation is the command line as typed, without the program name; it
	// is echoed back in "retry safely with: ..." hints.
	Invocation []string
	// Operation names the running command when it sends a mutation
	// ("create"), so an error can say which mutation may have been applied.
	Operation string

	// Transport, when set, replaces the HTTP transport (tests, the
	// benchmark's in-process runs). It is read when a client is built.
	Transport http.RoundTripper

	// SetFlags records the executing command's flags (local and
	// inherited), from which the configuration is resolved; what was
	// resolved from earlier flags is dropped.
	SetFlags func(fs *pflag.FlagSet)
	// Config resolves the configuration once.
	Config func() (*config.Config, error)
	// Profile resolves only the profile, without the rest of the
	// configuration.
	Profile func() (string, error)
	// APIKey finds the key to use and says where it came from: --api-key,
	// then FIBE_API_KEY, then the key stored by `fibe auth login` for this
	// profile and API, then (local API only) the emulator's default key.
	APIKey func() (key, source string, err error)
	// WarnSecretFlags says once, on stderr, that a secret came from a flag
	// (ps shows it to other users); the environment variable is the way.
	WarnSecretFlags func()

	// Client returns the API client, requiring an API key.
	Client func() (*client.Client, error)
	// ClientWithoutKey returns a client for commands that only touch local
	// state (breakers, the journal) or that supply the key themselves.
	ClientWithoutKey func() (*client.Client, error)
	// ClientWithKey builds a client for an explicit key (auth login checks
	// a key before storing it).
	ClientWithKey func(key string) (*client.Client, error)
	// CompletionClient is for shell completion: no retries, an attempt
	// timeout of CompletionTimeout, no progress output.
	CompletionClient func() (*client.Client, error)
	// StreamClient is the client of a command that holds a live stream
	// (logs --follow, a shell): the usual client, or with --api-url local
	// the emulator served on loopback for the length of the stream. stop
	// releases it.
	StreamClient func() (c *client.Client, stop func(), err error)
	// LocalStreamClient serves the local emulator (same state file) on an
	// ephemeral loopback port and returns a client of it over real
	// sockets (a websocket cannot ride an in-process transport).
	LocalStreamClient func() (c *client.Client, stop func(), err error)
	// ServerClient is the client of a long-running command that serves
	// others (fibe console): Client's, with adjust applied to its options;
	// with --api-url local the emulator served on loopback, its handler
	// wrapped by wrap when set.
	ServerClient func(adjust func(*client.Options), wrap func(http.Handler) http.Handler) (c *client.Client, stop func(), err error)
	// CallClients is for a long-running server (fibe mcp serve): a
	// function building one client per call (its own progress sink) over
	// one shared transport; requireKey false allows no key (breakers).
	CallClients func() (func(onEvent func(client.Event), requireKey bool) (*client.Client, error), error)
	// OperationOf says what the async operation of request id id was, when
	// this machine started it: the method and path of the request the API
	// answered 202. The poll answer does not say (docs/api.md).
	OperationOf func(id string) (method, path string, ok bool)
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
