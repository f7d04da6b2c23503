package cmdutil

import (
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/config"
	"github.com/fibegg/fibe/internal/output"
)

// Seams are what a command's run function needs from its surroundings: the
// terminal streams, a client constructor and the resolved configuration
// (for the wait defaults). An options struct embeds them instead of the
// whole Factory; NewCmd* fills them from the Factory, and a test fills them
// itself: output.Test() streams and a client for an httptest server or the
// emulator. A nil Config means the client's own policy decides how long to
// wait and how often to poll.
type Seams struct {
	IO     *output.IOStreams
	Client func() (*client.Client, error)
	Config func() (*config.Config, error)
}

// Seams returns the Factory's streams, client constructor and configuration.
func (f *Factory) Seams() Seams {
	return Seams{IO: f.IOStreams, Client: f.Client, Config: f.Config}
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
