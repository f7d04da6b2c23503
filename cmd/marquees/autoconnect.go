package marquees

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/output"
)

// AutoconnectOptions are the inputs of `fibe marquees autoconnect-token`.
type AutoconnectOptions struct {
	cmdutil.Seams
	Email, Domain, IP, SSLMode, DNSProvider string
	// DNSCredentialsFile holds KEY=VALUE lines ("-": stdin). Credentials
	// are secrets: never taken from the command line.
	DNSCredentialsFile string
	Mutation           cmdutil.MutationFlags
}

// NewCmdAutoconnectToken builds `fibe marquees autoconnect-token`.
func NewCmdAutoconnectToken(f *cmdutil.Factory, runF func(context.Context, *AutoconnectOptions) error) *cobra.Command {
	opts := &AutoconnectOptions{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "autoconnect-token [--email E] [--domain D] [--ip IP] [--ssl-mode M] [--dns-provider P --dns-credentials-file FILE]",
		Short: "Mint a token a new server uses to connect itself as a marquee",
		Long: `Mint a one-time token that a new server uses to connect itself to Fibe as
a marquee. The token is a secret: it is printed once, on stdout, and kept
nowhere (not in the outcome journal, not in traces). DNS credentials for
certificates are read as KEY=VALUE lines from --dns-credentials-file (- for
stdin), never from the command line.`,
		Example: `  fibe mq autoconnect-token --email ops@example.com
  fibe mq autoconnect-token --domain app.example.com --ssl-mode letsencrypt \
    --dns-provider route53 --dns-credentials-file route53.env`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return autoconnectRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Email, "email", "", "Contact email for the server's certificates")
	cmd.Flags().StringVar(&opts.Domain, "domain", "", "Domain the marquee serves")
	cmd.Flags().StringVar(&opts.IP, "ip", "", "The server's public IP address")
	cmd.Flags().StringVar(&opts.SSLMode, "ssl-mode", "", "TLS certificates: "+strings.Join(client.SSLModes, ", "))
	cmd.Flags().StringVar(&opts.DNSProvider, "dns-provider", "", "DNS provider for certificate challenges (route53, cloudflare, ...)")
	cmd.Flags().StringVar(&opts.DNSCredentialsFile, "dns-credentials-file", "", "File of KEY=VALUE lines with the DNS provider's credentials (- for stdin)")
	f.CompleteFlag(cmd, "ssl-mode", cobra.FixedCompletions(client.SSLModes, cobra.ShellCompDirectiveNoFileComp))
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	return cmd
}

// request validates the flags into the request body; nothing is sent
// for bad input.
func (opts *AutoconnectOptions) request() (client.AutoconnectRequest, error) {
	r := client.AutoconnectRequest{Email: strings.TrimSpace(opts.Email), Domain: strings.TrimSpace(opts.Domain),
		IP: strings.TrimSpace(opts.IP), SSLMode: opts.SSLMode, DNSProvider: strings.TrimSpace(opts.DNSProvider)}
	if err := r.Check(); err != nil {
		// The client's rule, in the command line's words: its field is a flag.
		if e, ok := client.AsError(err); ok {
			field, _ := e.Details["field"].(string)
			return r, output.FlagErrorf("--%s%s", strings.ReplaceAll(field, "_", "-"), strings.TrimPrefix(e.Message, field))
		}
		return r, err
	}
	if opts.DNSCredentialsFile == "" {
		return r, nil
	}
	if r.DNSProvider == "" {
		return r, output.FlagErrorf("--dns-credentials-file needs --dns-provider")
	}
	creds, err := opts.readCredentials()
	if err != nil {
		return r, err
	}
	r.DNSCredentials = creds
	return r, nil
}

// readCredentials reads KEY=VALUE lines; blank lines and # comments are
// skipped. An error names the line, never its content.
func (opts *AutoconnectOptions) readCredentials() (map[string]string, error) {
	path := opts.DNSCredentialsFile
	var data []byte
	var err error
	if path == "-" {
		data, err = io.ReadAll(io.LimitReader(opts.IO.In, 1<<20))
	} else {
		data, err = os.ReadFile(path)
	}
	if err != nil {
		if pe, ok := err.(*os.PathError); ok {
			err = pe.Err
		}
		return nil, output.FlagErrorf("--dns-credentials-file %s cannot be read: %v", path, err)
	}
	creds := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if k = strings.TrimSpace(k); !ok || k == "" {
			return nil, output.FlagErrorf("--dns-credentials-file %s: line %d is not KEY=VALUE", path, n)
		}
		creds[k] = strings.TrimSpace(v)
	}
	if err := sc.Err(); err != nil {
		return nil, output.FlagErrorf("--dns-credentials-file %s: %v", path, err)
	}
	if len(creds) == 0 {
		return nil, output.FlagErrorf("--dns-credentials-file %s holds no KEY=VALUE line", path)
	}
	return creds, nil
}

func autoconnectRun(ctx context.Context, opts *AutoconnectOptions) error {
	req, err := opts.request()
	if err != nil {
		return err
	}
	mo, _, c, err := opts.Prepare(&opts.Mutation, nil)
	if err != nil {
		return err
	}
	tok, resp, err := c.Marquees.AutoconnectToken(ctx, req, mo)
	if err != nil {
		return err
	}
	return opts.Finish(resp, tok, false, func() error {
		// The token alone on stdout (for a script to keep); the
		// advice on stderr.
		if _, err := fmt.Fprintln(opts.IO.Out, tok.Token); err != nil {
			return err
		}
		opts.IO.Notice("This token is shown once: keep it secret and give it to the new server's installer.")
		return nil
	})
}
