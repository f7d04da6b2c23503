// Package completion implements `fibe completion`: shell completion scripts
// for bash, zsh, fish and PowerShell. Playground and marquee names complete
// from the API (one list call, two seconds at most).
//
// The hidden flag --generate-dir DIR writes all four scripts into DIR
// (fibe.bash, _fibe, fibe.fish, fibe.ps1); the release archives ship them
// from the repository's completions/ directory.
package completion

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// Shells lists the supported shells and the file each script is written to.
var Shells = []struct{ Name, File string }{
	{"bash", "fibe.bash"},
	{"zsh", "_fibe"},
	{"fish", "fibe.fish"},
	{"powershell", "fibe.ps1"},
}

// Options are the inputs of `fibe completion`.
type Options struct {
	IO *iostreams.IOStreams
	// Root is the command tree the scripts complete.
	Root  *cobra.Command
	Shell string
	// Dir, when set, receives every script instead of stdout.
	Dir string
}

// NewCmdCompletion builds `fibe completion <shell>`.
func NewCmdCompletion(f *cmdutil.Factory) *cobra.Command {
	opts := &Options{IO: f.IOStreams}
	cmd := &cobra.Command{
		Use:   "completion bash|zsh|fish|powershell",
		Short: "Print a shell completion script",
		Long: `Print a shell completion script.

  bash:        source <(fibe completion bash)
  zsh:         fibe completion zsh > "${fpath[1]}/_fibe"
  fish:        fibe completion fish > ~/.config/fish/completions/fibe.fish
  powershell:  fibe completion powershell | Out-String | Invoke-Expression`,
		Example: `  echo 'source <(fibe completion bash)' >> ~/.bashrc
  fibe completion --generate-dir completions`,
		ValidArgs:   []string{"bash", "zsh", "fish", "powershell"},
		Annotations: map[string]string{cmdutil.NoDocument: "true"},
		Args: func(cmd *cobra.Command, args []string) error {
			if opts.Dir != "" {
				return cmdutil.NoArgs(cmd, args)
			}
			return cmdutil.ExactArgs(1, "bash|zsh|fish|powershell")(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Root = cmd.Root()
			if len(args) > 0 {
				opts.Shell = args[0]
			}
			return run(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Dir, "generate-dir", "", "Write every script into this directory")
	_ = cmd.Flags().MarkHidden("generate-dir")
	return cmd
}

func run(opts *Options) error {
	if opts.IO.JSON() {
		// A script is not a JSON document; printing it would break the
		// promise --json makes to whoever reads stdout.
		return output.FlagErrorf("fibe completion prints a shell script: --json and --jq do not apply")
	}
	if opts.Dir != "" {
		return GenerateDir(opts.Root, opts.Dir)
	}
	return Generate(opts.Root, opts.Shell, opts.IO.Out)
}

// Generate writes the script for shell.
func Generate(root *cobra.Command, shell string, w interface{ Write([]byte) (int, error) }) error {
	var buf bytes.Buffer
	var err error
	switch shell {
	case "bash":
		err = root.GenBashCompletionV2(&buf, true)
	case "zsh":
		err = root.GenZshCompletion(&buf)
	case "fish":
		err = root.GenFishCompletion(&buf, true)
	case "powershell":
		err = root.GenPowerShellCompletionWithDesc(&buf)
	default:
		return output.FlagErrorf("unsupported shell %q: use bash, zsh, fish or powershell", shell)
	}
	if err != nil {
		return err
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// GenerateDir writes every script into dir.
func GenerateDir(root *cobra.Command, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, s := range Shells {
		var buf bytes.Buffer
		if err := Generate(root, s.Name, &buf); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, s.File), buf.Bytes(), 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", s.File, err)
		}
	}
	return nil
}
