package cmdutil

import (
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/config"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// Seams are what a command's run function needs from its surroundings: the
// terminal streams, a client constructor and the resolved configuration
// (for the wait defaults), plus how to word a suggested command line and
// where to record the mutation being sent. An options struct embeds them
// instead of the whole Factory; NewCmd* fills them from the Factory, and a
// test fills what it needs: iostreams.Test() streams and a client for an
// httptest server or the emulator. A nil Config means the client's own
// policy decides how long to wait and how often to poll; a nil Command
// suggests plain command lines; a nil SetOperation records nothing.
type Seams struct {
	IO     *iostreams.IOStreams
	Client func() (*client.Client, error)
	Config func() (*config.Config, error)
	// Command is a fibe command line to suggest, with the --api-url and
	// --profile of the current one.
	Command func(args ...string) string
	// SetOperation names the mutation being sent ("create"), so an error
	// can say which one may have been applied.
	SetOperation func(name string)
}

// Seams returns the Factory's streams, client constructor and configuration.
func (f *Factory) Seams() Seams {
	ios := f.IOStreams
	return Seams{IO: ios, Client: f.Client, Config: f.Config, Command: f.Command,
		SetOperation: func(name string) { f.Operation = name }}
}

// LocalSeams are the Seams of a command that touches only local state
// (the breakers, the outcome journal): its Client needs no API key.
func (f *Factory) LocalSeams() Seams {
	s := f.Seams()
	s.Client = f.ClientWithoutKey
	return s
}

// CommandLine is Command, or the plain command line when there is none.
func (s Seams) CommandLine(args ...string) string {
	if s.Command == nil {
		return output.CommandLine(nil, args...)
	}
	return s.Command(args...)
}

// WaitOptions resolves the wait options from the flags and the
// configuration (a flag that was given wins; the config resolves its own
// precedence).
func (s Seams) WaitOptions(w *WaitFlags) (client.WaitOptions, error) {
	if s.Config == nil {
		return client.WaitOptions{NoWait: w.NoWait}, nil
	}
	cfg, err := s.Config()
	if err != nil {
		return client.WaitOptions{}, err
	}
	return client.WaitOptions{NoWait: w.NoWait, Timeout: cfg.WaitTimeout, PollInterval: cfg.PollInterval}, nil
}
