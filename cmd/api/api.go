// Package api implements `fibe api`: any request under the API's /api
// path, like `gh api`, with the whole reliability contract.
package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// Options are the inputs of `fibe api`.
type Options struct {
	cmdutil.Seams
	Path     string
	Method   string
	Fields   []field
	Input    string // a file, or "-" for stdin
	Headers  []string
	Paginate bool
	Mutation cmdutil.MutationFlags
	Wait     cmdutil.WaitFlags

	methodGiven bool
}

// NewCmdAPI builds `fibe api`.
func NewCmdAPI(f *cmdutil.Factory, runF func(context.Context, *Options) error) *cobra.Command {
	opts := &Options{Seams: f.Seams()}
	cmd := &cobra.Command{
		Use:   "api <path>",
		Short: "Send any request to the Fibe API",
		Long: `Send a request to any endpoint under the API's /api path, with the same
reliability contract as every other command: retries with backoff, the
circuit breaker, the rate-limit ledger, an idempotency key on every
mutation (journaled: a re-run within journal_window reuses it), a 202
waited on unless --no-wait, typed errors and exit codes.

The path is relative to /api: "playgrounds", "/playgrounds" and
"/api/playgrounds" are the same. The method is GET without fields and
POST with them (GET with --paginate); -X chooses another. -f adds a string field, -F a typed
one (true, false, null, a number, or @file / @- for a file's text); a key
may nest (a[b]=1, a[]=x). On a GET the fields go into the query string;
--input sends a JSON document as the body (the fields then go into the
query string). --paginate follows the page parameter to the last page and
prints one array. A JSON answer is printed as JSON (--jq filters it);
anything else is printed as it came.`,
		Example: `  fibe api playgrounds
  fibe api playgrounds -f status=running --paginate --jq '.[].name'
  fibe api -X POST playgrounds/preview-42/operations -f action_type=rollout
  fibe api -X PATCH marquees/prod-eu -F marquee[port]=2222
  fibe api agents --input agent.json`,
		Args: cmdutil.ExactArgs(1, "<path>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Path = args[0]
			opts.methodGiven = cmd.Flags().Changed("method")
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return run(cmd.Context(), opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&opts.Method, "method", "X", "GET", "HTTP method")
	fl.VarP(fieldsFlag{list: &opts.Fields}, "raw-field", "f", "Add a string field (key=value)")
	fl.VarP(fieldsFlag{list: &opts.Fields, typed: true}, "field", "F", "Add a typed field (key=true|false|null|number|@file)")
	fl.StringVar(&opts.Input, "input", "", "Send this file's JSON document as the body (- for stdin)")
	fl.StringArrayVarP(&opts.Headers, "header", "H", nil, "Add a request header (Key:Value)")
	fl.BoolVar(&opts.Paginate, "paginate", false, "Follow every page of a list and print one array")
	cmdutil.AddMutationFlags(cmd, &opts.Mutation)
	cmdutil.AddWaitFlags(cmd, &opts.Wait)
	return cmd
}

// request checks the input and builds the request; every error is a
// usage error and nothing has been sent.
func (opts *Options) request() (client.APIRequest, error) {
	var req client.APIRequest
	path, err := client.APIPath(opts.Path)
	if err != nil {
		return req, output.FlagErrorf("%v", err)
	}
	req.Path = path
	fields, err := parseFields(opts.Fields, opts.IO.In)
	if err != nil {
		return req, err
	}
	method := strings.ToUpper(strings.TrimSpace(opts.Method))
	if !opts.methodGiven {
		method = http.MethodGet
		if (len(opts.Fields) > 0 || opts.Input != "") && !opts.Paginate {
			method = http.MethodPost
		}
	}
	if method == "" || strings.Trim(method, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "" {
		return req, output.FlagErrorf("invalid method %q: a word such as GET, POST, PATCH or DELETE", opts.Method)
	}
	req.Method = method
	if opts.Input != "" {
		data, err := readInput(opts.Input, opts.IO.In)
		if err != nil {
			return req, output.FlagErrorf("--input: %v", err)
		}
		if !json.Valid(data) {
			return req, output.FlagErrorf("--input %s is not a JSON document", opts.Input)
		}
		req.Body = json.RawMessage(data)
	}
	if len(fields) > 0 {
		if method == http.MethodGet || method == http.MethodHead || opts.Input != "" {
			if req.Query, err = queryOf(fields); err != nil {
				return req, output.FlagErrorf("fields: %v", err)
			}
		} else if req.Body, err = json.Marshal(fields); err != nil {
			return req, output.FlagErrorf("fields: %v", err)
		}
	}
	if len(opts.Headers) > 0 {
		req.Header = http.Header{}
	}
	for _, h := range opts.Headers {
		k, v, ok := strings.Cut(h, ":")
		k, v = strings.TrimSpace(k), strings.Trim(v, " ")
		if !ok || k == "" {
			return req, output.FlagErrorf("--header %q: a header is Key:Value", h)
		}
		switch http.CanonicalHeaderKey(k) {
		case "Authorization":
			return req, output.FlagErrorf("--header %s: the API key is sent by fibe (--api-key, fibe auth login)", k)
		case "Idempotency-Key":
			return req, output.FlagErrorf("--header %s: use --idempotency-key", k)
		}
		// The client's own check (the MCP fibe_api headers get the same):
		// nothing with a CR, LF or control character is ever attempted.
		if err := client.ValidateHeader(k, v); err != nil {
			return req, output.FlagErrorf("--header %q: %v", h, err)
		}
		req.Header.Add(k, v)
	}
	if opts.Paginate && method != http.MethodGet {
		return req, output.FlagErrorf("--paginate needs a GET, not %s", method)
	}
	req.Paginate = opts.Paginate
	return req, nil
}

func run(ctx context.Context, opts *Options) error {
	req, err := opts.request()
	if err != nil {
		return err
	}
	mutation := req.Method != http.MethodGet && req.Method != http.MethodHead && req.Method != http.MethodOptions
	mo, wo, c, err := opts.Prepare(&opts.Mutation, &opts.Wait)
	if err != nil {
		return err
	}
	req.Mutation, req.Wait = mo, wo
	stop := func(error) {}
	if mutation {
		stop = opts.Progress(req.Method+" "+strings.SplitN(req.Path, "?", 2)[0], wo)
	}
	resp, err := c.API(ctx, req)
	stop(err)
	if err != nil {
		return opts.WaitFailed(err)
	}
	if wo.NoWait && resp.Meta != nil && resp.Meta.Accepted != nil {
		_, err := opts.Accepted(resp.Meta, true)
		return err
	}
	opts.ReplayNotice(resp.Meta)
	if opts.IO.JSON() && len(bytes.TrimSpace(resp.Body)) > 0 && !resp.JSON() {
		// --json promises one JSON document on stdout: a fragment is not one.
		return notJSON(resp)
	}
	return printAnswer(opts.IO, resp)
}

// notJSON is the INVALID_RESPONSE of a 2xx answer that is not JSON when
// --json asked for it.
func notJSON(resp *client.APIResponse) error {
	e := &client.Error{Status: resp.Status, Code: client.CodeInvalidResponse,
		Message: "the answer is not a JSON document (" + strconv.Itoa(len(resp.Body)) + " bytes) and --json asked for one"}
	if resp.Meta != nil {
		e.RequestID, e.IdempotencyKey = resp.Meta.RequestID, resp.Meta.IdempotencyKey
	}
	return e
}

// printAnswer writes a JSON answer as JSON (through --jq) and anything else as
// it came, line by line sanitized when stdout is a terminal (the server's
// escape sequences never act on it); an empty answer (204) prints nothing.
func printAnswer(ios *iostreams.IOStreams, resp *client.APIResponse) error {
	body := bytes.TrimSpace(resp.Body)
	if len(body) == 0 {
		return nil
	}
	if resp.JSON() {
		return ios.PrintJSON(json.RawMessage(body))
	}
	if ios.IsStdoutTTY() {
		lines := strings.Split(strings.TrimSuffix(string(resp.Body), "\n"), "\n")
		for i, l := range lines {
			lines[i] = output.Sanitize(strings.TrimSuffix(l, "\r"))
		}
		_, err := io.WriteString(ios.Out, strings.Join(lines, "\n")+"\n")
		return err
	}
	_, err := ios.Out.Write(resp.Body)
	return err
}
