package fibe

import (
	"context"
	"iter"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
)

// TricksService is tricks: runs of a job-mode playspec. A trick is a
// playground whose watched services run to completion; every call is
// one of the playgrounds' routes. A ref is a numeric id or a name.
type TricksService struct{ c *Client }

// The outcomes of a trick (TrickOutcome).
const (
	TrickSucceeded = client.TrickSucceeded
	TrickFailed    = client.TrickFailed
	TrickUnknown   = client.TrickUnknown
	TrickRunning   = client.TrickRunning
)

// TrickOutcome is the outcome of a trick by the platform's rule:
// ResultStatus wins; else JobResult.Success; else a status of error or
// failed is failed, completed is unknown, anything else running.
func TrickOutcome(p *Playground) string {
	if p == nil {
		return TrickUnknown
	}
	cp := client.Playground{Status: p.Status, ResultStatus: p.ResultStatus}
	if p.JobResult != nil {
		cp.JobResult = &client.JobResult{Success: p.JobResult.Success}
	}
	return client.TrickOutcome(&cp)
}

// TrickListOptions are PlaygroundListOptions plus the outcome filter
// (succeeded, failed, unknown).
type TrickListOptions struct {
	PlaygroundListOptions
	Result string
}

func (o *TrickListOptions) engine() client.ListOptions {
	if o == nil {
		return client.ListOptions{}
	}
	lo := o.PlaygroundListOptions.engine()
	if o.Result != "" {
		lo.Filters = map[string]string{"result_status": o.Result}
	}
	return lo
}

// List returns one page of tricks.
func (s *TricksService) List(ctx context.Context, o *TrickListOptions) ([]*Playground, *Response, error) {
	var lo ListOptions
	if o != nil {
		lo = o.ListOptions
	}
	return listPage[Playground](ctx, s.c, lo, s.c.c.Tricks.List, o.engine())
}

// All iterates lazily over every trick o selects, as PlaygroundsService.All.
func (s *TricksService) All(ctx context.Context, o *TrickListOptions) iter.Seq2[*Playground, error] {
	return allOf(ctx, o, s.List)
}

// TrickTriggerParams start a run. Playspec is required; without a Name the
// run is named after the playspec and 8 random hex digits.
type TrickTriggerParams struct {
	Playspec       string            // job playspec id or name; required
	Marquee        string            // marquee id or name (default: the account's default marquee)
	Name           string            // name of the run
	Env            map[string]string // environment overrides, by variable name
	OnlyServices   []string          // run only these services
	ExceptServices []string          // run every service but these
}

func (p *TrickTriggerParams) body() (map[string]any, error) {
	if p == nil {
		return nil, invalidArgument("params", "is nil")
	}
	if p.Playspec == "" {
		return nil, invalidArgument("playspec", "is required")
	}
	if len(p.OnlyServices) > 0 && len(p.ExceptServices) > 0 {
		return nil, invalidArgument("only_services", "cannot be combined with except_services")
	}
	body := map[string]any{"playspec_id": resource.IDOrName(p.Playspec)}
	if p.Marquee != "" {
		body["marquee_id"] = resource.IDOrName(p.Marquee)
	}
	if p.Name != "" {
		body["name"] = p.Name
	}
	resource.MergeEnv(body, "env_overrides", p.Env)
	if len(p.OnlyServices) > 0 {
		body["only_services"] = p.OnlyServices
	}
	if len(p.ExceptServices) > 0 {
		body["except_services"] = p.ExceptServices
	}
	return body, nil
}

// Trigger starts a run and returns it as the API answered (its job has not
// run yet: Wait waits for its outcome).
func (s *TricksService) Trigger(ctx context.Context, p *TrickTriggerParams, opts ...CallOption) (*Playground, *Response, error) {
	o, mo, err := s.c.mutation(ctx, opts)
	if err != nil {
		return nil, nil, err
	}
	body, err := p.body()
	if err != nil {
		return nil, nil, err
	}
	pg, meta, err := s.c.c.Tricks.Trigger(ctx, body, mo, o.wait())
	return result[Playground](pg, meta, err)
}

// Rerun starts a new run with the playspec and marquee of the trick ref,
// under a fresh name.
func (s *TricksService) Rerun(ctx context.Context, ref string, opts ...CallOption) (*Playground, *Response, error) {
	return actOn[Playground](ctx, s.c, ref, opts, s.c.c.Tricks.Rerun)
}

// Status reads a trick's status, result_status and job_result.
func (s *TricksService) Status(ctx context.Context, ref string) (*PlaygroundStatus, *Response, error) {
	return getOne[PlaygroundStatus](ctx, s.c, ref, s.c.c.Tricks.Status)
}

// Wait polls the trick until its job has run (completed), for at most
// WaitTimeout, and returns its status. A job that failed is JOB_FAILED
// (IsJobFailed), returned with the status; a playground that ended in
// error, failed or destroyed first is PLAYGROUND_TERMINAL_STATE.
func (s *TricksService) Wait(ctx context.Context, ref string, opts ...CallOption) (*PlaygroundStatus, error) {
	if err := s.c.read(ctx, ref); err != nil {
		return nil, err
	}
	o, err := callOpts(opts)
	if err != nil {
		return nil, err
	}
	st, err := s.c.c.Tricks.Wait(ctx, ref, o.wait())
	if err == nil {
		out, _, cerr := result[PlaygroundStatus](st, nil, nil)
		return out, cerr
	}
	ferr := fromClient(err)
	if st == nil {
		return nil, ferr
	}
	out, cerr := convert[PlaygroundStatus](st)
	if cerr != nil {
		return nil, ferr
	}
	return out, ferr
}

// Logs returns recent log lines of a trick (an operation, waited on
// unless NoWait).
func (s *TricksService) Logs(ctx context.Context, ref string, o *LogsOptions, opts ...CallOption) ([]string, *Response, error) {
	return s.c.Playgrounds.Logs(ctx, ref, o, opts...)
}

// Delete deletes a trick; as PlaygroundsService.Delete.
func (s *TricksService) Delete(ctx context.Context, ref string, opts ...CallOption) (*Response, error) {
	return s.c.Playgrounds.Delete(ctx, ref, opts...)
}
