package fibe

import (
	"context"
	"errors"
	"iter"
	"time"

	"github.com/fibegg/fibe/internal/client"
	"github.com/fibegg/fibe/internal/resource"
	"github.com/fibegg/fibe/internal/stream"
)

// PlaygroundsService is the playgrounds: /api/playgrounds. A ref is a
// numeric id or a name.
type PlaygroundsService struct{ c *Client }

func (o *PlaygroundListOptions) engine() client.ListOptions {
	if o == nil {
		return client.ListOptions{}
	}
	lo := o.ListOptions.engine()
	lo.PlayspecID, lo.MarqueeID = o.Playspec, o.Marquee
	return lo
}

// List returns one page of playgrounds; Response.Page says which.
func (s *PlaygroundsService) List(ctx context.Context, o *PlaygroundListOptions) ([]*Playground, *Response, error) {
	var lo ListOptions
	if o != nil {
		lo = o.ListOptions
	}
	return listPage[Playground](ctx, s.c, lo, s.c.c.Playgrounds.List, o.engine())
}

// All iterates lazily over every playground o selects, from o.Page on:
// a page is fetched when the previous one is used up, and breaking out of
// the loop fetches nothing more. A failure is yielded once, as (nil, err),
// and ends it. o is copied, never changed.
func (s *PlaygroundsService) All(ctx context.Context, o *PlaygroundListOptions) iter.Seq2[*Playground, error] {
	return allOf(ctx, o, s.List)
}

// Get returns one playground.
func (s *PlaygroundsService) Get(ctx context.Context, ref string) (*Playground, *Response, error) {
	return getOne[Playground](ctx, s.c, ref, s.c.c.Playgrounds.Get)
}

// Create creates a playground and returns it as the API answered (its
// status is creating: Wait waits until it runs). A 202 is waited on
// unless NoWait.
func (s *PlaygroundsService) Create(ctx context.Context, p *PlaygroundCreateParams, opts ...CallOption) (*Playground, *Response, error) {
	return createOne[Playground](ctx, s.c, p, opts, s.c.c.Playgrounds.Create)
}

// Update changes a playground; a 202 is waited on unless NoWait.
func (s *PlaygroundsService) Update(ctx context.Context, ref string, p *PlaygroundUpdateParams, opts ...CallOption) (*Playground, *Response, error) {
	return updateOne[Playground](ctx, s.c, ref, p, opts, s.c.c.Playgrounds.UpdateWait)
}

// Delete deletes a playground; a 202 (its services are still up) is
// waited on unless NoWait.
func (s *PlaygroundsService) Delete(ctx context.Context, ref string, opts ...CallOption) (*Response, error) {
	return deleteOne(ctx, s.c, ref, opts, s.c.c.Playgrounds.Delete)
}

// Rollout builds and deploys a playground and waits for the operation
// (unless NoWait). A build that fails is the operation's error (for
// example PLAYGROUND_BUILD_FAILED, Async, with step, reason and status in
// Details); a playground that ends in error, failed or destroyed is
// PLAYGROUND_TERMINAL_STATE, returned with that status.
func (s *PlaygroundsService) Rollout(ctx context.Context, ref string, opts ...CallOption) (*PlaygroundStatus, *Response, error) {
	return s.Action(ctx, ref, "rollout", opts...)
}

// Restart restarts a playground's services (hard_restart); as Rollout.
func (s *PlaygroundsService) Restart(ctx context.Context, ref string, opts ...CallOption) (*PlaygroundStatus, *Response, error) {
	return s.Action(ctx, ref, "hard_restart", opts...)
}

// Stop takes a playground's services down; as Rollout.
func (s *PlaygroundsService) Stop(ctx context.Context, ref string, opts ...CallOption) (*PlaygroundStatus, *Response, error) {
	return s.Action(ctx, ref, "stop", opts...)
}

// Start starts a stopped playground; as Rollout.
func (s *PlaygroundsService) Start(ctx context.Context, ref string, opts ...CallOption) (*PlaygroundStatus, *Response, error) {
	return s.Action(ctx, ref, "start", opts...)
}

// Action runs any action_type of the API (rollout, hard_restart, stop,
// start, ...) as Rollout does; Force sends "force": true.
func (s *PlaygroundsService) Action(ctx context.Context, ref, action string, opts ...CallOption) (*PlaygroundStatus, *Response, error) {
	o, mo, err := s.c.onRef(ctx, ref, opts)
	if err != nil {
		return nil, nil, err
	}
	if err := checkRef("action", action); err != nil {
		return nil, nil, err
	}
	st, meta, err := s.c.c.Playgrounds.Action(ctx, ref, action, o.force, mo, o.wait())
	return statusResult(st, meta, err)
}

// Status reads a playground's status.
func (s *PlaygroundsService) Status(ctx context.Context, ref string) (*PlaygroundStatus, *Response, error) {
	return getOne[PlaygroundStatus](ctx, s.c, ref, s.c.c.Playgrounds.Status)
}

// RefreshStatus asks the platform to look at a playground again and
// returns the status it found (an operation, waited on unless NoWait).
func (s *PlaygroundsService) RefreshStatus(ctx context.Context, ref string, opts ...CallOption) (*PlaygroundStatus, *Response, error) {
	return actOn[PlaygroundStatus](ctx, s.c, ref, opts, s.c.c.Playgrounds.RefreshStatus)
}

// Wait polls a playground's status every PollInterval until it is status
// ("" → running), for at most WaitTimeout. Reaching error, failed or
// destroyed (unless asked for) is PLAYGROUND_TERMINAL_STATE, returned with
// that status; the deadline is ASYNC_TIMEOUT.
func (s *PlaygroundsService) Wait(ctx context.Context, ref, status string, opts ...CallOption) (*PlaygroundStatus, error) {
	if err := s.c.read(ctx, ref); err != nil {
		return nil, err
	}
	o, err := callOpts(opts)
	if err != nil {
		return nil, err
	}
	st, err := s.c.c.Playgrounds.Wait(ctx, ref, status, o.wait())
	out, _, err := statusResult(st, nil, err)
	return out, err
}

// Extend moves a playground's expiry by hours; 0 asks for the server's
// default extension.
func (s *PlaygroundsService) Extend(ctx context.Context, ref string, hours int, opts ...CallOption) (*Extension, *Response, error) {
	_, mo, err := s.c.mutation(ctx, opts)
	if err != nil {
		return nil, nil, err
	}
	if err := checkRef("ref", ref); err != nil {
		return nil, nil, err
	}
	if hours < 0 {
		return nil, nil, invalidArgument("hours", "is negative")
	}
	x, meta, err := s.c.c.Playgrounds.Extend(ctx, ref, hours, mo)
	return result[Extension](x, meta, err)
}

// Logs returns recent log lines of a playground (an operation, waited on
// unless NoWait).
func (s *PlaygroundsService) Logs(ctx context.Context, ref string, o *LogsOptions, opts ...CallOption) ([]string, *Response, error) {
	co, mo, err := s.c.mutation(ctx, opts)
	if err != nil {
		return nil, nil, err
	}
	if err := checkRef("ref", ref); err != nil {
		return nil, nil, err
	}
	var lo LogsOptions
	if o != nil {
		lo = *o
	}
	if lo.Tail < 0 {
		return nil, nil, invalidArgument("tail", "is negative")
	}
	lines, meta, err := s.c.c.Playgrounds.Logs(ctx, ref, lo.Service, lo.Tail, mo, co.wait())
	if err != nil {
		return nil, responseOf(meta), fromClient(err)
	}
	return lines, newResponse(meta), nil
}

// errStop ends a followed log the caller broke out of.
var errStop = errors.New("fibe: iteration stopped")

// FollowLogs follows a playground's live log: lines in order, none twice,
// none lost across reconnects (it resumes after the last Seq). A session
// that expires is recovered once; a stream that cannot be kept up yields
// SESSION_EXPIRED or the last drop's error, once, and ends. Breaking out
// of the loop closes it without error; the end of ctx yields one CANCELLED.
func (s *PlaygroundsService) FollowLogs(ctx context.Context, ref string, o *FollowOptions) iter.Seq2[*LogLine, error] {
	return func(yield func(*LogLine, error) bool) {
		if err := s.c.read(ctx, ref); err != nil {
			yield(nil, err)
			return
		}
		var fo FollowOptions
		if o != nil {
			fo = *o
		}
		if fo.Tail < 0 || fo.Since < 0 {
			yield(nil, invalidArgument("follow_options", "Tail and Since cannot be negative"))
			return
		}
		stopped := false
		err := stream.Follow(ctx, s.c.c, ref, stream.FollowOptions{Service: fo.Service, Tail: fo.Tail, Since: fo.Since},
			func(l stream.LogLine) error {
				if stopped {
					return errStop
				}
				line := &LogLine{Seq: l.Seq, Line: l.Line, Service: l.Service, Stream: l.Stream}
				line.Timestamp, _ = time.Parse(time.RFC3339Nano, l.Timestamp)
				if !yield(line, nil) {
					stopped = true
					return errStop
				}
				return nil
			})
		if stopped || err == nil {
			return
		}
		yield(nil, fromClient(err))
	}
}

// inputError is a resource's refusal of a value as INVALID_ARGUMENT.
func inputError(err error) error {
	if ie, ok := errors.AsType[*resource.InputError](err); ok {
		return invalidArgument(ie.Arg, ie.Problem)
	}
	return invalidArgument("params", oneLine(err.Error()))
}

// responseOf is the Response of a failed call, when an answer came.
func responseOf(meta *client.Response) *Response {
	if meta == nil {
		return nil
	}
	return newResponse(meta)
}

// result converts a call's item, answer and error.
func result[T, S any](item *S, meta *client.Response, err error) (*T, *Response, error) {
	if err != nil {
		return nil, responseOf(meta), fromClient(err)
	}
	if item == nil {
		return nil, newResponse(meta), nil
	}
	out, cerr := convert[T](item)
	if cerr != nil {
		return nil, newResponse(meta), cerr
	}
	return out, newResponse(meta), nil
}

// statusResult is result for a playground status, which comes with the
// error of a playground that ended in a terminal status.
func statusResult(st *client.PlaygroundStatus, meta *client.Response, err error) (*PlaygroundStatus, *Response, error) {
	if err == nil {
		return result[PlaygroundStatus](st, meta, nil)
	}
	ferr := fromClient(err)
	if st == nil || !IsPlaygroundTerminal(ferr) || errors.Is(ferr, &Error{Code: CodeCancelled}) {
		return nil, responseOf(meta), ferr
	}
	out, cerr := convert[PlaygroundStatus](st)
	if cerr != nil {
		return nil, responseOf(meta), ferr
	}
	return out, responseOf(meta), ferr
}
