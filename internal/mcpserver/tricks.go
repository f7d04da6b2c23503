package mcpserver

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// ---- tricks: runs of a job playspec (job-mode playgrounds)

type tricksListIn struct {
	Result   string `json:"result,omitempty" jsonschema:"Only tricks with this outcome: succeeded, failed or unknown"`
	Status   string `json:"status,omitempty" jsonschema:"Only tricks with this status"`
	Playspec string `json:"playspec,omitempty" jsonschema:"Only runs of this playspec (id or name)"`
	Search   string `json:"search,omitempty" jsonschema:"Only tricks whose name contains this text"`
	Page     int    `json:"page,omitempty" jsonschema:"Page to return (default 1)"`
	PerPage  int    `json:"per_page,omitempty" jsonschema:"Items per page (default: the server's, at most 100)"`
}

func tricksList() *Tool {
	return define(spec{name: "fibe_tricks_list", title: "List tricks", readOnly: true,
		desc: "One page of tricks (job-mode playgrounds): {items, page, per_page, total}; each item's result_status says " +
			"how its job ended. Same as `fibe tricks list --json`.",
		output: listSchema[client.Playground](),
		tweak: func(s *jsonschema.Schema) {
			enum(s, "result", client.TrickSucceeded, client.TrickFailed, client.TrickUnknown)
			s.Properties["page"].Minimum = ptr(1.0)
			s.Properties["per_page"].Minimum, s.Properties["per_page"].Maximum = ptr(1.0), ptr(100.0)
		}},
		func(ctx context.Context, c *call, in *tricksListIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			lo := client.ListOptions{Page: in.Page, PerPage: in.PerPage, Status: in.Status, Q: in.Search, PlayspecID: in.Playspec}
			if in.Result != "" {
				lo.Filters = map[string]string{"result_status": in.Result}
			}
			items, meta, err := cl.Tricks.List(ctx, lo)
			if err != nil {
				return nil, err
			}
			return listPage[client.Playground]{Items: items, Page: &meta.Page, PerPage: &meta.PerPage, Total: &meta.Total}, nil
		})
}

type tricksRunIn struct {
	Playspec       string            `json:"playspec" jsonschema:"Job playspec id or name"`
	Marquee        string            `json:"marquee,omitempty" jsonschema:"Marquee id or name (default: the account's default marquee)"`
	Name           string            `json:"name,omitempty" jsonschema:"Name of the run (default: <playspec>-<8 hex digits>)"`
	Env            map[string]string `json:"env,omitempty" jsonschema:"Environment overrides: an object, name to value"`
	OnlyServices   []string          `json:"only_services,omitempty" jsonschema:"Run only these services"`
	ExceptServices []string          `json:"except_services,omitempty" jsonschema:"Run every service but these"`
	mutationArgs
	waitArgs
}

func (in tricksRunIn) validate() error {
	if err := nonBlank("playspec", in.Playspec); err != nil {
		return err
	}
	if len(in.OnlyServices) > 0 && len(in.ExceptServices) > 0 {
		return invalidArgument("only_services", "only_services and except_services cannot be used together")
	}
	return validKey(in.IdempotencyKey)
}

func tricksRun() *Tool {
	return define(spec{name: "fibe_tricks_run", title: "Start a trick",
		desc: "Start a run of a job playspec (a trick) and wait for its job's outcome: its final status. A job that failed " +
			"is JOB_FAILED, whose details name the failed services and their exit codes. With wait false the result is " +
			"the trick as started (fibe_tricks_wait waits for it later). Same as `fibe tricks run --json`.",
		output: orHandle(schemaOf[client.PlaygroundStatus]())},
		func(ctx context.Context, c *call, in *tricksRunIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			body := map[string]any{"playspec_id": resource.IDOrName(in.Playspec)}
			if in.Marquee != "" {
				body["marquee_id"] = resource.IDOrName(in.Marquee)
			}
			if in.Name != "" {
				body["name"] = in.Name
			}
			resource.MergeEnv(body, "env_overrides", in.Env)
			if len(in.OnlyServices) > 0 {
				body["only_services"] = in.OnlyServices
			}
			if len(in.ExceptServices) > 0 {
				body["except_services"] = in.ExceptServices
			}
			wo := in.waitArgs.options(c)
			c.setLabel("starting a run of %s", in.Playspec)
			p, resp, err := cl.Tricks.Trigger(ctx, body, in.mutationArgs.options(), wo)
			c.resp = resp
			switch {
			case err != nil:
				return nil, err
			case p == nil:
				return resp.Accepted, nil
			case wo.NoWait:
				return p, nil
			}
			c.setLabel("waiting for %s to complete", p.Name)
			return cl.Tricks.Wait(ctx, p.Name, wo)
		})
}

type trickRefIn struct {
	Trick string `json:"trick" jsonschema:"Trick id or name"`
}

func (in trickRefIn) validate() error { return nonBlank("trick", in.Trick) }

func tricksStatus() *Tool {
	return define(spec{name: "fibe_tricks_status", title: "Show a trick's status", readOnly: true,
		desc:   "A trick's status, result_status and job_result (each service's result and exit code). Same as `fibe tricks status --json`.",
		output: schemaOf[client.PlaygroundStatus]()},
		func(ctx context.Context, c *call, in *trickRefIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			st, _, err := cl.Tricks.Status(ctx, in.Trick)
			return st, err
		})
}

type tricksWaitIn struct {
	Trick       string `json:"trick" jsonschema:"Trick id or name"`
	WaitTimeout int    `json:"wait_timeout,omitempty" jsonschema:"How long to wait, in seconds (default 300, at most 1800)"`
	budgetArgs
}

func (in tricksWaitIn) validate() error { return nonBlank("trick", in.Trick) }

func tricksWait() *Tool {
	return define(spec{name: "fibe_tricks_wait", title: "Wait for a trick's outcome", readOnly: true,
		desc: "Wait until a trick's job has run and return its status. A job that failed is JOB_FAILED, whose details " +
			"name the failed services and their exit codes; a playground that failed first is PLAYGROUND_TERMINAL_STATE. " +
			"Same as the wait of `fibe tricks run --json`.",
		output: orHandoff(schemaOf[client.PlaygroundStatus]())},
		func(ctx context.Context, c *call, in *tricksWaitIn) (any, error) {
			cl, err := c.client()
			if err != nil {
				return nil, err
			}
			c.setLabel("waiting for %s to complete", in.Trick)
			return cl.Tricks.Wait(ctx, in.Trick, waitArgs{WaitTimeout: in.WaitTimeout, budgetArgs: in.budgetArgs}.options(c))
		})
}
