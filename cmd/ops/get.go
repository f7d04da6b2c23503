package ops

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/spf13/cobra"

	"github.com/fibegg/fibe/cmd/cmdutil"
	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/iostreams"
	"github.com/fibegg/fibe/internal/output"
)

// GetOptions are the inputs of `fibe ops get`.
type GetOptions struct {
	cmdutil.Seams
	// OperationOf says which request started an operation (the Factory's):
	// its result is printed as that request's command prints it.
	OperationOf func(id string) (method, path string, ok bool)
	RequestID   string
}

// Status is the JSON form of one look at an operation, the same whatever
// shape (current or older) the server answered with.
type Status struct {
	RequestID string            `json:"request_id"`
	Status    string            `json:"status"`
	Result    json.RawMessage   `json:"result,omitempty"`
	Error     *output.ErrorBody `json:"error,omitempty"`
}

// NewCmdGet builds `fibe ops get <request-id>`.
func NewCmdGet(f *cmdutil.Factory, runF func(context.Context, *GetOptions) error) *cobra.Command {
	opts := &GetOptions{Seams: f.Seams(), OperationOf: f.OperationOf}
	return &cobra.Command{
		Use:   "get <request-id>",
		Short: "Look once at an async operation",
		Example: `  fibe ops get req_5c1d
  fibe ops get req_5c1d --jq .status`,
		Args: cmdutil.ExactArgs(1, "<request-id>"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.RequestID = args[0]
			if err := validRequestID(opts.RequestID); err != nil {
				return err
			}
			if runF != nil {
				return runF(cmd.Context(), opts)
			}
			return getRun(cmd.Context(), opts)
		},
	}
}

func getRun(ctx context.Context, opts *GetOptions) error {
	c, err := opts.Client()
	if err != nil {
		return err
	}
	st, _, err := c.Async.Get(ctx, opts.RequestID)
	if err != nil {
		return err
	}
	doc := statusDoc(opts.RequestID, st)
	ios := opts.IO
	if ios.JSON() {
		return ios.PrintJSON(doc)
	}
	cs := ios.ColorScheme()
	d := iostreams.NewDetail(ios.Out, cs)
	d.Add("Request", output.Sanitize(doc.RequestID))
	d.Add("Status", cs.Status(output.Sanitize(doc.Status)))
	if doc.Error != nil {
		d.Add("Error", output.Sanitize(doc.Error.Code+": "+doc.Error.Message))
		keys := make([]string, 0, len(doc.Error.Details))
		for k := range doc.Error.Details {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			d.Add(output.Sanitize("Detail "+k), output.Sanitize(compact(doc.Error.Details[k])))
		}
	}
	if err := d.Render(); err != nil {
		return err
	}
	if len(doc.Result) > 0 {
		// The result, as the command that started the operation prints it.
		if _, err := fmt.Fprintln(ios.Out); err != nil {
			return err
		}
		method, path := startedBy(opts.OperationOf, doc.RequestID)
		if err := printResult(ios, method, path, doc.Result); err != nil {
			return err
		}
	}
	if doc.Status == "queued" || doc.Status == "running" {
		ios.Notice("Wait for it with: %s", output.Sanitize(opts.CommandLine("ops", "wait", doc.RequestID)))
	}
	return nil
}

// startedBy is the request that started operation id, when of knows it.
func startedBy(of func(string) (string, string, bool), id string) (method, path string) {
	if of == nil {
		return "", ""
	}
	method, path, _ = of(id)
	return method, path
}

func statusDoc(id string, st *client.AsyncStatus) Status {
	doc := Status{RequestID: firstNonEmpty(st.RequestID, id), Status: st.Status, Result: st.Result}
	if st.Err != nil {
		b := output.ErrorBodyOf(st.Err)
		doc.Error = &b
	}
	return doc
}

func compact(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	data, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(data)
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
