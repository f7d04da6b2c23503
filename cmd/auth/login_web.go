package auth

import (
	"context"
	"fmt"
	"os"

	"github.com/fibegg/fibe/internal/config"
	"github.com/fibegg/fibe/internal/iostreams"
)

// webLoginRun is `fibe auth login --web`, the device flow (docs/api.md,
// "Device login"): ask for a code, show it with the approval URL, open
// the browser where there is one, wait for the approval, then store the
// key as a pasted one is stored. Nothing is stored unless it is approved.
func webLoginRun(ctx context.Context, opts *LoginOptions, cfg *config.Config) error {
	ios := opts.IO
	c, err := opts.ClientWithKey("") // the flow itself needs no key
	if err != nil {
		return err
	}
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "unknown host"
	}
	dc, err := c.StartDeviceLogin(ctx, host)
	if err != nil {
		return err
	}
	// The code and URL are the point of the command, so they are printed
	// even with --quiet; on stderr, as stdout is for the result.
	cs := ios.ErrColorScheme()
	fmt.Fprintf(ios.ErrOut, "%s First copy your one-time code: %s\n", cs.Yellow("!"), cs.Bold(dc.UserCode))
	fmt.Fprintf(ios.ErrOut, "Approve it at %s\n", dc.VerificationURIComplete)
	if opts.OpenBrowser != nil && ios.CanOpenBrowser() {
		if err := opts.OpenBrowser(dc.VerificationURIComplete); err != nil {
			ios.Warning("could not open a browser (%v); open the URL above", err)
		}
	}
	ios.StartProgress("Waiting for the approval in the browser")
	login, err := c.WaitDeviceLogin(ctx, dc, func(n int) {
		ios.UpdateProgress(func(p *iostreams.ProgressState) { p.Polls = n })
	})
	ios.StopProgress()
	if err != nil {
		return err
	}
	return storeKey(ctx, opts, cfg, login.APIKey)
}
