package configcmd

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/config"
	"github.com/fibegg/fibe/internal/output"
)

// GetOptions are the inputs of `fibe config get`.
type GetOptions struct {
	cmdutil.Seams
	Key string
}

// NewCmdGet builds `fibe config get <key>`.
func NewCmdGet(f *cmdutil.Factory, runF func(context.Context, *GetOptions) error) *cobra.Command {
	opts := &GetOptions{Seams: f.Seams()}
	return &cobra.Command{
		Use:   "get <key>",
		Short: "Print the effective value of a setting",
		Example: `  fibe config get api_url
  fibe --profile staging config get timeout --json`,
		Args:              cmdutil.ExactArgs(1, "<key>"),
		ValidArgsFunction: completeKeys,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Key = args[0]
			if _, ok := config.Lookup(opts.Key); !ok {
				return output.FlagErrorf("unknown config key %q", opts.Key)
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return getRun(opts)
		},
	}
}

func getRun(opts *GetOptions) error {
	cfg, err := opts.Config()
	if err != nil {
		return err
	}
	v, _ := cfg.Get(opts.Key)
	ios := opts.IO
	if ios.JSON() {
		return ios.PrintJSON(v)
	}
	_, err = fmt.Fprintln(ios.Out, v.Value)
	return err
}
