package webhooks

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
	"github.com/fibegg/fibe/internal/webhook"
)

// maxPayload bounds what verify reads: a delivery is far smaller.
const maxPayload = 8 << 20

// VerifyOptions are the inputs of `fibe webhooks verify`.
type VerifyOptions struct {
	IO        *iostreams.IOStreams
	SecretEnv string
	Signature string
	MaxAge    time.Duration
	File      string // "-" or "": standard input
	Now       func() time.Time
	Getenv    func(string) (string, bool)
}

// VerifyResult is what verify prints with --json.
type VerifyResult struct {
	Valid     bool       `json:"valid"`
	Event     string     `json:"event,omitempty"`
	Timestamp *time.Time `json:"timestamp,omitempty"`
	Delivery  string     `json:"delivery,omitempty"`
}

// invalidSignature ends verify with exit 1: the input was well formed and
// the payload must not be trusted.
type invalidSignature struct{ err error }

func (e invalidSignature) Error() string   { return "webhook payload not verified: " + e.err.Error() }
func (e invalidSignature) Unwrap() error   { return e.err }
func (e invalidSignature) ExitStatus() int { return 1 }

// NewCmdVerify builds `fibe webhooks verify`.
func NewCmdVerify(f *cmdutil.Factory, runF func(context.Context, *VerifyOptions) error) *cobra.Command {
	opts := &VerifyOptions{IO: f.IOStreams, Now: time.Now, Getenv: os.LookupEnv}
	cmd := &cobra.Command{
		Use:   "verify --secret-env NAME [--signature HEADER] [--max-age DURATION] [FILE|-]",
		Short: "Check the signature of a saved webhook delivery",
		Long: `Check that a webhook delivery was signed with the endpoint's secret:
X-Webhook-Signature is "sha256=" and the hex HMAC-SHA256 of the raw body,
compared in constant time. Nothing is sent anywhere.

The secret is read from the environment variable --secret-env names, never
from the command line. FILE (or standard input) is the raw body, with the
header's value in --signature; without --signature, FILE is a whole saved
HTTP request (request line, headers, blank line, body) and its
X-Webhook-Signature header is used. --max-age also refuses a payload whose
"timestamp" is further than that from now (a replay guard; 5m is usual).

Exit status: 0 when the signature is valid, 1 when it does not match (or
the payload is older than --max-age), 2 for bad input.`,
		Example: `  export FIBE_WEBHOOK_SECRET=...   # the secret printed by "fibe webhooks create"
  fibe webhooks verify --secret-env FIBE_WEBHOOK_SECRET --signature "sha256=5d2f..." body.json
  fibe webhooks verify --secret-env FIBE_WEBHOOK_SECRET request.http
  cat body.json | fibe webhooks verify --secret-env FIBE_WEBHOOK_SECRET --signature "$SIG" --max-age 5m -`,
		Args: cmdutil.RangeArgs(0, 1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.File = args[0]
			}
			if strings.TrimSpace(opts.SecretEnv) == "" {
				return output.FlagErrorf("--secret-env is required: the name of the environment variable holding the endpoint's secret")
			}
			if cmd.Flags().Changed("signature") && strings.TrimSpace(opts.Signature) == "" {
				return output.FlagErrorf("--signature is blank")
			}
			if opts.MaxAge < 0 {
				return output.FlagErrorf("--max-age must not be negative")
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return verifyRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.SecretEnv, "secret-env", "", "Environment variable holding the endpoint's secret")
	cmd.Flags().StringVar(&opts.Signature, "signature", "", "The X-Webhook-Signature value (default: read from a saved HTTP request)")
	cmd.Flags().DurationVar(&opts.MaxAge, "max-age", 0, "Refuse a payload whose timestamp is further than this from now (0: no check)")
	return cmd
}

func verifyRun(opts *VerifyOptions) error {
	secret, ok := opts.Getenv(opts.SecretEnv)
	if !ok || secret == "" {
		return output.FlagErrorf("environment variable %s is not set or empty", opts.SecretEnv)
	}
	raw, err := readInput(opts)
	if err != nil {
		return err
	}
	body, sig, delivery := raw, opts.Signature, ""
	if sig == "" {
		if body, sig, delivery, err = splitRequest(raw); err != nil {
			return err
		}
	}
	if err := webhook.Verify(body, sig, secret); err != nil {
		if errors.Is(err, webhook.ErrMalformed) {
			return output.FlagErrorf("invalid signature %q: %v", output.Sanitize(abbreviate(sig)), err)
		}
		return invalidSignature{err}
	}
	res := VerifyResult{Valid: true, Delivery: delivery}
	var p webhook.Payload
	if json.Unmarshal(body, &p) == nil {
		res.Event = p.Event
		if !p.Timestamp.IsZero() {
			res.Timestamp = &p.Timestamp
		}
	}
	if opts.MaxAge > 0 {
		if res.Timestamp == nil {
			return invalidSignature{fmt.Errorf("%w: the payload has no timestamp", webhook.ErrTooOld)}
		}
		if err := webhook.CheckTimestamp(*res.Timestamp, opts.Now(), opts.MaxAge); err != nil {
			return invalidSignature{err}
		}
	}
	ios := opts.IO
	if ios.JSON() {
		return ios.PrintJSON(res)
	}
	line := iostreams.Check(ios.ColorScheme()) + " Signature valid"
	if res.Event != "" {
		line += " (" + output.Sanitize(res.Event) + ")"
	}
	_, err = io.WriteString(ios.Out, line+"\n")
	return err
}

func readInput(opts *VerifyOptions) ([]byte, error) {
	var r io.Reader = opts.IO.In
	name := "standard input"
	if opts.File != "" && opts.File != "-" {
		f, err := os.Open(opts.File)
		if err != nil {
			return nil, output.FlagErrorf("cannot read %s: %v", opts.File, errors.Unwrap(err))
		}
		defer f.Close()
		r, name = f, opts.File
	}
	b, err := io.ReadAll(io.LimitReader(r, maxPayload+1))
	if err != nil {
		return nil, output.FlagErrorf("cannot read %s: %v", name, err)
	}
	if len(b) > maxPayload {
		return nil, output.FlagErrorf("%s is larger than %d MiB: not a webhook delivery", name, maxPayload>>20)
	}
	if len(b) == 0 {
		return nil, output.FlagErrorf("%s is empty: nothing to verify", name)
	}
	return b, nil
}

// splitRequest reads a saved HTTP request: its body and its signature and
// delivery headers.
func splitRequest(raw []byte) (body []byte, sig, delivery string, err error) {
	req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(raw)))
	if err != nil {
		return nil, "", "", output.FlagErrorf("no --signature given, and the input is not a saved HTTP request (%v)", err)
	}
	defer req.Body.Close()
	sig = req.Header.Get(webhook.HeaderSignature)
	if sig == "" {
		return nil, "", "", output.FlagErrorf("no --signature given, and the saved request has no %s header", webhook.HeaderSignature)
	}
	body, err = io.ReadAll(req.Body)
	if err != nil {
		return nil, "", "", output.FlagErrorf("cannot read the saved request's body: %v", err)
	}
	return body, sig, req.Header.Get(webhook.HeaderDelivery), nil
}

// abbreviate keeps an error line short when a whole file was pasted as the
// signature.
func abbreviate(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
