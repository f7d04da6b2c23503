package fibe

import (
	"context"
	"errors"
)

// OperationsService looks at and waits on accepted (202) operations by
// their request id (Response.Operation().ID, Error.OperationID).
type OperationsService struct{ c *Client }

// Get takes one look at an operation.
func (s *OperationsService) Get(ctx context.Context, id string) (*Operation, *Response, error) {
	if err := s.c.begin(ctx); err != nil {
		return nil, nil, err
	}
	if err := checkRef("id", id); err != nil {
		return nil, nil, err
	}
	st, meta, err := s.c.c.Async.Get(ctx, id)
	if err != nil {
		return nil, responseOf(meta), fromClient(err)
	}
	op := &Operation{ID: st.RequestID, Status: st.Status, Result: st.Result}
	if st.Err != nil {
		op.Err, _ = errors.AsType[*Error](fromClient(st.Err))
	}
	return op, newResponse(meta), nil
}

// Wait polls an operation every PollInterval until it ends, for at most
// WaitTimeout, and returns it with Status "success" and its Result; one
// that ended in error returns that error.
func (s *OperationsService) Wait(ctx context.Context, id string, opts ...CallOption) (*Operation, *Response, error) {
	if err := s.c.begin(ctx); err != nil {
		return nil, nil, err
	}
	if err := checkRef("id", id); err != nil {
		return nil, nil, err
	}
	o, err := callOpts(opts)
	if err != nil {
		return nil, nil, err
	}
	w := o.wait()
	w.NoWait = false
	raw, meta, err := s.c.c.Async.Wait(ctx, id, w)
	if err != nil {
		return nil, responseOf(meta), fromClient(err)
	}
	return &Operation{ID: id, Status: "success", Result: raw}, newResponse(meta), nil
}

// MeService is the account the API key belongs to.
type MeService struct{ c *Client }

// Get returns the user the API key belongs to: the cheapest authenticated
// call.
func (s *MeService) Get(ctx context.Context) (*User, *Response, error) {
	return fetchOne[User](ctx, s.c, s.c.c.Me)
}
