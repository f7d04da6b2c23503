package playspecs

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/resource"
)

// GetOptions are the inputs of `fibe playspecs get`.
type GetOptions = cmdutil.GetOptions[client.Playspec]

// NewCmdGet builds `fibe playspecs get <id|name>`.
func NewCmdGet(f *cmdutil.Factory, runF func(context.Context, *GetOptions) error) *cobra.Command {
	return cmdutil.NewCmdGet(f, cmdutil.GetSpec[client.Playspec]{
		Resource: resource.Playspecs(),
		Example: `  fibe ps get web
  fibe ps get web --jq .base_compose_yaml > docker-compose.yml`,
		Complete: cmdutil.CompletePlayspecNames(f),
		Card:     printPlayspec,
	}, runF)
}

// printPlayspec is the description's card, then what the detail adds:
// the services, mounted files and registry credentials.
func printPlayspec(ios *iostreams.IOStreams, ps *client.Playspec) error {
	if err := cmdutil.PrintCard(ios, resource.Playspecs(), *ps); err != nil {
		return err
	}
	cs := ios.ColorScheme()
	d := iostreams.NewDetail(ios.Out, cs)
	if len(ps.Services) > 0 {
		names := make([]string, len(ps.Services))
		for i, s := range ps.Services {
			names[i] = output.Sanitize(s.Name)
			if s.Public {
				names[i] += " (public)"
			}
		}
		d.Add("Services", strings.Join(names, ", "))
	}
	for _, m := range ps.MountedFiles {
		d.Add("Mounted file", output.Sanitize(m.Filename)+" at "+output.Sanitize(m.MountPath))
	}
	for _, c := range ps.Credentials {
		d.Add("Registry", output.Sanitize(c.RegistryURL)+" as "+output.Sanitize(c.Username))
	}
	return d.Render()
}
